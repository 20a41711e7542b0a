//! `blinkblox bench --place OUT.rbxl`: a Roblox place holding the harness, the generated
//! modules, every downloaded tool and the runner scripts, written with `rbx_dom_weak` and
//! `rbx_binary`; `--studio` runs it through `run-in-roblox` where that and Studio exist.
//!
//! Layout:
//! - `ReplicatedStorage.Benchmark.Harness`: Payloads, BenchClient, BenchServer, Probe
//!   (ModuleScripts) and `Adapters` (one ModuleScript per tool);
//! - `ReplicatedStorage.Benchmark.Tools.<tool>`: `blink`, `upstream` and `zap` hold their
//!   generated Server and Client modules (Blink's when its source is there, zap's when its
//!   binary is), `handwritten` the floor, and every other folder of `benchmark/tools/` its
//!   source tree (`init.luau` makes its folder a ModuleScript, as Rojo does);
//! - `ServerScriptService.BenchmarkServer` (Script) and
//!   `StarterPlayer.StarterPlayerScripts.BenchmarkClient` (LocalScript): the runners;
//! - `ServerScriptService.BenchmarkProbe` (Script) and
//!   `StarterPlayer.StarterPlayerScripts.BenchmarkProbe` (LocalScript): the Probe bench, which
//!   measures how large an unreliable payload Roblox delivers each way and starts once the
//!   benchmark has finished (it can only run in Studio: the embedded runtime is not Roblox).

use std::path::{Path, PathBuf};
use std::process::Command;

use rbx_dom_weak::types::Variant;
use rbx_dom_weak::{InstanceBuilder, WeakDom};

use crate::BenchError;
use crate::competitors::{ALL, Context, PlaceModules};
use crate::lock::write_atomically;

/// What went into a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceSummary {
    pub path: PathBuf,
    /// The folders under `Benchmark.Tools`.
    pub tools: Vec<String>,
    /// Notes for the user (a tool left out, and why).
    pub notes: Vec<String>,
}

/// Why `blinkblox bench` does not run the Probe bench, and how to run it (the report's "Not
/// run" line).
pub const PROBE_IN_STUDIO: &str = "measures how large an unreliable payload Roblox itself delivers, so it runs only \
     in Roblox Studio, not in the embedded runtime: the place that `blinkblox bench --place OUT.rbxl` builds holds it \
     (ServerScriptService.BenchmarkProbe and StarterPlayerScripts.BenchmarkProbe, run after the benches); open it in \
     Studio and press Play (F5), or run `blinkblox bench --studio`, and read the `[probe]` lines in the Output";

/// What `blinkblox bench Probe` says when it is not also asked for the place.
pub fn probe_needs_studio() -> BenchError {
    BenchError::new(
        "the Probe bench runs only in Roblox Studio: it measures how large an unreliable payload Roblox itself \
         delivers, which the embedded runtime cannot tell",
    )
    .with_help(
        "build the place that holds it with `blinkblox bench --place OUT.rbxl`, open it in Studio and press Play \
         (F5), or run `blinkblox bench --studio`; after the benches the server prints `[probe] largest unreliable \
         payload delivered server→client: N bytes (M of K tries at that size)`, the same client→server, and \
         `[probe] finished` (disable ServerScriptService.BenchmarkServer to run the probe alone)",
    )
}

/// How deep a downloaded tool's folders may nest in the place.
const MAX_TREE_DEPTH: usize = 32;

fn read(path: &Path) -> Result<String, BenchError> {
    std::fs::read_to_string(path).map_err(|err| BenchError::io("read", path, &err))
}

fn module(name: &str, source: String) -> InstanceBuilder {
    InstanceBuilder::new("ModuleScript")
        .with_name(name)
        .with_property("Source", Variant::String(source))
}

fn folder(name: &str) -> InstanceBuilder {
    InstanceBuilder::new("Folder").with_name(name)
}

fn is_script_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("luau" | "lua"))
}

/// A folder of a downloaded tool as Instances: Luau files become ModuleScripts, a folder with
/// an `init.luau`/`init.lua` becomes that ModuleScript with the rest as children, other
/// folders become Folders; other files are left out.
fn tree_of(dir: &Path, name: &str, depth: usize) -> Result<Option<InstanceBuilder>, BenchError> {
    if depth > MAX_TREE_DEPTH {
        return Err(BenchError::new(format!(
            "`{}` is nested more than {MAX_TREE_DEPTH} folders deep (a link loop?)",
            dir.display()
        )));
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|err| BenchError::io("list", dir, &err))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    entries.sort();
    let init = entries
        .iter()
        .find(|path| is_script_file(path) && path.file_stem().and_then(|s| s.to_str()) == Some("init"));
    let mut node = match init {
        Some(path) => module(name, read(path)?),
        None => folder(name),
    };
    let mut has_scripts = init.is_some();
    for path in &entries {
        if Some(path) == init {
            continue;
        }
        let Some(file_name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        if file_name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            if let Some(child) = tree_of(path, file_name, depth + 1)? {
                node.add_child(child);
                has_scripts = true;
            }
        } else if is_script_file(path) {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or(file_name);
            node.add_child(module(stem, read(path)?));
            has_scripts = true;
        }
    }
    Ok(has_scripts.then_some(node))
}

/// Builds the place and writes it to `out` (atomically): every competitor's adapter, and in
/// `Benchmark.Tools` the modules each competitor has for the place ([`Competitor::place_modules`]:
/// this checkout's first, then those its own compiler made) and every other downloaded tool's
/// source tree.
pub fn build_place(context: &Context, out: &Path) -> Result<PlaceSummary, BenchError> {
    let bench_dir = context.bench_dir;
    let harness_dir = bench_dir.join("harness");
    let mut notes = Vec::new();

    let mut adapters = folder("Adapters");
    for tool in ALL {
        adapters.add_child(module(tool.key(), read(&tool.runtime_adapter(bench_dir))?));
    }
    let harness = folder("Harness")
        .with_child(module("Payloads", read(&harness_dir.join("payloads.luau"))?))
        .with_child(module("BenchClient", read(&harness_dir.join("client.luau"))?))
        .with_child(module("BenchServer", read(&harness_dir.join("server.luau"))?))
        .with_child(module("Probe", read(&harness_dir.join("probe.luau"))?))
        .with_child(adapters);

    let (mut from_checkout, mut compiled) = (Vec::new(), Vec::new());
    for tool in ALL {
        match tool.place_modules(context)? {
            PlaceModules::Checkout(modules) => from_checkout.push((tool.key(), modules)),
            PlaceModules::Compiled(modules) => compiled.push((tool.key(), modules)),
            PlaceModules::LeftOut(note) => notes.push(note),
            PlaceModules::Absent => {}
        }
    }
    let mut tools = folder("Tools");
    let mut tool_names = Vec::new();
    for (key, modules) in from_checkout.into_iter().chain(compiled) {
        let mut tool = folder(key)
            .with_child(module("Server", modules.server))
            .with_child(module("Client", modules.client));
        if let Some(types) = modules.types {
            tool.add_child(module("Types", types));
        }
        tools.add_child(tool);
        tool_names.push(key.to_string());
    }
    // Every other downloaded tool, as its source tree.
    let downloaded = bench_dir.join("tools");
    if downloaded.is_dir() {
        let mut folders: Vec<PathBuf> = std::fs::read_dir(&downloaded)
            .map_err(|err| BenchError::io("list", &downloaded, &err))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.is_dir())
            .collect();
        folders.sort();
        for path in folders {
            let Some(name) = path.file_name().and_then(|s| s.to_str()).map(str::to_string) else {
                continue;
            };
            if tool_names.contains(&name) || name.starts_with('.') {
                continue;
            }
            match tree_of(&path, &name, 0)? {
                Some(tree) => {
                    tools.add_child(tree);
                    tool_names.push(name);
                }
                None => notes.push(format!(
                    "{name} left out: benchmark/tools/{name}/ holds no Luau (a compiler binary)"
                )),
            }
        }
    }

    let benchmark = folder("Benchmark").with_child(harness).with_child(tools);
    let server_runner = InstanceBuilder::new("Script")
        .with_name("BenchmarkServer")
        .with_property("Source", Variant::String(read(&harness_dir.join("place_server.luau"))?));
    let client_runner = InstanceBuilder::new("LocalScript")
        .with_name("BenchmarkClient")
        .with_property("Source", Variant::String(read(&harness_dir.join("place_client.luau"))?));
    let server_probe = InstanceBuilder::new("Script")
        .with_name("BenchmarkProbe")
        .with_property("Source", Variant::String(read(&harness_dir.join("probe_server.luau"))?));
    let client_probe = InstanceBuilder::new("LocalScript")
        .with_name("BenchmarkProbe")
        .with_property("Source", Variant::String(read(&harness_dir.join("probe_client.luau"))?));

    let mut dom = WeakDom::new(InstanceBuilder::new("DataModel"));
    let root = dom.root_ref();
    dom.insert(
        root,
        InstanceBuilder::new("ReplicatedStorage")
            .with_name("ReplicatedStorage")
            .with_child(benchmark),
    );
    dom.insert(
        root,
        InstanceBuilder::new("ServerScriptService")
            .with_name("ServerScriptService")
            .with_child(server_runner)
            .with_child(server_probe),
    );
    dom.insert(
        root,
        InstanceBuilder::new("StarterPlayer")
            .with_name("StarterPlayer")
            .with_child(
                InstanceBuilder::new("StarterPlayerScripts")
                    .with_name("StarterPlayerScripts")
                    .with_child(client_runner)
                    .with_child(client_probe),
            ),
    );
    dom.insert(root, InstanceBuilder::new("Workspace").with_name("Workspace"));
    dom.insert(root, InstanceBuilder::new("Players").with_name("Players"));

    let mut bytes = Vec::new();
    rbx_binary::to_writer(&mut bytes, &dom, dom.root().children())
        .map_err(|err| BenchError::new(format!("could not encode the place: {err}")))?;
    write_atomically(out, &bytes)?;
    Ok(PlaceSummary {
        path: out.to_path_buf(),
        tools: tool_names,
        notes,
    })
}

/// Whether `program` is on PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths)
            .any(|dir| dir.join(program).is_file() || dir.join(format!("{program}.exe")).is_file())
    })
}

/// Runs the place in Studio through `run-in-roblox`, printing its output; or explains what to
/// do where that cannot happen.
pub fn run_in_studio(place: &Path) -> Result<(), BenchError> {
    let how = format!(
        "open `{}` in Roblox Studio and press Play (F5): the client prints each bench's fire and flush times \
         and the server what it received, prefixed `[benchmark]`; then the server prints the Probe's \
         `[probe] largest unreliable payload delivered server→client: N bytes …`, the same client→server, \
         and `[probe] finished`; or install run-in-roblox \
         (`rokit add rojo-rbx/run-in-roblox`) on Windows or macOS with Studio and run \
         `run-in-roblox --place {} --script benchmark/harness/place_server.luau`",
        place.display(),
        place.display()
    );
    if !matches!(std::env::consts::OS, "windows" | "macos") {
        return Err(BenchError::new(format!(
            "Roblox Studio does not run on {}; the place was written",
            std::env::consts::OS
        ))
        .with_help(how));
    }
    if !on_path("run-in-roblox") {
        return Err(BenchError::new("run-in-roblox is not on PATH; the place was written").with_help(how));
    }
    let status = Command::new("run-in-roblox")
        .arg("--place")
        .arg(place)
        .arg("--script")
        .arg(Path::new("benchmark").join("harness").join("place_server.luau"))
        .status()
        .map_err(|err| BenchError::new(format!("could not start run-in-roblox: {err}")).with_help(how.clone()))?;
    if status.success() {
        Ok(())
    } else {
        Err(BenchError::new(format!("run-in-roblox failed ({status})")).with_help(how))
    }
}
