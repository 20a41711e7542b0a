//! The runtime benches: each tool's code loaded into a fresh simulation (one server, one
//! client), a thousand events fired and flushed on the client every frame, the packet
//! delivered to the server, decoded and handed to a listener.
//!
//! The Luau half lives in `benchmark/harness/` (payloads, the client's timed frame, the
//! server's checking listener, one adapter per tool); [`harness`] loads it and sets a row's
//! simulation up, [`rows`] runs the rows of a bench side by side and collects the figures,
//! [`bounds`] is the work alone that runs among them. Clock: the thread's CPU time
//! (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)` on Linux, the wall clock elsewhere), which a busy
//! shared machine disturbs far less than wall time. The client times its fires and its flush
//! inside Luau with `shared.BenchClock()`; the server's decode is what Rust measures around
//! the delivery of the frame's packets to the server world (`StepTiming::server.receive`: the
//! remote's listeners, the tool's decode and the bench's listener, then deferred threads). The
//! run is single-threaded.

pub mod bounds;
pub mod calls;
pub mod harness;
pub mod rows;

use crate::competitors::Competitor;
use crate::stats::Stats;
use blinkblox_luau::Mode;

/// Events fired per frame.
pub const EVENTS_PER_FRAME: u32 = 1000;
/// Frames run before timing starts (buffers grow and caches fill in these).
pub const WARMUP_FRAMES: u32 = 2;

/// The bench of a function's round trip rather than an event's one way (see [`calls`]).
pub const CALL_RESPONSE: &str = "CallResponse";

/// The runtime benches, in the order the tables show them: the six event shapes of the public
/// community benchmark (Booleans, Entities, Strings, Numbers, Dictionary, Vectors), the Random
/// variants and Tiny, then the public benchmark's seventh test, [`CALL_RESPONSE`].
pub const RUNTIME_BENCHES: [&str; 10] = [
    "Booleans",
    "Entities",
    "Strings",
    "Numbers",
    "Dictionary",
    "Vectors",
    "BooleansRandom",
    "EntitiesRandom",
    "Tiny",
    CALL_RESPONSE,
];

/// Events (or, on [`CALL_RESPONSE`], invokes) a frame of `bench` fires.
pub fn events_per_frame(bench: &str) -> u32 {
    if bench == CALL_RESPONSE {
        calls::CALLS_PER_FRAME
    } else {
        EVENTS_PER_FRAME
    }
}

/// What one row measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowFigures {
    /// Fires plus flush, per frame.
    pub send: Stats,
    pub fire: Stats,
    pub flush: Stats,
    /// The server decoding the frame's packets and calling the listener (on
    /// [`CALL_RESPONSE`], the handler, and sending the answers too).
    pub decode: Stats,
    /// On [`CALL_RESPONSE`]: the client decoding the answers and resuming its callers.
    pub reply: Option<Stats>,
    /// On [`CALL_RESPONSE`]: send, the server's part and the reply, per frame.
    pub round_trip: Option<Stats>,
    /// One event on the wire: the frame's buffer bytes (or, for plain remotes, the
    /// runtime's size estimate of the values) over the events fired; on [`CALL_RESPONSE`],
    /// both ways over the calls made.
    pub bytes_per_event: f64,
    /// Remote calls a frame.
    pub calls_per_frame: f64,
    /// The frames timed.
    pub frames: u32,
}

/// One (bench, tool, mode) row: its figures, or why it could not run.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeRow {
    pub bench: &'static str,
    pub tool: &'static dyn Competitor,
    pub mode: Mode,
    pub outcome: Result<RowFigures, String>,
}

/// Who a runtime row runs: a tool, or the work alone (`bounds.luau`, see [`bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Participant {
    Tool(&'static dyn Competitor),
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

/// The event of the schema a bench fires (the Random benches reuse their plain event).
pub fn event_of(bench: &str) -> &str {
    bench.strip_suffix("Random").unwrap_or(bench)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_luau_payloads_list_the_same_benches_in_the_same_order() {
        let payloads = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark/harness/payloads.luau");
        let text = std::fs::read_to_string(payloads).expect("payloads.luau");
        let list = text
            .split("Payloads.BENCHES = table.freeze({")
            .nth(1)
            .and_then(|rest| rest.split("})").next())
            .expect("Payloads.BENCHES");
        let names: Vec<&str> = list
            .split(',')
            .map(|name| name.trim().trim_matches('"'))
            .filter(|name| !name.is_empty())
            .collect();
        let events: Vec<&str> = RUNTIME_BENCHES.into_iter().filter(|b| *b != CALL_RESPONSE).collect();
        assert_eq!(names, events);
    }

    #[test]
    fn random_benches_fire_their_plain_event() {
        assert_eq!(event_of("BooleansRandom"), "Booleans");
        assert_eq!(event_of("EntitiesRandom"), "Entities");
        assert_eq!(event_of("Tiny"), "Tiny");
    }
}
