//! The Scenarios benches, BlinkBlox only (`benchmark/harness/scenarios.luau`, on
//! `benchmark/definitions/Scenarios.blink`): a server sending to a crowd (Broadcast, WorldState,
//! SelfState, the two streams), many declarations (ManyEvents), Instances, and a client's
//! unreliable inputs with and without BatchUnreliable (the schema compiled a second time with
//! the option added). A row's frames run in turns, each turn in a fresh simulation
//! ([`crate::turns`]).
//!
//! [`spec`] says what each scenario is, and [`drive`] runs its frames and checks what the
//! receivers got; the Rivals ([`crate::rivals`]) share both to run these scenarios on every
//! tool.

pub mod drive;
pub mod spec;

use drive::{Flush, ScenarioFigures, ScenarioSamples, drive_into};
use spec::{Direction, ScenarioSpec, spec};

use crate::competitors::blinkblox::scenario_modules;
use crate::competitors::{BLINKBLOX, Context, ScenarioModules};
use crate::progress;
use crate::simulation::{install_clock, lua_error, new_simulation};
use crate::turns::{Pace, Turn, take_turns};
use crate::{BenchError, read_checkout_file};
use blinkblox_luau::{Mode, Simulation, TimingClock};

pub use spec::SCENARIOS;

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioRow {
    pub scenario: &'static str,
    pub mode: Mode,
    pub outcome: Result<ScenarioFigures, String>,
}

/// The Scenarios harness and BlinkBlox's modules for each schema the scenarios run on.
pub struct ScenarioHarness {
    harness: String,
    modules: ScenarioModules,
}

impl ScenarioHarness {
    pub fn load(context: &Context) -> Result<ScenarioHarness, BenchError> {
        let modules = scenario_modules(context)?;
        Ok(ScenarioHarness {
            harness: read_checkout_file(&context.harness_file("scenarios.luau"))?,
            modules,
        })
    }
}

/// Loads the harness into every world and returns the function that sends one frame.
fn set_up(
    sim: &mut Simulation,
    harness: &ScenarioHarness,
    scenario: &str,
    spec: ScenarioSpec,
) -> Result<mlua::Function, String> {
    let modules = spec.schema.modules_in(&harness.modules)?;
    let mut send_frame = None;
    {
        let server = sim.server();
        let setup = lua_error("server set-up");
        install_clock(server).map_err(&setup)?;
        modules.load_server(server).map_err(&setup)?;
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
        modules.load_client(client).map_err(&setup)?;
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
    turn: &Turn,
    samples: &mut ScenarioSamples,
) -> Result<u32, String> {
    let mut sim = new_simulation(mode, spec.players)?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let send_frame = set_up(&mut sim, harness, scenario, spec)?;
    drive_into(&mut sim, spec, &send_frame, Flush::WhenAsked, turn, samples)
}

/// A row's frames in turns of [`TURN_FRAMES`](crate::turns::TURN_FRAMES), each turn in a fresh
/// simulation (as in the runtime benches; here BlinkBlox is the only tool, so its turns follow
/// one another).
fn measure(harness: &ScenarioHarness, scenario: &str, mode: Mode, pace: Pace) -> Result<ScenarioFigures, String> {
    let spec = spec(scenario).ok_or_else(|| format!("unknown scenario `{scenario}`"))?;
    let mut samples = [Ok(ScenarioSamples::default())];
    take_turns(&[pace.frames], pace.row_budget, &mut samples, |_, turn, samples| {
        run_turn(harness, scenario, spec, mode, turn, samples)
    });
    let [samples] = samples;
    samples?.figures(spec)
}

/// Runs `scenarios` in each mode, each row in turns of fresh simulations.
pub fn run_scenarios(
    harness: &ScenarioHarness,
    scenarios: &[&'static str],
    modes: &[Mode],
    pace: Pace,
) -> Vec<ScenarioRow> {
    let mut rows = Vec::new();
    for &scenario in scenarios {
        for &mode in modes {
            let outcome = measure(harness, scenario, mode, pace);
            let summary = match &outcome {
                Ok(figures) => format!(
                    "send {:.3} ms, decode {:.3} ms a receiver, {} calls a frame, {} frames",
                    figures.send.median_ms, figures.decode.median_ms, figures.calls_per_frame, figures.frames
                ),
                Err(err) => format!("failed: {err}"),
            };
            progress::step(
                "Ran",
                &format!("{scenario} / {} / {} — {summary}", BLINKBLOX.key(), mode.label()),
            );
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
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark");
        let context = Context {
            bench_dir: &dir,
            sources: &[],
            local: false,
        };
        let harness = ScenarioHarness::load(&context).expect("the Scenarios harness loads and compiles both schemas");
        let err = measure(&harness, "Nonesuch", Mode::Native, Pace::frames(1)).expect_err("unknown scenario");
        assert!(err.contains("unknown scenario `Nonesuch`"), "{err}");
    }
}
