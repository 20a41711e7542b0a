//! The runtime benches: each tool's modules loaded into a fresh [`Simulation`] (one server,
//! one client), a thousand events fired and flushed on the client every frame, the packet
//! delivered to the server, decoded and handed to a listener.
//!
//! The Luau half lives in `benchmark/harness/` (payloads, the client's timed frame, the
//! server's checking listener, one adapter per tool); this file loads it, names the tools and
//! sets a row's simulation up; [`crate::run_row`] drives the frames and collects the
//! figures. Clock: the thread's CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)` on Linux,
//! the wall clock elsewhere), which a busy shared machine disturbs far less than wall time.
//! The client times its fires and its flush inside Luau with `shared.BenchClock()`; the
//! server's decode is what Rust measures around the delivery of the frame's packets to the
//! server world (`StepTiming::server.receive`: the remote's listeners, the tool's decode and the
//! bench's listener, then deferred threads). The run is single-threaded.

use std::path::{Path, PathBuf};

use crate::BenchError;
use crate::library::Library;
use crate::run_upstream::compile_upstream;
use blinkblox_codegen::{OutputKind, Outputs, Source, Targets, compile};
use blinkblox_luau::{Mode, Simulation, TimingClock, World};
use blinkblox_schema::CheckSettings;

/// Events fired per frame.
pub const EVENTS_PER_FRAME: u32 = 1000;
/// Frames run before timing starts (buffers grow and caches fill in these).
pub const WARMUP_FRAMES: u32 = 2;

/// The timed frames a plain-remotes row runs at most (see [`RuntimeTool::max_frames`]).
pub const ROBLOX_MAX_FRAMES: u32 = 20;

/// The runtime benches, in the seed page's order.
pub const RUNTIME_BENCHES: [&str; 5] = ["Booleans", "Entities", "BooleansRandom", "EntitiesRandom", "Tiny"];

/// A tool the runtime harness can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeTool {
    /// BlinkBlox: this checkout's compiler on `definitions/Definition.blink`.
    Blink,
    /// The hand-written floor in `benchmark/handwritten/`.
    Handwritten,
    /// Blink 0.18, its own compiler run from source on `definitions/Definition.upstream.blink`.
    Upstream,
    /// zap 0.6, its binary run on `definitions/Definition.zap` (see [`crate::run_zap`]).
    Zap,
    /// Plain Roblox remotes: one `FireServer` per event, no buffer.
    Roblox,
    /// ByteNet 0.4.3, its source mounted from `benchmark/tools/bytenet/` (or `--source`).
    ByteNet,
    /// Packet 1.7 (Suphi).
    Packet,
    /// QuickNet 0.3.4.
    QuickNet,
    /// Warp 1.1.0-pre7.
    Warp,
}

impl RuntimeTool {
    pub const ALL: [RuntimeTool; 9] = [
        RuntimeTool::Blink,
        RuntimeTool::Upstream,
        RuntimeTool::Zap,
        RuntimeTool::Handwritten,
        RuntimeTool::Roblox,
        RuntimeTool::ByteNet,
        RuntimeTool::Packet,
        RuntimeTool::QuickNet,
        RuntimeTool::Warp,
    ];

    /// The runtime libraries: their source is mounted into each world as a ModuleScript tree
    /// (see [`Library`]) and they flush on a frame event rather than when the harness asks.
    pub const LIBRARIES: [RuntimeTool; 4] = [
        RuntimeTool::ByteNet,
        RuntimeTool::Packet,
        RuntimeTool::QuickNet,
        RuntimeTool::Warp,
    ];

    /// Whether this tool is a runtime library (one of [`LIBRARIES`](Self::LIBRARIES)).
    pub fn is_library(self) -> bool {
        Self::LIBRARIES.contains(&self)
    }

    /// The name `--tools` takes.
    pub fn key(self) -> &'static str {
        match self {
            RuntimeTool::Blink => "blink",
            RuntimeTool::Handwritten => "handwritten",
            RuntimeTool::Upstream => "upstream",
            RuntimeTool::Zap => "zap",
            RuntimeTool::Roblox => "roblox",
            RuntimeTool::ByteNet => "bytenet",
            RuntimeTool::Packet => "packet",
            RuntimeTool::QuickNet => "quicknet",
            RuntimeTool::Warp => "warp",
        }
    }

    /// The name the tables show.
    pub fn display(self) -> &'static str {
        match self {
            RuntimeTool::Blink => "BlinkBlox",
            RuntimeTool::Handwritten => "Hand-written",
            RuntimeTool::Upstream => "Blink",
            RuntimeTool::Zap => "zap",
            RuntimeTool::Roblox => "Roblox remotes",
            RuntimeTool::ByteNet => "ByteNet",
            RuntimeTool::Packet => "Packet",
            RuntimeTool::QuickNet => "QuickNet",
            RuntimeTool::Warp => "Warp",
        }
    }

    /// Where a library is mounted in every world (its adapter requires it from there). On the
    /// server it is made under ReplicatedStorage, so each client gets its own replicated copy.
    pub fn library_path(self) -> Option<&'static str> {
        match self {
            RuntimeTool::ByteNet => Some("ReplicatedStorage.ByteNet"),
            RuntimeTool::Packet => Some("ReplicatedStorage.Packet"),
            RuntimeTool::QuickNet => Some("ReplicatedStorage.QuickNet"),
            RuntimeTool::Warp => Some("ReplicatedStorage.Warp"),
            RuntimeTool::Blink
            | RuntimeTool::Handwritten
            | RuntimeTool::Upstream
            | RuntimeTool::Zap
            | RuntimeTool::Roblox => None,
        }
    }

    /// The most timed frames a row of this tool runs. Plain remotes pass every value through
    /// the mock's network one call at a time (about a second a frame), so their rows are
    /// capped to keep a full run in minutes.
    pub fn max_frames(self) -> Option<u32> {
        match self {
            RuntimeTool::Roblox => Some(ROBLOX_MAX_FRAMES),
            _ => None,
        }
    }

    pub fn from_key(key: &str) -> Option<RuntimeTool> {
        RuntimeTool::ALL.into_iter().find(|tool| tool.key() == key)
    }
}

/// Median and 99th percentile of per-frame times, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median_ms: f64,
    pub p99_ms: f64,
}

impl Stats {
    /// From per-frame seconds; `None` when there are none.
    pub fn of_seconds(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted: Vec<f64> = samples.iter().map(|seconds| seconds * 1000.0).collect();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median_ms = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        // Nearest rank: the smallest sample with at least 99% of the samples at or below it.
        let rank = ((n as f64) * 0.99).ceil() as usize;
        let p99_ms = sorted[rank.clamp(1, n) - 1];
        Some(Stats { median_ms, p99_ms })
    }
}

/// What one row measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowFigures {
    /// Fires plus flush, per frame.
    pub send: Stats,
    pub fire: Stats,
    pub flush: Stats,
    /// The server decoding the frame's packets and calling the listener.
    pub decode: Stats,
    /// One event on the wire: the frame's buffer bytes (or, for plain remotes, the
    /// runtime's size estimate of the values) over the events fired.
    pub bytes_per_event: f64,
    /// Remote calls a frame.
    pub calls_per_frame: f64,
    /// The frames timed.
    pub frames: u32,
}

/// Who a runtime row runs: a tool, or the work alone (`bounds.luau`, see
/// [`crate::run_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Participant {
    Tool(RuntimeTool),
    WorkAlone,
}

impl Participant {
    /// Whether its packets leave on a frame event (a runtime library) rather than when the
    /// harness flushes.
    pub fn flushes_on_frame(self) -> bool {
        matches!(self, Participant::Tool(tool) if tool.is_library())
    }

    /// The name progress lines give it.
    pub fn key(self) -> &'static str {
        match self {
            Participant::Tool(tool) => tool.key(),
            Participant::WorkAlone => "the work alone",
        }
    }
}

/// One (bench, tool, mode) row: its figures, or why it could not run.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeRow {
    pub bench: &'static str,
    pub tool: RuntimeTool,
    pub mode: Mode,
    pub outcome: Result<RowFigures, String>,
}

/// The harness's Luau sources, read from `benchmark/`.
pub struct Harness {
    payloads: String,
    client: String,
    server: String,
    adapters: Vec<(RuntimeTool, String)>,
    handwritten_server: String,
    handwritten_client: String,
    /// BlinkBlox's generated modules (server, client).
    blink: (String, String),
    /// Blink's, or why there are none.
    upstream: Result<(String, String), String>,
    /// zap's (from its binary, see [`Harness::set_zap`]), or why there are none.
    zap: Result<(String, String), String>,
    /// The runtime libraries read from disk, by tool.
    libraries: Vec<(RuntimeTool, Library)>,
    /// The work alone's adapter (`bounds.luau`), run among the rows of its bench.
    work_alone: String,
}

pub(crate) fn read(path: &Path) -> Result<String, BenchError> {
    std::fs::read_to_string(path).map_err(|err| {
        BenchError::io("read", path, &err)
            .with_help("the benchmark harness is part of the checkout: restore benchmark/")
    })
}

impl Harness {
    /// Reads the harness and compiles `definitions/Definition.blink` with this checkout, and
    /// `definitions/Definition.upstream.blink` with Blink's compiler in `upstream_dir` when given.
    pub fn load(bench_dir: &Path, upstream_dir: Option<&Path>) -> Result<Harness, BenchError> {
        let harness = bench_dir.join("harness");
        let mut adapters = Vec::new();
        for tool in RuntimeTool::ALL {
            adapters.push((tool, read(&harness.join("tools").join(format!("{}.luau", tool.key())))?));
        }
        let handwritten = bench_dir.join("handwritten");
        Ok(Harness {
            payloads: read(&harness.join("payloads.luau"))?,
            client: read(&harness.join("client.luau"))?,
            server: read(&harness.join("server.luau"))?,
            adapters,
            handwritten_server: read(&handwritten.join("Server.luau"))?,
            handwritten_client: read(&handwritten.join("Client.luau"))?,
            blink: compile_definition(&definition_path(bench_dir))?,
            upstream: match upstream_dir {
                Some(dir) => compile_with_upstream(bench_dir, dir).map_err(|err| err.to_string()),
                None => Err("Blink's source was not given".to_string()),
            },
            zap: Err("zap's binary was not given".to_string()),
            libraries: Vec::new(),
            work_alone: read(&harness.join("bounds.luau"))?,
        })
    }

    /// Replaces BlinkBlox's (Server, Client) modules: those a BlinkBlox release compiled (see
    /// [`crate::run_release`]) rather than this checkout's.
    pub fn set_blink(&mut self, modules: (String, String)) {
        self.blink = modules;
    }

    /// Sets zap's generated (Server, Client) modules, or why there are none (its rows then fail
    /// with that message): see [`crate::run_zap::compile_with_zap`].
    pub fn set_zap(&mut self, modules: Result<(String, String), String>) {
        self.zap = modules;
    }

    /// Adds (or replaces) the source a runtime library's rows mount.
    pub fn add_library(&mut self, tool: RuntimeTool, library: Library) {
        self.libraries.retain(|(candidate, _)| *candidate != tool);
        self.libraries.push((tool, library));
    }

    fn adapter(&self, tool: RuntimeTool) -> &str {
        self.adapters
            .iter()
            .find(|(candidate, _)| *candidate == tool)
            .map_or("", |(_, source)| source.as_str())
    }

    /// The Server and Client modules a tool runs, if it has any.
    fn modules(&self, tool: RuntimeTool) -> Result<Option<(&str, &str)>, String> {
        Ok(match tool {
            RuntimeTool::Blink => Some((&self.blink.0, &self.blink.1)),
            RuntimeTool::Handwritten => Some((&self.handwritten_server, &self.handwritten_client)),
            RuntimeTool::Upstream => match &self.upstream {
                Ok((server, client)) => Some((server, client)),
                Err(err) => return Err(err.clone()),
            },
            RuntimeTool::Zap => match &self.zap {
                Ok((server, client)) => Some((server, client)),
                Err(err) => return Err(err.clone()),
            },
            RuntimeTool::Roblox => None,
            RuntimeTool::ByteNet | RuntimeTool::Packet | RuntimeTool::QuickNet | RuntimeTool::Warp => None,
        })
    }

    /// Blink's generated modules, when its compiler ran.
    pub fn upstream_modules(&self) -> Option<&(String, String)> {
        self.upstream.as_ref().ok()
    }

    /// BlinkBlox's generated modules.
    pub fn blink_modules(&self) -> &(String, String) {
        &self.blink
    }
}

/// Setting a runtime row's simulation up, and checking what it received.
impl Harness {
    /// A fresh simulation (one server, one client) running `who`'s side of `bench`, and the
    /// client's frame function (`shared.BenchFrame`) once its set-up has finished.
    pub(crate) fn start(
        &self,
        bench: &str,
        who: Participant,
        mode: Mode,
    ) -> Result<(Simulation, mlua::Function), String> {
        let event = event_of(bench);
        let mut sim = Simulation::new(mode, 1).map_err(lua_error("starting the simulation"))?;
        sim.set_timing_clock(TimingClock::ThreadCpu);
        let (modules, adapter) = match who {
            Participant::Tool(tool) => (self.modules(tool)?, self.adapter(tool)),
            Participant::WorkAlone => (None, self.work_alone.as_str()),
        };
        {
            let server = sim.server();
            let setup = lua_error("server set-up");
            // For the work alone's set-up, which times two ways of decoding to choose one.
            install_clock(server).map_err(&setup)?;
            server.load_module("Payloads", &self.payloads).map_err(&setup)?;
            server.load_module("BenchServer", &self.server).map_err(&setup)?;
            if let Some((server_module, _)) = modules {
                server.load_module("Server", server_module).map_err(&setup)?;
            }
            if let Participant::Tool(tool) = who {
                mount_library(&self.libraries, tool, server)?;
            }
            server.load_module("Adapter", adapter).map_err(&setup)?;
            server
                .exec(&format!(
                    "local listener, tally = require('BenchServer').listener('{bench}')\n\
                     require('Adapter').server('{event}', listener)\n\
                     shared.BenchTally = tally"
                ))
                .map_err(&setup)?;
        }
        // The remotes the server made reach the client.
        sim.step().map_err(lua_error("replicating the remotes"))?;
        {
            let client = sim.client(0).ok_or("the client left")?;
            let setup = lua_error("client set-up");
            install_clock(client).map_err(&setup)?;
            client.load_module("Payloads", &self.payloads).map_err(&setup)?;
            client.load_module("BenchClient", &self.client).map_err(&setup)?;
            if let Some((_, client_module)) = modules {
                client.load_module("Client", client_module).map_err(&setup)?;
            }
            client.load_module("Adapter", adapter).map_err(&setup)?;
            // In a task thread: a library's client may wait for the server (an attribute, a
            // handshake) before its first fire, which takes simulation steps.
            client
                .spawn(&format!(
                    "local fire, flush = require('Adapter').client('{event}')\n\
                     shared.BenchFrame = require('BenchClient').prepare('{bench}', fire, flush)"
                ))
                .map_err(&setup)?;
        }
        let frame_fn = await_client_frame(&mut sim)?;
        sim.take_traffic();
        Ok((sim, frame_fn))
    }

    /// Every event of the `frames` frames run in `sim` (started by [`Harness::start`]) arrived
    /// and decoded to what was fired, and nothing raised an error.
    pub(crate) fn check_tally(sim: &Simulation, frames: u32) -> Result<(), String> {
        for world in sim.worlds() {
            if let Some(error) = world.errors().first() {
                let side = if world.is_server() { "the server" } else { "the client" };
                return Err(format!("{side} raised: {error}"));
            }
        }
        let (received, mismatches, first): (u64, u64, Option<String>) = sim
            .server()
            .eval("local t = shared.BenchTally return t.received, t.mismatches, t.firstMismatch")
            .map_err(lua_error("reading the tally"))?;
        let expected = u64::from(frames) * u64::from(EVENTS_PER_FRAME);
        if mismatches > 0 {
            return Err(format!(
                "{mismatches} decoded value(s) differ from what was fired: {}",
                first.unwrap_or_default()
            ));
        }
        if received != expected {
            return Err(format!(
                "the server's listener saw {received} of the {expected} events fired"
            ));
        }
        Ok(())
    }
}

fn compile_with_upstream(bench_dir: &Path, dir: &Path) -> Result<(String, String), BenchError> {
    let driver = read(&bench_dir.join("harness").join("upstream.luau"))?;
    let schema = read(&bench_dir.join("definitions").join("Definition.upstream.blink"))?;
    compile_upstream(dir, &driver, &schema)
}

/// `benchmark/definitions/Definition.blink`.
pub fn definition_path(bench_dir: &Path) -> PathBuf {
    bench_dir.join("definitions").join("Definition.blink")
}

/// BlinkBlox's Server and Client modules for the benchmark schema.
pub fn compile_definition(path: &Path) -> Result<(String, String), BenchError> {
    compile_text(path, &read(path)?)
}

/// BlinkBlox's Server and Client modules for schema `text` (named `path` in messages).
pub fn compile_text(path: &Path, text: &str) -> Result<(String, String), BenchError> {
    let name = path.display().to_string();
    let compiled = compile(
        Source::Text { name: &name, text },
        &CheckSettings::default(),
        Outputs::Modules(Targets::default()),
    );
    if compiled.has_errors() {
        let first = compiled
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.is_error())
            .map(|diagnostic| format!("{}: {}", diagnostic.code, diagnostic.message))
            .unwrap_or_default();
        return Err(BenchError::new(format!(
            "`{}` has errors ({} diagnostic(s)); first: {first}",
            path.display(),
            compiled.diagnostics.len()
        ))
        .with_help(format!("run `blinkblox check {}` to see them", path.display())));
    }
    let files = compiled.files;
    let find = |kind: OutputKind| {
        files
            .iter()
            .find(|file| file.kind == kind)
            .map(|file| file.contents.clone())
    };
    match (find(OutputKind::Server), find(OutputKind::Client)) {
        (Some(server), Some(client)) => Ok((server, client)),
        _ => Err(BenchError::new(format!(
            "compiling `{}` produced no Server or Client module",
            path.display()
        ))),
    }
}

/// The event of the schema a bench fires (the Random benches reuse their plain event).
pub fn event_of(bench: &str) -> &str {
    bench.strip_suffix("Random").unwrap_or(bench)
}

pub(crate) fn lua_error(context: &str) -> impl Fn(mlua::Error) -> String + '_ {
    move |err| format!("{context}: {err}")
}

/// Mounts a runtime library's source (one of `libraries`) into `world` where its adapter
/// requires it from; nothing for a tool that is not a library. A library that was not found
/// is an error saying how to get it.
pub(crate) fn mount_library(
    libraries: &[(RuntimeTool, Library)],
    tool: RuntimeTool,
    world: &World,
) -> Result<(), String> {
    let Some(path) = tool.library_path() else {
        return Ok(());
    };
    let library = libraries
        .iter()
        .find(|(candidate, _)| *candidate == tool)
        .map(|(_, library)| library)
        .ok_or_else(|| {
            format!(
                "{} is not installed: run `blinkblox bench --download --tools {}` or pass --source {}=PATH",
                tool.display(),
                tool.key(),
                tool.key()
            )
        })?;
    library.mount(world, path).map_err(lua_error("server set-up"))
}

/// The most steps a client's set-up may wait for the server (a library's handshake).
pub(crate) const CLIENT_SETUP_STEPS: u32 = 30;

/// Steps until the client's set-up thread has built `shared.BenchFrame`, and returns it.
fn await_client_frame(sim: &mut Simulation) -> Result<mlua::Function, String> {
    let setup = lua_error("client set-up");
    for _ in 0..=CLIENT_SETUP_STEPS {
        let client = sim.client(0).ok_or("the client left")?;
        if let Some(error) = client.errors().first() {
            return Err(format!("client set-up: {error}"));
        }
        let frame: Option<mlua::Function> = client.eval("return shared.BenchFrame").map_err(&setup)?;
        if let Some(frame) = frame {
            return Ok(frame);
        }
        sim.step().map_err(lua_error("waiting for the client's set-up"))?;
    }
    Err(client_setup_timed_out(sim))
}

/// Why a client's adapter never became ready: the frames waited and the first warnings
/// the worlds printed (an adapter waiting for something usually warns about it).
pub(crate) fn client_setup_timed_out(sim: &Simulation) -> String {
    let warnings: Vec<String> = sim.worlds().flat_map(|world| world.warnings()).take(3).collect();
    format!(
        "client set-up: the adapter's client did not finish within {CLIENT_SETUP_STEPS} frames \
         (is it waiting for something the server never sends?){}",
        if warnings.is_empty() {
            String::new()
        } else {
            format!("; warnings: {}", warnings.join(" | "))
        }
    )
}

/// `shared.BenchClock()`: seconds of the thread's CPU time, which the client harness times
/// its fires and flush with (it falls back to `os.clock` where this is absent, as in Studio).
pub(crate) fn install_clock(world: &World) -> mlua::Result<()> {
    let lua = world.lua();
    let clock = lua.create_function(|_, ()| Ok(TimingClock::ThreadCpu.now().as_secs_f64()))?;
    lua.globals().get::<mlua::Table>("shared")?.set("BenchClock", clock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_nearest_rank_percentiles() {
        let odd = Stats::of_seconds(&[0.003, 0.001, 0.002]).expect("stats");
        assert_eq!((odd.median_ms, odd.p99_ms), (2.0, 3.0));
        let even = Stats::of_seconds(&[0.004, 0.001, 0.002, 0.003]).expect("stats");
        assert_eq!(even.median_ms, 2.5);
        // 200 frames: the 99th percentile is the 198th smallest, so two outliers do not set it.
        let mut frames: Vec<f64> = (1..=200).map(|i| f64::from(i) / 1000.0).collect();
        frames[199] = 10.0;
        let stats = Stats::of_seconds(&frames).expect("stats");
        assert_eq!(stats.p99_ms, 198.0);
        assert!(Stats::of_seconds(&[]).is_none());
    }

    #[test]
    fn random_benches_fire_their_plain_event() {
        assert_eq!(event_of("BooleansRandom"), "Booleans");
        assert_eq!(event_of("EntitiesRandom"), "Entities");
        assert_eq!(event_of("Tiny"), "Tiny");
    }
}
