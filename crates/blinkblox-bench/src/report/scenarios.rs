//! The report's Scenarios section (BlinkBlox alone) and Rivals section (the scenarios on every
//! tool, a table per mode).

use std::fmt::Write as _;

use super::format::{bytes, ms};
use crate::competitors::Competitor;
use crate::rivals::{RivalOutcome, RivalRow};
use crate::scenarios::ScenarioRow;
use blinkblox_luau::Mode;

/// The Scenarios' rows.
pub(super) struct ScenarioTable<'a> {
    pub(super) rows: &'a [ScenarioRow],
}

impl ScenarioTable<'_> {
    pub(super) fn write(&self, out: &mut String) {
        out.push_str("## Scenarios (BlinkBlox)\n\n");
        out.push_str(
            "BlinkBlox only (benchmark/definitions/Scenarios.blink). A unit is a u16, a vector, a u8 and a boolean. \
             Broadcast: 100 units a frame to 50 players with FireAll. ManyEvents: 100 reliable events a frame to one \
             player, spread over 128 declarations. UnreliableInput: 8 small unreliable inputs (a u8 and a vector) a \
             frame from one client to the server; UnreliableInputBatched: the same on the schema compiled with \
             BatchUnreliable. Instances: 100 reliable events a frame to one player, each carrying a part. \
             WorldState: 16 units a frame to 50 players in one unreliable FireAll. SelfState: each of 50 players \
             their own unit a frame, unreliable. BroadcastStream: an unreliable stream of 16 units to 50 players, \
             set every frame. PlayerStream: an unreliable stream held per player, each of 50 players' values set \
             every frame.\n\n\
             Milliseconds a frame, medians: \"Send\" is the sender's fires (or Sets) and its flush, \"Decode\" is \
             one receiver's decode and listeners (the mean over the players; the server's for the client's inputs). \
             Remote calls a frame are summed over every player reached; a FireAllClients counts as one.\n\n",
        );
        out.push_str(
            "| Scenario | Players | Send, native | Decode, native | Send, interpreted | Decode, interpreted | Remote calls a frame |\n",
        );
        out.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
        let mut names: Vec<&str> = Vec::new();
        for row in self.rows {
            if !names.contains(&row.scenario) {
                names.push(row.scenario);
            }
        }
        for name in names {
            let find = |mode: Mode| {
                self.rows
                    .iter()
                    .find(|row| row.scenario == name && row.mode == mode)
                    .map(|row| &row.outcome)
            };
            let mut cells = Vec::new();
            let (mut players, mut calls) = ("–".to_string(), "–".to_string());
            for mode in [Mode::Native, Mode::Interpreted] {
                match find(mode) {
                    Some(Ok(figures)) => {
                        cells.push(ms(figures.send.median_ms));
                        cells.push(ms(figures.decode.median_ms));
                        players = figures.players.to_string();
                        calls = bytes(figures.calls_per_frame);
                    }
                    Some(Err(_)) => cells.extend(["failed".to_string(), "failed".to_string()]),
                    None => cells.extend(["–".to_string(), "–".to_string()]),
                }
            }
            let _ = writeln!(out, "| {name} | {players} | {} | {calls} |", cells.join(" | "));
        }
        out.push('\n');
    }
}

/// The Rivals' rows.
pub(super) struct RivalsTables<'a> {
    pub(super) rows: &'a [RivalRow],
}

impl RivalsTables<'_> {
    pub(super) fn write(&self, out: &mut String) {
        out.push_str("## Rivals\n\n");
        out.push_str(
            "The crowd, unreliable and Instance scenarios on every tool, on the same values \
             (benchmark/harness/rivals.luau, one adapter per tool in benchmark/harness/rivals/): BlinkBlox on \
             benchmark/definitions/Scenarios.blink, Blink on Scenarios.upstream.blink compiled by its own \
             compiler, zap on Scenarios.zap compiled by its binary, the libraries with a packet per scenario \
             defined in their adapter. A unit is a u16, a vector, a u8 and a boolean. Broadcast: 100 units a \
             frame to 50 players, reliable, with FireAll or the tool's broadcast. UnreliableInput: 8 small inputs \
             (a u8 and a vector) a frame from one client to the server, unreliable; UnreliableInputBatched: the \
             same with BlinkBlox's BatchUnreliable. Instances: 100 reliable events a frame to one player, each \
             carrying a part. WorldState: 16 units a frame to 50 players in one unreliable broadcast. SelfState: \
             each of 50 players their own unit a frame, unreliable. ManyEvents: 100 reliable events a frame to \
             one player over 128 declarations, for the code generators. Positions: 64 units (a u16 id, a position \
             on a 1/64-stud grid within ±2048 studs, a u8 health) to 50 players a frame, reliable, 10 of them moving \
             and 2 losing health each frame; each code generator sends them its best way that keeps the precision \
             (BlinkBlox: a delta stream of quantized positions, benchmark/definitions/Scenarios.blink; Blink and \
             zap: an array of f32 vectors), and every player checks that no position is off by more than half a \
             step. PositionsWhole: the same frames as an array of f32 vectors on every code generator (BlinkBlox \
             without quantized numbers or delta streams).\n\n\
             Each cell is send, decode, remote calls a frame, bytes a second: milliseconds a frame, medians, and \
             the bytes reaching each receiver a second at 60 frames a second (a FireAllClients counts for every \
             player). \"Send\" is the \
             sender's fires and flush; a library that flushes on Heartbeat or PostSimulation by itself adds that \
             frame's time, less what the embedded runtime's frame costs with nothing loaded. \"Decode\" is one \
             receiver's decode and listeners, the mean over the players (the server's for the inputs). Remote \
             calls are summed over every player reached; a FireAllClients counts as one. Every receiver compares \
             the values of the two untimed frames with what was sent and counts every value after: a row with a \
             wrong or missing value fails. Where a tool has no such feature, the cell says so.\n\n",
        );
        let mut tools: Vec<&'static dyn Competitor> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for row in self.rows {
            if !tools.contains(&row.tool) {
                tools.push(row.tool);
            }
            if !names.contains(&row.scenario) {
                names.push(row.scenario);
            }
        }
        for mode in [Mode::Native, Mode::Interpreted] {
            if !self.rows.iter().any(|row| row.mode == mode) {
                continue;
            }
            let title = match mode {
                Mode::Native => "Natively compiled",
                Mode::Interpreted => "Interpreted",
            };
            let _ = writeln!(out, "### {title}\n");
            out.push_str("| Scenario |");
            for tool in &tools {
                let _ = write!(out, " {} |", tool.name());
            }
            out.push_str("\n|---|");
            out.push_str(&"---|".repeat(tools.len()));
            out.push('\n');
            for name in &names {
                let _ = write!(out, "| {name} |");
                for &tool in &tools {
                    let outcome = self
                        .rows
                        .iter()
                        .find(|row| row.scenario == *name && row.tool == tool && row.mode == mode)
                        .map(|row| &row.outcome);
                    let cell = match outcome {
                        None => "–".to_string(),
                        Some(RivalOutcome::Measured(figures)) => format!(
                            "{}, {}, {} {}, {:.0} B/s",
                            ms(figures.send.median_ms),
                            ms(figures.decode.median_ms),
                            bytes(figures.calls_per_frame),
                            if (figures.calls_per_frame - 1.0).abs() < 0.005 {
                                "call"
                            } else {
                                "calls"
                            },
                            figures.bytes_per_second
                        ),
                        Some(RivalOutcome::Unsupported(reason)) => reason.clone(),
                        Some(RivalOutcome::Failed(_)) => "failed".to_string(),
                    };
                    let _ = write!(out, " {cell} |");
                }
                out.push('\n');
            }
            out.push('\n');
        }
    }
}
