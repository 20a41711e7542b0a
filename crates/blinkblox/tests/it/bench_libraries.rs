//! The runtime libraries (ByteNet, Packet, QuickNet, Warp) in `blinkblox bench --run`: a source
//! folder mounted as a ModuleScript tree, tools.toml's patches applied to a `--source` folder,
//! the bytenet adapter driven end to end against a small fake library (CI has neither network
//! nor the real libraries), and a library that is not installed reported as not run.

use std::path::PathBuf;

use crate::common::{bench, bench_copy};
use blinkblox_bench::competitors::Context;
use blinkblox_bench::competitors::packet::PACKET;
use blinkblox_bench::library::Library;
use blinkblox_luau::{Mode, Simulation};
use tempfile::TempDir;

fn fixtures() -> PathBuf {
    crate::fixtures().join("bench/libraries")
}

fn paths(library: &Library) -> Vec<String> {
    library.modules.iter().map(|module| module.path.join(".")).collect()
}

#[test]
fn an_init_folder_becomes_the_root_module_with_its_files_as_children() {
    let library = Library::read(&fixtures().join("fake-bytenet/src/init.luau")).expect("read");
    assert_eq!(paths(&library), ["", "process.channel", "process.names", "types"]);
    assert!(library.modules[0].source.contains("defineNamespace"));
}

#[test]
fn a_file_beside_its_folder_takes_the_folder_as_children() {
    let library = Library::read(&fixtures().join("sibling/src/Lib.luau")).expect("read");
    // Other.luau is a sibling, not a child; notes.txt is not a module.
    assert_eq!(paths(&library), ["", "Part", "Parts.Deep"]);
}

#[test]
fn a_missing_or_non_luau_entry_is_a_clear_error() {
    let missing = Library::read(&fixtures().join("nowhere/src/init.luau")).expect_err("missing");
    assert!(missing.message.contains("does not exist"), "{missing:?}");
    let text = Library::read(&fixtures().join("sibling/src/Lib/notes.txt")).expect_err("not luau");
    assert!(text.message.contains("not a Luau module"), "{text:?}");
}

#[test]
fn a_mounted_library_requires_its_parts_on_the_server_and_on_a_replicated_client() {
    let mut sim = Simulation::new(Mode::Interpreted, 1).expect("simulation");
    let sibling = Library::read(&fixtures().join("sibling/src/Lib.luau")).expect("read");
    sibling.mount(sim.server(), "ReplicatedStorage.Lib").expect("mount");
    let (part, deep): (String, String) = sim
        .server()
        .eval("local lib = require(game:GetService('ReplicatedStorage').Lib) return lib.part, lib.deep")
        .expect("require on the server");
    assert_eq!((part.as_str(), deep.as_str()), ("part", "deep"));

    // The fake library uses instance requires, `@self/` and `./` requires and a nil module.
    let fake = Library::read(&fixtures().join("fake-bytenet/src/init.luau")).expect("read");
    fake.mount(sim.server(), "ReplicatedStorage.ByteNet").expect("mount");
    sim.server()
        .exec("require(game:GetService('ReplicatedStorage').ByteNet)")
        .expect("the fake library loads on the server");
    sim.step().expect("replicate");
    let client = sim.client(0).expect("client");
    let kind: String = client
        .eval("return require(game:GetService('ReplicatedStorage').ByteNet).array(1).kind")
        .expect("the client's replicated copy loads");
    assert_eq!(kind, "array");
}

/// A benchmark folder whose tools.toml declares `packet` with a patch, and a `--source` folder.
fn patched_tool(source_text: &str) -> (TempDir, PathBuf, PathBuf) {
    let (temp, bench) = bench_copy(&["tools", "Benchmarks.md"]);
    let source = temp.path().join("packet-checkout");
    std::fs::create_dir_all(source.join("Packet")).expect("mkdir");
    std::fs::write(source.join("Packet/init.lua"), source_text).expect("write");
    std::fs::write(source.join("Packet/Signal.lua"), "return {}").expect("write");
    (temp, bench, source)
}

#[test]
fn a_source_folder_gets_the_declared_patches_as_it_is_read() {
    let (_temp, bench, source) = patched_tool("if bytes > 8_000 then return end\nreturn {}");
    let sources = [("packet".to_string(), source)];
    let context = Context {
        bench_dir: &bench,
        sources: &sources,
        local: false,
    };
    let library = PACKET.load(&context).expect("load");
    assert_eq!(paths(&library), ["", "Signal"]);
    assert!(library.modules[0].source.contains("bytes > math.huge"));
    assert!(!library.modules[0].source.contains("8_000"));
}

#[test]
fn a_source_folder_the_patch_does_not_match_is_refused() {
    let (_temp, bench, source) = patched_tool("return {}");
    let sources = [("packet".to_string(), source)];
    let context = Context {
        bench_dir: &bench,
        sources: &sources,
        local: false,
    };
    let err = PACKET.load(&context).expect_err("no match");
    assert!(
        err.message.contains("tool `packet`") && err.message.contains("bytes > 8_000"),
        "{err:?}"
    );
}

#[test]
fn the_bytenet_adapter_runs_end_to_end_against_a_fake_library() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let fake = fixtures().join("fake-bytenet");
    let source = format!("bytenet={}", fake.display());
    let output = bench(
        temp.path(),
        &[
            "--run",
            "Tiny",
            "Entities",
            "Numbers",
            "Vectors",
            "--tools",
            "bytenet",
            "--frames",
            "2",
            "--interpreted",
            "--source",
            &source,
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        ["Tiny", "Entities", "Numbers", "Vectors"]
            .iter()
            .all(|bench| stderr.contains(&format!("{bench} / bytenet / interpreted — send"))),
        "every row ran and decoded what was fired:\n{stderr}"
    );
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(report.contains("ByteNet"), "{report}");
    assert!(!report.contains("## Rows that failed"), "{report}");
}

#[test]
fn a_library_that_is_not_installed_is_listed_as_not_run() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(
        temp.path(),
        &[
            "--run",
            "Tiny",
            "--tools",
            "handwritten,warp",
            "--frames",
            "1",
            "--interpreted",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Named with --tools and not here: the report is written, the tool named, the run failed.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("warning: `warp` did not run: not installed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 tool(s) did not run because they are not here"),
        "{stderr}"
    );
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let not_run = report
        .split("## Not run")
        .nth(1)
        .unwrap_or_else(|| panic!("no Not run section:\n{report}"));
    assert!(
        not_run.contains("- warp: not installed") && not_run.contains("--source warp=PATH"),
        "{report}"
    );
    assert!(!stderr.contains("warp / interpreted"), "no warp row ran:\n{stderr}");
}

#[test]
fn the_mock_accepts_a_module_returning_nil_but_not_one_returning_nothing() {
    let sim = Simulation::new(Mode::Interpreted, 0).expect("simulation");
    let server = sim.server();
    server
        .create_module_script("ReplicatedStorage.Nil", "return nil")
        .expect("module");
    server
        .create_module_script("ReplicatedStorage.Nothing", "local _ = 1")
        .expect("module");
    let is_nil: bool = server
        .eval("return require(game:GetService('ReplicatedStorage').Nil) == nil")
        .expect("`return nil` is one value, as on Roblox");
    assert!(is_nil);
    let err = server
        .exec("require(game:GetService('ReplicatedStorage').Nothing)")
        .expect_err("no value");
    assert!(err.to_string().contains("did not return exactly one value"), "{err}");
}

#[test]
fn run_mode_is_false_in_a_game_with_clients() {
    // Warp takes its client branch on the server when IsRunMode() is true.
    let sim = Simulation::new(Mode::Interpreted, 1).expect("simulation");
    let server: bool = sim
        .server()
        .eval("return game:GetService('RunService'):IsRunMode()")
        .expect("server");
    let client: bool = sim
        .client(0)
        .expect("client")
        .eval("return game:GetService('RunService'):IsRunMode()")
        .expect("client");
    assert!(!server && !client);
}
