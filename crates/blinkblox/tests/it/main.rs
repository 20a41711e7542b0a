//! The integration tests of `blinkblox`, one module per area.

use std::path::PathBuf;

mod bench_download;
mod bench_libraries;
mod bench_run;
mod bench_run_place;
mod bench_support;
mod check;
mod check_manifest;
mod common;
mod compile;
mod conventions;
mod example_runs;
mod fmt;
mod import_zap;
mod lsp_client;
mod lsp_robustness;
mod lsp_session;
mod package_errors;
mod package_example;
mod package_pesde;
mod package_rojo;
mod package_support;
mod release_assets;
mod release_matching;
mod shipped_schemas;
mod sync;
mod sync_rojo;
mod sync_safety;
mod sync_server_output;
mod sync_support;
mod watch;

/// The repository's root: the fixtures, `examples/` and `benchmark/` are found from here.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// This crate's own fixtures.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}
