//! The Rivals benches: the crowd, unreliable and Instance scenarios on every tool.
//! Broadcast, UnreliableInput (and BlinkBlox's BatchUnreliable variant), Instances,
//! WorldState, SelfState and, for the code generators, ManyEvents, Positions and
//! PositionsWhole.
//!
//! The Luau half is `benchmark/harness/rivals.luau` (the values, the frame's loop, the timing
//! and the receivers' checks, shared by every tool) and one adapter per tool in
//! `benchmark/harness/rivals/<tool>.luau` (the calls that tool makes, and which scenarios it
//! cannot run and why). The rows of a scenario run side by side, in turns of fresh
//! simulations as the runtime benches do, each turn driven by the Scenarios' frame loop
//! ([`crate::scenarios::drive`]): the same clock, the same decode per receiver, the same
//! remote calls summed over every player reached.
//!
//! Each tool's code is what its [`Competitor::rivals_code`] makes: BlinkBlox's modules for
//! `definitions/Scenarios.blink`, Blink's and zap's from their own compilers on the same
//! scenarios and the many declarations in their languages, a runtime library's source mounted
//! as in the runtime benches.

pub mod harness;
pub mod turn;

use std::time::Instant;

use harness::{RivalsHarness, unsupported};
use turn::{RivalRun, run_turn};

use crate::BenchError;
use crate::competitors::{Competitor, Context};
use crate::progress;
use crate::scenarios::drive::{ScenarioFigures, ScenarioSamples};
use crate::scenarios::spec::{ScenarioSpec, spec};
use crate::turns::{Pace, TURN_FRAMES, take_turns};
use blinkblox_luau::Mode;

/// The Rivals scenarios, in the order the table shows them.
pub const RIVALS: [&str; 9] = [
    "Broadcast",
    "UnreliableInput",
    "UnreliableInputBatched",
    "Instances",
    "WorldState",
    "SelfState",
    "ManyEvents",
    "Positions",
    "PositionsWhole",
];

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
    pub tool: &'static dyn Competitor,
    pub mode: Mode,
    pub outcome: RivalOutcome,
}

/// Whether `tool` can run `scenario` at all: its adapter, the scenario's spec, and the
/// features the adapter says the tool lacks.
fn runnable<'h>(
    harness: &'h RivalsHarness,
    scenario: &str,
    tool: &dyn Competitor,
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

/// Runs each scenario on each tool in each mode. As in the runtime benches, the tools of one
/// scenario and mode take turns of [`TURN_FRAMES`] frames in rotation, each turn in a fresh
/// simulation ([`crate::turns`]). Reports progress on stderr.
pub fn run_rivals(
    harness: &RivalsHarness,
    scenarios: &[&'static str],
    tools: &[&'static dyn Competitor],
    modes: &[Mode],
    pace: Pace,
) -> Vec<RivalRow> {
    let mut rows = Vec::new();
    for &scenario in scenarios {
        for &mode in modes {
            let started = Instant::now();
            progress::step(
                "Running",
                &format!(
                    "Rivals {scenario} / {}: {} row(s) taking turns of {TURN_FRAMES} frames",
                    mode.label(),
                    tools.len()
                ),
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
            let targets: Vec<u32> = runs
                .iter()
                .map(|run| if run.is_ok() { pace.frames } else { 0 })
                .collect();
            let mut samples: Vec<Result<ScenarioSamples, String>> =
                tools.iter().map(|_| Ok(ScenarioSamples::default())).collect();
            take_turns(
                &targets,
                pace.row_budget,
                &mut samples,
                |row, turn, samples| match &runs[row] {
                    Ok(run) => run_turn(harness, *run, turn, samples),
                    Err(_) => Ok(0),
                },
            );
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
                progress::step(
                    "Ran",
                    &format!("Rivals {scenario} / {} / {} — {summary}", tool.key(), mode.label()),
                );
                rows.push(RivalRow {
                    scenario,
                    tool,
                    mode,
                    outcome,
                });
            }
            progress::step(
                "Finished",
                &format!(
                    "Rivals {scenario} / {} in {:.1} s",
                    mode.label(),
                    started.elapsed().as_secs_f64()
                ),
            );
        }
    }
    rows
}

/// What the Rivals group runs, and where its tools come from.
pub struct RivalsPlan<'a> {
    pub context: &'a Context<'a>,
    pub scenarios: &'a [&'static str],
    /// The tools selected for the run; those that take no part in the Rivals are skipped.
    pub tools: &'a [&'static dyn Competitor],
    pub modes: &'a [Mode],
    pub pace: Pace,
}

/// Something that did not run, and why (the report's "Not run").
pub type NotRun = (String, String);

/// Loads what the plan's tools need and runs the rows; returns them with the tools that could
/// not take part and why (for the report's "Not run").
pub fn run_rivals_group(plan: &RivalsPlan) -> Result<(Vec<RivalRow>, Vec<NotRun>), BenchError> {
    let candidates: Vec<&'static dyn Competitor> = plan.tools.iter().copied().filter(|tool| tool.is_rival()).collect();
    let mut harness = RivalsHarness::load(plan.context.bench_dir, &candidates)?;
    let mut tools = Vec::new();
    let mut not_run = Vec::new();
    for tool in candidates {
        let why_not = if !harness.has_adapter(tool) {
            Some(format!(
                "no adapter for its API yet (benchmark/harness/rivals/{}.luau)",
                tool.key()
            ))
        } else {
            tool.missing(plan.context)
        };
        if let Some(why) = why_not {
            not_run.push((format!("Rivals on {}", tool.name()), why));
            continue;
        }
        harness.add(tool, tool.rivals_code(plan.context)?);
        tools.push(tool);
    }
    let rows = run_rivals(&harness, plan.scenarios, &tools, plan.modes, plan.pace);
    Ok((rows, not_run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitors::{ALL, BLINK, BLINKBLOX, from_key};

    fn bench_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark")
    }

    fn tool(key: &str) -> &'static dyn Competitor {
        from_key(key).unwrap_or_else(|| panic!("no competitor `{key}`"))
    }

    #[test]
    fn every_rival_scenario_has_a_set_up() {
        for scenario in RIVALS {
            assert!(spec(scenario).is_some(), "{scenario} has no spec");
        }
    }

    #[test]
    fn every_adapter_answers_for_every_scenario_and_packet_has_no_unreliable_channel() {
        let tools: Vec<&'static dyn Competitor> = ALL.into_iter().filter(|tool| tool.is_rival()).collect();
        let harness = RivalsHarness::load(&bench_dir(), &tools).expect("the Rivals harness loads");
        for tool in [
            BLINKBLOX,
            BLINK,
            tool("bytenet"),
            tool("packet"),
            tool("quicknet"),
            tool("warp"),
        ] {
            let adapter = harness.adapter(tool).expect("an adapter for every rival");
            for scenario in RIVALS {
                unsupported(adapter, tool, scenario).unwrap_or_else(|err| panic!("{scenario}: {err}"));
            }
        }
        let packet = tool("packet");
        let adapter = harness.adapter(packet).expect("Packet's adapter");
        for scenario in ["UnreliableInput", "WorldState", "SelfState"] {
            assert_eq!(
                unsupported(adapter, packet, scenario),
                Ok(Some("no unreliable channel".to_string()))
            );
        }
        let blinkblox = harness.adapter(BLINKBLOX).expect("BlinkBlox's adapter");
        assert_eq!(unsupported(blinkblox, BLINKBLOX, "ManyEvents"), Ok(None));
    }

    #[test]
    fn a_library_that_is_not_installed_fails_its_row_with_the_fix() {
        let bytenet = tool("bytenet");
        let harness = RivalsHarness::load(&bench_dir(), &[bytenet]).expect("loads");
        let rows = run_rivals(
            &harness,
            &["Broadcast"],
            &[bytenet],
            &[Mode::Interpreted],
            Pace::frames(1),
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
