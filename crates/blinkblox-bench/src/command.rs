//! The steps of `blinkblox bench` that are not measuring: finding the benchmark folder,
//! checking that its harness is there, and the download settings from flags and the
//! environment. The command line parses its flags into these and prints what they return.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::BenchError;
use crate::download::HttpOptions;

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

pub fn http_options(flags: HttpFlags) -> Result<HttpOptions, BenchError> {
    let mut options = HttpOptions::default();
    let timeout = match flags.timeout {
        Some(seconds) => Some((seconds, "--timeout")),
        None => env_number("BLINKBLOX_BENCH_TIMEOUT")?.map(|seconds| (seconds, "BLINKBLOX_BENCH_TIMEOUT")),
    };
    if let Some((seconds, from)) = timeout {
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
            return Err(BenchError::new(format!(
                "{from} must be a number of seconds between 0 and 3600"
            )));
        }
        options.timeout = Duration::from_secs_f64(seconds);
        options.backoff = options.backoff.min(options.timeout);
    }
    let deadline = match flags.deadline {
        Some(seconds) => Some((seconds, "--deadline")),
        None => env_number("BLINKBLOX_BENCH_DEADLINE")?.map(|seconds| (seconds, "BLINKBLOX_BENCH_DEADLINE")),
    };
    if let Some((seconds, from)) = deadline {
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
            return Err(BenchError::new(format!(
                "{from} must be a number of seconds between 0 and 86400"
            )));
        }
        options.deadline = Duration::from_secs_f64(seconds);
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
