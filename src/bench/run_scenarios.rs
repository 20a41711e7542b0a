//! The Scenarios benches, BlinkBlox only (`benchmark/harness/scenarios.luau`): Broadcast (100
//! units a frame to 50 players with FireAll) and ManyEvents (100 reliable events a frame to one
//! player over 128 declarations). The server's fires and flush are timed in Luau, each
//! client's decode by the simulation's clock (the thread's CPU time); the remote calls a frame
//! are counted from the traffic. Each row runs in a fresh simulation.

use std::path::Path;

use crate::bench::BenchError;
use crate::bench::run::{Stats, WARMUP_FRAMES, compile_text, install_clock, read};
use crate::bench::run_compiler::many_declarations_schema_from;
use crate::runtime::{Mode, Simulation, TimingClock};

/// The scenarios, in the order the table shows them.
pub const SCENARIOS: [&str; 2] = ["Broadcast", "ManyEvents"];

/// Events the server sends a frame in every scenario.
const EVENTS_PER_FRAME: u64 = 100;

/// What one scenario row measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenarioFigures {
    /// The server's fires and flush, per frame.
    pub send: Stats,
    /// One player's decode (listeners included), per frame, averaged over the players.
    pub decode: Stats,
    /// Remote calls a frame (a FireAllClients is one call, a FireClient per player one each).
    pub calls_per_frame: f64,
    pub players: usize,
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
    broadcast: (String, String),
    many_events: (String, String),
}

impl ScenarioHarness {
    pub fn load(bench_dir: &Path) -> Result<ScenarioHarness, BenchError> {
        let many = bench_dir
            .join("definitions")
            .join("ManyEvents (128 declarations, generated)");
        Ok(ScenarioHarness {
            harness: read(&bench_dir.join("harness").join("scenarios.luau"))?,
            broadcast: compile_text(
                &bench_dir.join("definitions").join("Scenarios.blink"),
                &read(&bench_dir.join("definitions").join("Scenarios.blink"))?,
            )?,
            many_events: compile_text(&many, &many_declarations_schema_from(128, "Server"))?,
        })
    }
}

fn lua_error(context: &'static str) -> impl Fn(mlua::Error) -> String {
    move |err| format!("{context}: {err}")
}

fn measure(harness: &ScenarioHarness, scenario: &str, mode: Mode, frames: u32) -> Result<ScenarioFigures, String> {
    let (players, (server_module, client_module)) = match scenario {
        "Broadcast" => (50, &harness.broadcast),
        _ => (1, &harness.many_events),
    };
    let mut sim = Simulation::new(mode, players).map_err(lua_error("starting the simulation"))?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let frame_fn: mlua::Function = {
        let server = sim.server();
        let setup = lua_error("server set-up");
        install_clock(server).map_err(&setup)?;
        server.load_module("Server", server_module).map_err(&setup)?;
        server.load_module("Scenarios", &harness.harness).map_err(&setup)?;
        server
            .eval(&format!("return require('Scenarios').server('{scenario}')"))
            .map_err(&setup)?
    };
    sim.step().map_err(lua_error("replicating the remotes"))?;
    for (_, client) in sim.clients() {
        let setup = lua_error("client set-up");
        client.load_module("Client", client_module).map_err(&setup)?;
        client.load_module("Scenarios", &harness.harness).map_err(&setup)?;
        client
            .exec(&format!("shared.Received = require('Scenarios').client('{scenario}')"))
            .map_err(&setup)?;
    }
    sim.take_traffic();

    let (mut sends, mut decodes, mut calls) = (Vec::new(), Vec::new(), 0u64);
    for frame in 0..WARMUP_FRAMES + frames {
        let send: f64 = sim.server().call(&frame_fn, ()).map_err(lua_error("sending"))?;
        sim.step().map_err(lua_error("delivering"))?;
        let timing = sim.last_step_timing();
        let total: f64 = timing.clients.iter().map(|(_, t)| t.receive.as_secs_f64()).sum();
        let decode = total / timing.clients.len().max(1) as f64;
        let traffic = sim.take_traffic();
        if frame >= WARMUP_FRAMES {
            sends.push(send);
            decodes.push(decode);
            calls += traffic.total().calls;
        }
    }
    let expected = EVENTS_PER_FRAME * u64::from(WARMUP_FRAMES + frames);
    for world in sim.worlds() {
        if let Some(error) = world.errors().first() {
            return Err(format!("a world raised: {error}"));
        }
    }
    for (index, client) in sim.clients() {
        let received: u64 = client
            .eval("return shared.Received()")
            .map_err(lua_error("reading the tally"))?;
        if received != expected {
            return Err(format!(
                "player {} received {received} of the {expected} events sent",
                index + 1
            ));
        }
    }
    let stats = |samples: &[f64]| Stats::of_seconds(samples).ok_or("no frames were timed (--frames 0)");
    Ok(ScenarioFigures {
        send: stats(&sends)?,
        decode: stats(&decodes)?,
        calls_per_frame: calls as f64 / f64::from(frames),
        players,
    })
}

/// Runs `scenarios` in each mode, each row in a fresh simulation.
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
                    "send {:.3} ms, decode {:.3} ms a player, {} calls a frame",
                    figures.send.median_ms, figures.decode.median_ms, figures.calls_per_frame
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
