//! The integration tests of `blinkblox-codegen`, one module per area.

use std::path::PathBuf;

mod broadcast;
mod byte_runs;
mod decode_loop;
mod delta_streams;
mod events;
mod finite_floats;
mod fixtures;
mod flush_alloc;
mod functions;
mod measure;
mod quantized;
mod receive;
mod roundtrip;
mod security_attacks;
mod security_limits;
mod security_measure;
mod security_queues;
mod security_support;
mod send_path;
mod stats;
mod streams;
mod support;
mod typecheck;
mod typescript;
mod wide_values;

/// The repository's root: the fixtures, `examples/` and `benchmark/` are found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// This crate's own fixtures.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}
