//! Helpers shared by several integration-test crates: running the `blinkblox` binary, reading
//! its output and files, copying folders, building a place with Rojo, the arena example's
//! end-of-round checks, and temp copies of the checkout's benchmark/ folder.
//!
//! Every `tests/*.rs` file is its own crate and uses only part of this module.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use blinkblox_luau::Simulation;
use rbx_dom_weak::WeakDom;
use tempfile::TempDir;

/// The `blinkblox` binary run in `dir`, with `CI` unset so output is the interactive kind.
pub fn blinkblox(dir: &Path) -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("blinkblox").expect("the blinkblox binary");
    command.current_dir(dir).env_remove("CI");
    command
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

/// Copies a folder recursively (skipping `.gitignore`d build products is the caller's job).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("list the folder to copy") {
        let entry = entry.expect("folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
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

/// The `rojo` to run: on PATH, else where `cargo install` puts it.
pub fn rojo_binary() -> Option<PathBuf> {
    let works = |program: &Path| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    };
    let on_path = PathBuf::from("rojo");
    if works(&on_path) {
        return Some(on_path);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    let installed = home.join(".cargo/bin/rojo");
    works(&installed).then_some(installed)
}

/// Runs `<rojo> build -o <place>` in `project` (failing the test with Rojo's output when it
/// fails) and reads the place back.
pub fn rojo_build(rojo: impl AsRef<OsStr>, project: &Path, place: &Path) -> WeakDom {
    let output = Command::new(rojo)
        .arg("build")
        .arg("-o")
        .arg(place)
        .current_dir(project)
        .output()
        .expect("run rojo");
    assert!(
        output.status.success(),
        "rojo build failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let file = std::fs::File::open(place).expect("open place");
    rbx_binary::from_reader(std::io::BufReader::new(file)).expect("read the place back")
}

/// The arena example's round as both clients see it: no world logged an error, and each of
/// the two clients printed the join and both "gg" chat lines. `more` adds a test's own checks
/// per client, given the client's index, a "some print contains" test and its prints.
pub fn assert_arena_round(sim: &Simulation, more: impl Fn(usize, &dyn Fn(&str) -> bool, &[String])) {
    for world in sim.worlds() {
        assert!(world.errors().is_empty(), "errors: {:?}", world.errors());
    }
    for index in 0..2 {
        let prints = sim.client(index).expect("client").prints();
        let has = |text: &str| prints.iter().any(|line| line.contains(text));
        assert!(has("Player2 joined team"), "client {index}: {prints:?}");
        assert!(
            has("[Player1]: gg") && has("[Player2]: gg"),
            "client {index}: {prints:?}"
        );
        more(index, &has, &prints);
    }
}

/// A copy of the checkout's benchmark/ folder (harness, floor, schema, tools.toml) in a
/// temporary folder, so a run never touches the checkout's files. Top-level entries named in
/// `skip` (downloaded tools, old results) are left out.
pub fn bench_copy(skip: &[&str]) -> (TempDir, PathBuf) {
    let source = crate::repo_root().join("benchmark");
    let temp = tempfile::tempdir().expect("tempdir");
    let bench = temp.path().join("benchmark");
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.expect("walk");
        let relative = entry.path().strip_prefix(&source).expect("prefix");
        let first = relative
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().to_string());
        if first.as_deref().is_some_and(|name| skip.contains(&name)) {
            continue;
        }
        let target = bench.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    (temp, bench)
}

/// `blinkblox bench <args>` run in `dir`.
pub fn bench(dir: &Path, args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("blinkblox")
        .expect("binary")
        .current_dir(dir)
        .arg("bench")
        .args(args)
        .output()
        .expect("run")
}

/// The arena example's script with each `require(ReplicatedStorage.Shared.Net.<schema>.<side>)`
/// of its synced modules replaced by `to(schema, side)`.
pub fn switch_arena_requires(script: &str, to: impl Fn(&str, &str) -> String) -> String {
    let mut out = script.to_string();
    for schema in ["combat", "chat"] {
        for (side, folder) in [
            ("Server", "ServerScriptService.Server.Net"),
            ("Client", "ReplicatedStorage.Shared.Net"),
        ] {
            out = out.replace(&format!("require({folder}.{schema}.{side})"), &to(schema, side));
        }
    }
    out
}

/// What `blinkblox sync` and `blinkblox package` write into the example: removed from a copy
/// so that it is synced fresh.
pub const ARENA_GENERATED: [&str; 4] = ["src/shared/Net", "src/server/Net", "dist", "blinkblox.lock"];

/// A Rojo game at `dir` that maps only `src/shared` (as `ReplicatedStorage.Shared`): what
/// `blinkblox init` needs at the least.
pub fn shared_only_game(dir: &Path) {
    std::fs::write(
        dir.join("default.project.json"),
        r#"{"name":"game","tree":{"$className":"DataModel","ReplicatedStorage":{"Shared":{"$path":"src/shared"}}}}"#,
    )
    .expect("project");
    std::fs::create_dir_all(dir.join("src/shared")).expect("mkdir");
}

/// Where sync writes a module of the example copied at `dir`: the Server modules stay on
/// the server (`src/server/Net`), the Client modules are replicated (`src/shared/Net`).
pub fn arena_module(dir: &Path, schema: &str, side: &str) -> PathBuf {
    let folder = if side == "Server" {
        "src/server/Net"
    } else {
        "src/shared/Net"
    };
    dir.join(format!("{folder}/{schema}/{side}.luau"))
}

/// A copy of `examples/arena` at `to`, without anything sync or package wrote there.
pub fn arena_copy(to: &Path) {
    copy_dir(&crate::repo_root().join("examples/arena"), to);
    for generated in ARENA_GENERATED {
        let path = to.join(generated);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).expect("clear a generated folder");
        } else if path.exists() {
            std::fs::remove_file(&path).expect("clear a generated file");
        }
    }
}
