//! `blinkblox bench [NAME…] [--download] [--update] [--run] [--tools a,b] [--frames N]
//! [--native|--interpreted] [--local] [--registry-url URL] [--github-url URL] [--source NAME=PATH]…`
//!
//! `--download`/`--update` fetch the competitors; `--run` (the default without them) runs the
//! Luau harness and writes benchmark/Benchmarks.md; both together download, then run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use blinkblox_bench::command::{HttpFlags, check_harness, find_bench_dir, http_options};
use blinkblox_bench::competitors::Context;
use blinkblox_bench::install::{self, DownloadOptions, Outcome};
use blinkblox_bench::place::{build_place, probe_needs_studio, run_in_studio};
use blinkblox_bench::resolve::Endpoints;
use blinkblox_bench::suite::{SuiteOptions, run_suite};
use blinkblox_bench::turns::{Pace, ROW_BUDGET};
use blinkblox_bench::{BenchError, progress};
use blinkblox_luau::Mode;

use crate::cli::exit::EXIT_USER_ERROR;
use crate::cli::output::Output;

/// Timed frames a runtime row runs by default.
const DEFAULT_FRAMES: u32 = 200;

/// Download, patch and run every competitor; write benchmark/Benchmarks.md.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Benchmarks or groups to run (Runtime, ModuleLoad, Scenarios, Rivals, Performance, Booleans, …); all when none.
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Fetch every tool of benchmark/tools.toml (exactly what benchmark/tools.lock names, when it exists).
    #[arg(long)]
    pub download: bool,
    /// Resolve every tool again, ignoring the lock, and rewrite it (implies --download).
    #[arg(long)]
    pub update: bool,
    /// Run the benchmarks and write benchmark/Benchmarks.md (the default without --download).
    #[arg(long)]
    pub run: bool,
    /// Only these tools, comma-separated, by their tools.toml keys: `blink` is BlinkBlox, `upstream`
    /// is Blink 0.18 (e.g. `--tools blink,upstream,zap`).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub tools: Vec<String>,
    /// Frames per benchmark row.
    #[arg(long, value_name = "N")]
    pub frames: Option<u32>,
    /// The most CPU time a row takes, set-up included, before it stops short of its frames
    /// (default 2; more gives a slow tool's rows more frames and steadier figures).
    #[arg(long, value_name = "SECONDS", value_parser = parse_row_seconds)]
    pub row_seconds: Option<Duration>,
    /// Only natively compiled rows.
    #[arg(long, conflicts_with = "interpreted")]
    pub native: bool,
    /// Only interpreted rows.
    #[arg(long)]
    pub interpreted: bool,
    /// Benchmark this checkout's compiler rather than the locked release.
    #[arg(long)]
    pub local: bool,
    /// Base URL of the Wally registry API (default https://api.wally.run).
    #[arg(long, value_name = "URL")]
    pub registry_url: Option<String>,
    /// Base URL for GitHub archives, releases and API (default https://github.com and https://api.github.com).
    #[arg(long, value_name = "URL")]
    pub github_url: Option<String>,
    /// Take a tool from a local folder or checkout instead of downloading it (repeatable).
    #[arg(long = "source", value_name = "NAME=PATH", value_parser = parse_source)]
    pub sources: Vec<(String, PathBuf)>,
    /// Network timeout in seconds: connecting, and waiting for any response data
    /// [env: BLINKBLOX_BENCH_TIMEOUT] [default: 30].
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// The longest one download may take, start to end, however slowly the data comes, in
    /// seconds [env: BLINKBLOX_BENCH_DEADLINE] [default: 600].
    #[arg(long, value_name = "SECONDS")]
    pub deadline: Option<f64>,
    /// Retries of a failed request (connection error, timeout, 5xx, cut-short download)
    /// [env: BLINKBLOX_BENCH_RETRIES] [default: 3].
    #[arg(long, value_name = "N")]
    pub retries: Option<u32>,
    /// Build a Roblox place holding the harness, the generated modules and every downloaded tool.
    #[arg(long, value_name = "OUT.rbxl")]
    pub place: Option<PathBuf>,
    /// Build the place (benchmark/Benchmark.rbxl unless --place) and run it in Studio through run-in-roblox.
    /// After the benches its Probe prints `[probe] largest unreliable payload delivered server→client: N bytes
    /// (M of K tries at that size)`, the same client→server, and `[probe] finished` (sizes are buffer lengths).
    #[arg(long)]
    pub studio: bool,
    /// Write the report here instead of benchmark/Benchmarks.md.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The benchmark folder (default: `benchmark/` in this folder or the nearest one above holding
    /// benchmark/tools.toml).
    #[arg(long, value_name = "DIR")]
    pub bench_dir: Option<PathBuf>,
}

fn parse_source(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, path)) if !name.trim().is_empty() && !path.trim().is_empty() => {
            Ok((name.trim().to_string(), PathBuf::from(path.trim())))
        }
        _ => Err(format!("`{text}` is not NAME=PATH (e.g. --source bytenet=../ByteNet)")),
    }
}

/// `--row-seconds`: a positive number of seconds, at most an hour.
fn parse_row_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds (e.g. 2 or 0.5)"))?;
    if !(seconds > 0.0 && seconds <= 3600.0) {
        return Err(format!("`{text}`: give more than 0 and at most 3600 seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

pub fn run(args: BenchArgs, out: &Output) -> ExitCode {
    let fail = |err: BenchError| {
        out.error(&err);
        ExitCode::from(EXIT_USER_ERROR)
    };
    // The benchmark's progress follows this command's -q and --message-format.
    let printer = out.clone();
    progress::set_sink(Box::new(move |line| match line {
        progress::Line::Step { verb, text } => printer.step(verb, text),
        progress::Line::Warning(text) => printer.warning(text),
        progress::Line::Error(err) => printer.error(err),
    }));
    let wants_place = args.place.is_some() || args.studio;
    // Probe measures Roblox itself: it is in the Studio place, and a `--run` cannot do it.
    let probe_only = !args.names.is_empty() && args.names.iter().all(|name| name.trim().eq_ignore_ascii_case("probe"));
    if probe_only && !wants_place {
        return fail(probe_needs_studio());
    }
    let wants_run = !probe_only
        && (args.run
            || !(args.download || args.update || wants_place)
            || !args.names.is_empty()
            || args.frames.is_some()
            || args.row_seconds.is_some()
            || args.native
            || args.interpreted
            || args.local);
    let wants_download = args.download || args.update;
    if wants_download && wants_run {
        // Checked before downloading so that nothing is fetched for a run that cannot happen.
        if let Err(err) = find_bench_dir(args.bench_dir.as_deref()).and_then(|dir| check_harness(&dir)) {
            return fail(err);
        }
    }
    if wants_download {
        match download(&args, out) {
            Ok(code) if code == ExitCode::SUCCESS => {}
            Ok(code) => return code,
            Err(err) => return fail(err),
        }
        if !wants_run && !wants_place {
            return ExitCode::SUCCESS;
        }
    }
    if wants_place {
        if let Err(err) = place(&args, out) {
            return fail(err);
        }
        if probe_only && !args.studio {
            out.step(
                "Note",
                "the Probe bench is in the place (BenchmarkProbe): open it in Roblox Studio and press Play (F5); \
                 the server prints its `[probe]` lines after the benches",
            );
        }
        if !wants_run {
            return ExitCode::SUCCESS;
        }
    }
    match run_benchmarks(&args, out) {
        Ok(code) => code,
        Err(err) => fail(err),
    }
}

/// `--place` / `--studio`: build the place, and run it when asked.
fn place(args: &BenchArgs, out: &Output) -> Result<(), BenchError> {
    let bench_dir = find_bench_dir(args.bench_dir.as_deref())?;
    check_harness(&bench_dir)?;
    let place = args.place.clone().unwrap_or_else(|| bench_dir.join("Benchmark.rbxl"));
    let context = Context {
        bench_dir: &bench_dir,
        sources: &args.sources,
        local: args.local,
    };
    // Blink's and zap's modules go in when their source or binary is on disk; without them
    // the place is still useful, and a note says what was left out.
    let summary = build_place(&context, &place)?;
    for note in &summary.notes {
        out.step("Note", note);
    }
    out.step(
        "Wrote",
        &format!("{} with {}", summary.path.display(), summary.tools.join(", ")),
    );
    if args.studio {
        run_in_studio(&summary.path)?;
    }
    Ok(())
}

fn run_benchmarks(args: &BenchArgs, out: &Output) -> Result<ExitCode, BenchError> {
    let bench_dir = find_bench_dir(args.bench_dir.as_deref())?;
    check_harness(&bench_dir)?;
    let modes = if args.native {
        vec![Mode::Native]
    } else if args.interpreted {
        vec![Mode::Interpreted]
    } else {
        vec![Mode::Interpreted, Mode::Native]
    };
    let command = std::iter::once("blinkblox".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let options = SuiteOptions {
        bench_dir,
        names: args.names.clone(),
        tools: args
            .tools
            .iter()
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
            .collect(),
        pace: Pace {
            frames: args.frames.unwrap_or(DEFAULT_FRAMES),
            row_budget: args.row_seconds.unwrap_or(ROW_BUDGET),
        },
        modes,
        command,
        output: args.output.clone(),
        sources: args.sources.clone(),
        local: args.local,
    };
    let outcome = run_suite(&options)?;
    for (tool, why) in &outcome.missing_tools {
        out.warning(&format!("`{tool}` did not run: {why}"));
    }
    out.step(
        "Finished",
        &format!(
            "{} runtime row(s), {} Rivals row(s), {} compiler row(s), {} failed; wrote {}",
            outcome.runtime.len(),
            outcome.rivals.len(),
            outcome.compiler.len(),
            outcome.failed_rows,
            outcome.report_path.display()
        ),
    );
    if outcome.incomplete {
        // The report is written, but without tools it was asked to compare.
        return Err(BenchError::new(format!(
            "{} tool(s) did not run because they are not here (named above)",
            outcome.missing_tools.len()
        ))
        .with_help("run `blinkblox bench --download` first, or pass `--source NAME=PATH` for a local copy"));
    }
    Ok(if outcome.failed_rows == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_USER_ERROR)
    })
}

fn download(args: &BenchArgs, out: &Output) -> Result<ExitCode, BenchError> {
    let bench_dir = find_bench_dir(args.bench_dir.as_deref())?;
    let options = DownloadOptions {
        update: args.update,
        only: args
            .tools
            .iter()
            .map(|name| name.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect(),
        sources: args.sources.clone(),
        endpoints: endpoints(args)?,
        http: http_options(HttpFlags {
            timeout: args.timeout,
            deadline: args.deadline,
            retries: args.retries,
        })?,
    };
    let report = install::download(&bench_dir, &options)?;
    let (mut downloaded, mut verified, mut local) = (0, 0, 0);
    for done in &report.done {
        match done.outcome {
            Outcome::Downloaded { verified: true, .. } => verified += 1,
            Outcome::Downloaded { .. } => downloaded += 1,
            Outcome::Copied { .. } | Outcome::InPlace { .. } => local += 1,
        }
    }
    let lock = if report.lock_written {
        "; tools.lock updated"
    } else {
        ""
    };
    out.step(
        "Finished",
        &format!(
            "{downloaded} downloaded, {verified} verified against tools.lock, {local} local, {} failed{lock}",
            report.failures.len()
        ),
    );
    if report.failures.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(EXIT_USER_ERROR))
    }
}

fn endpoints(args: &BenchArgs) -> Result<Endpoints, BenchError> {
    Endpoints::from_flags(args.registry_url.as_deref(), args.github_url.as_deref())
}
