//! Helpers shared by the `sync_*` integration tests: temp copies of fixture projects and
//! running the `blinkblox` binary in them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use assert_cmd::Command;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/projects")
        .join(name)
}

/// Copies a folder recursively (skipping `.gitignore`d build products is the caller's job).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("list fixture") {
        let entry = entry.expect("fixture entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}

/// A temp copy of `tests/fixtures/projects/<name>`; the copy lives as long as the TempDir.
pub fn project(name: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join(name);
    copy_dir(&fixture(name), &dir);
    (temp, dir)
}

pub fn blinkblox(dir: &Path) -> Command {
    let mut command = Command::cargo_bin("blinkblox").expect("the blinkblox binary");
    command.current_dir(dir).env_remove("CI");
    command
}

pub fn sync(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    blinkblox(dir).arg("sync").args(args).assert()
}

pub fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

pub fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

pub fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .unwrap_or_else(|err| panic!("mtime of {}: {err}", path.display()))
}

/// Every file under `dir`, relative and `/`-separated, sorted.
pub fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).expect("inside");
            out.push(
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/"),
            );
        }
    }
    out
}
