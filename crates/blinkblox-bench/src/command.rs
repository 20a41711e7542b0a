//! `blinkblox bench` as a whole: which of the download, the place and the run a command line
//! asks for, in that order, finding the benchmark folder, checking that its harness is
//! there, and the download settings from flags and the environment. The command line parses
//! its flags into a [`BenchRequest`]; everything here reports through [`progress`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use blinkblox_luau::Mode;

use crate::BenchError;
use crate::competitors::Context;
use crate::download::HttpOptions;
use crate::install::{self, DownloadOptions, Outcome};
use crate::place::{build_place, probe_needs_studio, run_in_studio};
use crate::progress;
use crate::resolve::Endpoints;
use crate::suite::{SuiteOptions, run_suite};
use crate::turns::{Pace, ROW_BUDGET};

/// Timed frames a runtime row runs by default.
pub const DEFAULT_FRAMES: u32 = 200;

/// What a `blinkblox bench` command line asks for, its flags as they were given.
#[derive(Debug, Clone, Default)]
pub struct BenchRequest {
    pub names: Vec<String>,
    pub download: bool,
    pub update: bool,
    pub run: bool,
    pub tools: Vec<String>,
    pub frames: Option<u32>,
    pub row_seconds: Option<Duration>,
    pub native: bool,
    pub interpreted: bool,
    pub local: bool,
    pub registry_url: Option<String>,
    pub github_url: Option<String>,
    pub sources: Vec<(String, PathBuf)>,
    pub http: HttpFlags,
    pub place: Option<PathBuf>,
    pub studio: bool,
    pub output: Option<PathBuf>,
    pub bench_dir: Option<PathBuf>,
    /// The command line as typed, for the report.
    pub command: String,
}

impl BenchRequest {
    /// The tools `--tools` names, trimmed, empty names left out.
    fn tool_names(&self) -> Vec<String> {
        self.tools
            .iter()
            .map(|name| name.trim().to_string())
            .filter(|name| !name.is_empty())
            .collect()
    }
}

/// The download settings a command line was given; `None` takes the environment's
/// (`BLINKBLOX_BENCH_TIMEOUT`, `_DEADLINE`, `_RETRIES`), then the defaults.
#[derive(Debug, Clone, Copy, Default)]
pub struct HttpFlags {
    pub timeout: Option<f64>,
    pub deadline: Option<f64>,
    pub retries: Option<u32>,
}

/// `--bench-dir`, or `benchmark/` in the nearest folder (this one or above) that has
/// `benchmark/tools.toml`.
pub fn find_bench_dir(explicit: Option<&Path>) -> Result<PathBuf, BenchError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    let cwd = std::env::current_dir().map_err(|err| BenchError::new(format!("no current folder: {err}")))?;
    for folder in cwd.ancestors() {
        let candidate = folder.join("benchmark");
        if candidate.join("tools.toml").is_file() {
            return Ok(candidate);
        }
    }
    Err(BenchError::new(format!(
        "no benchmark/tools.toml in `{}` or any folder above it",
        cwd.display()
    ))
    .with_help("run `blinkblox bench` inside a BlinkBlox checkout, or pass --bench-dir DIR"))
}

/// The harness files `--run` needs are in the benchmark folder.
pub fn check_harness(bench_dir: &Path) -> Result<(), BenchError> {
    for file in [
        "harness/client.luau",
        "harness/server.luau",
        "definitions/Definition.blink",
    ] {
        let path = bench_dir.join(file);
        if !path.is_file() {
            return Err(BenchError::new(format!(
                "the benchmark harness is missing `{}`; nothing was downloaded",
                path.display()
            ))
            .with_help(
                "run `blinkblox bench` in a BlinkBlox checkout (benchmark/ holds the harness), or pass --bench-dir",
            ));
        }
    }
    Ok(())
}

/// The download settings: each flag, else its environment variable, else the default.
pub fn http_options(flags: HttpFlags) -> Result<HttpOptions, BenchError> {
    let mut options = HttpOptions::default();
    if let Some(seconds) = seconds_setting(flags.timeout, "--timeout", "BLINKBLOX_BENCH_TIMEOUT", 3600)? {
        options.timeout = seconds;
        options.backoff = options.backoff.min(options.timeout);
    }
    if let Some(seconds) = seconds_setting(flags.deadline, "--deadline", "BLINKBLOX_BENCH_DEADLINE", 86_400)? {
        options.deadline = seconds;
    }
    let retries = match flags.retries {
        Some(retries) => Some(f64::from(retries)),
        None => env_number("BLINKBLOX_BENCH_RETRIES")?,
    };
    if let Some(retries) = retries {
        if !(retries.fract() == 0.0 && (0.0..=20.0).contains(&retries)) {
            return Err(BenchError::new(
                "the number of retries must be a whole number from 0 to 20",
            ));
        }
        options.retries = retries as u32;
    }
    Ok(options)
}

/// A number of seconds from `flag`'s value or else the variable `env`, more than 0 and at
/// most `max`; the error names where the bad value came from.
fn seconds_setting(flag: Option<f64>, flag_name: &str, env: &str, max: u32) -> Result<Option<Duration>, BenchError> {
    let (seconds, from) = match flag {
        Some(seconds) => (seconds, flag_name),
        None => match env_number(env)? {
            Some(seconds) => (seconds, env),
            None => return Ok(None),
        },
    };
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= f64::from(max)) {
        return Err(BenchError::new(format!(
            "{from} must be a number of seconds between 0 and {max}"
        )));
    }
    Ok(Some(Duration::from_secs_f64(seconds)))
}

fn env_number(name: &str) -> Result<Option<f64>, BenchError> {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse::<f64>()
            .map(Some)
            .map_err(|_| BenchError::new(format!("{name}=`{text}` is not a number"))),
        Err(_) => Ok(None),
    }
}

/// Runs what a `blinkblox bench` command line asks: the download, the place, the benchmarks,
/// in that order, each only when asked (or implied). `Ok(true)` when every step succeeded,
/// `Ok(false)` when a step finished but reported failures (failed rows, failed downloads).
pub fn run(args: &BenchRequest) -> Result<bool, BenchError> {
    let wants_place = args.place.is_some() || args.studio;
    // Probe measures Roblox itself: it is in the Studio place, and a `--run` cannot do it.
    let probe_only = !args.names.is_empty() && args.names.iter().all(|name| name.trim().eq_ignore_ascii_case("probe"));
    if probe_only && !wants_place {
        return Err(probe_needs_studio());
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
    let bench_dir = find_bench_dir(args.bench_dir.as_deref())?;
    if wants_download && wants_run {
        // Checked before downloading so that nothing is fetched for a run that cannot happen.
        check_harness(&bench_dir)?;
    }
    if wants_download {
        if !download(args, &bench_dir)? {
            return Ok(false);
        }
        if !wants_run && !wants_place {
            return Ok(true);
        }
    }
    if wants_place {
        place(args, &bench_dir)?;
        if probe_only && !args.studio {
            progress::step(
                "Note",
                "the Probe bench is in the place (BenchmarkProbe): open it in Roblox Studio and press Play (F5); \
                 the server prints its `[probe]` lines after the benches",
            );
        }
        if !wants_run {
            return Ok(true);
        }
    }
    run_benchmarks(args, bench_dir)
}

/// `--place` / `--studio`: build the place, and run it when asked.
fn place(args: &BenchRequest, bench_dir: &Path) -> Result<(), BenchError> {
    check_harness(bench_dir)?;
    let place = args.place.clone().unwrap_or_else(|| bench_dir.join("Benchmark.rbxl"));
    let context = Context {
        bench_dir,
        sources: &args.sources,
        local: args.local,
    };
    // Blink's and zap's modules go in when their source or binary is on disk; without them
    // the place is still useful, and a note says what was left out.
    let summary = build_place(&context, &place)?;
    for note in &summary.notes {
        progress::step("Note", note);
    }
    progress::step(
        "Wrote",
        &format!("{} with {}", summary.path.display(), summary.tools.join(", ")),
    );
    if args.studio {
        run_in_studio(&summary.path)?;
    }
    Ok(())
}

fn run_benchmarks(args: &BenchRequest, bench_dir: PathBuf) -> Result<bool, BenchError> {
    check_harness(&bench_dir)?;
    let modes = if args.native {
        vec![Mode::Native]
    } else if args.interpreted {
        vec![Mode::Interpreted]
    } else {
        vec![Mode::Interpreted, Mode::Native]
    };
    let options = SuiteOptions {
        bench_dir,
        names: args.names.clone(),
        tools: args.tool_names(),
        pace: Pace {
            frames: args.frames.unwrap_or(DEFAULT_FRAMES),
            row_budget: args.row_seconds.unwrap_or(ROW_BUDGET),
        },
        modes,
        command: args.command.clone(),
        output: args.output.clone(),
        sources: args.sources.clone(),
        local: args.local,
    };
    let outcome = run_suite(&options)?;
    for (tool, why) in &outcome.missing_tools {
        progress::warning(&format!("`{tool}` did not run: {why}"));
    }
    progress::step(
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
    Ok(outcome.failed_rows == 0)
}

fn download(args: &BenchRequest, bench_dir: &Path) -> Result<bool, BenchError> {
    let options = DownloadOptions {
        update: args.update,
        only: args.tool_names(),
        sources: args.sources.clone(),
        endpoints: Endpoints::from_flags(args.registry_url.as_deref(), args.github_url.as_deref())?,
        http: http_options(args.http)?,
    };
    let report = install::download(bench_dir, &options)?;
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
    progress::step(
        "Finished",
        &format!(
            "{downloaded} downloaded, {verified} verified against tools.lock, {local} local, {} failed{lock}",
            report.failures.len()
        ),
    );
    Ok(report.failures.is_empty())
}
