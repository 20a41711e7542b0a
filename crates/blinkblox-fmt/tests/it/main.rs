//! The integration tests of `blinkblox-fmt`, one module per area.

use std::path::PathBuf;

mod fixtures;
mod layout;

/// The repository's root: the fixtures, `examples/` and `benchmark/` are found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
