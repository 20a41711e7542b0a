//! The Scenarios benches, BlinkBlox only (`benchmark/harness/scenarios.luau`, on
//! `benchmark/definitions/Scenarios.blink`): a server sending to a crowd (Broadcast, WorldState,
//! SelfState, the two streams), many declarations (ManyEvents), Instances, and a client's
//! unreliable inputs with and without BatchUnreliable (the schema compiled a second time with
//! the option added). The sender's fires and flush are timed in Luau, each receiver's decode by
//! the simulation's clock (the thread's CPU time); the remote calls a frame are counted from the
//! traffic, summed over every player reached. A row's frames run in turns, each turn in a fresh
//! simulation ([`crate::run_row`]).
//!
//! The frame loop and the receivers' check ([`drive_into`]) are shared with the Rivals
//! (`run_rivals.rs`), which run these scenarios on every tool.

use std::path::Path;

use crate::BenchError;
use crate::run::{Stats, WARMUP_FRAMES, compile_text, install_clock, read};
use crate::run_compiler::many_declarations_schema_from;
use crate::run_row::take_turns;
use blinkblox_luau::{Mode, Simulation, TimingClock};

/// The scenarios, in the order the table shows them.
pub const SCENARIOS: [&str; 9] = [
    "Broadcast",
    "ManyEvents",
    "UnreliableInput",
    "UnreliableInputBatched",
    "Instances",
    "WorldState",
    "SelfState",
    "BroadcastStream",
    "PlayerStream",
];

/// Which compiled schema a scenario runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schema {
    Scenarios,
    /// Scenarios.blink with `option BatchUnreliable = true`.
    ScenariosBatched,
    ManyDeclarations,
}

/// Who sends: the server to its players, or the first player to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    ToPlayers,
    ToServer,
}

/// How a scenario is set up and what each receiver must get.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScenarioSpec {
    pub(crate) schema: Schema,
    pub(crate) players: usize,
    pub(crate) direction: Direction,
    /// Values each receiver's listeners get a frame (events, or stream updates).
    pub(crate) received_per_frame: u64,
}

pub(crate) fn spec(scenario: &str) -> Option<ScenarioSpec> {
    let (schema, players, direction, received_per_frame) = match scenario {
        "Broadcast" => (Schema::Scenarios, 50, Direction::ToPlayers, 100),
        "ManyEvents" => (Schema::ManyDeclarations, 1, Direction::ToPlayers, 100),
        "UnreliableInput" => (Schema::Scenarios, 1, Direction::ToServer, 8),
        "UnreliableInputBatched" => (Schema::ScenariosBatched, 1, Direction::ToServer, 8),
        "Instances" => (Schema::Scenarios, 1, Direction::ToPlayers, 100),
        "WorldState" | "SelfState" | "BroadcastStream" | "PlayerStream" => {
            (Schema::Scenarios, 50, Direction::ToPlayers, 1)
        }
        _ => return None,
    };
    Some(ScenarioSpec {
        schema,
        players,
        direction,
        received_per_frame,
    })
}

/// What one scenario row measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenarioFigures {
    /// The sender's fires and flush, per frame.
    pub send: Stats,
    /// One receiver's decode (listeners included), per frame, averaged over the receivers.
    pub decode: Stats,
    /// Remote calls a frame (a FireAllClients is one call, a FireClient per player one each).
    pub calls_per_frame: f64,
    pub players: usize,
    /// The frames timed.
    pub frames: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioRow {
    pub scenario: &'static str,
    pub mode: Mode,
    pub outcome: Result<ScenarioFigures, String>,
}

/// The Scenarios harness and the modules each scenario runs.
pub struct ScenarioHarness {
    harness: String,
    scenarios: (String, String),
    scenarios_batched: (String, String),
    many_events: (String, String),
}

impl ScenarioHarness {
    pub fn load(bench_dir: &Path) -> Result<ScenarioHarness, BenchError> {
        let definitions = bench_dir.join("definitions");
        let schema_path = definitions.join("Scenarios.blink");
        let schema = read(&schema_path)?;
        // Options may come first in any order, so the batched variant only adds a line ahead.
        let batched = format!("option BatchUnreliable = true\n{schema}");
        let many = definitions.join("ManyEvents (128 declarations, generated)");
        Ok(ScenarioHarness {
            harness: read(&bench_dir.join("harness").join("scenarios.luau"))?,
            scenarios: compile_text(&schema_path, &schema)?,
            scenarios_batched: compile_text(&definitions.join("Scenarios.blink (with BatchUnreliable)"), &batched)?,
            many_events: compile_text(&many, &many_declarations_schema_from(128, "Server"))?,
        })
    }

    /// BlinkBlox's Server and Client modules for `schema`.
    pub(crate) fn modules(&self, schema: Schema) -> &(String, String) {
        match schema {
            Schema::Scenarios => &self.scenarios,
            Schema::ScenariosBatched => &self.scenarios_batched,
            Schema::ManyDeclarations => &self.many_events,
        }
    }
}

pub(crate) fn lua_error(context: &'static str) -> impl Fn(mlua::Error) -> String {
    move |err| format!("{context}: {err}")
}

/// Loads the harness into every world and returns the function that sends one frame.
fn set_up(
    sim: &mut Simulation,
    harness: &ScenarioHarness,
    scenario: &str,
    spec: ScenarioSpec,
) -> Result<mlua::Function, String> {
    let (server_module, client_module) = harness.modules(spec.schema);
    let mut send_frame = None;
    {
        let server = sim.server();
        let setup = lua_error("server set-up");
        install_clock(server).map_err(&setup)?;
        server.load_module("Server", server_module).map_err(&setup)?;
        server.load_module("Scenarios", &harness.harness).map_err(&setup)?;
        match spec.direction {
            Direction::ToPlayers => {
                let function = server
                    .eval(&format!("return require('Scenarios').server('{scenario}')"))
                    .map_err(&setup)?;
                send_frame = Some(function);
            }
            Direction::ToServer => server
                .exec(&format!(
                    "shared.Received = require('Scenarios').serverReceiver('{scenario}')"
                ))
                .map_err(&setup)?,
        }
    }
    sim.step().map_err(lua_error("replicating the remotes"))?;
    for (index, client) in sim.clients() {
        let setup = lua_error("client set-up");
        install_clock(client).map_err(&setup)?;
        client.load_module("Client", client_module).map_err(&setup)?;
        client.load_module("Scenarios", &harness.harness).map_err(&setup)?;
        match spec.direction {
            Direction::ToPlayers => client
                .exec(&format!("shared.Received = require('Scenarios').client('{scenario}')"))
                .map_err(&setup)?,
            Direction::ToServer if index == 0 => {
                let function = client
                    .eval(&format!("return require('Scenarios').clientSender('{scenario}')"))
                    .map_err(&setup)?;
                send_frame = Some(function);
            }
            Direction::ToServer => {}
        }
    }
    send_frame.ok_or_else(|| format!("{scenario}: no world to send from (no player joined)"))
}

/// One turn of a row: a fresh simulation, set up, and `timed` frames driven into `samples`.
fn run_turn(
    harness: &ScenarioHarness,
    scenario: &str,
    spec: ScenarioSpec,
    mode: Mode,
    timed: u32,
    samples: &mut ScenarioSamples,
) -> Result<(), String> {
    let mut sim = Simulation::new(mode, spec.players).map_err(lua_error("starting the simulation"))?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let send_frame = set_up(&mut sim, harness, scenario, spec)?;
    drive_into(&mut sim, spec, &send_frame, Flush::WhenAsked, timed, samples)
}

/// A row's frames in turns of [`TURN_FRAMES`](crate::run_row::TURN_FRAMES), each turn
/// in a fresh simulation (as in the runtime benches, [`crate::run_row`]; here BlinkBlox
/// is the only tool, so its turns follow one another).
fn measure(harness: &ScenarioHarness, scenario: &str, mode: Mode, frames: u32) -> Result<ScenarioFigures, String> {
    let spec = spec(scenario).ok_or_else(|| format!("unknown scenario `{scenario}`"))?;
    let mut samples = [Ok(ScenarioSamples::default())];
    take_turns(&[frames], &mut samples, |_, timed, samples| {
        run_turn(harness, scenario, spec, mode, timed, samples)
    });
    let [samples] = samples;
    samples?.figures(spec)
}

/// When a tool's packets leave: when the harness flushes (generated modules with
/// ManualReplication), or in the sender's next frame (a library flushing on Heartbeat or
/// PostSimulation by itself).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Flush {
    WhenAsked,
    /// `empty_frame`: the seconds the sending world's frame takes with nothing loaded (the
    /// mock's own RunService stages), taken off each frame counted as the library's flush.
    OnFrameEvent {
        empty_frame: f64,
    },
}

/// The sending world's frame with nothing loaded yet: the median over a few steps, in seconds.
pub(crate) fn empty_frame_cost(sim: &mut Simulation, direction: Direction) -> Result<f64, String> {
    let mut samples = Vec::new();
    for _ in 0..9 {
        sim.step().map_err(lua_error("timing an empty frame"))?;
        let timing = sim.last_step_timing();
        samples.push(match direction {
            Direction::ToPlayers => timing.server.frame.as_secs_f64(),
            Direction::ToServer => sender_frame(timing),
        });
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}

/// The first player's frame time in a step (the sender of the client-to-server scenarios).
fn sender_frame(timing: &blinkblox_luau::StepTiming) -> f64 {
    timing
        .clients
        .iter()
        .find(|(index, _)| *index == 0)
        .map_or(0.0, |(_, t)| t.frame.as_secs_f64())
}

/// A scenario row's timed frames, gathered over one simulation or several.
#[derive(Debug, Default)]
pub(crate) struct ScenarioSamples {
    sends: Vec<f64>,
    decodes: Vec<f64>,
    calls: u64,
}

impl ScenarioSamples {
    /// Medians and 99th percentiles over every timed frame, and the remote calls a frame.
    pub(crate) fn figures(&self, spec: ScenarioSpec) -> Result<ScenarioFigures, String> {
        let stats = |samples: &[f64]| Stats::of_seconds(samples).ok_or("no frames were timed (--frames 0)");
        Ok(ScenarioFigures {
            send: stats(&self.sends)?,
            decode: stats(&self.decodes)?,
            calls_per_frame: self.calls as f64 / self.sends.len() as f64,
            players: spec.players,
            frames: self.sends.len() as u32,
        })
    }
}

/// Times `frames` frames after [`WARMUP_FRAMES`] into `samples`: `send_frame` (called in the
/// sending world, returning the seconds its fires and flush took), then the steps that
/// deliver; checks that every receiver got every value intact (`shared.Received` in each
/// receiving world).
///
/// A library flushing on a frame event takes two steps a frame: the sender's frame sends, the
/// next step delivers. The sender's frame time in both counts as its flush, and every
/// receiver's deliveries in both as its decode.
pub(crate) fn drive_into(
    sim: &mut Simulation,
    spec: ScenarioSpec,
    send_frame: &mlua::Function,
    flush: Flush,
    frames: u32,
    samples: &mut ScenarioSamples,
) -> Result<(), String> {
    sim.take_traffic();
    let (steps, empty_frame) = match flush {
        Flush::WhenAsked => (1, None),
        Flush::OnFrameEvent { empty_frame } => (2, Some(empty_frame)),
    };
    for frame in 0..WARMUP_FRAMES + frames {
        let sender = match spec.direction {
            Direction::ToPlayers => Some(sim.server()),
            Direction::ToServer => sim.client(0),
        };
        let sender = sender.ok_or("the sending player left")?;
        let mut send: f64 = sender.call(send_frame, ()).map_err(lua_error("sending"))?;
        let mut decode = 0.0;
        for _ in 0..steps {
            sim.step().map_err(lua_error("delivering"))?;
            let timing = sim.last_step_timing();
            match spec.direction {
                Direction::ToPlayers => {
                    let total: f64 = timing.clients.iter().map(|(_, t)| t.receive.as_secs_f64()).sum();
                    decode += total / timing.clients.len().max(1) as f64;
                    if let Some(empty) = empty_frame {
                        send += (timing.server.frame.as_secs_f64() - empty).max(0.0);
                    }
                }
                Direction::ToServer => {
                    decode += timing.server.receive.as_secs_f64();
                    if let Some(empty) = empty_frame {
                        send += (sender_frame(timing) - empty).max(0.0);
                    }
                }
            }
        }
        let traffic = sim.take_traffic();
        if frame >= WARMUP_FRAMES {
            samples.sends.push(send);
            samples.decodes.push(decode);
            samples.calls += traffic.total().calls;
        }
    }
    if empty_frame.is_some() {
        // Anything a library held back for its own throttle arrives before the tallies are read.
        sim.steps(2).map_err(lua_error("delivering the last frame"))?;
    }
    check_received(sim, spec, u64::from(WARMUP_FRAMES + frames))
}

/// Nothing raised, and every receiver's listeners got every value sent to it intact.
fn check_received(sim: &Simulation, spec: ScenarioSpec, frames: u64) -> Result<(), String> {
    for world in sim.worlds() {
        if let Some(error) = world.errors().first() {
            let side = if world.is_server() { "the server" } else { "a client" };
            return Err(format!("{side} raised: {error}"));
        }
    }
    let expected = spec.received_per_frame * frames;
    let receivers: Vec<(String, &blinkblox_luau::World)> = match spec.direction {
        Direction::ToPlayers => sim
            .clients()
            .map(|(index, client)| (format!("player {}", index + 1), client))
            .collect(),
        Direction::ToServer => vec![("the server".to_string(), sim.server())],
    };
    for (who, world) in receivers {
        // The tally gives the values received intact and, where it checks them, the first
        // that was not.
        let (received, mismatch): (u64, Option<String>) = world
            .eval("return shared.Received()")
            .map_err(lua_error("reading the tally"))?;
        if let Some(mismatch) = mismatch {
            return Err(format!("{who} received a wrong value: {mismatch}"));
        }
        if received != expected {
            return Err(format!(
                "{who} received {received} of the {expected} values sent intact"
            ));
        }
    }
    Ok(())
}

/// Runs `scenarios` in each mode, each row in turns of fresh simulations.
pub fn run_scenarios(
    harness: &ScenarioHarness,
    scenarios: &[&'static str],
    modes: &[Mode],
    frames: u32,
) -> Vec<ScenarioRow> {
    let mut rows = Vec::new();
    for &scenario in scenarios {
        for &mode in modes {
            let outcome = measure(harness, scenario, mode, frames);
            let summary = match &outcome {
                Ok(figures) => format!(
                    "send {:.3} ms, decode {:.3} ms a receiver, {} calls a frame, {} frames",
                    figures.send.median_ms, figures.decode.median_ms, figures.calls_per_frame, figures.frames
                ),
                Err(err) => format!("failed: {err}"),
            };
            eprintln!("{:>12} {scenario} / blink / {} — {summary}", "Ran", mode.label());
            rows.push(ScenarioRow {
                scenario,
                mode,
                outcome,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_scenario_has_a_set_up_and_unknown_ones_fail_their_row() {
        for scenario in SCENARIOS {
            assert!(spec(scenario).is_some(), "{scenario} has no spec");
        }
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark");
        let harness = ScenarioHarness::load(&dir).expect("the Scenarios harness loads and compiles both schemas");
        let err = measure(&harness, "Nonesuch", Mode::Native, 1).expect_err("unknown scenario");
        assert!(err.contains("unknown scenario `Nonesuch`"), "{err}");
    }
}
