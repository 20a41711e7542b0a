//! Helpers shared by the `sync_*` integration tests: temp copies of fixture projects and
//! running the `blinkblox` binary in them.

#![allow(dead_code)]

// Each test crate uses only some of these, like the rest of this module.
#[allow(unused_imports)]
pub use crate::common::{assert_arena_round, blinkblox, copy_dir, files_under, read, rojo_build, stderr, stdout};

use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub fn fixture(name: &str) -> PathBuf {
    crate::repo_root()
        .join("crates/blinkblox-project/tests/fixtures/projects")
        .join(name)
}

/// A temp copy of `tests/fixtures/projects/<name>`; the copy lives as long as the TempDir.
pub fn project(name: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join(name);
    copy_dir(&fixture(name), &dir);
    (temp, dir)
}

pub fn sync(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    blinkblox(dir).arg("sync").args(args).assert()
}

pub fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .unwrap_or_else(|err| panic!("mtime of {}: {err}", path.display()))
}
