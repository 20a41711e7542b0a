//! `blinkblox bench`: the competitors the benchmark compares against, getting them onto disk,
//! and running them side by side in the embedded Luau VM.
//!
//! The download half: [`tools`] reads `benchmark/tools.toml`, [`resolve`] turns a declared
//! source (Wally package, GitHub archive, GitHub release asset, local folder) into a concrete
//! version and URL ([`requirement`] matches Wally's version requirements), [`download`] fetches
//! it over HTTP with retries and a sha256, [`unpack`] extracts zips and tarballs without letting
//! any entry escape, [`patch`] applies the text substitutions that lift each library's limits,
//! [`lock`] reads and writes `benchmark/tools.lock`, and [`install`] ties them together so that
//! a failure never leaves a half-written tool in `benchmark/`.
//!
//! The competitors: [`competitors`] holds one file per tool behind the
//! [`Competitor`](competitors::Competitor) trait, which says how its modules are made (by
//! this checkout's compiler, by Blink's compiler run from source, by zap's binary) or its
//! library mounted ([`library`]), and everything else the runners and the report ask of it.
//!
//! The runner half: [`runtime`] runs the runtime benches of `benchmark/harness/`,
//! [`scenarios`] BlinkBlox's Scenarios, [`rivals`] the scenarios on every tool,
//! [`performance`] times the compilers, [`module_load`] what loading each tool's modules costs, all in [`turns`] where rows run side by side;
//! [`suite`] picks what to run from the filters and [`report`] writes
//! `benchmark/Benchmarks.md`; [`place`] builds the Studio place.

pub mod command;
pub mod competitors;
pub mod compiler_process;
pub mod download;
pub mod install;
pub mod library;
pub mod lock;
pub mod many_declarations;
pub mod module_load;
pub mod patch;
pub mod performance;
pub mod place;
pub mod progress;
pub mod report;
pub mod requirement;
pub mod resolve;
pub mod rivals;
pub mod runtime;
pub mod scenarios;
pub mod simulation;
pub mod staging;
pub mod stats;
pub mod suite;
pub mod tools;
pub mod turns;
pub mod unpack;

use std::path::Path;

/// A failure of `blinkblox bench`, worded for the user: what went wrong, where, and what to
/// do. The one error shape every command reports.
pub use blinkblox_error::UserError as BenchError;

/// The platform label release assets are chosen by: `<os>-<arch>`, e.g. `linux-x86_64`,
/// `macos-aarch64`, `windows-x86_64` (the labels zap's and Blink's release workflows use).
pub fn platform_label() -> String {
    format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)
}

/// A file of the checkout's `benchmark/` folder (the harness, the definitions, the floor).
pub(crate) fn read_checkout_file(path: &Path) -> Result<String, BenchError> {
    std::fs::read_to_string(path).map_err(|err| {
        BenchError::io("read", path, &err)
            .with_help("the benchmark harness is part of the checkout: restore benchmark/")
    })
}

/// 1-based line of a byte offset in `text`, for messages.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}
