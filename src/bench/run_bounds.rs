//! The work alone (`benchmark/harness/bounds.luau`): the least work any tool does on the
//! Entities and Booleans benches, so the report can say how far a ratio between tools can go
//! on this machine. Sending Entity[] means reading every field of every entity, and sending a
//! boolean[] reading and testing every value; decoding means creating the listener's own
//! tables from the bytes; and a frame's bytes go in one remote call either way. The work alone is an adapter of no tool
//! that does just that, run as a row of the bench: the same simulations, timers and checks as
//! the tools' rows, taking its turns among them ([`crate::bench::run_row`]). It receives a
//! packet of the tools' size because the receiving world's allocations decide when its garbage
//! collector runs: without the packet, creating the tables measured 15% slower.

use crate::bench::run::RowFigures;
use crate::runtime::Mode;

/// The benches the work alone runs beside (its adapter knows only these).
pub const BOUND_BENCHES: [&str; 2] = ["Booleans", "Entities"];

/// What the work alone does on `bench`'s send, for the report.
pub fn send_work(bench: &str) -> &'static str {
    match bench {
        "Booleans" => {
            "read and test each of the 1000 values, 32 to a row; one remote call a frame with the frame's bytes, \
             laid out beforehand (nothing packed or written, no framing)"
        }
        _ => {
            "read the six fields of each of the 100 entities; one remote call a frame with the frame's bytes, laid \
             out beforehand (nothing written, no framing)"
        }
    }
}

/// What the work alone does on `bench`'s decode, for the report.
pub fn decode_work(bench: &str) -> &'static str {
    match bench {
        "Booleans" => {
            "create the array of 1000 values from each event's 125 bytes in the packet and hand it to the listener \
             (no lengths, no checks)"
        }
        _ => {
            "create the 100 tables of six fields from each event's 600 bytes in the packet and hand them to the \
             listener (no lengths, no checks)"
        }
    }
}

/// The work alone on one bench in one mode: its send and decode figures, or why it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundRow {
    pub bench: &'static str,
    pub mode: Mode,
    pub outcome: Result<RowFigures, String>,
}

/// Whether the work alone runs beside `bench`'s rows.
pub fn has_bound(bench: &str) -> bool {
    BOUND_BENCHES.contains(&bench)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_alone_runs_only_beside_its_bench() {
        assert!(has_bound("Entities") && has_bound("Booleans"));
        for bench in ["BooleansRandom", "EntitiesRandom", "Tiny"] {
            assert!(!has_bound(bench), "{bench}");
        }
    }
}
