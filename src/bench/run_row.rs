//! The runtime rows of one bench and mode, run side by side.
//!
//! Each row keeps its own [`Simulation`] (a server and a client with the tool's modules) for the
//! whole run, and the rows take turns of [`TURN_FRAMES`] frames, the order rotating every round.
//! A shared machine's speed drifts over minutes (other tenants, caches, clock frequency); run one
//! after the other, two rows of a ratio can land on either side of such a drift, and the same
//! binary's ratio to Blink moved by a third between runs. Taking turns spreads every drift
//! over every row, so a ratio compares the tools under the same conditions. Each turn after the
//! first starts with [`REWARM_FRAMES`] untimed frames, so that the caches another row evicted are
//! refilled before the timing starts again.

use std::time::Instant;

use crate::bench::run::{
    EVENTS_PER_FRAME, Harness, RowFigures, RuntimeRow, RuntimeTool, Stats, WARMUP_FRAMES, await_client_frame,
    install_clock, lua_error, mount_library,
};
use crate::runtime::{Mode, Simulation, TimingClock};

/// Timed frames a row runs before the next row takes its turn.
pub const TURN_FRAMES: u32 = 25;
/// Untimed frames at the start of every turn but the first (which has [`WARMUP_FRAMES`]).
pub const REWARM_FRAMES: u32 = 1;

/// Which runtime rows to run.
#[derive(Clone, Debug)]
pub struct RuntimePlan {
    pub benches: Vec<&'static str>,
    pub tools: Vec<RuntimeTool>,
    pub modes: Vec<Mode>,
    pub frames: u32,
}

/// Runs every row of the plan: for each bench and mode, the tools' rows side by side in turns
/// (see the module's documentation), reporting progress on stderr.
pub fn run_runtime(harness: &Harness, plan: &RuntimePlan) -> Vec<RuntimeRow> {
    let mut rows = Vec::new();
    for &bench in &plan.benches {
        for &mode in &plan.modes {
            rows.extend(run_side_by_side(harness, bench, &plan.tools, mode, plan.frames));
        }
    }
    rows
}

/// One bench in one mode on every tool: each row set up in a fresh simulation, then the rows
/// taking turns until each has timed its frames (a tool's [`RuntimeTool::max_frames`] at most).
pub fn run_side_by_side(
    harness: &Harness,
    bench: &'static str,
    tools: &[RuntimeTool],
    mode: Mode,
    frames: u32,
) -> Vec<RuntimeRow> {
    let started = Instant::now();
    eprintln!(
        "{:>12} {bench} / {}: {} row(s) taking turns of {TURN_FRAMES} frames",
        "Running",
        mode.label(),
        tools.len()
    );
    let mut sessions: Vec<(RuntimeTool, Result<RowSession, String>)> = tools
        .iter()
        .map(|&tool| {
            let target = tool.max_frames().map_or(frames, |most| frames.min(most));
            (tool, RowSession::start(harness, bench, tool, mode, target))
        })
        .collect();
    let targets: Vec<u32> = sessions
        .iter()
        .map(|(_, session)| session.as_ref().map_or(0, |session| session.left))
        .collect();
    for turn in schedule(&targets) {
        let (_, slot) = &mut sessions[turn.row];
        if let Ok(session) = slot
            && let Err(err) = session.take_turn(turn)
        {
            *slot = Err(err);
        }
    }
    let rows: Vec<RuntimeRow> = sessions
        .into_iter()
        .map(|(tool, session)| RuntimeRow {
            bench,
            tool,
            mode,
            outcome: session.and_then(RowSession::finish),
        })
        .collect();
    for row in &rows {
        let summary = match &row.outcome {
            Ok(figures) => format!(
                "send {:.3} ms, decode {:.3} ms, {:.1} bytes",
                figures.send.median_ms, figures.decode.median_ms, figures.bytes_per_event
            ),
            Err(err) => format!("failed: {err}"),
        };
        eprintln!(
            "{:>12} {bench} / {} / {} — {summary}",
            "Ran",
            row.tool.key(),
            mode.label()
        );
    }
    eprintln!(
        "{:>12} {bench} / {} in {:.1} s",
        "Finished",
        mode.label(),
        started.elapsed().as_secs_f64()
    );
    rows
}

/// One row's turn: `untimed` frames to refill the caches, then `timed` frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    row: usize,
    untimed: u32,
    timed: u32,
}

/// The turns for rows that are to time `targets[row]` frames each: rounds of at most
/// [`TURN_FRAMES`] frames a row, the first row of a round one further along each round, and
/// [`REWARM_FRAMES`] untimed frames first in every turn but a row's first.
fn schedule(targets: &[u32]) -> Vec<Turn> {
    let mut left = targets.to_vec();
    let mut turns = Vec::new();
    for round in 0.. {
        let before = turns.len();
        for offset in 0..left.len() {
            let row = (round + offset) % left.len();
            if left[row] == 0 {
                continue;
            }
            let timed = left[row].min(TURN_FRAMES);
            let untimed = if left[row] == targets[row] { 0 } else { REWARM_FRAMES };
            left[row] -= timed;
            turns.push(Turn { row, untimed, timed });
        }
        if turns.len() == before {
            break;
        }
    }
    turns
}

/// One row's simulation, kept between its turns, and the figures it has timed so far.
struct RowSession {
    tool: RuntimeTool,
    sim: Simulation,
    /// The client's `shared.BenchFrame`: fires the frame's events, flushes, returns both times.
    frame_fn: mlua::Function,
    /// Timed frames still to run (the row's target until its first turn).
    left: u32,
    /// Every frame run, untimed ones included (what the server's tally must have seen).
    frames_run: u32,
    fires: Vec<f64>,
    flushes: Vec<f64>,
    sends: Vec<f64>,
    decodes: Vec<f64>,
    bytes: u64,
    calls: u64,
}

impl RowSession {
    /// A fresh simulation with the tool's modules loaded on both sides, the client's frame
    /// ready, and the warm-up frames run.
    fn start(harness: &Harness, bench: &str, tool: RuntimeTool, mode: Mode, frames: u32) -> Result<RowSession, String> {
        let (sim, frame_fn) = set_up(harness, bench, tool, mode)?;
        let timed = frames as usize;
        let mut session = RowSession {
            tool,
            sim,
            frame_fn,
            left: frames,
            frames_run: 0,
            fires: Vec::with_capacity(timed),
            flushes: Vec::with_capacity(timed),
            sends: Vec::with_capacity(timed),
            decodes: Vec::with_capacity(timed),
            bytes: 0,
            calls: 0,
        };
        for _ in 0..WARMUP_FRAMES {
            session.frame()?;
        }
        Ok(session)
    }

    /// The turn's untimed frames, then its timed ones.
    fn take_turn(&mut self, turn: Turn) -> Result<(), String> {
        for _ in 0..turn.untimed {
            self.frame()?;
        }
        for _ in 0..turn.timed {
            let timed = self.frame()?;
            self.fires.push(timed.fire);
            self.flushes.push(timed.flush);
            self.sends.push(timed.fire + timed.flush);
            self.decodes.push(timed.decode);
            self.bytes += timed.bytes;
            self.calls += timed.calls;
            self.left -= 1;
        }
        Ok(())
    }

    /// One frame: the client fires and flushes, the server receives and decodes.
    fn frame(&mut self) -> Result<FrameFigures, String> {
        let client = self.sim.client(0).ok_or("the client left")?;
        let (fire, mut flush): (f64, f64) = client.call(&self.frame_fn, ()).map_err(lua_error("firing"))?;
        let mut decode = 0.0;
        // A library flushes in the client's frame (Heartbeat or PostSimulation), so its frame
        // takes two steps: the client's frame sends, the next step delivers. Both steps' client
        // frames count as its flush, and both steps' server deliveries as its decode.
        let steps = if self.tool.is_library() { 2 } else { 1 };
        for _ in 0..steps {
            self.sim.step().map_err(lua_error("delivering"))?;
            let timing = self.sim.last_step_timing();
            decode += timing.server.receive.as_secs_f64();
            if self.tool.is_library() {
                flush += timing
                    .clients
                    .iter()
                    .map(|(_, client)| client.frame.as_secs_f64())
                    .sum::<f64>();
            }
        }
        self.frames_run += 1;
        let total = self.sim.take_traffic().total();
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

    /// Checks that every event fired arrived as it was fired, and gives the row's figures.
    fn finish(mut self) -> Result<RowFigures, String> {
        if self.tool.is_library() {
            // Anything a library held back for its own throttle arrives before the tally is read.
            self.sim.steps(2).map_err(lua_error("delivering the last frame"))?;
        }
        check_outcome(&self.sim, self.frames_run)?;
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

/// What one frame measured.
struct FrameFigures {
    fire: f64,
    flush: f64,
    decode: f64,
    bytes: u64,
    calls: u64,
}

/// A fresh simulation (one server, one client) running `tool`'s side of `bench`, and the
/// client's frame function once its set-up has finished.
fn set_up(
    harness: &Harness,
    bench: &str,
    tool: RuntimeTool,
    mode: Mode,
) -> Result<(Simulation, mlua::Function), String> {
    let event = crate::bench::run::event_of(bench);
    let mut sim = Simulation::new(mode, 1).map_err(lua_error("starting the simulation"))?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let modules = harness.modules(tool)?;
    {
        let server = sim.server();
        let setup = lua_error("server set-up");
        server.load_module("Payloads", &harness.payloads).map_err(&setup)?;
        server.load_module("BenchServer", &harness.server).map_err(&setup)?;
        if let Some((server_module, _)) = modules {
            server.load_module("Server", server_module).map_err(&setup)?;
        }
        mount_library(&harness.libraries, tool, server)?;
        server.load_module("Adapter", harness.adapter(tool)).map_err(&setup)?;
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
        client.load_module("Payloads", &harness.payloads).map_err(&setup)?;
        client.load_module("BenchClient", &harness.client).map_err(&setup)?;
        if let Some((_, client_module)) = modules {
            client.load_module("Client", client_module).map_err(&setup)?;
        }
        client.load_module("Adapter", harness.adapter(tool)).map_err(&setup)?;
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

/// Every event of the `frames` frames run arrived and decoded to what was fired, and nothing
/// raised an error.
fn check_outcome(sim: &Simulation, frames: u32) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(row: usize, untimed: u32, timed: u32) -> Turn {
        Turn { row, untimed, timed }
    }

    #[test]
    fn rows_take_turns_in_rotating_order_until_each_has_its_frames() {
        // 60 frames for two rows, 20 for a third (plain remotes are capped): rounds of 25,
        // the third done in its first turn, the first row of each round one further along.
        assert_eq!(
            schedule(&[60, 60, 20]),
            [
                turn(0, 0, 25),
                turn(1, 0, 25),
                turn(2, 0, 20),
                turn(1, 1, 25),
                turn(0, 1, 25),
                turn(0, 1, 10),
                turn(1, 1, 10),
            ]
        );
    }

    #[test]
    fn every_row_times_exactly_its_frames_and_rewarms_after_others() {
        let targets = [200, 7, 0, 26, 200];
        let turns = schedule(&targets);
        for (row, &target) in targets.iter().enumerate() {
            let mine: Vec<&Turn> = turns.iter().filter(|turn| turn.row == row).collect();
            assert_eq!(mine.iter().map(|turn| turn.timed).sum::<u32>(), target, "row {row}");
            assert!(mine.iter().all(|turn| turn.timed <= TURN_FRAMES && turn.timed > 0));
            assert!(mine.iter().skip(1).all(|turn| turn.untimed == REWARM_FRAMES));
            assert!(mine.first().is_none_or(|turn| turn.untimed == 0));
        }
        // Every row has had a turn before any row has its second.
        let first_rewarm = turns.iter().position(|turn| turn.untimed > 0).expect("second turns");
        assert_eq!(first_rewarm, targets.iter().filter(|&&target| target > 0).count());
        assert!(schedule(&[]).is_empty());
    }
}
