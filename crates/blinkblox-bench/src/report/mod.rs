//! `benchmark/Benchmarks.md`: the tables in the seed page's shape, with the machine, the
//! versions, the date and the exact command, and nothing but what was measured.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::run::{EVENTS_PER_FRAME, RowFigures, RuntimeRow, RuntimeTool, Stats, WARMUP_FRAMES};
use crate::run_bounds::{BoundRow, work_alone};
use crate::run_compiler::{CompilerComparison, CompilerRow, PROCESS_WARMUP, ProcessComparison, STAGES};
use crate::run_rivals::{RivalOutcome, RivalRow};
use crate::run_row::TURN_FRAMES;
use crate::run_scenarios::ScenarioRow;
use blinkblox_luau::{Mode, TimingClock};

/// The Luau the embedded VM runs (mlua 0.12.2 through luau0-src 0.22.0+luau740).
pub const LUAU_VERSION: &str = "0.740";

/// Where and how the run was made.
#[derive(Clone, Debug, PartialEq)]
pub struct RunContext {
    pub command: String,
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    pub cpu: String,
    pub os: String,
    pub frames: u32,
    pub modes: Vec<Mode>,
    /// (tool, version and where it came from).
    pub tools: Vec<(String, String)>,
    /// (what, why) for everything asked for or listed by the seed page that did not run.
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
    pub scenarios: &'a [ScenarioRow],
    pub rivals: &'a [RivalRow],
    /// The least work a tool does on a bench (`run_bounds.rs`).
    pub bounds: &'a [BoundRow],
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil conversion.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The CPU model, from /proc/cpuinfo where there is one.
pub fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines()
            .find(|line| line.starts_with("model name"))
            .and_then(|line| line.split_once(':'))
            .map(|(_, value)| value.trim().to_string())
    });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match model {
        Some(model) => format!("{model} ({cores} logical cores available)"),
        None => format!(
            "unknown {} CPU ({cores} logical cores available)",
            std::env::consts::ARCH
        ),
    }
}

/// The operating system: /etc/os-release's name and the kernel on Linux.
pub fn os_description() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release").ok().and_then(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("PRETTY_NAME="))
            .map(|value| value.trim_matches('"').to_string())
    });
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|text| text.trim().to_string());
    match (pretty, kernel) {
        (Some(name), Some(kernel)) => format!("{name}, Linux {kernel}, {}", std::env::consts::ARCH),
        (Some(name), None) => format!("{name}, {}", std::env::consts::ARCH),
        _ => format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
    }
}

/// A time in milliseconds, with three decimals under 1 ms and two above, as the seed page.
fn ms(value: f64) -> String {
    if value < 1.0 {
        format!("{value:.3}")
    } else {
        format!("{value:.2}")
    }
}

fn bytes(value: f64) -> String {
    if (value - value.round()).abs() < 0.005 {
        format!("{}", value.round())
    } else {
        format!("{value:.1}")
    }
}

impl Report<'_> {
    fn row(&self, bench: &str, tool: RuntimeTool, mode: Mode) -> Option<&RuntimeRow> {
        self.runtime
            .iter()
            .find(|row| row.bench == bench && row.tool == tool && row.mode == mode)
    }

    /// Benches and tools in the order they ran.
    fn benches_and_tools(&self) -> (Vec<&'static str>, Vec<RuntimeTool>) {
        let (mut benches, mut tools) = (Vec::new(), Vec::new());
        for row in self.runtime {
            if !benches.contains(&row.bench) {
                benches.push(row.bench);
            }
            if !tools.contains(&row.tool) {
                tools.push(row.tool);
            }
        }
        (benches, tools)
    }

    fn cell(&self, bench: &str, tool: RuntimeTool, mode: Mode, pick: impl Fn(&Stats) -> f64, send: bool) -> String {
        match self.row(bench, tool, mode).map(|row| &row.outcome) {
            None => "–".to_string(),
            Some(Err(_)) => "failed".to_string(),
            Some(Ok(figures)) => ms(pick(if send { &figures.send } else { &figures.decode })),
        }
    }

    fn bytes_cell(&self, bench: &str, tool: RuntimeTool) -> String {
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
                    tool.display(),
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
        out.push_str("| Bench | Tool | Fire, interpreted | Flush, interpreted | Fire, native | Flush, native | Remote calls a frame |\n");
        out.push_str("|---|---|---:|---:|---:|---:|---:|\n");
        for bench in benches {
            for (index, &tool) in tools.iter().enumerate() {
                let mut cells = Vec::new();
                let mut calls = "–".to_string();
                for mode in [Mode::Interpreted, Mode::Native] {
                    match self.row(bench, tool, mode).map(|row| &row.outcome) {
                        Some(Ok(figures)) => {
                            cells.push(ms(figures.fire.median_ms));
                            cells.push(ms(figures.flush.median_ms));
                            calls = bytes(figures.calls_per_frame);
                        }
                        Some(Err(_)) => cells.extend(["failed".to_string(), "failed".to_string()]),
                        None => cells.extend(["–".to_string(), "–".to_string()]),
                    }
                }
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {calls} |",
                    if index == 0 { bench } else { "" },
                    tool.display(),
                    cells.join(" | "),
                );
            }
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
                let tool_figure = |tool: RuntimeTool| match self.row(row.bench, tool, row.mode).map(|row| &row.outcome)
                {
                    Some(Ok(figures)) => Some(pick(figures)),
                    _ => None,
                };
                let bound = row.outcome.as_ref().ok().map(pick);
                let blink = tool_figure(RuntimeTool::Upstream);
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
                    cell(tool_figure(RuntimeTool::Blink)),
                    cell(tool_figure(RuntimeTool::Handwritten)),
                    cell(blink),
                    ratio(bound, blink),
                    ratio(tool_figure(RuntimeTool::Blink), blink),
                );
            }
        }
        out.push('\n');
    }

    fn scenario_table(&self, out: &mut String) {
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
        for row in self.scenarios {
            if !names.contains(&row.scenario) {
                names.push(row.scenario);
            }
        }
        for name in names {
            let find = |mode: Mode| {
                self.scenarios
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

    fn rivals_tables(&self, out: &mut String) {
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
             one player over 128 declarations, for the code generators.\n\n\
             Each cell is send, decode, remote calls a frame: milliseconds a frame, medians. \"Send\" is the \
             sender's fires and flush; a library that flushes on Heartbeat or PostSimulation by itself adds that \
             frame's time, less what the embedded runtime's frame costs with nothing loaded. \"Decode\" is one \
             receiver's decode and listeners, the mean over the players (the server's for the inputs). Remote \
             calls are summed over every player reached; a FireAllClients counts as one. Every receiver compares \
             the values of the two untimed frames with what was sent and counts every value after: a row with a \
             wrong or missing value fails. Where a tool has no such feature, the cell says so.\n\n",
        );
        let mut tools: Vec<RuntimeTool> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        for row in self.rivals {
            if !tools.contains(&row.tool) {
                tools.push(row.tool);
            }
            if !names.contains(&row.scenario) {
                names.push(row.scenario);
            }
        }
        for mode in [Mode::Native, Mode::Interpreted] {
            if !self.rivals.iter().any(|row| row.mode == mode) {
                continue;
            }
            let title = match mode {
                Mode::Native => "Natively compiled",
                Mode::Interpreted => "Interpreted",
            };
            let _ = writeln!(out, "### {title}\n");
            out.push_str("| Scenario |");
            for tool in &tools {
                let _ = write!(out, " {} |", tool.display());
            }
            out.push_str("\n|---|");
            out.push_str(&"---|".repeat(tools.len()));
            out.push('\n');
            for name in &names {
                let _ = write!(out, "| {name} |");
                for &tool in &tools {
                    let outcome = self
                        .rivals
                        .iter()
                        .find(|row| row.scenario == *name && row.tool == tool && row.mode == mode)
                        .map(|row| &row.outcome);
                    let cell = match outcome {
                        None => "–".to_string(),
                        Some(RivalOutcome::Measured(figures)) => format!(
                            "{}, {}, {} {}",
                            ms(figures.send.median_ms),
                            ms(figures.decode.median_ms),
                            bytes(figures.calls_per_frame),
                            if (figures.calls_per_frame - 1.0).abs() < 0.005 {
                                "call"
                            } else {
                                "calls"
                            }
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

    fn compiler_table(&self, out: &mut String) {
        out.push_str("| Schema | Declarations |");
        for stage in STAGES {
            let _ = write!(out, " {stage} |");
        }
        out.push_str("\n|---|---:|---:|---:|---:|---:|\n");
        for row in self.compiler {
            let _ = write!(out, "| {} | {} |", row.schema, row.declarations);
            match &row.outcome {
                Ok(stages) => {
                    for value in stages {
                        let _ = write!(out, " {} |", ms(*value));
                    }
                }
                Err(_) => out.push_str(" failed | failed | failed | failed |"),
            }
            out.push('\n');
        }
        out.push('\n');
    }

    fn zap_comparison_table(&self, out: &mut String) {
        let runs = self
            .zap_comparison
            .iter()
            .find_map(|row| row.blinkblox.as_ref().ok().map(|times| times.runs))
            .unwrap_or(0);
        out.push_str("### Against zap's compiler\n\n");
        let _ = write!(
            out,
            "The same schema compiled whole, each compiler as a fresh process: wall time from spawning it to its \
             exit, milliseconds, the median of {runs} runs after {PROCESS_WARMUP} untimed ones (the two compilers' \
             runs interleaved), with the quartiles in brackets as the spread between runs. BlinkBlox is \
             `blinkblox compile` (this executable) on the schema in its language; zap is its binary on the \
             equivalent zap schema (benchmark/definitions/Definition.zap, and the 128 declarations in zap's \
             language). Each reads the schema and writes the Server and Client modules to new files (the last run's \
             are removed first, untimed, so that no run waits on the file system writing back the one before). \
             \"zap ÷ BlinkBlox\" is how many times faster BlinkBlox is.\n\n"
        );
        if cfg!(debug_assertions) {
            out.push_str(
                "This blinkblox is a debug build, so its figures here are not a release's: run the bench from \
                 `cargo build --release`.\n\n",
            );
        }
        out.push_str("| Schema | BlinkBlox | zap | zap ÷ BlinkBlox |\n|---|---:|---:|---:|\n");
        let cell = |outcome: &Result<crate::run_compiler::ProcessTimes, String>| match outcome {
            Ok(times) => format!("{} ({}–{})", ms(times.median_ms), ms(times.p25_ms), ms(times.p75_ms)),
            Err(_) => "failed".to_string(),
        };
        for row in self.zap_comparison {
            let ratio = match (&row.blinkblox, &row.zap) {
                (Ok(ours), Ok(theirs)) if ours.median_ms > 0.0 => {
                    format!("{:.2}×", theirs.median_ms / ours.median_ms)
                }
                _ => "–".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {ratio} |",
                row.schema,
                cell(&row.blinkblox),
                cell(&row.zap)
            );
        }
        out.push('\n');
    }

    fn failures(&self) -> Vec<String> {
        let mut failures = Vec::new();
        for row in self.runtime {
            if let Err(err) = &row.outcome {
                failures.push(format!(
                    "{} / {} / {}: {err}",
                    row.bench,
                    row.tool.display(),
                    row.mode.label()
                ));
            }
        }
        for row in self.compiler {
            if let Err(err) = &row.outcome {
                failures.push(format!("Performance / {}: {err}", row.schema));
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
                    row.tool.display(),
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
            "- {} timed frames a row, {EVENTS_PER_FRAME} events a frame; modes: {}; each row's frames timed in turns \
             of {TURN_FRAMES}, each turn in a fresh simulation (new Luau states for the server and the clients) \
             after {WARMUP_FRAMES} untimed frames; the rows of one bench (or Rivals scenario) and mode take their \
             turns in rotation",
            context.frames,
            modes.join(", ")
        );
        out.push_str("- Tools:\n");
        for (tool, version) in &context.tools {
            let _ = writeln!(out, "  - {tool}: {version}");
        }
        out.push('\n');

        if !self.runtime.is_empty() {
            out.push_str("## Runtime\n\n");
            out.push_str(
                "Each frame the client fires 1000 events and flushes them; the server decodes the packet and \
                 calls a listener for each event. Milliseconds per frame, medians over the timed frames. \
                 \"Send\" is the thousand fires plus the flush; \"Decode\" is the server decoding the frame's \
                 packets and calling the listener. \"Bytes\" is one event as the encoder wrote it, measured from \
                 the packets sent, before any compression (for plain remotes, the runtime's estimate of the \
                 values' size). Booleans is boolean[0..1000] holding 1000 true values; Entities is 100 structs of \
                 six u8 fields; the Random variants fire 1001 different seeded payloads in turn; Tiny is one u8.\n\n",
            );
            out.push_str("### Medians\n\n");
            self.runtime_table(&mut out, |stats| stats.median_ms);
            out.push_str("### 99th percentiles\n\n");
            self.runtime_table(&mut out, |stats| stats.p99_ms);
            out.push_str("### Fire and flush separately (medians)\n\n");
            self.fire_flush_table(&mut out);
        }
        if !self.bounds.is_empty() {
            self.bounds_table(&mut out);
        }

        if !self.scenarios.is_empty() {
            self.scenario_table(&mut out);
        }
        if !self.rivals.is_empty() {
            self.rivals_tables(&mut out);
        }

        if !self.compiler.is_empty() {
            out.push_str("## Performance: the compiler\n\n");
            out.push_str(
                "This checkout's compiler, in process, stage by stage, milliseconds (medians of repeated runs). \
                 Lex and Parse are those stages alone; Check is the whole front end (lex, parse, resolve, check); \
                 Generate is the Server and Client modules from the checked schema. The 128-declaration schema \
                 is 128 client events over a few struct shapes.\n\n",
            );
            self.compiler_table(&mut out);
        }
        if !self.comparison.is_empty() {
            out.push_str("### Against Blink's compiler\n\n");
            out.push_str(
                "The same schema compiled whole, milliseconds (medians): BlinkBlox checking and generating in \
                 process; Blink 0.18 loading its modules, parsing and generating the Server and Client modules \
                 from its Luau source in the embedded VM (natively compiled), each on the schema in its own \
                 dialect. Blink normally runs under Lune; process start-up is not counted for either.\n\n",
            );
            out.push_str("| Schema | BlinkBlox | Blink 0.18 | BlinkBlox ÷ Blink |\n|---|---:|---:|---:|\n");
            for row in self.comparison {
                let (blink, ratio) = match &row.blink_ms {
                    Ok(blink) => (ms(*blink), format!("{:.3}×", row.blinkblox_ms / blink)),
                    Err(_) => ("failed".to_string(), "–".to_string()),
                };
                let _ = writeln!(out, "| {} | {} | {blink} | {ratio} |", row.schema, ms(row.blinkblox_ms));
            }
            out.push('\n');
        }

        if !self.zap_comparison.is_empty() {
            self.zap_comparison_table(&mut out);
        }

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

const READING: &str = "## Reading the numbers

- **The clock** is the CPU time of the thread running the VMs (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`; \
the wall clock where the platform has no such clock). Fires and the flush are timed on the client inside \
Luau; the decode is timed by blinkblox around delivering the frame's packet to the server world (the \
remote's listeners, the tool's decode and the bench's listener). Time the thread spends descheduled is not \
counted, so another busy process disturbs the figures less than it would a wall clock, though a shared \
machine still moves them (caches, frequency): compare within a table, and rerun before reading a gap of a \
tenth as a change.
- **The rows of a bench take turns, each turn in a fresh simulation.** The tools of one bench (or Rivals \
scenario) and mode run a turn of frames at a time in rotation (the run line above says how many) rather \
than one row after another, so a drift in a shared machine's speed over minutes falls on all the rows of \
that bench and mode instead of on whichever ran then. And a simulation can run slower than the next for its \
whole life (where its heap and native code landed): with a fresh one each turn, an unlucky simulation moves \
one turn's frames rather than a whole row, when a row has several turns. So the ratios between the tools \
of one bench and mode hold from run to run better than the absolute figures do.
- **Natively compiled** is what a Roblox server runs for `--!native` code; **interpreted** is what most \
players' clients run. In the embedded VM every function is compiled natively when native mode is on.
- **The inbound limits are raised for the run.** `benchmark/definitions/Definition.blink` sets \
MaxPacketSize, MaxEventsPerPacket, InboundBytesPerSecond and InboundBurst far above their defaults: a \
thousand events a frame is a flood that a live server would refuse. The checks still run, so their cost \
is in the decode figures.
- **The hand-written floor** (`benchmark/handwritten/`) is what a careful programmer writes by hand for \
these three events, with the same wire format and the checks a server needs (a pcall per packet, every \
count against its bound and the bytes left before allocating). It is the floor generated code is measured \
against, not a tool to prefer. It uses the same techniques as the generated code where a careful \
programmer would (32 booleans a `writeu32`; and, whichever this machine runs faster, a boolean array \
read by lookup rows or bit tests, written by `table.move` into a word or in place, Entities read by \
`string.byte` or `buffer.readu8` and written four bytes a `writeu32` or one a `writeu8`), so matching it \
is not matching a slow baseline.
- **Four things are done two ways.** Natively compiled, inline operations are fastest: a byte's eight \
bits tested, booleans tested where they are, struct fields read with `buffer.readu8` and written with \
`buffer.writeu8`. Interpreted, fewer instructions around builtin calls that do more work in C are: one of \
256 prepared boolean rows copied with `table.move`, 32 booleans moved into one table and tested at \
constant positions, a struct's run of u8 fields returned by one `string.byte` on a copy of the packet, \
and written four at a time merged with `bit32.replace` into one `buffer.writeu32`. Code cannot ask which \
mode runs it, so BlinkBlox's module times one such pair once, the first time it needs to know (in the untimed frames here), and keeps the \
answer: the native and interpreted columns each show that mode's choice.
- **Blink, zap and the libraries are as their authors ship them**, with only the limits that would stop a \
thousand events a frame lifted (`benchmark/tools.toml`'s patches); Blink's and zap's modules come from \
their own compilers on the same schema in their language.
- **Plain Roblox remotes** pass each value as it is, one remote call per event; their Bytes are the \
runtime's estimate of the values' size, since there is no buffer to measure.
- **The server checks every event.** The events go from client to server, the direction BlinkBlox \
validates, and the bench's listener also compares the first events decoded with what was fired: a row \
whose values come out wrong fails rather than being timed.
- **A different machine gives different numbers.** The ratios between tools in one run are the useful part.
";

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(median_ms: f64) -> Stats {
        Stats {
            median_ms,
            p99_ms: median_ms,
        }
    }

    fn runtime_row(tool: RuntimeTool, send: f64, decode: f64) -> RuntimeRow {
        RuntimeRow {
            bench: "Entities",
            tool,
            mode: Mode::Native,
            outcome: Ok(RowFigures {
                send: stats(send),
                fire: stats(send),
                flush: stats(0.0),
                decode: stats(decode),
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
            frames: 1,
            modes: vec![Mode::Native],
            tools: Vec::new(),
            not_run: Vec::new(),
        };
        let runtime = [
            runtime_row(RuntimeTool::Blink, 2.0, 6.0),
            runtime_row(RuntimeTool::Upstream, 2.5, 30.0),
        ];
        let bounds = [BoundRow {
            bench: "Entities",
            mode: Mode::Native,
            outcome: runtime_row(RuntimeTool::Handwritten, 1.5, 5.4).outcome,
        }];
        let text = Report {
            context: &context,
            runtime: &runtime,
            compiler: &[],
            comparison: &[],
            zap_comparison: &[],
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
