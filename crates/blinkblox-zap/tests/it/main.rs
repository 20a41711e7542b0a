//! The integration tests of `blinkblox-zap`, one module per area.

mod benchmark;
mod docs;
mod robustness;
mod support;
mod translations;
mod unsupported;
mod vm;

use std::path::PathBuf;

/// The repository's root: `benchmark/` is found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
