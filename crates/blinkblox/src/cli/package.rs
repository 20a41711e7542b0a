//! `blinkblox package [--output DIR] [--manifest-path P] [--locked]`.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::EXIT_USER_ERROR;
use blinkblox_package::archive;
use blinkblox_project::manifest::Manifest;
use blinkblox_project::package::{self, PackageError, PackageOptions};
use blinkblox_project::paths;
use blinkblox_project::sync::SyncError;
use blinkblox_schema::diagnostics::render;

/// Sync, then write the generated modules as a Wally package: a folder and a .zip.
#[derive(Debug, clap::Args)]
pub struct PackageArgs {
    /// Folder for the package folder and the .zip (default: `dist` next to blinkblox.toml).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Path to blinkblox.toml (default: found in this folder or the nearest one above).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Fail (exit 1) instead of changing blinkblox.lock or a generated module while syncing.
    #[arg(long)]
    pub locked: bool,
}

pub fn run(args: PackageArgs) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let manifest = match Manifest::discover(&cwd, args.manifest_path.as_deref()) {
        Ok(manifest) => manifest,
        Err(err) => return fail(&err.to_string()),
    };
    let root = manifest.root.clone();
    let options = PackageOptions {
        output: args.output.map(|dir| cwd.join(dir)),
        locked: args.locked,
    };
    match package::package(manifest, &options) {
        Ok(outcome) => {
            for warning in &outcome.sync.warnings {
                eprintln!("warning: {warning}");
            }
            let color = render::color_wanted();
            for report in &outcome.sync.reports {
                eprint!("{}", render::render_all(&report.diagnostics, &report.sources, color));
            }
            let schemas = match outcome.schema_count {
                1 => "1 schema".to_string(),
                n => format!("{n} schemas"),
            };
            println!(
                "packaged {} {} ({} realm, {schemas})",
                outcome.spec.full_name(),
                outcome.spec.version,
                outcome.spec.realm
            );
            println!(
                "  folder {}/ ({} files)",
                paths::display_relative(&outcome.folder, &root),
                outcome.file_count
            );
            println!(
                "  zip    {} ({}, sha256 {})",
                paths::display_relative(&outcome.zip_path, &root),
                archive::human_size(outcome.zip_len),
                outcome.zip_sha256
            );
            if outcome.spec.private {
                println!("  note: `private = true`: `wally publish` will refuse this package");
            }
            ExitCode::SUCCESS
        }
        Err(PackageError::Project(err)) => fail(&err.to_string()),
        Err(PackageError::Sync(SyncError::Project(err))) => fail(&err.to_string()),
        Err(PackageError::Sync(SyncError::Schemas {
            reports,
            failed,
            warnings,
        })) => {
            let color = render::color_wanted();
            for report in &reports {
                eprint!("{}", render::render_all(&report.diagnostics, &report.sources, color));
            }
            for warning in &warnings {
                eprintln!("warning: {warning}");
            }
            let noun = if failed == 1 { "schema has" } else { "schemas have" };
            fail(&format!("{failed} {noun} errors; nothing was packaged"))
        }
        Err(PackageError::Sync(SyncError::Locked { problems, .. })) => {
            eprintln!("error: `blinkblox package --locked`: the generated files are not up to date");
            for problem in problems {
                eprintln!("  - {problem}");
            }
            eprintln!("  = help: run `blinkblox sync` and commit blinkblox.lock with the generated files");
            ExitCode::from(EXIT_USER_ERROR)
        }
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(EXIT_USER_ERROR)
}
