//! `benchmark/Benchmarks.md`: the tables of every group that ran, with the machine, the
//! versions, the date and the exact command, and nothing but what was measured.

pub mod format;
pub mod machine;
pub mod module_load;
pub mod performance;
pub mod reading;
pub mod runtime;
pub mod scenarios;

use std::fmt::Write as _;

use machine::LUAU_VERSION;
use module_load::ModuleLoadTable;
use performance::PerformanceTables;
use reading::READING;
use runtime::RuntimeTables;
use scenarios::{RivalsTables, ScenarioTable};

use crate::many_declarations::LARGE_SCHEMA_DECLARATIONS;
use crate::module_load::ModuleLoadRow;
use crate::performance::against_blink::CompilerComparison;
use crate::performance::against_zap::ProcessComparison;
use crate::performance::stages::CompilerRow;
use crate::rivals::{RivalOutcome, RivalRow};
use crate::runtime::bounds::BoundRow;
use crate::runtime::calls::CALLS_PER_FRAME;
use crate::runtime::{EVENTS_PER_FRAME, RuntimeRow, WARMUP_FRAMES};
use crate::scenarios::ScenarioRow;
use crate::turns::{MIN_FRAMES, Pace, TURN_FRAMES};
use blinkblox_luau::{Mode, TimingClock};

pub use machine::{cpu_model, os_description, today};

/// Where and how the run was made.
#[derive(Clone, Debug, PartialEq)]
pub struct RunContext {
    pub command: String,
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    pub cpu: String,
    pub os: String,
    pub pace: Pace,
    pub modes: Vec<Mode>,
    /// (tool, version and where it came from).
    pub tools: Vec<(String, String)>,
    /// (what, why) for every tool, group or bench asked for or declared that did not run.
    pub not_run: Vec<(String, String)>,
}

/// Everything the report shows.
pub struct Report<'a> {
    pub context: &'a RunContext,
    pub runtime: &'a [RuntimeRow],
    pub compiler: &'a [CompilerRow],
    pub comparison: &'a [CompilerComparison],
    /// Whole-process compiles against zap's binary.
    pub zap_comparison: &'a [ProcessComparison],
    /// Each tool's modules compiled and required for the first time.
    pub module_load: &'a [ModuleLoadRow],
    /// The same on the large schema (LARGE_SCHEMA_DECLARATIONS events), for the code generators.
    pub module_load_large: &'a [ModuleLoadRow],
    pub scenarios: &'a [ScenarioRow],
    pub rivals: &'a [RivalRow],
    /// The least work a tool does on a bench (the work alone).
    pub bounds: &'a [BoundRow],
}

impl Report<'_> {
    fn failures(&self) -> Vec<String> {
        let mut failures = Vec::new();
        for row in self.runtime {
            if let Err(err) = &row.outcome {
                failures.push(format!(
                    "{} / {} / {}: {err}",
                    row.bench,
                    row.tool.name(),
                    row.mode.label()
                ));
            }
        }
        for row in self.compiler {
            if let Err(err) = &row.outcome {
                failures.push(format!("Performance / {}: {err}", row.schema));
            }
        }
        for row in self.module_load {
            if let Err(err) = &row.outcome {
                failures.push(format!("ModuleLoad / {}: {err}", row.tool.name()));
            }
        }
        for row in self.module_load_large {
            if let Err(err) = &row.outcome {
                failures.push(format!(
                    "ModuleLoad / {LARGE_SCHEMA_DECLARATIONS} declarations / {}: {err}",
                    row.tool.name()
                ));
            }
        }
        for row in self.scenarios {
            if let Err(err) = &row.outcome {
                failures.push(format!("{} / BlinkBlox / {}: {err}", row.scenario, row.mode.label()));
            }
        }
        for row in self.bounds {
            if let Err(err) = &row.outcome {
                failures.push(format!("{} / the work alone / {}: {err}", row.bench, row.mode.label()));
            }
        }
        for row in self.rivals {
            if let RivalOutcome::Failed(err) = &row.outcome {
                failures.push(format!(
                    "Rivals {} / {} / {}: {err}",
                    row.scenario,
                    row.tool.name(),
                    row.mode.label()
                ));
            }
        }
        for row in self.comparison {
            if let Err(err) = &row.blink_ms {
                failures.push(format!("Performance / Blink's compiler / {}: {err}", row.schema));
            }
        }
        for row in self.zap_comparison {
            for (who, outcome) in [("BlinkBlox", &row.blinkblox), ("zap", &row.zap)] {
                if let Err(err) = outcome {
                    failures.push(format!(
                        "Performance / against zap's compiler / {who} / {}: {err}",
                        row.schema
                    ));
                }
            }
        }
        failures
    }

    /// The whole of Benchmarks.md.
    pub fn render(&self) -> String {
        let context = self.context;
        let mut out = String::new();
        out.push_str("# Benchmarks\n\n");
        out.push_str(
            "Written by `blinkblox bench --run`. Every figure below was measured in the run this file \
             describes; nothing is copied from elsewhere. Rerun the command below to reproduce it.\n\n",
        );
        out.push_str("## The run\n\n");
        let _ = writeln!(out, "- Command: `{}`", context.command);
        let _ = writeln!(out, "- Date: {} (UTC)", context.date);
        let _ = writeln!(out, "- Machine: {}", context.cpu);
        let _ = writeln!(out, "- OS: {}", context.os);
        let clock = if TimingClock::thread_cpu_available() {
            "the thread's CPU time"
        } else {
            "the wall clock (this platform has no thread CPU clock)"
        };
        let _ = writeln!(out, "- Clock: {clock}");
        let _ = writeln!(
            out,
            "- Luau {LUAU_VERSION}, embedded in blinkblox (mlua), with Roblox's Luau fast flags on, sandboxed, \
             compiled at optimization level 2; natively compiled rows with Luau's code generator on, interpreted \
             rows with it off"
        );
        let modes: Vec<&str> = context.modes.iter().map(|mode| mode.label()).collect();
        let _ = writeln!(
            out,
            "- {} timed frames a row, or as many as fit in {} s of CPU time, set-up included \
             (at least {MIN_FRAMES}; \"Fire and flush separately\" gives each row's frames), {EVENTS_PER_FRAME} events a frame \
             ({CALLS_PER_FRAME} invokes on CallResponse); modes: {}; each row's frames timed in turns of \
             {TURN_FRAMES}, each turn in a fresh simulation (new Luau states for the server and the clients) after \
             {WARMUP_FRAMES} untimed frames; the rows of one bench (or Rivals scenario) and mode take their turns in \
             rotation",
            context.pace.frames,
            context.pace.row_budget.as_secs_f64(),
            modes.join(", ")
        );
        out.push_str("- Tools:\n");
        for (tool, version) in &context.tools {
            let _ = writeln!(out, "  - {tool}: {version}");
        }
        out.push('\n');

        RuntimeTables {
            rows: self.runtime,
            bounds: self.bounds,
        }
        .write(&mut out);
        ModuleLoadTable {
            rows: self.module_load,
            large: self.module_load_large,
            modes: &context.modes,
        }
        .write(&mut out);
        if !self.scenarios.is_empty() {
            ScenarioTable { rows: self.scenarios }.write(&mut out);
        }
        if !self.rivals.is_empty() {
            RivalsTables { rows: self.rivals }.write(&mut out);
        }
        PerformanceTables {
            compiler: self.compiler,
            comparison: self.comparison,
            zap_comparison: self.zap_comparison,
        }
        .write(&mut out);

        let failures = self.failures();
        if !failures.is_empty() {
            out.push_str("## Rows that failed\n\n");
            for failure in failures {
                let _ = writeln!(out, "- {failure}");
            }
            out.push('\n');
        }

        if !context.not_run.is_empty() {
            out.push_str("## Not run\n\n");
            for (what, why) in &context.not_run {
                let _ = writeln!(out, "- {what}: {why}");
            }
            out.push('\n');
        }

        out.push_str(READING);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitors::{BLINK, BLINKBLOX, Competitor, HANDWRITTEN};
    use crate::runtime::RowFigures;
    use crate::runtime::bounds::work_alone;
    use crate::stats::Stats;

    fn stats(median_ms: f64) -> Stats {
        Stats {
            median_ms,
            p99_ms: median_ms,
        }
    }

    fn runtime_row(tool: &'static dyn Competitor, send: f64, decode: f64) -> RuntimeRow {
        RuntimeRow {
            bench: "Entities",
            tool,
            mode: Mode::Native,
            outcome: Ok(RowFigures {
                send: stats(send),
                fire: stats(send),
                flush: stats(0.0),
                decode: stats(decode),
                reply: None,
                round_trip: None,
                bytes_per_event: 602.0,
                calls_per_frame: 1.0,
                frames: 1,
            }),
        }
    }

    #[test]
    fn the_work_alone_is_shown_beside_its_bench_with_both_ratios_to_blink() {
        let context = RunContext {
            command: "blinkblox bench --run".into(),
            date: "2026-11-30".into(),
            cpu: "cpu".into(),
            os: "os".into(),
            pace: Pace::frames(1),
            modes: vec![Mode::Native],
            tools: Vec::new(),
            not_run: Vec::new(),
        };
        let runtime = [runtime_row(BLINKBLOX, 2.0, 6.0), runtime_row(BLINK, 2.5, 30.0)];
        let bounds = [BoundRow {
            bench: "Entities",
            mode: Mode::Native,
            outcome: runtime_row(HANDWRITTEN, 1.5, 5.4).outcome,
        }];
        let text = Report {
            context: &context,
            runtime: &runtime,
            compiler: &[],
            comparison: &[],
            zap_comparison: &[],
            module_load: &[],
            module_load_large: &[],
            scenarios: &[],
            rivals: &[],
            bounds: &bounds,
        }
        .render();
        let send = format!(
            "| Entities | Send | native | {} | 1.50 | 2.00 | – | 2.50 | 0.60 | 0.80 |",
            work_alone("Entities").expect("Entities has the work alone").send
        );
        let decode = format!(
            "| Entities | Decode | native | {} | 5.40 | 6.00 | – | 30.00 | 0.18 | 0.20 |",
            work_alone("Entities").expect("Entities has the work alone").decode
        );
        assert!(text.contains(&send), "{text}");
        assert!(text.contains(&decode), "{text}");
    }
}
