//! The hand-written floor (`benchmark/handwritten/`): an encoder and decoder written by hand
//! for the runtime benches' events, with the same wire format and the checks a server needs.
//! Generated code is measured against it; it covers those events only, so it takes no part in
//! the Rivals.

use super::competitor::{Code, Competitor, Context, Modules, PlaceModules, RuntimeCode};
use crate::{BenchError, read_checkout_file};

/// The hand-written floor.
pub struct Handwritten;

impl Competitor for Handwritten {
    fn key(&self) -> &'static str {
        "handwritten"
    }

    fn name(&self) -> &'static str {
        "Hand-written"
    }

    fn provenance(&self, _context: &Context, _runtime_rows: bool) -> String {
        "benchmark/handwritten/ in this checkout".to_string()
    }

    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        Ok(Code::Modules(Ok(modules(context)?)))
    }

    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        Ok(PlaceModules::Checkout(modules(context)?))
    }
}

/// `benchmark/handwritten/Server.luau` and `Client.luau`.
fn modules(context: &Context) -> Result<Modules, BenchError> {
    let folder = context.bench_dir.join("handwritten");
    Ok(Modules::pair(
        read_checkout_file(&folder.join("Server.luau"))?,
        read_checkout_file(&folder.join("Client.luau"))?,
    ))
}
