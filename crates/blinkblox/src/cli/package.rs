//! `blinkblox package [PROJECT] [--output DIR] [--manifest-path P] [--locked]`.

use std::path::PathBuf;
use std::process::ExitCode;

use blinkblox_package::archive;
use blinkblox_project::manifest::Manifest;
use blinkblox_project::package::{self, PackageError, PackageOptions};
use blinkblox_project::paths;
use blinkblox_project::sync::SyncError;

use crate::cli::output::Output;

/// Sync, then write the generated modules as a Wally package (a folder and a .zip) and/or a
/// pesde package (a folder), as `[package] formats` asks.
#[derive(Debug, clap::Args)]
pub struct PackageArgs {
    /// The project: its folder, or its blinkblox.toml (default: found in this folder or the
    /// nearest one above).
    #[arg(value_name = "PROJECT", conflicts_with = "manifest_path")]
    pub project: Option<PathBuf>,
    /// Folder for the package folders and the .zip (default: `dist` next to blinkblox.toml).
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Path to blinkblox.toml (or its folder).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Fail (exit 1) instead of changing blinkblox.lock or a generated module while syncing.
    #[arg(long)]
    pub locked: bool,
}

pub fn run(args: PackageArgs, out: &Output) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let given = args.project.as_deref().or(args.manifest_path.as_deref());
    let manifest = match Manifest::discover(&cwd, given) {
        Ok(manifest) => manifest,
        Err(err) => {
            out.error(&err);
            return out.exit_code(true);
        }
    };
    let root = manifest.root.clone();
    let options = PackageOptions {
        output: args.output.map(|dir| cwd.join(dir)),
        locked: args.locked,
    };
    match package::package(manifest, &options) {
        Ok(outcome) => {
            for warning in &outcome.sync.warnings {
                out.warning(warning);
            }
            for report in &outcome.sync.reports {
                out.diagnostics(&report.diagnostics, &report.sources);
            }
            let schemas = match outcome.schema_count {
                1 => "1 schema".to_string(),
                n => format!("{n} schemas"),
            };
            out.status(&format!(
                "packaged {} {} ({} realm, {schemas})",
                outcome.spec.full_name(),
                outcome.spec.version,
                outcome.spec.realm
            ));
            if let Some(wally) = &outcome.wally {
                out.status(&format!(
                    "  wally  {}/ ({} files)",
                    paths::display_relative(&wally.folder, &root),
                    wally.file_count
                ));
                out.status(&format!(
                    "  zip    {} ({}, sha256 {})",
                    paths::display_relative(&wally.zip_path, &root),
                    archive::human_size(wally.zip_len),
                    wally.zip_sha256
                ));
                if outcome.spec.private {
                    out.status("  note: `private = true`: `wally publish` will refuse this package");
                }
            }
            if let Some(pesde) = &outcome.pesde {
                out.status(&format!(
                    "  pesde  {}/ ({} files, {} for the {} target)",
                    paths::display_relative(&pesde.folder, &root),
                    pesde.file_count,
                    pesde.name,
                    blinkblox_package::pesde::environment(outcome.spec.realm)
                ));
            }
            out.exit_code(false)
        }
        Err(PackageError::Project(err) | PackageError::Sync(SyncError::Project(err))) => {
            out.error(&err);
            out.exit_code(true)
        }
        Err(PackageError::Sync(SyncError::Schemas {
            reports,
            failed,
            warnings,
        })) => {
            for report in &reports {
                out.diagnostics(&report.diagnostics, &report.sources);
            }
            for warning in &warnings {
                out.warning(warning);
            }
            let noun = if failed == 1 { "schema has" } else { "schemas have" };
            out.error_text(&format!("{failed} {noun} errors; nothing was packaged"), None);
            out.exit_code(true)
        }
        Err(PackageError::Sync(SyncError::Locked { problems, .. })) => {
            let list: Vec<String> = problems.iter().map(|problem| format!("\n  - {problem}")).collect();
            out.error_text(
                &format!(
                    "`blinkblox package --locked`: the generated files are not up to date{}",
                    list.concat()
                ),
                Some("run `blinkblox sync` and commit blinkblox.lock with the generated files"),
            );
            out.exit_code(true)
        }
    }
}
