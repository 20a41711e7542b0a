//! The report's ModuleLoad section: each tool's Server and Client modules compiled, and
//! required for the first time, with BlinkBlox against Blink.

use std::fmt::Write as _;

use super::format::ms;
use crate::competitors::BLINK;
use crate::many_declarations::LARGE_SCHEMA_DECLARATIONS;
use crate::module_load::{LARGE_LOAD_RUNS, LOAD_RUNS, ModuleCost, ModuleLoadRow};
use blinkblox_luau::Mode;

pub(super) struct ModuleLoadTable<'a> {
    pub(super) rows: &'a [ModuleLoadRow],
    /// The same on the large schema.
    pub(super) large: &'a [ModuleLoadRow],
    pub(super) modes: &'a [Mode],
}

impl ModuleLoadTable<'_> {
    pub(super) fn write(&self, out: &mut String) {
        if self.rows.is_empty() {
            return;
        }
        out.push_str("## Module load\n\n");
        let _ = write!(
            out,
            "What a player pays on joining, before the first event: each tool's Server and Client modules for \
             the benchmark schema (benchmark/definitions/Definition.*), compiled alone to bytecode at Roblox's \
             settings, and required for the first time in a fresh world — the compile again, native code \
             generation in native mode, and the module's body run until it returns (the Client's once the \
             server's remotes have reached it). Milliseconds of the thread's CPU time, medians of {LOAD_RUNS} runs \
             taken in turns by tool. \"÷ Blink\" is a first require against Blink's of the same module.\n\n"
        );
        self.table(out, self.rows);
        if !self.large.is_empty() {
            let _ = write!(
                out,
                "### {LARGE_SCHEMA_DECLARATIONS} declarations\n\nThe same for a schema of {LARGE_SCHEMA_DECLARATIONS} client \
                 events cycling through four payloads (the Performance bench's many declarations, each tool in its \
                 language), for the tools that generate modules from it; medians of {LARGE_LOAD_RUNS} runs.\n\n"
            );
            self.table(out, self.large);
        }
    }

    /// The table of `rows`: each tool's Server, then each tool's Client.
    fn table(&self, out: &mut String, rows: &[ModuleLoadRow]) {
        out.push_str("| Module | Tool | Lines | KB | Compile |");
        for mode in self.modes {
            let _ = write!(out, " Require, {} |", mode.label());
        }
        for mode in self.modes {
            let _ = write!(out, " ÷ Blink, {} |", mode.label());
        }
        out.push_str("\n|---|---|");
        for _ in 0..3 + 2 * self.modes.len() {
            out.push_str("---:|");
        }
        out.push('\n');
        let blink = rows
            .iter()
            .find(|row| row.tool == BLINK)
            .and_then(|row| row.outcome.as_ref().ok());
        for (side, module) in ["Server", "Client"].into_iter().enumerate() {
            for (index, row) in rows.iter().enumerate() {
                let label = if index == 0 { module } else { "" };
                let _ = write!(out, "| {label} | {} |", row.tool.name());
                match &row.outcome {
                    Ok(costs) => self.cells(out, &costs[side], blink.map(|costs| &costs[side])),
                    Err(_) => {
                        for _ in 0..3 + 2 * self.modes.len() {
                            out.push_str(" failed |");
                        }
                    }
                }
                out.push('\n');
            }
        }
        out.push('\n');
    }

    fn cells(&self, out: &mut String, cost: &ModuleCost, blink: Option<&ModuleCost>) {
        let _ = write!(
            out,
            " {} | {:.1} | {} |",
            cost.lines,
            cost.bytes as f64 / 1024.0,
            ms(cost.compile_ms)
        );
        for mode in self.modes {
            match require_ms(cost, *mode) {
                Some(value) => {
                    let _ = write!(out, " {} |", ms(value));
                }
                None => out.push_str(" – |"),
            }
        }
        for mode in self.modes {
            match (
                require_ms(cost, *mode),
                blink.and_then(|blink| require_ms(blink, *mode)),
            ) {
                (Some(ours), Some(theirs)) if theirs > 0.0 => {
                    let _ = write!(out, " {:.2}× |", ours / theirs);
                }
                _ => out.push_str(" – |"),
            }
        }
    }
}

fn require_ms(cost: &ModuleCost, mode: Mode) -> Option<f64> {
    cost.require_ms
        .iter()
        .find(|(candidate, _)| *candidate == mode)
        .map(|(_, value)| *value)
}
