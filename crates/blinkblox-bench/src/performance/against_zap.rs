//! The same schema compiled whole by `blinkblox compile` (this executable) and by zap's
//! binary, each as a fresh process: wall time from spawning it to its exit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::schemas::{SchemaPair, compared_schemas};
use crate::BenchError;
use crate::competitors::{Context, blinkblox_release, zap};
use crate::compiler_process::{PROCESS_TIMEOUT, ScratchDir, exit_code, one_line, run_with_timeout};
use crate::many_declarations::{MANY_DECLARATIONS, Sender, zap_schema};

/// Whole-process runs timed per schema and compiler, after [`PROCESS_WARMUP`] untimed ones.
pub const PROCESS_RUNS: usize = 30;
/// Untimed runs first: they bring the binaries and the schema into the page cache.
pub const PROCESS_WARMUP: usize = 3;

/// Wall times of whole-process compiles, in milliseconds: the median and the quartiles (the
/// spread between runs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcessTimes {
    pub median_ms: f64,
    pub p25_ms: f64,
    pub p75_ms: f64,
    pub runs: usize,
}

impl ProcessTimes {
    /// From per-run milliseconds; `None` when there are none.
    pub fn of_ms(samples: &[f64]) -> Option<ProcessTimes> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |fraction: f64| sorted[((sorted.len() - 1) as f64 * fraction).round() as usize];
        Some(ProcessTimes {
            median_ms: at(0.5),
            p25_ms: at(0.25),
            p75_ms: at(0.75),
            runs: sorted.len(),
        })
    }
}

/// One schema compiled whole, each compiler as a fresh process: `blinkblox compile` on the
/// schema in BlinkBlox's language, zap's binary on the equivalent zap schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessComparison {
    pub schema: String,
    pub blinkblox: Result<ProcessTimes, String>,
    pub zap: Result<ProcessTimes, String>,
}

/// A compiler run as a process in a scratch folder, with no input and its output discarded.
struct ProcessCompile {
    what: String,
    program: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
    /// The files it writes, removed before every run.
    outputs: [PathBuf; 2],
}

impl ProcessCompile {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    }

    /// One run with a timeout that must succeed: a compiler that fails or hangs is reported,
    /// not timed. The timed runs after it wait without a timeout, so that polling adds
    /// nothing to the figures.
    fn check(&self, scratch: &Path) -> Result<(), String> {
        let (status, stderr) =
            run_with_timeout(self.command(), scratch, &self.what, PROCESS_TIMEOUT).map_err(|err| err.to_string())?;
        if status.success() {
            return Ok(());
        }
        let code = exit_code(status);
        Err(one_line(&format!("{} failed (exit {code}): {stderr}", self.what)))
    }

    /// Milliseconds from spawning the process to its exit. The last run's outputs are removed
    /// first (untimed), so that every run writes new files: truncating a file that the file
    /// system is still writing back makes a process wait for that write-back, which would time
    /// the disk and the gap between runs rather than the compiler (and BlinkBlox leaves an
    /// identical output alone, which zap does not).
    fn time(&self, command: &mut Command) -> Result<f64, String> {
        for output in &self.outputs {
            match std::fs::remove_file(output) {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("could not remove `{}`: {err}", output.display()));
                }
                _ => {}
            }
        }
        let started = Instant::now();
        let status = command
            .status()
            .map_err(|err| format!("could not start {}: {err}", self.what))?;
        let elapsed = started.elapsed().as_secs_f64() * 1000.0;
        if status.success() {
            Ok(elapsed)
        } else {
            Err(format!("{} failed on a timed run", self.what))
        }
    }
}

/// Times, as whole processes, `blinkblox` (`compile FILE --quiet`) and zap's binary on each
/// schema: both checked once, [`PROCESS_WARMUP`] untimed runs each,
/// then `runs` timed runs each, interleaved so that a change in the machine's load falls on
/// both alike.
pub fn compare_with_zap(blinkblox: &Path, zap: &Path, schemas: &[SchemaPair], runs: usize) -> Vec<ProcessComparison> {
    schemas
        .iter()
        .map(
            |pair| match time_processes(blinkblox, zap, &pair.blinkblox, &pair.theirs, runs) {
                Ok((blinkblox, zap)) => ProcessComparison {
                    schema: pair.name.clone(),
                    blinkblox,
                    zap,
                },
                Err(err) => ProcessComparison {
                    schema: pair.name.clone(),
                    blinkblox: Err(err.clone()),
                    zap: Err(err),
                },
            },
        )
        .collect()
}

type ProcessOutcome = Result<ProcessTimes, String>;

fn time_processes(
    blinkblox: &Path,
    zap: &Path,
    ours: &str,
    theirs: &str,
    runs: usize,
) -> Result<(ProcessOutcome, ProcessOutcome), String> {
    let scratch = ScratchDir::new("compile-vs-zap").map_err(|err| err.to_string())?;
    let dir = scratch.path();
    let write = |file: &str, text: String| {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|err| BenchError::io("write", &path, &err).to_string())
    };
    write("schema.blink", blinkblox_release::with_scratch_outputs(ours))?;
    write("schema.zap", zap::with_scratch_outputs(theirs))?;
    let compilers = [
        ProcessCompile {
            what: format!("`{} compile`", blinkblox.display()),
            program: blinkblox.to_path_buf(),
            args: vec!["compile".into(), "schema.blink".into(), "--quiet".into()],
            dir: dir.to_path_buf(),
            outputs: [
                dir.join(blinkblox_release::SCRATCH_SERVER),
                dir.join(blinkblox_release::SCRATCH_CLIENT),
            ],
        },
        ProcessCompile {
            what: format!("zap's binary `{}`", zap.display()),
            program: zap.to_path_buf(),
            args: vec!["schema.zap".into()],
            dir: dir.to_path_buf(),
            outputs: [dir.join(zap::SERVER_OUTPUT), dir.join(zap::CLIENT_OUTPUT)],
        },
    ];
    let mut outcomes: Vec<Result<Vec<f64>, String>> = compilers
        .iter()
        .map(|compiler| compiler.check(dir).map(|()| Vec::with_capacity(runs)))
        .collect();
    let mut commands: Vec<Command> = compilers.iter().map(ProcessCompile::command).collect();
    for run in 0..PROCESS_WARMUP + runs {
        for ((compiler, command), outcome) in compilers.iter().zip(&mut commands).zip(&mut outcomes) {
            let Ok(samples) = outcome else { continue };
            match compiler.time(command) {
                Ok(ms) if run >= PROCESS_WARMUP => samples.push(ms),
                Ok(_) => {}
                Err(err) => *outcome = Err(err),
            }
        }
    }
    let mut times = outcomes.into_iter().map(|outcome| {
        outcome.and_then(|samples| ProcessTimes::of_ms(&samples).ok_or_else(|| "no runs were timed".to_string()))
    });
    match (times.next(), times.next()) {
        (Some(ours), Some(theirs)) => Ok((ours, theirs)),
        _ => Err("the comparison produced no figures".to_string()),
    }
}

/// `blinkblox compile` (this executable) and zap's binary on the benchmark schema
/// (`definition`, BlinkBlox's) and on the many declarations, each in its own language.
pub(super) fn compare_processes_with_zap(
    context: &Context,
    definition: &str,
) -> Result<Vec<ProcessComparison>, BenchError> {
    let zap = zap::find_binary(context)?;
    let blinkblox = std::env::current_exe()
        .map_err(|err| BenchError::new(format!("could not find the running blinkblox executable: {err}")))?;
    let path = context.definition("Definition.zap");
    let zap_definition = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
    let schemas = compared_schemas(
        definition,
        zap_definition,
        zap_schema(MANY_DECLARATIONS, Sender::Client),
    );
    Ok(compare_with_zap(&blinkblox, &zap, &schemas, PROCESS_RUNS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartiles_and_median_of_process_times() {
        let times = ProcessTimes::of_ms(&[5.0, 1.0, 3.0, 2.0, 4.0]).expect("times");
        assert_eq!(
            (times.p25_ms, times.median_ms, times.p75_ms, times.runs),
            (2.0, 3.0, 4.0, 5)
        );
        assert!(ProcessTimes::of_ms(&[]).is_none());
    }
}
