//! The Rivals benches: the seed page's crowd, unreliable and Instance scenarios on every tool.
//! Broadcast, UnreliableInput (and BlinkBlox's BatchUnreliable variant), Instances,
//! WorldState, SelfState and, for the code generators, ManyEvents.
//!
//! The Luau half is `benchmark/harness/rivals.luau` (the values, the frame's loop, the timing
//! and the receivers' checks, shared by every tool) and one adapter per tool in
//! `benchmark/harness/rivals/<tool>.luau` (the calls that tool makes, and which scenarios it
//! cannot run and why). This file runs the rows of a scenario side by side, in turns of fresh
//! [`Simulation`]s as the runtime benches do, and drives each turn with the Scenarios' frame
//! loop ([`drive_into`]): the same clock, the same decode per receiver, the same remote calls
//! summed over every player reached.
//!
//! BlinkBlox runs on the Scenarios' modules (`definitions/Scenarios.blink`); Blink 0.18 on
//! what its own compiler makes of `definitions/Scenarios.upstream.blink` and of the
//! 128-declaration schema in its dialect; the runtime libraries are mounted from their source
//! as in the runtime benches.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::BenchError;
use crate::library::{Library, load_tool_library};
use crate::run::{CLIENT_SETUP_STEPS, RuntimeTool, client_setup_timed_out, install_clock, mount_library, read};
use crate::run_compiler::many_declarations_schema_for_blink;
use crate::run_row::{TURN_FRAMES, take_turns};
use crate::run_scenarios::{
    Direction, Flush, ScenarioFigures, ScenarioHarness, ScenarioSamples, ScenarioSpec, Schema, drive_into,
    empty_frame_cost, lua_error, spec,
};
use crate::run_upstream::compile_upstream;
use crate::run_zap::{compile_with_zap, find_zap};
use blinkblox_luau::{Mode, Simulation, TimingClock};

/// The Rivals scenarios, in the order the table shows them.
pub const RIVALS: [&str; 7] = [
    "Broadcast",
    "UnreliableInput",
    "UnreliableInputBatched",
    "Instances",
    "WorldState",
    "SelfState",
    "ManyEvents",
];

/// The number of declarations ManyEvents spreads its events over.
const DECLARATIONS: usize = 128;

/// Whether a tool takes part in the Rivals (the hand-written floor and plain remotes do not:
/// the floor covers the runtime benches' events only, and plain remotes are the runtime
/// benches' baseline).
pub fn is_rival(tool: RuntimeTool) -> bool {
    !matches!(tool, RuntimeTool::Handwritten | RuntimeTool::Roblox)
}

/// What one (scenario, tool, mode) row came to.
#[derive(Clone, Debug, PartialEq)]
pub enum RivalOutcome {
    Measured(ScenarioFigures),
    /// The tool has no such feature (its adapter says which); the cell says so.
    Unsupported(String),
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RivalRow {
    pub scenario: &'static str,
    pub tool: RuntimeTool,
    pub mode: Mode,
    pub outcome: RivalOutcome,
}

/// A code generator's modules: for the Scenarios schema and for the 128 declarations, or why
/// there are none.
struct Generated {
    tool: RuntimeTool,
    scenarios: Result<(String, String), String>,
    many: Result<(String, String), String>,
}

/// The Rivals harness: the shared driver, the adapters, and each tool's modules or library.
pub struct RivalsHarness {
    driver: String,
    adapters: Vec<(RuntimeTool, String)>,
    blinkblox: ScenarioHarness,
    generated: Vec<Generated>,
    libraries: Vec<(RuntimeTool, Library)>,
}

fn adapter_path(bench_dir: &Path, tool: RuntimeTool) -> std::path::PathBuf {
    bench_dir
        .join("harness")
        .join("rivals")
        .join(format!("{}.luau", tool.key()))
}

impl RivalsHarness {
    /// Reads the driver and the adapters of `tools` and compiles BlinkBlox's modules. A tool
    /// without an adapter file is left out; [`has_adapter`](Self::has_adapter) says which.
    pub fn load(bench_dir: &Path, tools: &[RuntimeTool]) -> Result<RivalsHarness, BenchError> {
        let mut adapters = Vec::new();
        for &tool in tools {
            let path = adapter_path(bench_dir, tool);
            if path.is_file() {
                adapters.push((tool, read(&path)?));
            }
        }
        Ok(RivalsHarness {
            driver: read(&bench_dir.join("harness").join("rivals.luau"))?,
            adapters,
            blinkblox: ScenarioHarness::load(bench_dir)?,
            generated: Vec::new(),
            libraries: Vec::new(),
        })
    }

    pub fn has_adapter(&self, tool: RuntimeTool) -> bool {
        self.adapters.iter().any(|(candidate, _)| *candidate == tool)
    }

    /// Compiles Blink's modules with its own compiler from `upstream_dir`: Scenarios.upstream.blink
    /// and the 128 declarations in its dialect, sent by the server. A failure fails those rows.
    pub fn add_upstream(&mut self, bench_dir: &Path, upstream_dir: &Path) -> Result<(), BenchError> {
        let driver = read(&bench_dir.join("harness").join("upstream.luau"))?;
        let schema = read(&bench_dir.join("definitions").join("Scenarios.upstream.blink"))?;
        let many = many_declarations_schema_for_blink(DECLARATIONS).replace("From: Client", "From: Server");
        let compile = |text: &str| compile_upstream(upstream_dir, &driver, text).map_err(|err| err.to_string());
        self.add_generated(RuntimeTool::Upstream, compile(&schema), compile(&many));
        Ok(())
    }

    /// Compiles zap's modules with its `binary`: Scenarios.zap and the 128 declarations in its
    /// language, sent by the server. A failure fails those rows.
    pub fn add_zap(&mut self, bench_dir: &Path, binary: &Path) -> Result<(), BenchError> {
        let schema = read(&bench_dir.join("definitions").join("Scenarios.zap"))?;
        let compile = |text: &str| compile_with_zap(binary, text).map_err(|err| err.to_string());
        self.add_generated(
            RuntimeTool::Zap,
            compile(&schema),
            compile(&many_declarations_schema_for_zap(DECLARATIONS)),
        );
        Ok(())
    }

    /// Adds (or replaces) a code generator's modules for the Scenarios schema and for the 128
    /// declarations.
    pub fn add_generated(
        &mut self,
        tool: RuntimeTool,
        scenarios: Result<(String, String), String>,
        many: Result<(String, String), String>,
    ) {
        self.generated.retain(|generated| generated.tool != tool);
        self.generated.push(Generated { tool, scenarios, many });
    }

    /// Adds (or replaces) the source a runtime library's rows mount.
    pub fn add_library(&mut self, tool: RuntimeTool, library: Library) {
        self.libraries.retain(|(candidate, _)| *candidate != tool);
        self.libraries.push((tool, library));
    }

    fn adapter(&self, tool: RuntimeTool) -> Option<&str> {
        self.adapters
            .iter()
            .find(|(candidate, _)| *candidate == tool)
            .map(|(_, source)| source.as_str())
    }

    /// The Server and Client modules a tool runs for `schema` (none for a library).
    fn modules(&self, tool: RuntimeTool, schema: Schema) -> Result<Option<&(String, String)>, String> {
        if tool == RuntimeTool::Blink {
            return Ok(Some(self.blinkblox.modules(schema)));
        }
        if let Some(generated) = self.generated.iter().find(|generated| generated.tool == tool) {
            let modules = match schema {
                Schema::Scenarios => &generated.scenarios,
                Schema::ManyDeclarations => &generated.many,
                Schema::ScenariosBatched => {
                    return Err(format!("{} has no BatchUnreliable modules", tool.display()));
                }
            };
            return modules.as_ref().map(Some).map_err(Clone::clone);
        }
        if tool.is_library() {
            return Ok(None);
        }
        Err(format!("{}'s modules were not compiled for the Rivals", tool.display()))
    }
}

/// The 128-declaration schema of ManyEvents in zap 0.6's language, sent by the server: the
/// same data as [`crate::run_compiler::many_declarations_schema_from`], except that an
/// event carries one value in zap, so the (u16, string) declarations take a struct.
pub fn many_declarations_schema_for_zap(count: usize) -> String {
    let mut text = String::from(
        "opt server_output = \"network/Server.luau\"\nopt client_output = \"network/Client.luau\"\n\
         opt remote_scope = \"MANY\"\nopt manual_event_loop = true\nopt casing = \"PascalCase\"\n\n\
         type Unit = struct {\n\tid: u16,\n\tposition: Vector3,\n\thealth: u8,\n\talive: boolean,\n}\n\n\
         type Pair = struct {\n\tnumber: u16,\n\ttext: string(0..32),\n}\n\n",
    );
    for index in 0..count {
        let data = match index % 4 {
            0 => "u8",
            1 => "Unit",
            2 => "Pair",
            _ => "Unit[0..16]",
        };
        text.push_str(&format!(
            "event Event{index} = {{\n\tfrom: Server,\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: {data},\n}}\n\n"
        ));
    }
    text
}

/// Asks the adapter, in a plain Luau state, why the tool cannot run `scenario` (None: it can).
fn unsupported(adapter: &str, tool: RuntimeTool, scenario: &str) -> Result<Option<String>, String> {
    let lua = mlua::Lua::new();
    let failed = |err: mlua::Error| format!("harness/rivals/{}.luau: {err}", tool.key());
    let table: mlua::Table = lua
        .load(adapter)
        .set_name(format!("=harness/rivals/{}.luau", tool.key()))
        .eval()
        .map_err(failed)?;
    let function: mlua::Function = table.get("unsupported").map_err(failed)?;
    function.call(scenario).map_err(failed)
}

/// Loads the tool, the adapter and the driver into every world and returns the function that
/// sends one frame, once every receiver's listeners are connected.
fn set_up(
    sim: &mut Simulation,
    harness: &RivalsHarness,
    adapter: &str,
    tool: RuntimeTool,
    scenario: &str,
    spec: ScenarioSpec,
) -> Result<mlua::Function, String> {
    let modules = harness.modules(tool, spec.schema)?;
    let mut send_frame = None;
    {
        let server = sim.server();
        let setup = lua_error("server set-up");
        install_clock(server).map_err(&setup)?;
        if let Some((server_module, _)) = modules {
            server.load_module("Server", server_module).map_err(&setup)?;
        }
        mount_library(&harness.libraries, tool, server)?;
        server.load_module("RivalsAdapter", adapter).map_err(&setup)?;
        server.load_module("Rivals", &harness.driver).map_err(&setup)?;
        match spec.direction {
            Direction::ToPlayers => {
                let function = server
                    .eval(&format!("return require('Rivals').server('{scenario}')"))
                    .map_err(&setup)?;
                send_frame = Some(function);
            }
            Direction::ToServer => server
                .exec(&format!(
                    "shared.Received = require('Rivals').serverReceiver('{scenario}')"
                ))
                .map_err(&setup)?,
        }
    }
    // The remotes (and a library's tree) the server made reach the clients.
    sim.step().map_err(lua_error("replicating the remotes"))?;
    for (index, client) in sim.clients() {
        let setup = lua_error("client set-up");
        install_clock(client).map_err(&setup)?;
        if let Some((_, client_module)) = modules {
            client.load_module("Client", client_module).map_err(&setup)?;
        }
        client.load_module("RivalsAdapter", adapter).map_err(&setup)?;
        client.load_module("Rivals", &harness.driver).map_err(&setup)?;
        // In a task thread: a library's client may wait for the server (an attribute, a
        // handshake) before it can listen or fire, which takes simulation steps.
        match spec.direction {
            Direction::ToPlayers => client
                .spawn(&format!("shared.Received = require('Rivals').client('{scenario}')"))
                .map_err(&setup)?,
            Direction::ToServer if index == 0 => client
                .spawn(&format!(
                    "shared.RivalsFrame = require('Rivals').clientSender('{scenario}')"
                ))
                .map_err(&setup)?,
            Direction::ToServer => {}
        }
    }
    await_clients(sim, spec)?;
    if let Some(function) = send_frame {
        return Ok(function);
    }
    let sender = sim.client(0).ok_or("no player joined to send from")?;
    sender
        .eval("return shared.RivalsFrame")
        .map_err(lua_error("client set-up"))
}

/// Steps until every client's set-up thread has finished (its tally, or the sender's frame).
fn await_clients(sim: &mut Simulation, spec: ScenarioSpec) -> Result<(), String> {
    let probe = match spec.direction {
        Direction::ToPlayers => "return shared.Received ~= nil",
        Direction::ToServer => "return shared.RivalsFrame ~= nil",
    };
    for _ in 0..=CLIENT_SETUP_STEPS {
        let mut ready = true;
        for (index, client) in sim.clients() {
            if let Some(error) = client.errors().first() {
                return Err(format!("client set-up (player {}): {error}", index + 1));
            }
            if spec.direction == Direction::ToServer && index > 0 {
                continue;
            }
            ready &= client.eval::<bool>(probe).map_err(lua_error("client set-up"))?;
        }
        if ready {
            return Ok(());
        }
        sim.step().map_err(lua_error("waiting for the clients' set-up"))?;
    }
    Err(client_setup_timed_out(sim))
}

/// Whether `tool` can run `scenario` at all: its adapter, the scenario's spec, and the
/// features the adapter says the tool lacks.
fn runnable<'h>(
    harness: &'h RivalsHarness,
    scenario: &str,
    tool: RuntimeTool,
) -> Result<(&'h str, ScenarioSpec), RivalOutcome> {
    let Some(adapter) = harness.adapter(tool) else {
        return Err(RivalOutcome::Failed(format!(
            "no adapter: benchmark/harness/rivals/{}.luau is missing",
            tool.key()
        )));
    };
    let Some(spec) = spec(scenario) else {
        return Err(RivalOutcome::Failed(format!("unknown scenario `{scenario}`")));
    };
    match unsupported(adapter, tool, scenario) {
        Ok(Some(reason)) => Err(RivalOutcome::Unsupported(reason)),
        Ok(None) => Ok((adapter, spec)),
        Err(err) => Err(RivalOutcome::Failed(err)),
    }
}

/// What a row runs: the tool's adapter and the scenario's spec.
#[derive(Clone, Copy)]
struct RivalRun<'h> {
    scenario: &'h str,
    tool: RuntimeTool,
    mode: Mode,
    adapter: &'h str,
    spec: ScenarioSpec,
}

/// One turn of a row: a fresh simulation, set up, and `timed` frames driven into `samples`.
fn run_turn(harness: &RivalsHarness, run: RivalRun, timed: u32, samples: &mut ScenarioSamples) -> Result<(), String> {
    let mut sim = Simulation::new(run.mode, run.spec.players).map_err(lua_error("starting the simulation"))?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let flush = if run.tool.is_library() {
        Flush::OnFrameEvent {
            empty_frame: empty_frame_cost(&mut sim, run.spec.direction)?,
        }
    } else {
        Flush::WhenAsked
    };
    let send_frame = set_up(&mut sim, harness, run.adapter, run.tool, run.scenario, run.spec)?;
    drive_into(&mut sim, run.spec, &send_frame, flush, timed, samples)
}

/// Runs each scenario on each tool in each mode. As in the runtime benches
/// ([`crate::run_row`]), the tools of one scenario and mode take turns of
/// [`TURN_FRAMES`] frames in rotation, each turn in a
/// fresh simulation, so that neither a drift of the machine nor one slow simulation lands on
/// a single tool. Reports progress on stderr.
pub fn run_rivals(
    harness: &RivalsHarness,
    scenarios: &[&'static str],
    tools: &[RuntimeTool],
    modes: &[Mode],
    frames: u32,
) -> Vec<RivalRow> {
    let mut rows = Vec::new();
    for &scenario in scenarios {
        for &mode in modes {
            let started = Instant::now();
            eprintln!(
                "{:>12} Rivals {scenario} / {}: {} row(s) taking turns of {TURN_FRAMES} frames",
                "Running",
                mode.label(),
                tools.len()
            );
            let runs: Vec<Result<RivalRun, RivalOutcome>> = tools
                .iter()
                .map(|&tool| {
                    runnable(harness, scenario, tool).map(|(adapter, spec)| RivalRun {
                        scenario,
                        tool,
                        mode,
                        adapter,
                        spec,
                    })
                })
                .collect();
            let targets: Vec<u32> = runs.iter().map(|run| if run.is_ok() { frames } else { 0 }).collect();
            let mut samples: Vec<Result<ScenarioSamples, String>> =
                tools.iter().map(|_| Ok(ScenarioSamples::default())).collect();
            take_turns(&targets, &mut samples, |row, timed, samples| match &runs[row] {
                Ok(run) => run_turn(harness, *run, timed, samples),
                Err(_) => Ok(()),
            });
            for ((&tool, run), samples) in tools.iter().zip(runs).zip(samples) {
                let outcome = match (run, samples) {
                    (Err(outcome), _) => outcome,
                    (Ok(_), Err(err)) => RivalOutcome::Failed(err),
                    (Ok(run), Ok(samples)) => match samples.figures(run.spec) {
                        Ok(figures) => RivalOutcome::Measured(figures),
                        Err(err) => RivalOutcome::Failed(err),
                    },
                };
                let summary = match &outcome {
                    RivalOutcome::Measured(figures) => format!(
                        "send {:.3} ms, decode {:.3} ms a receiver, {} calls a frame, {} frames",
                        figures.send.median_ms, figures.decode.median_ms, figures.calls_per_frame, figures.frames
                    ),
                    RivalOutcome::Unsupported(reason) => format!("not run: {reason}"),
                    RivalOutcome::Failed(err) => format!("failed: {err}"),
                };
                eprintln!(
                    "{:>12} Rivals {scenario} / {} / {} — {summary}",
                    "Ran",
                    tool.key(),
                    mode.label()
                );
                rows.push(RivalRow {
                    scenario,
                    tool,
                    mode,
                    outcome,
                });
            }
            eprintln!(
                "{:>12} Rivals {scenario} / {} in {:.1} s",
                "Finished",
                mode.label(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    rows
}

/// What the Rivals group runs, and where its tools come from.
pub struct RivalsPlan<'a> {
    pub bench_dir: &'a Path,
    /// `--source NAME=PATH` folders (the libraries').
    pub sources: &'a [(String, PathBuf)],
    /// Blink's source, when Blink's column runs.
    pub upstream: Option<&'a Path>,
    pub scenarios: &'a [&'static str],
    /// The tools selected for the run; those that take no part in the Rivals are skipped.
    pub tools: &'a [RuntimeTool],
    pub modes: &'a [Mode],
    pub frames: u32,
}

/// Something that did not run, and why (the report's "Not run").
pub type NotRun = (String, String);

/// Loads what the plan's tools need and runs the rows; returns them with the tools that could
/// not take part and why (for the report's "Not run").
pub fn run_rivals_group(plan: &RivalsPlan) -> Result<(Vec<RivalRow>, Vec<NotRun>), BenchError> {
    let candidates: Vec<RuntimeTool> = plan.tools.iter().copied().filter(|tool| is_rival(*tool)).collect();
    let mut harness = RivalsHarness::load(plan.bench_dir, &candidates)?;
    let mut tools = Vec::new();
    let mut not_run = Vec::new();
    for tool in candidates {
        if !harness.has_adapter(tool) {
            not_run.push((
                format!("Rivals on {}", tool.display()),
                format!(
                    "no adapter for its API yet (benchmark/harness/rivals/{}.luau)",
                    tool.key()
                ),
            ));
            continue;
        }
        if tool.is_library() {
            harness.add_library(tool, load_tool_library(plan.bench_dir, plan.sources, tool)?);
        } else if tool == RuntimeTool::Upstream {
            match plan.upstream {
                Some(dir) => harness.add_upstream(plan.bench_dir, dir)?,
                None => continue,
            }
        } else if tool == RuntimeTool::Zap {
            match find_zap(plan.bench_dir, plan.sources) {
                Ok(binary) => harness.add_zap(plan.bench_dir, &binary)?,
                Err(err) => {
                    not_run.push((format!("Rivals on {}", tool.display()), err.to_string()));
                    continue;
                }
            }
        }
        tools.push(tool);
    }
    let rows = run_rivals(&harness, plan.scenarios, &tools, plan.modes, plan.frames);
    Ok((rows, not_run))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench_dir() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark")
    }

    #[test]
    fn every_rival_scenario_has_a_set_up() {
        for scenario in RIVALS {
            assert!(spec(scenario).is_some(), "{scenario} has no spec");
        }
    }

    #[test]
    fn every_adapter_answers_for_every_scenario_and_packet_has_no_unreliable_channel() {
        let tools: Vec<RuntimeTool> = RuntimeTool::ALL.into_iter().filter(|tool| is_rival(*tool)).collect();
        let harness = RivalsHarness::load(&bench_dir(), &tools).expect("the Rivals harness loads");
        for tool in [
            RuntimeTool::Blink,
            RuntimeTool::Upstream,
            RuntimeTool::ByteNet,
            RuntimeTool::Packet,
            RuntimeTool::QuickNet,
            RuntimeTool::Warp,
        ] {
            let adapter = harness.adapter(tool).expect("an adapter for every rival");
            for scenario in RIVALS {
                unsupported(adapter, tool, scenario).unwrap_or_else(|err| panic!("{scenario}: {err}"));
            }
        }
        let packet = harness.adapter(RuntimeTool::Packet).expect("Packet's adapter");
        for scenario in ["UnreliableInput", "WorldState", "SelfState"] {
            assert_eq!(
                unsupported(packet, RuntimeTool::Packet, scenario),
                Ok(Some("no unreliable channel".to_string()))
            );
        }
        let blink = harness.adapter(RuntimeTool::Blink).expect("BlinkBlox's adapter");
        assert_eq!(unsupported(blink, RuntimeTool::Blink, "ManyEvents"), Ok(None));
    }

    #[test]
    fn zaps_many_events_schema_has_the_same_shapes_sent_by_the_server() {
        let schema = many_declarations_schema_for_zap(8);
        assert_eq!(schema.matches("event Event").count(), 8);
        assert_eq!(schema.matches("\tfrom: Server,").count(), 8);
        // (u16, string) becomes a struct in zap, one value an event.
        assert_eq!(schema.matches("\tdata: Pair,").count(), 2);
        assert!(schema.contains(
            "event Event7 = {\n\tfrom: Server,\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: Unit[0..16],\n}"
        ));
        assert!(schema.contains("opt manual_event_loop = true"));
    }

    #[test]
    fn a_library_that_is_not_installed_fails_its_row_with_the_fix() {
        let harness = RivalsHarness::load(&bench_dir(), &[RuntimeTool::ByteNet]).expect("loads");
        let rows = run_rivals(
            &harness,
            &["Broadcast"],
            &[RuntimeTool::ByteNet],
            &[Mode::Interpreted],
            1,
        );
        let [
            RivalRow {
                outcome: RivalOutcome::Failed(err),
                ..
            },
        ] = rows.as_slice()
        else {
            panic!("expected one failed row, got {rows:?}");
        };
        assert!(err.contains("--source bytenet=PATH"), "{err}");
    }
}
