//! The runtime rows of one bench and mode, run side by side.
//!
//! A row's frames are timed in turns of [`TURN_FRAMES`], each turn in a fresh [`Simulation`]
//! (a server and a client with the tool's modules, [`WARMUP_FRAMES`] untimed frames first), and
//! the tools take their turns in rotation, one further along each round. Two things move a
//! figure on a shared machine that are not the code's. Its speed drifts over minutes (other
//! tenants, clock frequency): run one after another, two rows of a ratio can land on either
//! side of a drift, and taking turns spreads it over every row. And one simulation can be
//! slower than the next for its whole life (where its heap and native code landed): the same
//! row measured 3.1 ms in most processes and 4.0-4.3 ms in about one in eight, send and decode
//! together. With a fresh simulation a turn, an unlucky one moves a few of the row's frames,
//! and the median is the typical simulation's.

use std::time::Instant;

use crate::run::{
    EVENTS_PER_FRAME, Harness, Participant, RowFigures, RuntimeRow, RuntimeTool, Stats, WARMUP_FRAMES, lua_error,
};
use crate::run_bounds::{BoundRow, has_bound};
use blinkblox_luau::{Mode, Simulation};

/// Timed frames a turn: each in a fresh simulation, before the next row takes its turn.
pub const TURN_FRAMES: u32 = 25;

/// Which runtime rows to run.
#[derive(Clone, Debug)]
pub struct RuntimePlan {
    pub benches: Vec<&'static str>,
    pub tools: Vec<RuntimeTool>,
    pub modes: Vec<Mode>,
    pub frames: u32,
}

/// Runs every row of the plan: for each bench and mode, the tools' rows side by side in turns
/// (see the module's documentation), with the work alone ([`crate::run_bounds`]) taking
/// its turns among them where the bench has it; reports progress on stderr.
pub fn run_runtime(harness: &Harness, plan: &RuntimePlan) -> (Vec<RuntimeRow>, Vec<BoundRow>) {
    let (mut rows, mut bounds) = (Vec::new(), Vec::new());
    for &bench in &plan.benches {
        for &mode in &plan.modes {
            let (bench_rows, bound) = run_side_by_side(harness, bench, &plan.tools, mode, plan.frames);
            rows.extend(bench_rows);
            bounds.extend(bound);
        }
    }
    (rows, bounds)
}

/// One bench in one mode on every tool, and the work alone where the bench has it: the rows
/// take turns until each has timed its frames (a tool's [`RuntimeTool::max_frames`] at most).
/// A row whose turn fails runs no more turns.
fn run_side_by_side(
    harness: &Harness,
    bench: &'static str,
    tools: &[RuntimeTool],
    mode: Mode,
    frames: u32,
) -> (Vec<RuntimeRow>, Option<BoundRow>) {
    let started = Instant::now();
    let mut participants: Vec<Participant> = tools.iter().map(|&tool| Participant::Tool(tool)).collect();
    if has_bound(bench) {
        participants.push(Participant::WorkAlone);
    }
    eprintln!(
        "{:>12} {bench} / {}: {} row(s) taking turns of {TURN_FRAMES} frames",
        "Running",
        mode.label(),
        participants.len()
    );
    let targets: Vec<u32> = participants
        .iter()
        .map(|who| match who {
            Participant::Tool(tool) => tool.max_frames().map_or(frames, |most| frames.min(most)),
            Participant::WorkAlone => frames,
        })
        .collect();
    let mut samples: Vec<Result<RowSamples, String>> = participants.iter().map(|_| Ok(RowSamples::default())).collect();
    take_turns(&targets, &mut samples, |row, timed, samples| {
        run_turn(harness, bench, participants[row], mode, timed, samples)
    });
    let mut rows = Vec::new();
    let mut bound = None;
    for (&who, samples) in participants.iter().zip(samples) {
        let outcome = samples.and_then(|samples| samples.figures());
        let summary = match &outcome {
            Ok(figures) => format!(
                "send {:.3} ms, decode {:.3} ms, {:.1} bytes, {} frames",
                figures.send.median_ms, figures.decode.median_ms, figures.bytes_per_event, figures.frames
            ),
            Err(err) => format!("failed: {err}"),
        };
        eprintln!("{:>12} {bench} / {} / {} — {summary}", "Ran", who.key(), mode.label());
        match who {
            Participant::Tool(tool) => rows.push(RuntimeRow {
                bench,
                tool,
                mode,
                outcome,
            }),
            Participant::WorkAlone => bound = Some(BoundRow { bench, mode, outcome }),
        }
    }
    eprintln!(
        "{:>12} {bench} / {} in {:.1} s",
        "Finished",
        mode.label(),
        started.elapsed().as_secs_f64()
    );
    (rows, bound)
}

/// One turn: `row` times `timed` frames in a fresh simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    row: usize,
    timed: u32,
}

/// The turns for rows that are to time `targets[row]` frames each: rounds of at most
/// [`TURN_FRAMES`] frames a row, and among the rows with frames left, the first of a round one
/// further along each round (so that no row always follows the same one, or always goes first).
fn schedule(targets: &[u32]) -> Vec<Turn> {
    let mut left = targets.to_vec();
    let mut turns = Vec::new();
    for round in 0.. {
        let active: Vec<usize> = (0..left.len()).filter(|&row| left[row] > 0).collect();
        if active.is_empty() {
            break;
        }
        for offset in 0..active.len() {
            let row = active[(round + offset) % active.len()];
            let timed = left[row].min(TURN_FRAMES);
            left[row] -= timed;
            turns.push(Turn { row, timed });
        }
    }
    turns
}

/// Runs the turns of [`schedule`]`(targets)`: `run_turn(row, timed, state)` times a turn's
/// frames into that row's state. A row whose turn fails runs no more turns, and its error
/// says which of its timed frames the failing turn held.
pub(crate) fn take_turns<S>(
    targets: &[u32],
    states: &mut [Result<S, String>],
    mut run_turn: impl FnMut(usize, u32, &mut S) -> Result<(), String>,
) {
    let mut timed_so_far = vec![0u32; states.len()];
    for turn in schedule(targets) {
        let Ok(state) = &mut states[turn.row] else { continue };
        let first = timed_so_far[turn.row] + 1;
        if let Err(err) = run_turn(turn.row, turn.timed, state) {
            let last = first + turn.timed - 1;
            states[turn.row] = Err(format!("the turn timing frames {first}–{last}: {err}"));
        }
        timed_so_far[turn.row] += turn.timed;
    }
}

/// A fresh simulation, [`WARMUP_FRAMES`] untimed frames, `timed` frames added to `samples`,
/// and a check that every event of every frame arrived as it was fired.
fn run_turn(
    harness: &Harness,
    bench: &str,
    who: Participant,
    mode: Mode,
    timed: u32,
    samples: &mut RowSamples,
) -> Result<(), String> {
    let (mut sim, frame_fn) = harness.start(bench, who, mode)?;
    for frame in 0..WARMUP_FRAMES + timed {
        let figures = run_frame(&mut sim, &frame_fn, who)?;
        if frame >= WARMUP_FRAMES {
            samples.push(&figures);
        }
    }
    if who.flushes_on_frame() {
        // Anything a library held back for its own throttle arrives before the tally is read.
        sim.steps(2).map_err(lua_error("delivering the last frame"))?;
    }
    Harness::check_tally(&sim, WARMUP_FRAMES + timed)
}

/// One frame: the client fires and flushes, the server receives and decodes.
fn run_frame(sim: &mut Simulation, frame_fn: &mlua::Function, who: Participant) -> Result<FrameFigures, String> {
    let client = sim.client(0).ok_or("the client left")?;
    let (fire, mut flush): (f64, f64) = client.call(frame_fn, ()).map_err(lua_error("firing"))?;
    let mut decode = 0.0;
    // A library flushes in the client's frame (Heartbeat or PostSimulation), so its frame takes
    // two steps: the client's frame sends, the next step delivers. Both steps' client frames
    // count as its flush, and both steps' server deliveries as its decode.
    let steps = if who.flushes_on_frame() { 2 } else { 1 };
    for _ in 0..steps {
        sim.step().map_err(lua_error("delivering"))?;
        let timing = sim.last_step_timing();
        decode += timing.server.receive.as_secs_f64();
        if who.flushes_on_frame() {
            flush += timing
                .clients
                .iter()
                .map(|(_, client)| client.frame.as_secs_f64())
                .sum::<f64>();
        }
    }
    let total = sim.take_traffic().total();
    Ok(FrameFigures {
        fire,
        flush,
        decode,
        bytes: if total.buffer_bytes > 0 {
            total.buffer_bytes
        } else {
            total.bytes
        },
        calls: total.calls,
    })
}

/// What one frame measured.
struct FrameFigures {
    fire: f64,
    flush: f64,
    decode: f64,
    bytes: u64,
    calls: u64,
}

/// A row's timed frames, gathered over its turns.
#[derive(Default)]
struct RowSamples {
    fires: Vec<f64>,
    flushes: Vec<f64>,
    sends: Vec<f64>,
    decodes: Vec<f64>,
    bytes: u64,
    calls: u64,
}

impl RowSamples {
    fn push(&mut self, frame: &FrameFigures) {
        self.fires.push(frame.fire);
        self.flushes.push(frame.flush);
        self.sends.push(frame.fire + frame.flush);
        self.decodes.push(frame.decode);
        self.bytes += frame.bytes;
        self.calls += frame.calls;
    }

    /// Medians and 99th percentiles over every timed frame, and the bytes and calls a frame.
    fn figures(&self) -> Result<RowFigures, String> {
        let frames = self.sends.len() as u32;
        let stats = |samples: &[f64]| Stats::of_seconds(samples).ok_or("no frames were timed (--frames 0)");
        let events = f64::from(frames) * f64::from(EVENTS_PER_FRAME);
        Ok(RowFigures {
            send: stats(&self.sends)?,
            fire: stats(&self.fires)?,
            flush: stats(&self.flushes)?,
            decode: stats(&self.decodes)?,
            bytes_per_event: self.bytes as f64 / events,
            calls_per_frame: self.calls as f64 / f64::from(frames),
            frames,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(row: usize, timed: u32) -> Turn {
        Turn { row, timed }
    }

    #[test]
    fn rows_take_turns_in_rotating_order_until_each_has_its_frames() {
        // 60 frames for two rows, 20 for a third (plain remotes are capped): rounds of 25,
        // the third done in its first turn, the first row of each round one further along.
        assert_eq!(
            schedule(&[60, 60, 20]),
            [
                turn(0, 25),
                turn(1, 25),
                turn(2, 20),
                turn(1, 25),
                turn(0, 25),
                turn(0, 10),
                turn(1, 10),
            ]
        );
    }

    #[test]
    fn every_row_times_exactly_its_frames_a_turn_at_a_time() {
        let targets = [200, 7, 0, 26, 200];
        let turns = schedule(&targets);
        for (row, &target) in targets.iter().enumerate() {
            let mine: Vec<&Turn> = turns.iter().filter(|turn| turn.row == row).collect();
            assert_eq!(mine.iter().map(|turn| turn.timed).sum::<u32>(), target, "row {row}");
            assert!(mine.iter().all(|turn| turn.timed <= TURN_FRAMES && turn.timed > 0));
        }
        // Every row with frames to time has had a turn before any row has its second.
        let rows_with_frames = targets.iter().filter(|&&target| target > 0).count();
        let mut first_turns: Vec<usize> = turns[..rows_with_frames].iter().map(|turn| turn.row).collect();
        first_turns.sort_unstable();
        assert_eq!(first_turns, [0, 1, 3, 4]);
        assert!(schedule(&[]).is_empty());
    }

    #[test]
    fn once_a_row_is_done_the_others_still_take_turns_going_first() {
        // Plain remotes finish in the first round; the two rows left go first in turn.
        let turns = schedule(&[200, 200, 20]);
        let firsts: Vec<usize> = turns[3..].chunks(2).map(|round| round[0].row).collect();
        assert_eq!(firsts, [1, 0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn a_row_that_fails_a_later_turn_runs_no_more_and_says_which_frames() {
        let mut states: Vec<Result<Vec<u32>, String>> = vec![Ok(Vec::new()), Ok(Vec::new())];
        let mut calls = Vec::new();
        take_turns(&[60, 60], &mut states, |row, timed, frames| {
            calls.push((row, timed));
            if row == 1 && frames.len() == 1 {
                return Err("the server's listener saw 0 of the 27000 events fired".into());
            }
            frames.push(timed);
            Ok(())
        });
        assert_eq!(calls, [(0, 25), (1, 25), (1, 25), (0, 25), (0, 10)]);
        assert_eq!(states[0], Ok(vec![25, 25, 10]));
        assert_eq!(
            states[1],
            Err("the turn timing frames 26–50: the server's listener saw 0 of the 27000 events fired".into())
        );
    }

    #[test]
    fn a_row_s_figures_are_over_the_frames_of_all_its_turns() {
        let mut samples = RowSamples::default();
        for (turn, ms) in [(0, 2.0), (1, 4.0)] {
            for _ in 0..TURN_FRAMES - turn * 20 {
                samples.push(&FrameFigures {
                    fire: ms / 1000.0,
                    flush: 0.0,
                    decode: ms / 1000.0,
                    bytes: 2000,
                    calls: 1,
                });
            }
        }
        let figures = samples.figures().expect("figures");
        assert_eq!(figures.frames, 30);
        assert_eq!((figures.send.median_ms, figures.decode.p99_ms), (2.0, 4.0));
        assert_eq!((figures.bytes_per_event, figures.calls_per_frame), (2.0, 1.0));
    }
}
