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
