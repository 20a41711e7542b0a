//! The CallResponse bench (`benchmark/harness/calls.luau`): a function taking and returning
//! f64[0..500], invoked [`CALLS_PER_FRAME`] times a frame on the client, each invoke in its own
//! thread. A frame is timed in three parts: the client starting the invokes and flushing
//! ("send"), the server decoding them, running the handler and sending the answers ("server"),
//! and the client decoding the answers and resuming its callers ("reply"); their sum is the
//! round trip.
//!
//! A tool takes part through two members of its runtime adapter: `Adapter.respond(event,
//! handler)`, which sets the server's handler and returns the server's flush (or nothing, for
//! a library that flushes on a frame event), and `Adapter.invoker(event)`, which returns the
//! client's invoke and flush. A tool without call-response says so with
//! `Adapter.unsupported(bench)` and is listed as not run.

use std::time::Duration;

use blinkblox_luau::{Simulation, StepTiming, WorldTiming};

use super::{CALL_RESPONSE, Participant};
use crate::simulation::lua_error;

/// Invokes a frame, all pending at once: hundreds, as in the public benchmark's test, and
/// under the 256 pending calls that tools numbering their calls with one byte can hold.
pub const CALLS_PER_FRAME: u32 = 200;

/// The most steps a frame's answers may take to come back: a library sends on the client's
/// frame, answers on the server's, and may hold a packet back for a frame to throttle.
const MOST_STEPS: u32 = 6;

/// The server's set-up: the handler connected, and the server's flush (timed by its own
/// clock) kept as `shared.BenchServerFlush`.
pub(super) const SERVER_SETUP: &str = "local Calls = require('BenchCalls')\n\
     local Adapter = require('Adapter')\n\
     assert(Adapter.respond and Adapter.invoker, 'the adapter has no Adapter.respond and Adapter.invoker for call-response, and no Adapter.unsupported saying why')\n\
     local flush = Adapter.respond('CallResponse', Calls.handler())\n\
     local clock = shared.BenchClock\n\
     shared.BenchServerFlush = function()\n\
         local started = clock()\n\
         if flush then flush() end\n\
         return clock() - started\n\
     end";

/// The client's set-up, in a task thread: the frame function and the callers' tally.
pub(super) const CLIENT_SETUP: &str = "local invoke, flush = require('Adapter').invoker('CallResponse')\n\
     shared.BenchFrame, shared.BenchCallTally = require('BenchCalls').prepare(invoke, flush)";

/// What one frame of calls measured, in seconds.
pub(super) struct CallFrame {
    pub(super) server: f64,
    pub(super) reply: f64,
    /// The client's frames that sent a library's invokes (its flush).
    pub(super) client_frames: f64,
}

/// After the client has started a frame's invokes and flushed: steps until every caller of the
/// frame has its answer (or [`MOST_STEPS`] have passed), timing the server's part and the
/// client's decoding of the answers. `answered_before` is the callers answered before this
/// frame.
pub(super) fn deliver_calls(
    sim: &mut Simulation,
    who: Participant,
    server_flush: &mlua::Function,
    answered_before: u64,
) -> Result<(CallFrame, u64), String> {
    let target = answered_before + u64::from(CALLS_PER_FRAME);
    let mut frame = CallFrame {
        server: 0.0,
        reply: 0.0,
        client_frames: 0.0,
    };
    let mut answered = answered_before;
    for step in 0..MOST_STEPS {
        sim.step().map_err(lua_error("delivering"))?;
        let timing = sim.last_step_timing();
        frame.server += timing.server.receive.as_secs_f64();
        frame.reply += clients_total(timing, |client| client.receive);
        if who.flushes_on_frame() {
            frame.server += timing.server.frame.as_secs_f64();
            frame.client_frames += clients_total(timing, |client| client.frame);
        } else if step == 0 {
            let seconds: f64 = sim
                .server()
                .call(server_flush, ())
                .map_err(lua_error("the server's flush"))?;
            frame.server += seconds;
        }
        answered = settled(sim)?;
        if answered >= target {
            break;
        }
    }
    Ok((frame, answered))
}

/// One part of every client's timing in a step, in seconds.
pub(super) fn clients_total(timing: &StepTiming, part: fn(&WorldTiming) -> Duration) -> f64 {
    timing
        .clients
        .iter()
        .map(|(_, client)| part(client).as_secs_f64())
        .sum()
}

/// The callers that have their answer (or an error) so far.
pub(super) fn settled(sim: &Simulation) -> Result<u64, String> {
    let client = sim.client(0).ok_or("the client left")?;
    client
        .eval("local t = shared.BenchCallTally return t.answered + t.failures")
        .map_err(lua_error("reading the callers' tally"))
}

/// Every invoke of the `frames` frames was answered with what it sent, and nothing raised.
pub(super) fn check_calls(sim: &Simulation, frames: u32) -> Result<(), String> {
    let client = sim.client(0).ok_or("the client left")?;
    let (answered, mismatches, failures, first): (u64, u64, u64, Option<String>) = client
        .eval("local t = shared.BenchCallTally return t.answered, t.mismatches, t.failures, t.firstProblem")
        .map_err(lua_error("reading the callers' tally"))?;
    let expected = u64::from(frames) * u64::from(CALLS_PER_FRAME);
    if failures > 0 || mismatches > 0 {
        return Err(format!(
            "{failures} of the {expected} invokes raised and {mismatches} answer(s) differ from what was sent: {}",
            first.unwrap_or_default()
        ));
    }
    if answered != expected {
        return Err(format!(
            "{answered} of the {expected} invokes were answered (the rest never resumed)"
        ));
    }
    Ok(())
}

/// Whether `bench` is the round trip of calls rather than events.
pub fn is_calls(bench: &str) -> bool {
    bench == CALL_RESPONSE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luau_half_invokes_as_many_calls_a_frame() {
        let calls = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark/harness/calls.luau");
        let text = std::fs::read_to_string(calls).expect("calls.luau");
        assert!(
            text.contains(&format!("local CALLS_PER_FRAME = {CALLS_PER_FRAME}\n")),
            "calls.luau fires another number of calls a frame"
        );
    }
}
