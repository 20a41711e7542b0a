//! One world: a sandboxed Luau state with the Roblox mock, playing the server or
//! one client.
//!
//! Creation order matters for speed: the mock's globals are installed into the
//! plain global table first, then `sandbox(true)` makes that table (and the
//! library tables in it) read-only, marks it "safe", and gives the main thread a
//! fresh writable global table that reads through to it, also marked safe. Code
//! loaded after that sees every mock global *and* keeps Luau's safe-environment
//! fast paths (imports resolved at load, builtin fast calls such as
//! `buffer.writeu8`). No chunk gets a custom environment: that would turn the
//! fast paths off.

use std::cell::RefCell;
use std::ffi::c_int;
use std::rc::Rc;
use std::sync::OnceLock;

use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, MultiValue, Table, Value};

use super::fflags;
use super::transport::{Audience, CallKind, Network, Packet, RemoteInfo};
use super::value::{Capture, RemoteValue, Restore};

/// How Luau code runs in a world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Compiled to native code by Luau's code generator, as Roblox runs native code:
    /// every function of a chunk that marks none `@native` (with or without
    /// `--!native`), only the marked ones of a chunk that marks some.
    Native,
    /// Bytecode interpreter only.
    Interpreted,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::Native => "native",
            Mode::Interpreted => "interpreted",
        }
    }
}

/// Whether a world is the server or a client (with its index in the simulation
/// and the server id of its Player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Server,
    Client { index: usize, player_id: u64 },
}

/// Globals whose fields scripts may change. Luau resolves `a.b.c` chains rooted
/// at other globals once, at load time (imports), so these must be listed or
/// `shared.x.y` would keep its load-time value. Roblox passes the same list.
pub const MUTABLE_GLOBALS: [&str; 8] = [
    "Game",
    "Workspace",
    "game",
    "plugin",
    "script",
    "shared",
    "workspace",
    "_G",
];

/// The compiler settings Roblox uses: optimization level 2, its mutable
/// globals, and `Vector3.new` compiled as the builtin vector constructor.
pub fn roblox_compiler() -> mlua::chunk::Compiler {
    mlua::chunk::Compiler::new()
        .set_optimization_level(2)
        .set_mutable_globals(MUTABLE_GLOBALS)
        .set_vector_ctor("Vector3.new")
        .set_vector_type("Vector3")
}

/// The mock's source files, run in this order with `(host, M)`.
const MOCK_FILES: [(&str, &str); 11] = [
    ("core", include_str!("mock/core.luau")),
    ("scheduler", include_str!("mock/scheduler.luau")),
    ("datatypes", include_str!("mock/datatypes.luau")),
    ("cframe", include_str!("mock/cframe.luau")),
    ("instance", include_str!("mock/instance.luau")),
    ("members", include_str!("mock/members.luau")),
    ("http", include_str!("mock/http.luau")),
    ("services", include_str!("mock/services.luau")),
    ("functions", include_str!("mock/functions.luau")),
    ("replication", include_str!("mock/replication.luau")),
    ("modules", include_str!("mock/modules.luau")),
];

/// Mock files never on a per-event path: always interpreted.
const COLD_MOCK_FILES: [&str; 3] = ["members", "http", "modules"];

const MOCK_REGISTRY_KEY: &str = "blinkblox.mock";

/// Each mock file's name and bytecode.
type MockBytecode = Vec<(&'static str, Vec<u8>)>;

/// The mock compiled once per process (each world loads the bytecode).
fn mock_bytecode() -> mlua::Result<&'static [(&'static str, Vec<u8>)]> {
    static BYTECODE: OnceLock<Result<MockBytecode, String>> = OnceLock::new();
    let compiled = BYTECODE.get_or_init(|| {
        let compiler = roblox_compiler();
        MOCK_FILES
            .iter()
            .map(|(name, source)| {
                compiler
                    .compile(source)
                    .map(|bytecode| (*name, bytecode))
                    .map_err(|error| format!("mock/{name}: {error}"))
            })
            .collect()
    });
    compiled.as_deref().map_err(|error| mlua::Error::runtime(error.clone()))
}

/// What a world's scripts wrote with `warn` and `print`, and the errors raised
/// by listeners and tasks (caught, as Roblox does, and kept here).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorldLog {
    pub warnings: Vec<String>,
    pub prints: Vec<String>,
    pub errors: Vec<String>,
}

/// A server or client world. Obtain one from [`Simulation`](super::Simulation).
pub struct World {
    role: Role,
    mode: Mode,
    log: Rc<RefCell<WorldLog>>,
    mock: Table,
    deliver_fn: Function,
    frame_fn: Function,
    replicate_fn: Function,
    rebuild_fn: Function,
    flush_fn: Function,
    lua: Lua,
}

impl std::fmt::Debug for World {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("World")
            .field("role", &self.role)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl World {
    pub(crate) fn new(mode: Mode, role: Role, network: Rc<RefCell<Network>>) -> mlua::Result<World> {
        fflags::enable_roblox_fflags();
        let lua = Lua::new();
        lua.set_compiler(roblox_compiler());
        lua.enable_jit(mode == Mode::Native);

        let log = Rc::new(RefCell::new(WorldLog::default()));
        let mock = lua.create_table()?;
        mock.set("globals", lua.create_table()?)?;
        mock.set("isServer", role == Role::Server)?;
        lua.set_named_registry_value(MOCK_REGISTRY_KEY, &mock)?;

        let host = make_host(&lua, role, &network, &log)?;
        for (name, bytecode) in mock_bytecode()? {
            // Native code generation is the bulk of a world's creation time; the
            // mock's cold parts (set-up, WaitForChild, JSON, require) stay interpreted.
            lua.enable_jit(mode == Mode::Native && !COLD_MOCK_FILES.contains(name));
            lua.load(bytecode.as_slice())
                .set_name(format!("=mock/{name}"))
                .call::<()>((&host, &mock))?;
        }
        lua.enable_jit(mode == Mode::Native);

        lua.set_type_metatable::<mlua::Vector>(Some(mock.get::<Table>("vectorMetatable")?));
        let globals = lua.globals();
        // Plain Luau has libraries Roblox does not: remove them so code that would
        // fail on Roblox fails here too.
        globals.raw_set("integer", Value::Nil)?;
        for pair in mock.get::<Table>("globals")?.pairs::<Value, Value>() {
            let (name, value) = pair?;
            globals.raw_set(name, value)?;
        }
        lua.sandbox(true)?;
        // Roblox's shared tables stay writable: set them on the sandboxed globals.
        let sandboxed = lua.globals();
        sandboxed.set("shared", lua.create_table()?)?;
        sandboxed.set("_G", lua.create_table()?)?;

        Ok(World {
            role,
            mode,
            log,
            deliver_fn: mock.get("deliver")?,
            frame_fn: mock.get("frame")?,
            replicate_fn: mock.get("replicate")?,
            rebuild_fn: mock.get("rebuild")?,
            flush_fn: mock.get("flushDeferred")?,
            mock,
            lua,
        })
    }

    pub fn role(&self) -> Role {
        self.role
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn is_server(&self) -> bool {
        self.role == Role::Server
    }

    /// The Luau state, for callers that need more than this API (the benchmark).
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Loads a module: makes a ModuleScript named `name` (in ServerScriptService
    /// on the server, in `LocalPlayer.PlayerScripts` on a client), runs it with
    /// `script` bound to that ModuleScript, and returns its value. Scripts can
    /// then `require(name)` or `require(moduleScript)`. Loading a name again
    /// replaces the module.
    pub fn load_module(&self, name: &str, source: &str) -> mlua::Result<Table> {
        let load: Function = self.mock.get("loadModule")?;
        load.call((name, source))
    }

    /// Makes a ModuleScript at a dotted path from `game` (e.g.
    /// `"ReplicatedStorage.Packages.Net"`), creating Folders for missing parents,
    /// without running it; scripts `require` it by instance (`require(script.Parent.Net)`).
    /// Under a replicated service on the server it replicates to clients, Source
    /// included, as on Roblox. Setting a path again replaces the Source (a module
    /// already required keeps its value).
    pub fn create_module_script(&self, path: &str, source: &str) -> mlua::Result<()> {
        let create: Function = self.mock.get("createModuleScript")?;
        create.call::<Value>((path, source)).map(|_| ())
    }

    /// Runs a chunk of Luau on the main thread (it cannot yield; see
    /// [`spawn`](Self::spawn)), then runs deferred threads.
    pub fn exec(&self, source: &str) -> mlua::Result<()> {
        self.eval::<()>(source)
    }

    /// Runs a chunk and returns its results.
    pub fn eval<R: FromLuaMulti>(&self, source: &str) -> mlua::Result<R> {
        let result = self.lua.load(source).set_name("=exec").eval::<R>();
        self.flush_fn.call::<()>(())?;
        result
    }

    /// Runs a chunk in a new task thread: it may yield (`task.wait`,
    /// `WaitForChild`, `Signal:Wait`) and resumes as the simulation steps. An error
    /// before the first yield is returned; later ones go to the error log.
    pub fn spawn(&self, source: &str) -> mlua::Result<()> {
        let function = self.lua.load(source).set_name("=spawn").into_function()?;
        let spawn_main: Function = self.mock.get("spawnMain")?;
        spawn_main.call::<()>(function)
    }

    /// Calls a Luau function with arguments and runs deferred threads after.
    pub fn call<R: FromLuaMulti>(&self, function: &Function, args: impl IntoLuaMulti) -> mlua::Result<R> {
        let result = function.call::<R>(args);
        self.flush_fn.call::<()>(())?;
        result
    }

    /// A copy of the warn/print/error log.
    pub fn log(&self) -> WorldLog {
        self.log.borrow().clone()
    }

    /// Returns the log and empties it.
    pub fn take_log(&self) -> WorldLog {
        std::mem::take(&mut *self.log.borrow_mut())
    }

    pub fn warnings(&self) -> Vec<String> {
        self.log.borrow().warnings.clone()
    }

    pub fn errors(&self) -> Vec<String> {
        self.log.borrow().errors.clone()
    }

    pub fn prints(&self) -> Vec<String> {
        self.log.borrow().prints.clone()
    }

    /// Luau heap in KiB, as `collectgarbage("count")` reports it in the world.
    pub fn memory_kib(&self) -> mlua::Result<f64> {
        let collect: Function = self.lua.globals().get("collectgarbage")?;
        collect.call("count")
    }

    /// Bytes allocated by the Luau state (heap plus native code buffers).
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// Sets what `RunService:IsRunning()` answers (false = edit mode).
    pub fn set_running(&self, running: bool) -> mlua::Result<()> {
        self.mock.get::<Function>("setRunning")?.call(running)
    }

    /// The microprofiler labels begun so far (`debug.profilebegin`, the first thousand) and how
    /// many are still open.
    pub fn profile_labels(&self) -> mlua::Result<(Vec<String>, i64)> {
        Ok((self.mock.get("profileLabels")?, self.mock.get("profileDepth")?))
    }

    /// Sets what `RunService:IsStudio()` answers.
    pub fn set_studio(&self, studio: bool) -> mlua::Result<()> {
        self.mock.get::<Function>("setStudio")?.call(studio)
    }

    /// Threads waiting on the virtual clock or deferred.
    pub fn pending_tasks(&self) -> mlua::Result<usize> {
        self.mock.get::<Function>("pendingTasks")?.call(())
    }

    /// The server id of the Instance at a dotted path from `game`, e.g.
    /// `"ReplicatedStorage.BLINK_RELIABLE_REMOTE"` (a client answers with the id
    /// of the server Instance its mirror stands for).
    pub fn instance_id(&self, path: &str) -> mlua::Result<Option<u64>> {
        let find: Function = self.mock.get("findPath")?;
        find.call(path)
    }

    pub(crate) fn frame(&self, time: f64, delta_time: f64) -> mlua::Result<()> {
        self.frame_fn.call((time, delta_time))
    }

    pub(crate) fn set_time(&self, time: f64) -> mlua::Result<()> {
        self.mock.get::<Function>("setTime")?.call(time)
    }

    pub(crate) fn flush_deferred(&self) -> mlua::Result<()> {
        self.flush_fn.call(())
    }

    fn restore(&self) -> Restore<'_> {
        Restore {
            lua: &self.lua,
            rebuild: &self.rebuild_fn,
        }
    }

    /// Delivers one remote call: on the server from `from_player`, on a client
    /// from the server. `remote` names the remote for a client that lacks it.
    pub(crate) fn deliver(
        &self,
        remote_id: u64,
        kind: CallKind,
        from_player: u64,
        remote: Option<&RemoteInfo>,
        args: &[RemoteValue],
    ) -> mlua::Result<()> {
        let restore = self.restore();
        let mut values = MultiValue::with_capacity(args.len() + 5);
        values.push_back(Value::Number(remote_id as f64));
        values.push_back(Value::Integer(i64::from(kind.code())));
        values.push_back(Value::Number(from_player as f64));
        let (class_name, name) = match remote {
            Some(info) => (info.class_name.as_str(), info.name.as_str()),
            None => ("RemoteEvent", "RemoteEvent"),
        };
        values.push_back(Value::String(self.lua.create_string(class_name)?));
        values.push_back(Value::String(self.lua.create_string(name)?));
        for arg in args {
            values.push_back(restore.value(arg)?);
        }
        self.deliver_fn.call(values)
    }

    pub(crate) fn apply_replication(&self, op: &str, args: &[RemoteValue]) -> mlua::Result<()> {
        let mut values = self.restore().values(args)?;
        values.push_front(Value::String(self.lua.create_string(op)?));
        self.replicate_fn.call(values)
    }

    pub(crate) fn mock_function(&self, name: &str) -> mlua::Result<Function> {
        self.mock.get(name)
    }

    /// Everything the server replicates, as the "create" ops a joining client needs.
    pub(crate) fn replication_snapshot(&self) -> mlua::Result<Vec<Vec<RemoteValue>>> {
        let ops: Table = self.mock.get::<Function>("replicationSnapshot")?.call(())?;
        let find_describe = || self.mock.get::<Function>("describe");
        let mut capture = Capture::new(&find_describe);
        let mut result = Vec::new();
        for op in ops.sequence_values::<Table>() {
            let op = op?;
            let mut args = Vec::new();
            for index in 1..=6 {
                args.push(capture.value(op.raw_get::<Value>(index)?, 0)?);
            }
            result.push(args);
        }
        Ok(result)
    }
}

/// C function `newUserdata(metatable)`: an empty userdata with that metatable.
/// Unlike `newproxy`, such userdata are typed by `__type` in `typeof`.
unsafe extern "C-unwind" fn new_userdata(state: *mut mlua::ffi::lua_State) -> c_int {
    // SAFETY: called by Luau with a valid state; we only touch our own stack slots.
    unsafe {
        if mlua::ffi::lua_type(state, 1) != mlua::ffi::LUA_TTABLE {
            return 0;
        }
        mlua::ffi::lua_newuserdatatagged(state, 0, 0);
        mlua::ffi::lua_pushvalue(state, 1);
        mlua::ffi::lua_setmetatable(state, -2);
        1
    }
}

fn describe_function(lua: &Lua) -> mlua::Result<Function> {
    lua.named_registry_value::<Table>(MOCK_REGISTRY_KEY)?.get("describe")
}

fn capture_args(lua: &Lua, log: &RefCell<WorldLog>, args: MultiValue) -> mlua::Result<Vec<RemoteValue>> {
    let find_describe = || describe_function(lua);
    let mut capture = Capture::new(&find_describe);
    let values = capture.values(args)?;
    log.borrow_mut().warnings.extend(capture.dropped);
    Ok(values)
}

/// Inserts `local script = ...;` before the first line of code, after the
/// leading comments (so `--!strict`/`--!native` stay hot comments) and on the
/// same line (so line numbers in errors stay right).
pub(crate) fn bind_script_local(source: &str) -> String {
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let block_comment = trimmed.starts_with("--[[") || trimmed.starts_with("--[=");
        if trimmed.is_empty() || (trimmed.starts_with("--") && !block_comment) {
            offset += line.len();
            continue;
        }
        break;
    }
    format!("{}local script = ...; {}", &source[..offset], &source[offset..])
}

/// The `host` table: Rust functions the mock calls.
fn make_host(
    lua: &Lua,
    role: Role,
    network: &Rc<RefCell<Network>>,
    log: &Rc<RefCell<WorldLog>>,
) -> mlua::Result<Table> {
    let host = lua.create_table()?;
    // SAFETY: `new_userdata` follows the Lua C API contract (see above).
    host.set("newUserdata", unsafe { lua.create_c_function(new_userdata)? })?;

    let send_network = network.clone();
    let send_log = log.clone();
    host.set(
        "send",
        lua.create_function(
            move |lua, (remote_id, code, target, args): (f64, u8, f64, MultiValue)| {
                let kind = CallKind::from_code(code)
                    .ok_or_else(|| mlua::Error::runtime(format!("internal: unknown remote call kind {code}")))?;
                let args = capture_args(lua, &send_log, args)?;
                let remote_id = remote_id as u64;
                let mut network = send_network.borrow_mut();
                match (role, kind) {
                    (
                        Role::Client { index, player_id },
                        CallKind::FireServer | CallKind::InvokeServer | CallKind::AnswerServer,
                    ) => {
                        network.record(remote_id, kind, Some(index), &args);
                        network
                            .to_server
                            .push((player_id, Packet::Remote { remote_id, kind, args }));
                    }
                    (Role::Server, CallKind::FireClient | CallKind::InvokeClient | CallKind::AnswerClient) => {
                        let player = target as u64;
                        let client = network.players.get(&player).copied();
                        network.record(remote_id, kind, client, &args);
                        network
                            .to_clients
                            .push((Audience::Player(player), Packet::Remote { remote_id, kind, args }));
                    }
                    (Role::Server, CallKind::FireAllClients) => {
                        network.record(remote_id, kind, None, &args);
                        network
                            .to_clients
                            .push((Audience::AllClients, Packet::Remote { remote_id, kind, args }));
                    }
                    _ => {
                        return Err(mlua::Error::runtime(format!(
                            "{kind:?} cannot be called from this side"
                        )));
                    }
                }
                Ok(())
            },
        )?,
    )?;

    let replicate_network = network.clone();
    let replicate_log = log.clone();
    host.set(
        "replicate",
        lua.create_function(move |lua, (op, args): (String, MultiValue)| {
            let args = capture_args(lua, &replicate_log, args)?;
            replicate_network
                .borrow_mut()
                .to_clients
                .push((Audience::AllClients, Packet::Replication { op, args }));
            Ok(())
        })?,
    )?;

    let remotes_network = network.clone();
    host.set(
        "registerRemote",
        lua.create_function(move |_, (id, class_name, name): (f64, String, String)| {
            remotes_network
                .borrow_mut()
                .remotes
                .insert(id as u64, RemoteInfo { class_name, name });
            Ok(())
        })?,
    )?;

    let kick_network = network.clone();
    host.set(
        "kick",
        lua.create_function(move |_, (player, message): (f64, String)| {
            kick_network.borrow_mut().kicks.push((player as u64, message));
            Ok(())
        })?,
    )?;

    for (name, field) in [("warn", 0), ("print", 1), ("error", 2)] {
        let log = log.clone();
        host.set(
            name,
            lua.create_function(move |_, message: String| {
                let mut log = log.borrow_mut();
                match field {
                    0 => log.warnings.push(message),
                    1 => log.prints.push(message),
                    _ => log.errors.push(message),
                }
                Ok(())
            })?,
        )?;
    }

    host.set(
        "unixMillis",
        lua.create_function(|_, ()| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            Ok(now.as_secs_f64() * 1000.0)
        })?,
    )?;

    host.set(
        "compile",
        lua.create_function(|lua, (source, chunk_name): (String, String)| {
            lua.load(bind_script_local(&source))
                .set_name(format!("={chunk_name}"))
                .into_function()
        })?,
    )?;
    Ok(host)
}

#[cfg(test)]
mod tests {
    use super::bind_script_local;

    #[test]
    fn script_local_goes_after_leading_line_comments() {
        assert_eq!(
            bind_script_local("--!strict\n--!native\n\nreturn 1\n"),
            "--!strict\n--!native\n\nlocal script = ...; return 1\n"
        );
    }

    #[test]
    fn script_local_goes_before_a_block_comment() {
        assert_eq!(
            bind_script_local("--[[ doc ]]\nreturn 1"),
            "local script = ...; --[[ doc ]]\nreturn 1"
        );
    }

    #[test]
    fn script_local_in_a_file_of_comments_goes_at_the_end() {
        assert_eq!(bind_script_local("-- only\n"), "-- only\nlocal script = ...; ");
        assert_eq!(bind_script_local(""), "local script = ...; ");
    }
}
