//! `blinkblox bench --place OUT.rbxl`: the place round-trips through rbx_binary with the
//! harness, the generated modules, every downloaded tool and the runner scripts; and Blink's
//! and NetRay-Compile's compiler sources are loaded through the harness's require-by-string
//! loader.

use std::path::Path;

use crate::common::{bench, bench_copy};
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
    // Blink's compiler ran through the loader on Definition.upstream.blink (seven events).
    assert_eq!(
        source(at(&dom, &format!("{tools}.upstream.Server"))),
        r#"return { Side = "Server", Events = 7 }"#
    );
    assert_eq!(
        source(at(&dom, &format!("{tools}.upstream.Client"))),
        r#"return { Side = "Client", Events = 7 }"#
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

    // The Probe bench: its shared module and its two runners, each the harness file as it is.
    let harness_file = |name: &str| std::fs::read_to_string(bench_dir.join("harness").join(name)).expect("read");
    assert_eq!(at(&dom, &format!("{harness}.Probe")).class, "ModuleScript");
    assert_eq!(
        source(at(&dom, &format!("{harness}.Probe"))),
        harness_file("probe.luau")
    );
    let server_probe = at(&dom, "ServerScriptService.BenchmarkProbe");
    assert_eq!(server_probe.class, "Script");
    assert_eq!(source(server_probe), harness_file("probe_server.luau"));
    let client_probe = at(&dom, "StarterPlayer.StarterPlayerScripts.BenchmarkProbe");
    assert_eq!(client_probe.class, "LocalScript");
    assert_eq!(source(client_probe), harness_file("probe_client.luau"));
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
    let (_temp, dom, mut sim) = place_in_simulation();
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
    // 3 tools × 9 benches × 2 frames, one a Heartbeat, then the done call.
    for _ in 0..70 {
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

/// The place `bench --place` builds, decoded, and a simulation with one client holding its
/// ModuleScripts, as Studio would (the runner scripts are spawned by each test).
fn place_in_simulation() -> (tempfile::TempDir, WeakDom, blinkblox_luau::Simulation) {
    use blinkblox_luau::{Mode, Simulation};
    let (temp, _bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
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
    let sim = Simulation::new(Mode::Native, 1).expect("simulation");
    for (path, text) in module_scripts(&dom) {
        let path = path.strip_prefix("DataModel.").unwrap_or(&path).to_string();
        sim.server().create_module_script(&path, &text).expect(&path);
    }
    (temp, dom, sim)
}

/// Spawns runner scripts of the place, given as (server Script in ServerScriptService,
/// LocalScript in StarterPlayerScripts): the servers first, then, a frame later as a player
/// joins after the server has started, the clients.
fn start_runners(dom: &WeakDom, sim: &mut blinkblox_luau::Simulation, runners: &[(&str, &str)]) {
    for (server, _) in runners {
        sim.server()
            .spawn(source(at(dom, &format!("ServerScriptService.{server}"))))
            .expect(server);
    }
    sim.step().expect("step");
    for (_, client) in runners {
        sim.client(0)
            .expect("client")
            .spawn(source(at(dom, &format!("StarterPlayer.StarterPlayerScripts.{client}"))))
            .expect(client);
    }
}

/// The probe's runners: ServerScriptService.BenchmarkProbe and StarterPlayerScripts.BenchmarkProbe.
const PROBE: (&str, &str) = ("BenchmarkProbe", "BenchmarkProbe");

/// Steps until the server prints `[probe] finished` or `max_frames` have passed; returns the
/// server's `[probe]` lines, the last being that one.
fn finish_probe(sim: &mut blinkblox_luau::Simulation, max_frames: usize) -> Vec<String> {
    for _ in 0..max_frames {
        if sim.server().prints().iter().any(|line| line == "[probe] finished") {
            break;
        }
        sim.step().expect("step");
    }
    for world in sim.worlds() {
        assert!(world.errors().is_empty(), "{:?}", world.errors());
    }
    let prints: Vec<String> = sim
        .server()
        .prints()
        .into_iter()
        .filter(|line| line.starts_with("[probe]"))
        .collect();
    assert_eq!(
        prints.last().map(String::as_str),
        Some("[probe] finished"),
        "within {max_frames} frames: {prints:?}"
    );
    prints
}

fn set_attributes(sim: &blinkblox_luau::Simulation, code: &str) {
    sim.server().exec(code).expect("attributes");
}

/// With the mock's unreliable limit at 1000 bytes the probe finds exactly 1000 bytes both ways,
/// every try of it delivered and none of the next size of the sweep.
#[test]
fn the_probe_finds_the_mocks_unreliable_limit_in_both_directions() {
    let (_temp, dom, mut sim) = place_in_simulation();
    set_attributes(
        &sim,
        "local storage = game:GetService('ReplicatedStorage')
         storage:SetAttribute('BlinkBloxMockUnreliableLimit', 1000)
         storage.Benchmark:SetAttribute('ProbeSendsPerFrame', 16)
         storage.Benchmark:SetAttribute('ProbeGraceFrames', 2)",
    );
    start_runners(&dom, &mut sim, &[PROBE]);
    let prints = finish_probe(&mut sim, 400);
    assert!(
        prints[0].starts_with("[probe] sizes are the payload buffer's length (buffer.len"),
        "{prints:?}"
    );
    assert!(prints[0].contains("3 tries each, 16 sends a frame"), "{prints:?}");
    for direction in ["server→client", "client→server"] {
        for expected in [
            format!("[probe] largest unreliable payload delivered {direction}: 1000 bytes (3 of 3 tries at that size)"),
            format!("[probe] {direction}: nothing of 1004 bytes or more arrived (0 of 3 tries at 1004 bytes)"),
        ] {
            assert!(prints.contains(&expected), "{expected} in {prints:?}");
        }
    }
    // Nothing is lost below the limit in the mock, and the two directions come in order.
    assert!(!prints.iter().any(|line| line.contains("lost tries")), "{prints:?}");
    let position = |text: &str| prints.iter().position(|line| line.contains(text)).expect(text);
    assert!(position("delivered server→client") < position("delivered client→server"));
}

/// Without a limit (the mock's default) the top of the sweep arrives and the probe says it found
/// no limit; the default pacing (2 sends a frame, 60 grace frames) is used.
#[test]
fn the_probe_without_a_limit_reports_the_top_of_its_sweep() {
    let (_temp, dom, mut sim) = place_in_simulation();
    start_runners(&dom, &mut sim, &[PROBE]);
    let prints = finish_probe(&mut sim, 1000);
    assert!(prints[0].contains("2 sends a frame"), "{prints:?}");
    for direction in ["server→client", "client→server"] {
        for expected in [
            format!("[probe] largest unreliable payload delivered {direction}: 4000 bytes (3 of 3 tries at that size)"),
            format!("[probe] {direction}: no limit found: the top of the sweep (4000 bytes) arrived"),
        ] {
            assert!(prints.contains(&expected), "{expected} in {prints:?}");
        }
    }
}

/// In the place both runner pairs start together: the probe waits for the benchmark's
/// BenchmarkDone, so that neither disturbs the other, then runs.
#[test]
fn the_probe_waits_for_the_benchmark_to_finish() {
    let (_temp, dom, mut sim) = place_in_simulation();
    set_attributes(
        &sim,
        "local storage = game:GetService('ReplicatedStorage')
         storage:SetAttribute('BlinkBloxMockUnreliableLimit', 900)
         storage.Benchmark:SetAttribute('Frames', 1)
         storage.Benchmark:SetAttribute('ProbeSendsPerFrame', 32)
         storage.Benchmark:SetAttribute('ProbeGraceFrames', 1)
         -- The runner scripts of the place, as Studio has them (the probe looks for this one).
         Instance.new('Script', game:GetService('ServerScriptService')).Name = 'BenchmarkServer'",
    );
    start_runners(&dom, &mut sim, &[("BenchmarkServer", "BenchmarkClient"), PROBE]);
    let prints = finish_probe(&mut sim, 400);
    assert_eq!(
        prints[0],
        "[probe] waiting for the benchmark to finish (disable ServerScriptService.BenchmarkServer to probe alone)"
    );
    let server_prints = sim.server().prints();
    let finished = |line: &str| server_prints.iter().position(|p| p == line).expect(line);
    assert!(finished("[benchmark] finished") < finished("[probe] finished"));
    let sweep = server_prints
        .iter()
        .position(|p| p.starts_with("[probe] sizes are"))
        .expect("the sweep's line");
    assert!(finished("[benchmark] finished") < sweep, "{server_prints:?}");
    for direction in ["server→client", "client→server"] {
        let expected =
            format!("[probe] largest unreliable payload delivered {direction}: 900 bytes (3 of 3 tries at that size)");
        assert!(prints.contains(&expected), "{expected} in {prints:?}");
    }
}

#[test]
fn bench_probe_says_it_runs_in_studio_and_how() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let output = bench(temp.path(), &["Probe"]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("runs only in Roblox Studio"), "{err}");
    assert!(err.contains("--place OUT.rbxl") && err.contains("--studio"), "{err}");
    assert!(err.contains("[probe] largest unreliable payload delivered"), "{err}");
    assert!(!bench_dir.join("Benchmarks.md").exists(), "nothing was run: {err}");

    // With --place it builds the place holding the probe, and runs nothing else.
    let out = temp.path().join("Probe.rbxl");
    let output = bench(temp.path(), &["probe", "--place", out.to_str().expect("utf-8")]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("the Probe bench is in the place"), "{err}");
    assert!(!bench_dir.join("Benchmarks.md").exists(), "{err}");
    let dom =
        rbx_binary::from_reader(std::io::BufReader::new(std::fs::File::open(&out).expect("open"))).expect("decode");
    assert_eq!(at(&dom, "ServerScriptService.BenchmarkProbe").class, "Script");

    // Named with other benches, it is in the report's Not run with the same directions.
    let output = bench(
        temp.path(),
        &["Tiny", "Probe", "--native", "--frames", "1", "--tools", "blink"],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let line = report
        .lines()
        .find(|line| line.starts_with("- Probe: "))
        .unwrap_or_else(|| panic!("no Probe line:\n{report}"));
    assert!(
        line.contains("only in Roblox Studio") && line.contains("--place OUT.rbxl"),
        "{line}"
    );
    assert!(line.contains("BenchmarkProbe") && line.contains("--studio"), "{line}");
}

/// A stand-in for NetRay-Compile's source with its layout (`src/Compiler.luau`,
/// `src/generator/`): `compile` returns Server, Client and Types modules that work, the Server
/// and Client requiring Types from their parent as NetRay-Compile's do. `extra` goes at the top
/// of the compile function.
fn fake_netray_compile(dir: &Path, extra: &str) {
    write(
        &dir.join("src/Compiler.luau"),
        &format!(
            r#"local Generator = require("./generator/Generator")
return {{ compile = function(text) {extra} return Generator.generate(text) end }}
"#
        ),
    );
    write(
        &dir.join("src/generator/Generator.luau"),
        r#"local SERVER = [[
local Types = require(script.Parent.Types)
assert(Types.Marker == "types", "the Types module was not loaded beside Server")
local remote = Instance.new("RemoteEvent")
remote.Name = "FAKE_NETRAYC"
remote.Parent = game:GetService("ReplicatedStorage")
return {
    Tiny = { On = function(listener) remote.OnServerEvent:Connect(listener) end },
    StepReplication = function() end,
}
]]
local CLIENT = [[
local Types = require(script.Parent.Types)
assert(Types.Marker == "types", "the Types module was not loaded beside Client")
local remote = game:GetService("ReplicatedStorage"):WaitForChild("FAKE_NETRAYC")
return {
    Tiny = { Fire = function(value) remote:FireServer(value) end },
    StepReplication = function() end,
}
]]
return { generate = function(_text) return { server = SERVER, client = CLIENT, types = "return { Marker = 'types' }" } end }
"#,
    );
}

#[test]
fn netray_compile_runs_from_its_source_with_its_types_module() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md", "Benchmark.rbxl"]);
    let source = temp.path().join("NetRay-Compile");
    fake_netray_compile(&source, "");
    let output = bench(
        temp.path(),
        &[
            "Tiny",
            "ModuleLoad",
            "--native",
            "--frames",
            "1",
            "--tools",
            "netray-compile",
            "--source",
            &format!("netray-compile={}", source.display()),
        ],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("NetRay-Compile from `") && report.contains("Definition.netray (Validate = Basic)"),
        "{report}"
    );
    assert!(
        !report.contains("Tiny / NetRay-Compile / native: "),
        "the row ran: {report}"
    );
    // ModuleLoad counts the Types module (a line) on both sides, with the Server's nine.
    assert!(report.contains("| Server | NetRay-Compile | 10 |"), "{report}");

    fake_netray_compile(&source, "error('E_EVENT_KEY: unknown block key', 0)");
    let output = bench(
        temp.path(),
        &[
            "Tiny",
            "--native",
            "--frames",
            "1",
            "--tools",
            "netray-compile",
            "--source",
            &format!("netray-compile={}", source.display()),
        ],
    );
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("Tiny / NetRay-Compile / native: ")
            && report.contains("NetRay-Compile could not compile the schema: E_EVENT_KEY: unknown block key"),
        "{report}"
    );
}
