//! The runtime rows of one bench and mode, run side by side: each row's frames in turns of
//! [`TURN_FRAMES`], each turn in a fresh [`Simulation`] (a server and a client with the tool's
//! code, [`WARMUP_FRAMES`] untimed frames first), the rows taking their turns in rotation (see
//! [`crate::turns`]).

use std::time::Instant;

use super::bounds::{BoundRow, has_bound};
use super::calls::{clients_total, deliver_calls};
use super::harness::{Harness, Started};
use super::{Participant, RowFigures, RuntimeRow, WARMUP_FRAMES, events_per_frame};
use crate::competitors::Competitor;
use crate::progress;
use crate::simulation::lua_error;
use crate::stats::Stats;
use crate::turns::{Pace, TURN_FRAMES, Turn, take_turns};
use blinkblox_luau::{Mode, Simulation};

/// Which runtime rows to run.
#[derive(Clone, Debug)]
pub struct RuntimePlan {
    pub benches: Vec<&'static str>,
    pub tools: Vec<&'static dyn Competitor>,
    pub modes: Vec<Mode>,
    pub pace: Pace,
}

/// What the runtime benches came to.
#[derive(Debug, Default)]
pub struct RuntimeResults {
    pub rows: Vec<RuntimeRow>,
    pub bounds: Vec<BoundRow>,
    /// (bench and tool, why): a tool whose adapter says it has no such feature.
    pub not_run: Vec<(String, String)>,
}

/// Runs every row of the plan: for each bench and mode, the rows of the tools that have the
/// bench's feature side by side in turns (see [`crate::turns`]), with the work alone
/// ([`super::bounds`]) taking its turns among them where the bench has it; reports progress on
/// stderr.
pub fn run_runtime(harness: &Harness, plan: &RuntimePlan) -> RuntimeResults {
    let mut results = RuntimeResults::default();
    for &bench in &plan.benches {
        let mut tools = Vec::new();
        for &tool in &plan.tools {
            match harness.unsupported(tool, bench) {
                Ok(None) => tools.push(tool),
                Ok(Some(reason)) => results.not_run.push((format!("{bench} on {}", tool.name()), reason)),
                Err(err) => results.rows.extend(plan.modes.iter().map(|&mode| RuntimeRow {
                    bench,
                    tool,
                    mode,
                    outcome: Err(err.clone()),
                })),
            }
        }
        for &mode in &plan.modes {
            let (bench_rows, bound) = run_side_by_side(harness, bench, &tools, mode, plan.pace);
            results.rows.extend(bench_rows);
            results.bounds.extend(bound);
        }
    }
    results
}

/// One bench in one mode on every tool, and the work alone where the bench has it: the rows
/// take turns until each has timed its frames (a tool's [`Competitor::max_frames`] at most).
/// A row whose turn fails runs no more turns.
fn run_side_by_side(
    harness: &Harness,
    bench: &'static str,
    tools: &[&'static dyn Competitor],
    mode: Mode,
    pace: Pace,
) -> (Vec<RuntimeRow>, Option<BoundRow>) {
    let frames = pace.frames;
    let started = Instant::now();
    let mut participants: Vec<Participant> = tools.iter().map(|&tool| Participant::Tool(tool)).collect();
    if has_bound(bench) {
        participants.push(Participant::WorkAlone);
    }
    progress::step(
        "Running",
        &format!(
            "{bench} / {}: {} row(s) taking turns of {TURN_FRAMES} frames",
            mode.label(),
            participants.len()
        ),
    );
    let targets: Vec<u32> = participants
        .iter()
        .map(|who| match who {
            Participant::Tool(tool) => tool.max_frames().map_or(frames, |most| frames.min(most)),
            Participant::WorkAlone => frames,
        })
        .collect();
    let mut samples: Vec<Result<RowSamples, String>> = participants.iter().map(|_| Ok(RowSamples::default())).collect();
    take_turns(&targets, pace.row_budget, &mut samples, |row, turn, samples| {
        run_turn(harness, bench, participants[row], mode, turn, samples)
    });
    let mut rows = Vec::new();
    let mut bound = None;
    for (&who, samples) in participants.iter().zip(samples) {
        let outcome = samples.and_then(|samples| samples.figures(bench));
        let summary = match &outcome {
            Ok(figures) => format!(
                "send {:.3} ms, decode {:.3} ms, {:.1} bytes, {} frames",
                figures.send.median_ms, figures.decode.median_ms, figures.bytes_per_event, figures.frames
            ),
            Err(err) => format!("failed: {err}"),
        };
        progress::step(
            "Ran",
            &format!("{bench} / {} / {} — {summary}", who.key(), mode.label()),
        );
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
    progress::step(
        "Finished",
        &format!("{bench} / {} in {:.1} s", mode.label(), started.elapsed().as_secs_f64()),
    );
    (rows, bound)
}

/// A fresh simulation, [`WARMUP_FRAMES`] untimed frames, `timed` frames added to `samples`,
/// and a check that every event of every frame arrived as it was fired.
fn run_turn(
    harness: &Harness,
    bench: &str,
    who: Participant,
    mode: Mode,
    turn: &Turn,
    samples: &mut RowSamples,
) -> Result<u32, String> {
    let Started {
        mut sim,
        frame: frame_fn,
        server_flush,
    } = harness.start(bench, who, mode)?;
    let mut answered = 0;
    let mut frame = 0;
    while frame < WARMUP_FRAMES || !turn.should_stop(frame - WARMUP_FRAMES) {
        let figures = match &server_flush {
            Some(server_flush) => run_call_frame(&mut sim, &frame_fn, who, server_flush, &mut answered)?,
            None => run_frame(&mut sim, &frame_fn, who)?,
        };
        if frame >= WARMUP_FRAMES {
            samples.push(&figures);
        }
        frame += 1;
    }
    if who.flushes_on_frame() {
        // Anything a library held back for its own throttle arrives before the tally is read.
        sim.steps(2).map_err(lua_error("delivering the last frame"))?;
    }
    Harness::check_tally(&sim, bench, frame)?;
    Ok(frame - WARMUP_FRAMES)
}

/// One frame of CallResponse: the client starts its invokes and flushes, the server answers,
/// the client decodes the answers and resumes its callers.
fn run_call_frame(
    sim: &mut Simulation,
    frame_fn: &mlua::Function,
    who: Participant,
    server_flush: &mlua::Function,
    answered: &mut u64,
) -> Result<FrameFigures, String> {
    let client = sim.client(0).ok_or("the client left")?;
    let (fire, flush): (f64, f64) = client.call(frame_fn, ()).map_err(lua_error("invoking"))?;
    let (call, now_answered) = deliver_calls(sim, who, server_flush, *answered)?;
    *answered = now_answered;
    let (bytes, calls) = take_frame_traffic(sim);
    Ok(FrameFigures {
        fire,
        flush: flush + call.client_frames,
        decode: call.server,
        reply: Some(call.reply),
        bytes,
        calls,
    })
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
            flush += clients_total(timing, |client| client.frame);
        }
    }
    let (bytes, calls) = take_frame_traffic(sim);
    Ok(FrameFigures {
        fire,
        flush,
        decode,
        reply: None,
        bytes,
        calls,
    })
}

/// The frame's bytes (its buffers' or, for plain remotes, the runtime's estimate of the values)
/// and remote calls, taken from `sim`.
fn take_frame_traffic(sim: &mut Simulation) -> (u64, u64) {
    let total = sim.take_traffic().total();
    let bytes = if total.buffer_bytes > 0 {
        total.buffer_bytes
    } else {
        total.bytes
    };
    (bytes, total.calls)
}

/// What one frame measured.
struct FrameFigures {
    fire: f64,
    flush: f64,
    decode: f64,
    /// On CallResponse: the client decoding the answers and resuming its callers.
    reply: Option<f64>,
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
    replies: Vec<f64>,
    round_trips: Vec<f64>,
    bytes: u64,
    calls: u64,
}

impl RowSamples {
    fn push(&mut self, frame: &FrameFigures) {
        self.fires.push(frame.fire);
        self.flushes.push(frame.flush);
        self.sends.push(frame.fire + frame.flush);
        self.decodes.push(frame.decode);
        if let Some(reply) = frame.reply {
            self.replies.push(reply);
            self.round_trips.push(frame.fire + frame.flush + frame.decode + reply);
        }
        self.bytes += frame.bytes;
        self.calls += frame.calls;
    }

    /// Medians and 99th percentiles over every timed frame, and the bytes and calls a frame.
    fn figures(&self, bench: &str) -> Result<RowFigures, String> {
        let frames = self.sends.len() as u32;
        let stats = |samples: &[f64]| Stats::of_seconds(samples).ok_or("no frames were timed (--frames 0)");
        let events = f64::from(frames) * f64::from(events_per_frame(bench));
        Ok(RowFigures {
            send: stats(&self.sends)?,
            fire: stats(&self.fires)?,
            flush: stats(&self.flushes)?,
            decode: stats(&self.decodes)?,
            reply: Stats::of_seconds(&self.replies),
            round_trip: Stats::of_seconds(&self.round_trips),
            bytes_per_event: self.bytes as f64 / events,
            calls_per_frame: self.calls as f64 / f64::from(frames),
            frames,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_s_figures_are_over_the_frames_of_all_its_turns() {
        let mut samples = RowSamples::default();
        for (turn, ms) in [(0, 2.0), (1, 4.0)] {
            for _ in 0..TURN_FRAMES - turn * 20 {
                samples.push(&FrameFigures {
                    fire: ms / 1000.0,
                    flush: 0.0,
                    decode: ms / 1000.0,
                    reply: None,
                    bytes: 2000,
                    calls: 1,
                });
            }
        }
        let figures = samples.figures("Booleans").expect("figures");
        assert_eq!(figures.frames, 30);
        assert_eq!((figures.send.median_ms, figures.decode.p99_ms), (2.0, 4.0));
        assert_eq!((figures.bytes_per_event, figures.calls_per_frame), (2.0, 1.0));
    }
}
