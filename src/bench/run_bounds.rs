//! The bounds (`benchmark/harness/bounds.luau`): the least work any tool does for the
//! Entities bench, timed as its rows are, so the report can say how far a ratio between tools
//! can go on this machine. Sending Entity[] means reading every field of every entity;
//! decoding it into a listener's own tables means creating 100 tables of six fields an event.
//! A bound is Luau of no tool, run in the same sandboxed VM as the rows (a fresh simulation's
//! server world a turn, the thread's CPU time), and it takes its turns in rotation with the
//! rows of its bench and mode ([`crate::bench::run_row`]), so a drift in the machine's speed
//! falls on the bound as on the rows it is read beside.

use std::path::Path;

use crate::bench::BenchError;
use crate::bench::run::{Stats, WARMUP_FRAMES, install_clock, lua_error, read};
use crate::runtime::{Mode, Simulation};

/// A bound: the work, the runtime bench it bounds, and which figure of that bench's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The name `bounds.luau` knows it by.
    pub key: &'static str,
    pub bench: &'static str,
    pub figure: Figure,
    /// What the bound's frame does, for the report.
    pub work: &'static str,
}

/// Which of a runtime row's figures a bound is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    Send,
    Decode,
}

/// The bounds, in the order the report shows them.
pub const BOUNDS: [Bound; 2] = [
    Bound {
        key: "EntitiesSend",
        bench: "Entities",
        figure: Figure::Send,
        work: "read the six fields of each of the 100 entities (no buffer, no framing)",
    },
    Bound {
        key: "EntitiesDecode",
        bench: "Entities",
        figure: Figure::Decode,
        work: "create the 100 tables of six fields and hand them to a listener (no buffer, no checks)",
    },
];

/// What one bound measured in one mode: the median and 99th percentile of its frames (1000
/// events each), or why it could not run.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundRow {
    pub bound: Bound,
    pub mode: Mode,
    pub outcome: Result<BoundFigures, String>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundFigures {
    pub time: Stats,
    pub frames: u32,
}

/// The bounds whose bench runs: a bound is only read beside its bench's rows.
pub fn bounds_for(benches: &[&str]) -> Vec<Bound> {
    BOUNDS
        .into_iter()
        .filter(|bound| benches.contains(&bound.bench))
        .collect()
}

/// The bounds' Luau: `bounds.luau` and the payloads it reads.
pub struct BoundHarness {
    harness: String,
    payloads: String,
}

impl BoundHarness {
    pub fn load(bench_dir: &Path) -> Result<BoundHarness, BenchError> {
        let harness = bench_dir.join("harness");
        Ok(BoundHarness {
            harness: read(&harness.join("bounds.luau"))?,
            payloads: read(&harness.join("payloads.luau"))?,
        })
    }

    /// One turn: a fresh simulation, the bound's frame function in its server world,
    /// [`WARMUP_FRAMES`] untimed frames, then `timed` frames (seconds each) into `samples`.
    pub(crate) fn run_turn(&self, bound: Bound, mode: Mode, timed: u32, samples: &mut Vec<f64>) -> Result<(), String> {
        let sim = Simulation::new(mode, 1).map_err(lua_error("starting the simulation"))?;
        let world = sim.server();
        let setup = lua_error("bound set-up");
        install_clock(world).map_err(&setup)?;
        world.load_module("Payloads", &self.payloads).map_err(&setup)?;
        world.load_module("Bounds", &self.harness).map_err(&setup)?;
        let frame: mlua::Function = world
            .eval(&format!("return require('Bounds').prepare('{}')", bound.key))
            .map_err(&setup)?;
        for index in 0..WARMUP_FRAMES + timed {
            let (seconds, wrong): (f64, Option<String>) = world.call(&frame, ()).map_err(lua_error("running"))?;
            if let Some(wrong) = wrong {
                return Err(format!("the bound did less than its work: {wrong}"));
            }
            if index >= WARMUP_FRAMES {
                samples.push(seconds);
            }
        }
        Ok(())
    }
}

/// A bound's row from its timed frames (seconds each).
pub(crate) fn bound_row(bound: Bound, mode: Mode, samples: Result<Vec<f64>, String>) -> BoundRow {
    let outcome = samples.and_then(|samples| {
        Ok(BoundFigures {
            time: Stats::of_seconds(&samples).ok_or("no frames were timed (--frames 0)")?,
            frames: samples.len() as u32,
        })
    });
    BoundRow { bound, mode, outcome }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_runs_only_beside_its_bench() {
        assert_eq!(bounds_for(&["Booleans", "Tiny"]), Vec::new());
        assert_eq!(bounds_for(&["Entities"]), BOUNDS.to_vec());
        assert_eq!(bounds_for(&["EntitiesRandom"]), Vec::new());
    }
}
