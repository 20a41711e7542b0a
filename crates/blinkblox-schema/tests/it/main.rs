//! The integration tests of `blinkblox-schema`, one module per area.

use std::path::PathBuf;

mod api;
mod fixtures;
mod options_doc;
mod robustness;

/// The repository's root: the fixtures, `examples/` and `benchmark/` are found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
