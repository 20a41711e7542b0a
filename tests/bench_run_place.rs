//! `blinkblox bench --place OUT.rbxl`: the place round-trips through rbx_binary with the
//! harness, the generated modules, every downloaded tool and the runner scripts; and Blink's
//! compiler source is loaded through the harness's require-by-string loader.

mod common;

use std::path::Path;

use common::{bench, bench_copy};
use rbx_dom_weak::types::Variant;
use rbx_dom_weak::{Instance, WeakDom};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A stand-in for Blink's source with its layout and require style: `./` and `../` from a
/// module's folder, `@self/` inside an init module, and a Lune library.
fn fake_blink(dir: &Path) {
    write(
        &dir.join("src/Parser.luau"),
        r#"local Settings = require("./Settings")
local stdio = require("@lune/stdio")
local Parser = {}
Parser.__index = Parser
function Parser.new(directory, file) return setmetatable({ file = file }, Parser) end
function Parser:Parse(text)
    stdio.write(stdio.color("red"))
    return { Events = Settings.count(text) }
end
return Parser
"#,
    );
    write(
        &dir.join("src/Settings.luau"),
        r#"return { count = function(text) local n = 0 for _ in string.gmatch(text, "event ") do n += 1 end return n end }"#,
    );
    write(
        &dir.join("src/Generator/init.luau"),
        r#"local Parser = require("./Parser")
local Blocks = require("@self/Blocks")
return { Generate = function(side, tree) return Blocks.module(side, tree.Events) end }
"#,
    );
    write(
        &dir.join("src/Generator/Blocks.luau"),
        r#"local Settings = require("../Settings")
return { module = function(side, events) return `return \{ Side = "{side}", Events = {events} \}` end }
"#,
    );
}

fn child<'a>(dom: &'a WeakDom, parent: &Instance, name: &str) -> &'a Instance {
    parent
        .children()
        .iter()
        .filter_map(|referent| dom.get_by_ref(*referent))
        .find(|instance| instance.name == name)
        .unwrap_or_else(|| {
            let names: Vec<&str> = parent
                .children()
                .iter()
                .filter_map(|r| dom.get_by_ref(*r))
                .map(|i| i.name.as_str())
                .collect();
            panic!("no {name} under {}: {names:?}", parent.name)
        })
}

fn at<'a>(dom: &'a WeakDom, path: &str) -> &'a Instance {
    path.split('.')
        .fold(dom.root(), |parent, name| child(dom, parent, name))
}

fn source(instance: &Instance) -> &str {
    match instance.properties.get(&rbx_dom_weak::ustr("Source")) {
        Some(Variant::String(text)) => text,
        other => panic!("{} has no Source string: {other:?}", instance.name),
    }
}

#[test]
fn the_place_round_trips_with_the_harness_tools_and_runners() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    // Downloaded tools: one Luau library (Rojo layout), one compiler binary, Blink's source.
    write(
        &bench_dir.join("tools/bytenet/src/init.luau"),
        "return { name = 'bytenet' }",
    );
    write(
        &bench_dir.join("tools/bytenet/src/process/client.luau"),
        "return 'client'",
    );
    write(&bench_dir.join("tools/bytenet/README.md"), "not a script");
    write(&bench_dir.join("tools/zap/zap"), "\x7fELF binary");
    fake_blink(&bench_dir.join("tools/upstream"));

    let out = temp.path().join("Bench.rbxl");
    let output = bench(temp.path(), &["--place", out.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("zap left out"), "{err}");
    assert!(
        !bench_dir.join("Benchmarks.md").exists(),
        "--place alone does not run the benches"
    );

    let file = std::fs::File::open(&out).expect("place written");
    let dom = rbx_binary::from_reader(std::io::BufReader::new(file)).expect("the place decodes");

    let harness = "ReplicatedStorage.Benchmark.Harness";
    let payloads = at(&dom, &format!("{harness}.Payloads"));
    assert_eq!(payloads.class, "ModuleScript");
    assert_eq!(
        source(payloads),
        std::fs::read_to_string(bench_dir.join("harness/payloads.luau")).expect("read")
    );
    for name in ["BenchClient", "BenchServer"] {
        assert_eq!(at(&dom, &format!("{harness}.{name}")).class, "ModuleScript");
    }
    for tool in ["blink", "upstream", "handwritten", "roblox"] {
        assert_eq!(at(&dom, &format!("{harness}.Adapters.{tool}")).class, "ModuleScript");
    }

    let tools = "ReplicatedStorage.Benchmark.Tools";
    let blink_client = at(&dom, &format!("{tools}.blink.Client"));
    assert!(
        source(blink_client).contains("StepReplication"),
        "BlinkBlox's generated client"
    );
    assert!(source(at(&dom, &format!("{tools}.blink.Server"))).contains("BENCH_BLINK_RELIABLE_REMOTE"));
    assert!(source(at(&dom, &format!("{tools}.handwritten.Server"))).contains("BENCH_HANDWRITTEN_REMOTE"));
    // Blink's compiler ran through the loader on Definition.upstream.blink (three events).
    assert_eq!(
        source(at(&dom, &format!("{tools}.upstream.Server"))),
        r#"return { Side = "Server", Events = 3 }"#
    );
    assert_eq!(
        source(at(&dom, &format!("{tools}.upstream.Client"))),
        r#"return { Side = "Client", Events = 3 }"#
    );
    // A downloaded library keeps its tree: init.luau makes its folder a ModuleScript.
    let bytenet_src = at(&dom, &format!("{tools}.bytenet.src"));
    assert_eq!(bytenet_src.class, "ModuleScript");
    assert_eq!(source(bytenet_src), "return { name = 'bytenet' }");
    assert_eq!(at(&dom, &format!("{tools}.bytenet.src.process")).class, "Folder");
    assert_eq!(
        at(&dom, &format!("{tools}.bytenet.src.process.client")).class,
        "ModuleScript"
    );
    assert_eq!(
        at(&dom, &format!("{tools}.bytenet")).children().len(),
        1,
        "README.md left out"
    );
    let tool_names: Vec<&str> = at(&dom, tools)
        .children()
        .iter()
        .filter_map(|r| dom.get_by_ref(*r))
        .map(|i| i.name.as_str())
        .collect();
    assert!(!tool_names.contains(&"zap"), "{tool_names:?}");

    let server = at(&dom, "ServerScriptService.BenchmarkServer");
    assert_eq!(server.class, "Script");
    assert!(source(server).contains("BenchmarkDone"));
    let client = at(&dom, "StarterPlayer.StarterPlayerScripts.BenchmarkClient");
    assert_eq!(client.class, "LocalScript");
    assert!(source(client).contains("Heartbeat"));
}

/// zap's binary, found through `--source`, compiles Definition.zap into the place's
/// `Tools.zap` (a stand-in script writing the outputs the schema names).
#[cfg(unix)]
#[test]
fn the_place_holds_zaps_generated_modules_when_its_binary_is_found() {
    use std::os::unix::fs::PermissionsExt;
    let (temp, _bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let zap_dir = temp.path().join("zap-release");
    let script = r#"#!/bin/sh
if [ "$1" = --version ]; then echo 'cli 0.6.8'; exit 0; fi
dir=$(dirname "$1")
server=$(sed -n 's/^opt server_output = "\(.*\)"$/\1/p' "$1")
client=$(sed -n 's/^opt client_output = "\(.*\)"$/\1/p' "$1")
mkdir -p "$(dirname "$dir/$server")" "$(dirname "$dir/$client")"
echo 'return { Side = "Server" }' > "$dir/$server"
echo 'return { Side = "Client" }' > "$dir/$client"
"#;
    write(&zap_dir.join("zap"), script);
    std::fs::set_permissions(zap_dir.join("zap"), std::fs::Permissions::from_mode(0o755)).expect("chmod");

    let out = temp.path().join("Bench.rbxl");
    let source_arg = format!("zap={}", zap_dir.display());
    let output = bench(
        temp.path(),
        &["--place", out.to_str().expect("utf-8"), "--source", &source_arg],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(!err.contains("zap left out"), "{err}");
    let dom =
        rbx_binary::from_reader(std::io::BufReader::new(std::fs::File::open(&out).expect("open"))).expect("decode");
    let tools = "ReplicatedStorage.Benchmark.Tools";
    assert_eq!(
        source(at(&dom, &format!("{tools}.zap.Server"))).trim(),
        r#"return { Side = "Server" }"#
    );
    assert_eq!(
        source(at(&dom, &format!("{tools}.zap.Client"))).trim(),
        r#"return { Side = "Client" }"#
    );
    assert_eq!(
        at(&dom, "ReplicatedStorage.Benchmark.Harness.Adapters.zap").class,
        "ModuleScript"
    );
}

#[test]
fn studio_without_studio_writes_the_place_and_says_what_to_do() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let output = bench(temp.path(), &["--studio"]);
    let err = String::from_utf8_lossy(&output.stderr);
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        // Where Studio could exist the outcome depends on the machine; the place is written either way.
        assert!(bench_dir.join("Benchmark.rbxl").is_file(), "{err}");
        return;
    }
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("Roblox Studio does not run on"), "{err}");
    assert!(err.contains("press Play"), "{err}");
    assert!(bench_dir.join("Benchmark.rbxl").is_file(), "{err}");
}

#[test]
fn blink_source_that_fails_to_compile_fails_its_rows_with_the_reason() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let upstream = temp.path().join("blink");
    fake_blink(&upstream);
    write(
        &upstream.join("src/Generator/Blocks.luau"),
        "error('generator exploded')",
    );
    let output = bench(
        temp.path(),
        &[
            "Tiny",
            "--native",
            "--frames",
            "1",
            "--tools",
            "upstream",
            "--source",
            &format!("upstream={}", upstream.display()),
        ],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("Tiny / Blink / native: ") && report.contains("generator exploded"),
        "{report}"
    );
}

/// Every ModuleScript of the place under ReplicatedStorage, as (dotted path from game, Source).
fn module_scripts(dom: &WeakDom) -> Vec<(String, String)> {
    let storage = at(dom, "ReplicatedStorage");
    let mut found = Vec::new();
    for instance in dom.descendants_of(storage.referent()) {
        if instance.class == "ModuleScript" {
            let path = dom.full_path_of(instance.referent(), ".");
            found.push((path, source(instance).to_string()));
        }
    }
    found
}

#[test]
fn the_place_runners_run_in_the_embedded_runtime() {
    use blinkblox::runtime::{Mode, Simulation};
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let out = temp.path().join("Bench.rbxl");
    let output = bench(temp.path(), &["--place", out.to_str().expect("utf-8")]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let dom =
        rbx_binary::from_reader(std::io::BufReader::new(std::fs::File::open(&out).expect("open"))).expect("decode");

    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    for (path, text) in module_scripts(&dom) {
        let path = path.strip_prefix("DataModel.").unwrap_or(&path).to_string();
        sim.server().create_module_script(&path, &text).expect(&path);
    }
    sim.server()
        .exec("game:GetService('ReplicatedStorage').Benchmark:SetAttribute('Frames', 2)")
        .expect("frames");
    sim.server()
        .spawn(source(at(&dom, "ServerScriptService.BenchmarkServer")))
        .expect("server runner");
    sim.step().expect("step");
    sim.client(0)
        .expect("client")
        .spawn(source(at(&dom, "StarterPlayer.StarterPlayerScripts.BenchmarkClient")))
        .expect("client runner");
    // 3 tools × 5 benches × 2 frames, one a Heartbeat, then the done call.
    for _ in 0..40 {
        sim.step().expect("step");
    }
    for world in sim.worlds() {
        assert!(world.errors().is_empty(), "{:?}", world.errors());
    }
    let client_prints = sim.client(0).expect("client").prints();
    for tool in ["blink", "handwritten", "roblox"] {
        for bench in ["Booleans", "EntitiesRandom", "Tiny"] {
            let line = format!("[benchmark] {bench} {tool}: fire ");
            assert!(
                client_prints.iter().any(|p| p.starts_with(&line)),
                "{line} in {client_prints:?}"
            );
        }
    }
    let server_prints = sim.server().prints();
    assert!(
        server_prints.iter().any(|p| p == "[benchmark] finished"),
        "{server_prints:?}"
    );
    // Booleans and BooleansRandom: 2 benches × 2 frames × 1000 events on the Booleans event.
    assert!(
        server_prints
            .iter()
            .any(|p| p == "[benchmark] server received 4000 events for blink/Booleans"),
        "{server_prints:?}"
    );
    drop(bench_dir);
}

#[test]
fn performance_compares_with_blinks_compiler_when_its_source_is_given() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let upstream = temp.path().join("blink");
    fake_blink(&upstream);
    let output = bench(
        temp.path(),
        &["Performance", "--source", &format!("upstream={}", upstream.display())],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let start = report.find("### Against Blink's compiler").expect("comparison table");
    let rows: Vec<Vec<&str>> = report[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| line.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), 2, "{report}");
    assert_eq!((rows[0][0], rows[1][0]), ("Definition.blink", "128 declarations"));
    for row in &rows {
        for cell in &row[1..3] {
            let value: f64 = cell.parse().unwrap_or_else(|_| panic!("{cell} in {row:?}"));
            assert!(value > 0.0, "{row:?}");
        }
        assert!(row[3].ends_with('×'), "{row:?}");
    }
    assert!(report.contains("from `"), "a --source checkout is named: {report}");
}
