//! The report's Runtime section: the runtime benches' medians, 99th percentiles, fire and
//! flush, and the work alone beside its bench.

use std::fmt::Write as _;

use super::format::{bytes, ms};
use crate::competitors::{BLINK, BLINKBLOX, Competitor, HANDWRITTEN};
use crate::runtime::bounds::{BoundRow, work_alone};
use crate::runtime::calls::{CALLS_PER_FRAME, is_calls};
use crate::runtime::{CALL_RESPONSE, RowFigures, RuntimeRow};
use crate::stats::Stats;
use blinkblox_luau::Mode;

/// The runtime rows and the work alone's, as the Runtime section shows them.
pub(super) struct RuntimeTables<'a> {
    pub(super) rows: &'a [RuntimeRow],
    pub(super) bounds: &'a [BoundRow],
}

impl RuntimeTables<'_> {
    /// The section, when anything of it ran.
    pub(super) fn write(&self, out: &mut String) {
        if !self.rows.is_empty() {
            out.push_str("## Runtime\n\n");
            out.push_str(
                "Each frame the client fires 1000 events and flushes them; the server decodes the packet and \
                 calls a listener for each event. Milliseconds per frame, medians over the timed frames. \
                 \"Send\" is the thousand fires plus the flush; \"Decode\" is the server decoding the frame's \
                 packets and calling the listener. \"Bytes\" is one event as the encoder wrote it, measured from \
                 the packets sent, before any compression (for plain remotes, the runtime's estimate of the \
                 values' size). Booleans is boolean[0..1000] holding 1000 true values; Entities is 100 structs of \
                 six u8 fields; Strings is 300 name-like ASCII strings of 4 to 24 bytes; Numbers is 1000 doubles \
                 with full 52-bit fractions, magnitudes 1e-3 to 1e6, half of them negative; Dictionary is a map of \
                 200 such names to such doubles; Vectors is 100 vectors whose components are world positions \
                 (within 8192 studs, in steps of 1/64); these six are the shapes of the public community \
                 benchmark, each fired with the same payload every time. The Random variants fire 1001 different \
                 seeded payloads in turn; Tiny is one u8. A tool without a lossless type for a shape fails that \
                 row, and \"Rows that failed\" says which type it lacks. On CallResponse (below) \"Send\" is the \
                 client's invokes and flush, \"Decode\" the server's part, and \"Bytes\" both ways over the calls.\n\n",
            );
            out.push_str("### Medians\n\n");
            self.runtime_table(out, |stats| stats.median_ms);
            out.push_str("### 99th percentiles\n\n");
            self.runtime_table(out, |stats| stats.p99_ms);
            out.push_str("### Fire and flush separately (medians)\n\n");
            self.fire_flush_table(out);
            if self.rows.iter().any(|row| is_calls(row.bench)) {
                self.calls_table(out);
            }
        }
        if !self.bounds.is_empty() {
            self.bounds_table(out);
        }
    }

    fn row(&self, bench: &str, tool: &'static dyn Competitor, mode: Mode) -> Option<&RuntimeRow> {
        self.rows
            .iter()
            .find(|row| row.bench == bench && row.tool == tool && row.mode == mode)
    }

    /// Benches and tools in the order they ran.
    fn benches_and_tools(&self) -> (Vec<&'static str>, Vec<&'static dyn Competitor>) {
        let (mut benches, mut tools) = (Vec::new(), Vec::new());
        for row in self.rows {
            if !benches.contains(&row.bench) {
                benches.push(row.bench);
            }
            if !tools.contains(&row.tool) {
                tools.push(row.tool);
            }
        }
        (benches, tools)
    }

    fn cell(
        &self,
        bench: &str,
        tool: &'static dyn Competitor,
        mode: Mode,
        pick: impl Fn(&Stats) -> f64,
        send: bool,
    ) -> String {
        match self.row(bench, tool, mode).map(|row| &row.outcome) {
            None => "–".to_string(),
            Some(Err(_)) => "failed".to_string(),
            Some(Ok(figures)) => ms(pick(if send { &figures.send } else { &figures.decode })),
        }
    }

    fn bytes_cell(&self, bench: &str, tool: &'static dyn Competitor) -> String {
        [Mode::Native, Mode::Interpreted]
            .iter()
            .find_map(|&mode| match self.row(bench, tool, mode).map(|row| &row.outcome) {
                Some(Ok(figures)) => Some(bytes(figures.bytes_per_event)),
                _ => None,
            })
            .unwrap_or_else(|| "–".to_string())
    }

    fn runtime_table(&self, out: &mut String, pick: impl Fn(&Stats) -> f64 + Copy) {
        let (benches, tools) = self.benches_and_tools();
        out.push_str(
            "| Bench | Tool | Send, interpreted | Send, native | Decode, native | Decode, interpreted | Bytes |\n",
        );
        out.push_str("|---|---|---:|---:|---:|---:|---:|\n");
        for bench in benches {
            for (index, &tool) in tools.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    if index == 0 { bench } else { "" },
                    tool.name(),
                    self.cell(bench, tool, Mode::Interpreted, pick, true),
                    self.cell(bench, tool, Mode::Native, pick, true),
                    self.cell(bench, tool, Mode::Native, pick, false),
                    self.cell(bench, tool, Mode::Interpreted, pick, false),
                    self.bytes_cell(bench, tool),
                );
            }
        }
        out.push('\n');
    }

    fn fire_flush_table(&self, out: &mut String) {
        let (benches, tools) = self.benches_and_tools();
        out.push_str("| Bench | Tool | Fire, interpreted | Flush, interpreted | Fire, native | Flush, native | Remote calls a frame | Frames timed, interpreted / native |\n");
        out.push_str("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for bench in benches {
            for (index, &tool) in tools.iter().enumerate() {
                let mut cells = Vec::new();
                let mut calls = "–".to_string();
                let mut frames = Vec::new();
                for mode in [Mode::Interpreted, Mode::Native] {
                    match self.row(bench, tool, mode).map(|row| &row.outcome) {
                        Some(Ok(figures)) => {
                            cells.push(ms(figures.fire.median_ms));
                            cells.push(ms(figures.flush.median_ms));
                            calls = bytes(figures.calls_per_frame);
                            frames.push(figures.frames.to_string());
                        }
                        Some(Err(_)) => cells.extend(["failed".to_string(), "failed".to_string()]),
                        None => cells.extend(["–".to_string(), "–".to_string()]),
                    }
                }
                let frames = if frames.is_empty() {
                    "–".to_string()
                } else {
                    frames.join(" / ")
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {calls} | {frames} |",
                    if index == 0 { bench } else { "" },
                    tool.name(),
                    cells.join(" | "),
                );
            }
        }
        out.push('\n');
    }

    /// CallResponse's round trip and its parts, medians.
    fn calls_table(&self, out: &mut String) {
        let (_, tools) = self.benches_and_tools();
        let _ = write!(
            out,
            "### Call-response (medians)\n\n\
             Each frame the client invokes a function {CALLS_PER_FRAME} times, each invoke in its own thread, and \
             flushes; the server decodes the invocations, its handler answers each with the f64[0..500] it got, and \
             the answers are sent back; the client decodes them and resumes its callers. \"Send\" is the client \
             starting the invokes and flushing, \"Server\" the server's decoding, handler and sending of the \
             answers, \"Reply\" the client decoding the answers and resuming the callers, \"Round trip\" their \
             sum. Milliseconds per frame. A tool without call-response is listed under \"Not run\".\n\n"
        );
        out.push_str(
            "| Tool | Round trip, interpreted | Round trip, native | Send, native | Server, native | Reply, native | Reply, interpreted |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
        for &tool in &tools {
            let figure = |mode: Mode, pick: fn(&RowFigures) -> Option<f64>| match self
                .row(CALL_RESPONSE, tool, mode)
                .map(|row| &row.outcome)
            {
                None => "–".to_string(),
                Some(Err(_)) => "failed".to_string(),
                Some(Ok(figures)) => pick(figures).map_or_else(|| "–".to_string(), ms),
            };
            if self.row(CALL_RESPONSE, tool, Mode::Native).is_none()
                && self.row(CALL_RESPONSE, tool, Mode::Interpreted).is_none()
            {
                continue;
            }
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                tool.name(),
                figure(Mode::Interpreted, |f| f.round_trip.map(|s| s.median_ms)),
                figure(Mode::Native, |f| f.round_trip.map(|s| s.median_ms)),
                figure(Mode::Native, |f| Some(f.send.median_ms)),
                figure(Mode::Native, |f| Some(f.decode.median_ms)),
                figure(Mode::Native, |f| f.reply.map(|s| s.median_ms)),
                figure(Mode::Interpreted, |f| f.reply.map(|s| s.median_ms)),
            );
        }
        out.push('\n');
    }

    /// The work alone beside the rows of its bench: its send and decode, BlinkBlox's, the
    /// hand-written floor's and Blink's, and the ratios to Blink, in the order the modes ran.
    fn bounds_table(&self, out: &mut String) {
        out.push_str("### What the work itself costs\n\n");
        out.push_str(
            "The least work any tool does on a bench, run as a row of it: the same simulations, timers and \
             listener as the tools' rows, taking its turns among them, but no tool's code (`benchmark/harness/\
             bounds.luau`). An encoder reads every value it sends (each field of Entity[], each boolean of \
             a boolean[]) and sends the frame's bytes, and a decoder that gives each listener its own tables \
             creates them from the bytes it got; the work alone does that and nothing more, in the fastest \
             loops this project has found (in each mode, the faster of the two ways the generated modules \
             have). It is that work written as fast as we know how, not a proof that nothing is faster, and \
             between turns a figure moves by a few percent: a tool can read a little under it. A ratio to \
             Blink well under the work alone's is out of reach on this machine for code whose listeners get \
             the values the bench fires, unless a faster way to do the work itself is found.\n\n",
        );
        out.push_str(
            "| Bench | Figure | Mode | The work alone | Bound | BlinkBlox | Hand-written | Blink | Bound ÷ Blink | BlinkBlox ÷ Blink |\n",
        );
        out.push_str("|---|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        let cell = |value: Option<f64>| value.map_or_else(|| "–".to_string(), ms);
        let ratio = |value: Option<f64>, blink: Option<f64>| match (value, blink) {
            (Some(value), Some(blink)) if blink > 0.0 => format!("{:.2}", value / blink),
            _ => "–".to_string(),
        };
        for row in self.bounds {
            let Some(work) = work_alone(row.bench) else { continue };
            for (figure, what, send) in [("Send", work.send, true), ("Decode", work.decode, false)] {
                let pick = |figures: &RowFigures| {
                    if send {
                        figures.send.median_ms
                    } else {
                        figures.decode.median_ms
                    }
                };
                let tool_figure =
                    |tool: &'static dyn Competitor| match self.row(row.bench, tool, row.mode).map(|row| &row.outcome) {
                        Some(Ok(figures)) => Some(pick(figures)),
                        _ => None,
                    };
                let bound = row.outcome.as_ref().ok().map(pick);
                let blink = tool_figure(BLINK);
                let _ = writeln!(
                    out,
                    "| {} | {figure} | {} | {what} | {} | {} | {} | {} | {} | {} |",
                    row.bench,
                    row.mode.label(),
                    if row.outcome.is_err() {
                        "failed".to_string()
                    } else {
                        cell(bound)
                    },
                    cell(tool_figure(BLINKBLOX)),
                    cell(tool_figure(HANDWRITTEN)),
                    cell(blink),
                    ratio(bound, blink),
                    ratio(tool_figure(BLINKBLOX), blink),
                );
            }
        }
        out.push('\n');
    }
}
