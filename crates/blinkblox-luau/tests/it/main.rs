//! The integration tests of `blinkblox-luau`, one module per area.

use std::path::PathBuf;

mod datatypes;
mod environment;
mod functions;
mod remotes;
mod scheduler;
mod time_limit;
mod worlds;

/// The repository's root: the fixtures, `examples/` and `benchmark/` are found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
