//! `blinkblox bench [NAME…] [--download] [--update] [--run] [--tools a,b] [--frames N]
//! [--native|--interpreted] [--local] [--registry-url URL] [--github-url URL] [--source NAME=PATH]…`
//!
//! `--download`/`--update` fetch the competitors; `--run` (the default without them) runs the
//! Luau harness and writes benchmark/Benchmarks.md; both together download, then run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use blinkblox_bench::command::{self, BenchRequest, HttpFlags};
use blinkblox_bench::progress;

use crate::cli::exit::EXIT_USER_ERROR;
use crate::cli::output::Output;

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
    // The benchmark's progress follows this command's -q and --message-format.
    let printer = out.clone();
    progress::set_sink(Box::new(move |line| match line {
        progress::Line::Step { verb, text } => printer.step(verb, text),
        progress::Line::Warning(text) => printer.warning(text),
        progress::Line::Error(err) => printer.error(err),
    }));
    let request = BenchRequest {
        names: args.names,
        download: args.download,
        update: args.update,
        run: args.run,
        tools: args.tools,
        frames: args.frames,
        row_seconds: args.row_seconds,
        native: args.native,
        interpreted: args.interpreted,
        local: args.local,
        registry_url: args.registry_url,
        github_url: args.github_url,
        sources: args.sources,
        http: HttpFlags {
            timeout: args.timeout,
            deadline: args.deadline,
            retries: args.retries,
        },
        place: args.place,
        studio: args.studio,
        output: args.output,
        bench_dir: args.bench_dir,
        command: std::iter::once("blinkblox".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" "),
    };
    match command::run(&request) {
        Ok(all_ok) => out.exit_code(!all_ok),
        Err(err) => {
            out.error(&err);
            ExitCode::from(EXIT_USER_ERROR)
        }
    }
}
