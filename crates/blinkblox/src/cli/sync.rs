//! `blinkblox sync [PROJECT] [--locked] [--frozen] [--watch] [--manifest-path P]`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use blinkblox_project::ProjectError;
use blinkblox_project::manifest::{MANIFEST_NAME, Manifest};
use blinkblox_project::sync::{self, SchemaReport, SyncError, SyncFlags, SyncOutcome, SyncRun};
use blinkblox_project::watch::{self, Rebuild};

use crate::cli::output::Output;

/// Compile every schema of the project into the Rojo tree and record blinkblox.lock.
#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// The project: its folder, or its blinkblox.toml (default: found in this folder or the
    /// nearest one above, as `--manifest-path` does).
    #[arg(value_name = "PROJECT", conflicts_with = "manifest_path")]
    pub project: Option<PathBuf>,
    /// Fail (exit 1, naming what changed) if blinkblox.lock or a generated file is out of date.
    #[arg(long)]
    pub locked: bool,
    /// Like --locked, and never write anything: a missing generated file is an error too.
    #[arg(long)]
    pub frozen: bool,
    /// Keep running and sync again whenever a schema, an import or the manifest changes.
    #[arg(long, conflicts_with_all = ["locked", "frozen"])]
    pub watch: bool,
    /// Path to blinkblox.toml (or its folder).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
}

pub fn run(args: SyncArgs, out: &Output) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let started = Instant::now();
    let flags = SyncFlags {
        locked: args.locked || args.frozen,
        frozen: args.frozen,
    };
    let given = args.project.as_deref().or(args.manifest_path.as_deref());
    if args.watch {
        // Watch even when the manifest is broken right now: fixing it triggers a rebuild.
        let manifest_path = match watched_manifest(&cwd, given) {
            Ok(path) => path,
            Err(err) => {
                out.error(&err);
                return out.exit_code(true);
            }
        };
        let result = watch::watch(&manifest_path, flags, |rebuild, took| match rebuild {
            Rebuild::Manifest(err) => {
                out.error(err);
                out.status(&format!("sync failed ({}){WATCHING}", millis(took)));
            }
            Rebuild::Synced(run) => {
                report(run, took, true, out);
            }
        });
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                out.error(&err);
                out.exit_code(true)
            }
        };
    }
    let manifest = match Manifest::discover(&cwd, given) {
        Ok(manifest) => manifest,
        Err(err) => {
            out.error(&err);
            return out.exit_code(true);
        }
    };
    let run = sync::run(manifest, flags);
    let ok = report(&run, started.elapsed(), false, out);
    out.exit_code(!ok)
}

/// The manifest `--watch` watches: named, or found from `cwd` (walking up).
fn watched_manifest(cwd: &Path, given: Option<&Path>) -> Result<PathBuf, ProjectError> {
    match given {
        Some(path) if cwd.join(path).is_dir() => Ok(cwd.join(path).join(MANIFEST_NAME)),
        Some(path) => Ok(cwd.join(path)),
        None => Manifest::find(cwd).ok_or_else(|| {
            Manifest::discover(cwd, None)
                .err()
                .unwrap_or_else(|| ProjectError::new(format!("could not find `{MANIFEST_NAME}`")))
        }),
    }
}

/// Ends each summary line in watch mode.
const WATCHING: &str = "; watching for changes";

fn millis(took: Duration) -> String {
    format!("{} ms", took.as_millis())
}

/// Prints diagnostics, warnings and the one-line summary of a sync; whether it succeeded.
/// In watch mode every rebuild, failed or not, ends with one summary line.
fn report(run: &SyncRun, took: Duration, watching: bool, out: &Output) -> bool {
    let failed_line = || {
        if watching {
            out.status(&format!("sync failed ({}){WATCHING}", millis(took)));
        }
    };
    match &run.result {
        Ok(outcome) => {
            print_reports(&outcome.reports, out);
            for warning in &outcome.warnings {
                out.warning(warning);
            }
            for (verb, files) in [
                ("wrote", &outcome.written),
                ("left", &outcome.left),
                ("removed", &outcome.removed),
            ] {
                for file in files {
                    out.detail(&format!("  {verb} {file}"));
                }
            }
            if outcome.lockfile_written {
                out.detail("  wrote blinkblox.lock");
            }
            for (schema, requires) in &outcome.requires {
                for (side, require) in [("server", &requires.server), ("client", &requires.client)] {
                    if let Some(require) = require {
                        out.detail(&format!("  {schema}, {side}: local Net = {require}"));
                    }
                }
            }
            let tail = if watching { WATCHING } else { "" };
            out.status(&format!("{}{tail}", summary(outcome, took)));
            if out.denied() && !watching {
                out.error_text(
                    &format!("{} warning(s) and `--deny-warnings` is set", out.warning_count()),
                    None,
                );
                return false;
            }
            true
        }
        Err(SyncError::Project(err)) => {
            out.error(err);
            failed_line();
            false
        }
        Err(SyncError::Schemas {
            reports,
            failed,
            warnings,
        }) => {
            print_reports(reports, out);
            for warning in warnings {
                out.warning(warning);
            }
            let noun = if *failed == 1 { "schema has" } else { "schemas have" };
            out.error_text(&format!("{failed} {noun} errors; nothing was written"), None);
            failed_line();
            false
        }
        Err(SyncError::Locked { problems, frozen }) => {
            let flag = if *frozen { "--frozen" } else { "--locked" };
            let list: Vec<String> = problems.iter().map(|problem| format!("\n  - {problem}")).collect();
            out.error_text(
                &format!(
                    "`blinkblox sync {flag}`: the generated files are not up to date{}",
                    list.concat()
                ),
                Some("run `blinkblox sync` and commit blinkblox.lock with the generated files"),
            );
            failed_line();
            false
        }
    }
}

fn summary(outcome: &SyncOutcome, took: Duration) -> String {
    let schemas = match outcome.schema_count {
        1 => "1 schema".to_string(),
        n => format!("{n} schemas"),
    };
    if outcome.up_to_date {
        return format!("up to date: {schemas}, {} files ({})", outcome.unchanged, millis(took));
    }
    let mut parts = vec![
        format!("{} written", outcome.written.len()),
        format!("{} unchanged", outcome.unchanged),
    ];
    if !outcome.removed.is_empty() {
        parts.push(format!("{} removed", outcome.removed.len()));
    }
    format!("synced {schemas}: {} ({})", parts.join(", "), millis(took))
}

fn print_reports(reports: &[SchemaReport], out: &Output) {
    for report in reports {
        out.diagnostics(&report.diagnostics, &report.sources);
    }
}
