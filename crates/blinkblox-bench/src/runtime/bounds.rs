//! The work alone (`benchmark/harness/bounds.luau`): the least work any tool does on the
//! Entities and Booleans benches and their Random variants, and on Strings, Numbers,
//! Dictionary and Vectors, so the report can say how far a ratio between tools can go on this
//! machine. Sending Entity[] means reading every field of every entity, sending a boolean[]
//! reading and testing every value, sending numbers, strings or vectors reading each of them;
//! decoding means creating the listener's own tables, strings and vectors from the bytes; and
//! a frame's bytes go in one remote call either way. The work
//! alone is an adapter of no tool that does just that, run as a row of the bench: the same
//! simulations, timers and checks as the tools' rows, taking its turns among them
//! ([`crate::turns`]). It receives a packet of the tools' size because the receiving world's
//! allocations decide when its garbage collector runs, and so what creating the tables costs.

use super::RowFigures;
use blinkblox_luau::Mode;

/// What the work alone does on one bench (its adapter knows only these), for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    pub bench: &'static str,
    pub send: &'static str,
    pub decode: &'static str,
}

/// The benches the work alone runs beside.
pub const WORK_ALONE: [Work; 8] = [
    Work {
        bench: "Booleans",
        send: "read and test each of the 1000 values, 32 to a row; one remote call a frame with the frame's bytes, \
               laid out beforehand (nothing packed or written, no framing)",
        decode: "create the array of 1000 values from each event's 125 bytes in the packet and hand it to the \
                 listener (no lengths, no checks)",
    },
    Work {
        bench: "Entities",
        send: "read the six fields of each of the 100 entities; one remote call a frame with the frame's bytes, laid \
               out beforehand (nothing written, no framing)",
        decode: "create the 100 tables of six fields from each event's 600 bytes in the packet and hand them to the \
                 listener (no lengths, no checks)",
    },
    Work {
        bench: "Strings",
        send: "read the length of each of the 300 strings; one remote call a frame with the frame's bytes, laid out \
               beforehand (nothing written, no lengths)",
        decode: "create the array of 300 strings from each event's bytes in the packet, their lengths known \
                 beforehand, and hand it to the listener (no checks)",
    },
    Work {
        bench: "Numbers",
        send: "read each of the 1000 doubles (their sum); one remote call a frame with the frame's bytes, laid out \
               beforehand (nothing written, no framing)",
        decode: "create the array of 1000 doubles from each event's 8000 bytes in the packet and hand it to the \
                 listener (no length, no finite check)",
    },
    Work {
        bench: "Dictionary",
        send: "read each of the 200 entries (each key's length and its double); one remote call a frame with the \
               frame's bytes, laid out beforehand (nothing written, no lengths)",
        decode: "create the map of 200 keys from each event's bytes in the packet, the keys' lengths known \
                 beforehand, and hand it to the listener (no checks)",
    },
    Work {
        bench: "Vectors",
        send: "read the three components of each of the 100 vectors; one remote call a frame with the frame's \
               bytes, laid out beforehand (nothing written, no framing)",
        decode: "create the array of 100 vectors from each event's 1200 bytes (three f32s each) in the packet and \
                 hand it to the listener (no length, no finite check)",
    },
    Work {
        bench: "BooleansRandom",
        send: "as on Booleans, over the 1001 payloads fired in turn: their bytes laid out beforehand, the frame's run of \
               them copied into the packet at the flush (one buffer.copy)",
        decode: "as on Booleans",
    },
    Work {
        bench: "EntitiesRandom",
        send: "as on Entities, over the 1001 payloads fired in turn: their bytes laid out beforehand, the frame's run of \
               them copied into the packet at the flush (one buffer.copy)",
        decode: "as on Entities",
    },
];

/// What the work alone does on `bench`, if it runs beside it.
pub fn work_alone(bench: &str) -> Option<&'static Work> {
    WORK_ALONE.iter().find(|work| work.bench == bench)
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
    work_alone(bench).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_alone_runs_beside_every_bench_but_tiny_and_call_response() {
        for bench in crate::runtime::RUNTIME_BENCHES {
            let expected = !matches!(bench, "Tiny" | crate::runtime::CALL_RESPONSE);
            assert_eq!(has_bound(bench), expected, "{bench}");
        }
        assert!(!has_bound("Nonesuch"));
    }
}
