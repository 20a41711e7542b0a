//! `blinkblox sync [--locked] [--frozen] [--watch] [--manifest-path P]`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::cli::EXIT_USER_ERROR;
use blinkblox_project::ProjectError;
use blinkblox_project::manifest::{MANIFEST_NAME, Manifest};
use blinkblox_project::sync::{self, SchemaReport, SyncError, SyncFlags, SyncOutcome, SyncRun};
use blinkblox_project::watch::{self, Rebuild};
use blinkblox_schema::diagnostics::render;

/// Compile every schema of the project into the Rojo tree and record blinkblox.lock.
#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// Fail (exit 1, naming what changed) if blinkblox.lock or a generated file is out of date.
    #[arg(long)]
    pub locked: bool,
    /// Like --locked, and never write anything: a missing generated file is an error too.
    #[arg(long)]
    pub frozen: bool,
    /// Keep running and sync again whenever a schema, an import or the manifest changes.
    #[arg(long, conflicts_with_all = ["locked", "frozen"])]
    pub watch: bool,
    /// Path to blinkblox.toml (default: found in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
}

pub fn run(args: SyncArgs) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let started = Instant::now();
    let flags = SyncFlags {
        locked: args.locked || args.frozen,
        frozen: args.frozen,
    };
    if args.watch {
        // Watch even when the manifest is broken right now: fixing it triggers a rebuild.
        let manifest_path = match args.manifest_path.as_deref() {
            Some(path) if cwd.join(path).is_dir() => cwd.join(path).join(MANIFEST_NAME),
            Some(path) => cwd.join(path),
            None => match Manifest::find(&cwd) {
                Some(path) => path,
                None => {
                    let err = Manifest::discover(&cwd, None).err();
                    return fail(
                        &err.unwrap_or_else(|| ProjectError::new(format!("could not find `{MANIFEST_NAME}`"))),
                    );
                }
            },
        };
        let result = watch::watch(&manifest_path, flags, |rebuild, took| match rebuild {
            Rebuild::Manifest(err) => {
                print_error(err);
                println!("sync failed ({}){WATCHING}", millis(took));
            }
            Rebuild::Synced(run) => {
                print_run(run, took, true);
            }
        });
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => fail(&err),
        };
    }
    let manifest = match Manifest::discover(&cwd, args.manifest_path.as_deref()) {
        Ok(manifest) => manifest,
        Err(err) => return fail(&err),
    };
    let run = sync::run(manifest, flags);
    print_run(&run, started.elapsed(), false)
}

/// Ends each summary line in watch mode.
const WATCHING: &str = "; watching for changes";

fn millis(took: Duration) -> String {
    format!("{} ms", took.as_millis())
}

/// Prints diagnostics, warnings and the one-line summary of a sync; returns its exit code.
/// In watch mode every rebuild, failed or not, ends with one summary line on stdout.
fn print_run(run: &SyncRun, took: Duration, watching: bool) -> ExitCode {
    let failed_line = || {
        if watching {
            println!("sync failed ({}){WATCHING}", millis(took));
        }
    };
    match &run.result {
        Ok(outcome) => {
            print_reports(&outcome.reports);
            print_warnings(&outcome.warnings);
            let tail = if watching { WATCHING } else { "" };
            println!("{}{tail}", summary(outcome, took));
            ExitCode::SUCCESS
        }
        Err(SyncError::Project(err)) => {
            print_error(err);
            failed_line();
            ExitCode::from(EXIT_USER_ERROR)
        }
        Err(SyncError::Schemas {
            reports,
            failed,
            warnings,
        }) => {
            print_reports(reports);
            print_warnings(warnings);
            let noun = if *failed == 1 { "schema has" } else { "schemas have" };
            eprintln!("error: {failed} {noun} errors; nothing was written");
            failed_line();
            ExitCode::from(EXIT_USER_ERROR)
        }
        Err(SyncError::Locked { problems, frozen }) => {
            let flag = if *frozen { "--frozen" } else { "--locked" };
            eprintln!("error: `blinkblox sync {flag}`: the generated files are not up to date");
            for problem in problems {
                eprintln!("  - {problem}");
            }
            eprintln!("  = help: run `blinkblox sync` and commit blinkblox.lock with the generated files");
            failed_line();
            ExitCode::from(EXIT_USER_ERROR)
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

fn print_reports(reports: &[SchemaReport]) {
    let color = render::color_wanted();
    for report in reports {
        eprint!("{}", render::render_all(&report.diagnostics, &report.sources, color));
    }
}

fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}

fn print_error(err: &ProjectError) {
    eprintln!("error: {err}");
}

fn fail(err: &ProjectError) -> ExitCode {
    print_error(err);
    ExitCode::from(EXIT_USER_ERROR)
}
