//! Shared by the codegen tests: compile a schema, load its modules into a simulated
//! server and clients, and compare values deeply inside the VM.
#![allow(dead_code)]

use blinkblox_codegen::{GeneratedFile, OutputKind, Outputs, Source, Targets, generate};
use blinkblox_luau::{Mode, RemoteValue, Simulation, SimulationOptions};
use blinkblox_schema::model::Schema;
use blinkblox_schema::{CheckSettings, check_source};

pub const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

/// Checks schema text, failing the test with the diagnostics when it has errors.
pub fn schema(text: &str) -> Schema {
    let output = check_source("test.blink", text);
    match output.schema {
        Some(schema) => schema,
        None => panic!("schema has errors: {:#?}", output.diagnostics),
    }
}

pub struct Modules {
    pub server: String,
    pub client: String,
    pub types: Option<String>,
}

pub fn modules_of(schema: &Schema) -> Modules {
    modules_in(&generate(schema, &Targets::outputs(true, false)))
}

/// The Server, Client and (when generated) Types modules among generated files.
pub fn modules_in(files: &[GeneratedFile]) -> Modules {
    let find = |kind: OutputKind| {
        files
            .iter()
            .find(|f: &&GeneratedFile| f.kind == kind)
            .map(|f| f.contents.clone())
    };
    Modules {
        server: find(OutputKind::Server).expect("server module"),
        client: find(OutputKind::Client).expect("client module"),
        types: find(OutputKind::Types),
    }
}

/// Compiles schema text through the compile step every command uses (with the Types module),
/// failing the test with the diagnostics when it has errors.
pub fn compile(text: &str) -> Modules {
    let compiled = blinkblox_codegen::compile(
        Source::Text {
            name: "test.blink",
            text,
        },
        &CheckSettings::default(),
        Outputs::Modules(Targets::outputs(true, false)),
    );
    assert!(!compiled.has_errors(), "schema has errors: {:#?}", compiled.diagnostics);
    modules_in(&compiled.files)
}

/// Luau helpers every world gets as `shared.*`: deep equality that knows the
/// Roblox datatypes, NaN, and float tolerance for CFrame rotations.
pub const HELPERS: &str = r#"
local function close(a, b, tolerance)
    if a ~= a and b ~= b then return true end
    return math.abs(a - b) <= tolerance
end
local function deepEqual(a, b, path)
    path = path or "value"
    if typeof(a) ~= typeof(b) then
        return false, `{path}: {typeof(a)} {tostring(a)} vs {typeof(b)} {tostring(b)}`
    end
    local kind = typeof(a)
    if kind == "number" then
        if a ~= a and b ~= b then return true end
        if a == b then return true end
        return false, `{path}: {a} vs {b}`
    elseif kind == "table" then
        for key, value in a do
            local ok, why = deepEqual(value, b[key], `{path}.{tostring(key)}`)
            if not ok then return false, why end
        end
        for key, value in b do
            if a[key] == nil then return false, `{path}.{tostring(key)}: missing on the left, {tostring(value)} on the right` end
        end
        return true
    elseif kind == "CFrame" then
        local ca = { a:GetComponents() }
        local cb = { b:GetComponents() }
        for i = 1, 12 do
            if not close(ca[i], cb[i], 1e-3) then return false, `{path}: CFrame component {i}: {ca[i]} vs {cb[i]}` end
        end
        return true
    elseif kind == "DateTime" then
        if a.UnixTimestampMillis == b.UnixTimestampMillis then return true end
        return false, `{path}: {a.UnixTimestampMillis} vs {b.UnixTimestampMillis}`
    elseif kind == "buffer" then
        if buffer.tostring(a) == buffer.tostring(b) then return true end
        return false, `{path}: buffers differ`
    elseif kind == "Vector3" then
        if close(a.X, b.X, 0) and close(a.Y, b.Y, 0) and close(a.Z, b.Z, 0) then return true end
        return false, `{path}: {a} vs {b}`
    end
    if a == b then return true end
    return false, `{path}: {tostring(a)} vs {tostring(b)}`
end
shared.deepEqual = deepEqual
shared.assertEqual = function(a, b, label)
    local ok, why = deepEqual(a, b)
    if not ok then error(`{label or "values differ"}: {why}`, 2) end
end
"#;

/// A simulation with the modules loaded as `Net` on the server and every client
/// (the server first, one step so its remotes replicate, then the clients).
pub fn start(modules: &Modules, mode: Mode, clients: usize) -> Simulation {
    start_with(modules, mode, clients, "")
}

/// A simulation in edit mode (`RunService:IsRunning()` is false) with the modules loaded
/// as `Net` on the server and client 0.
pub fn start_edit_mode(modules: &Modules, mode: Mode) -> Simulation {
    let mut options = SimulationOptions::new(mode, 1);
    options.running = false;
    let sim = Simulation::with_options(options).expect("simulation");
    sim.server()
        .load_module("Net", &modules.server)
        .expect("server loads in edit mode");
    sim.client(0)
        .expect("client")
        .load_module("Net", &modules.client)
        .expect("client loads in edit mode");
    sim
}

/// Fails the test when a world logged an error (listener errors, task errors).
pub fn assert_no_errors(sim: &Simulation) {
    for world in sim.worlds() {
        let errors = world.errors();
        assert!(errors.is_empty(), "errors in a world: {errors:#?}");
    }
}

/// As [`start`], running `server_setup` on the server before it replicates.
pub fn start_with(modules: &Modules, mode: Mode, clients: usize, server_setup: &str) -> Simulation {
    let mut sim = Simulation::new(mode, clients).expect("simulation");
    sim.server().exec(HELPERS).expect("helpers");
    sim.server().exec(server_setup).expect("server setup");
    sim.server()
        .load_module("Net", &modules.server)
        .unwrap_or_else(|e| panic!("server module: {e}"));
    sim.step().expect("step");
    for (_, client) in sim.clients() {
        client.exec(HELPERS).expect("helpers");
        client
            .load_module("Net", &modules.client)
            .unwrap_or_else(|e| panic!("client module: {e}"));
    }
    sim
}

/// Run on the server: `ReplicatedStorage.Packages.Future` and `.Promise`, small
/// stand-ins for the libraries `FutureLibrary`/`PromiseLibrary` name (they replicate).
pub const LIBRARIES: &str = r#"
local packages = Instance.new("Folder")
packages.Name = "Packages"
local future = Instance.new("ModuleScript")
future.Name = "Future"
future.Source = [[
local Future = {}
Future.__index = Future
function Future.Try(fn, ...)
    local self = setmetatable({ Done = false, Waiting = {} }, Future)
    local args = table.pack(...)
    task.spawn(function()
        self.Result = table.pack(pcall(fn, table.unpack(args, 1, args.n)))
        self.Done = true
        for _, thread in self.Waiting do task.spawn(thread) end
    end)
    return self
end
function Future:Await()
    if not self.Done then
        table.insert(self.Waiting, coroutine.running())
        coroutine.yield()
    end
    return table.unpack(self.Result, 1, self.Result.n)
end
return Future
]]
future.Parent = packages
local promise = Instance.new("ModuleScript")
promise.Name = "Promise"
promise.Source = [[
local Promise = {}
Promise.__index = Promise
function Promise.new(executor)
    local self = setmetatable({ Done = false, Waiting = {} }, Promise)
    local function settle(ok, ...)
        if self.Done then return end
        self.Done = true
        self.Result = table.pack(ok, ...)
        for _, thread in self.Waiting do task.spawn(thread) end
    end
    task.spawn(executor, function(...) settle(true, ...) end, function(...) settle(false, ...) end)
    return self
end
function Promise:await()
    if not self.Done then
        table.insert(self.Waiting, coroutine.running())
        coroutine.yield()
    end
    return table.unpack(self.Result, 1, self.Result.n)
end
return Promise
]]
promise.Parent = packages
packages.Parent = game:GetService("ReplicatedStorage")
"#;

/// The front end's valid schema fixtures (`tests/fixtures/schema/valid/*.blink`), sorted.
pub fn valid_schema_fixtures() -> Vec<std::path::PathBuf> {
    let dir = valid_schema_fixtures_dir();
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "blink"))
        .collect();
    paths.sort();
    paths
}

pub fn valid_schema_fixtures_dir() -> std::path::PathBuf {
    crate::repo_root().join("crates/blinkblox-schema/tests/fixtures/schema/valid")
}

/// Delivers raw bytes to the server as the first client's reliable packet (no Instances).
pub fn inject_client_packet(sim: &mut Simulation, packet: Vec<u8>) {
    sim.inject_fire_server(
        0,
        "BLINK_RELIABLE_REMOTE",
        vec![RemoteValue::buffer(packet), RemoteValue::array([])],
    )
    .expect("inject");
}

/// The first player's packets dropped as malformed, and dropped for any reason.
pub fn drop_counts(sim: &Simulation) -> (u32, u32) {
    sim.server()
        .eval(
            r#"
            local Counts = require("Net").GetDropCounts(game:GetService("Players"):GetPlayers()[1])
            local Total = 0
            for _, Count in Counts do Total += Count end
            return Counts.Malformed or 0, Total
            "#,
        )
        .expect("counts")
}
