//! `blinkblox check`: parse and check schemas, print diagnostics, write nothing.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;

use blinkblox_codegen::{Outputs, Source, compile};
use blinkblox_schema::CheckSettings;
use blinkblox_schema::diagnostics::Diagnostic;

use crate::cli::exit::EXIT_USAGE;
use crate::cli::output::Output;
use crate::cli::schema_files;
use blinkblox_project::project_schemas::ProjectSchemas;

/// Check schemas for errors without writing anything.
///
/// Exits 0 when every schema is valid (warnings allowed, unless `--deny-warnings`), 1 when
/// any has an error, 2 on a usage error (such as a path that does not exist).
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Schema files, or folders to search for *.blink files. Default: the schemas of the
    /// blinkblox.toml found from here, else every *.blink file under the current folder.
    #[arg(value_name = "FILES|DIRS")]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: CheckArgs, out: &Output) -> ExitCode {
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut files = Vec::new();
    // With no paths, a blinkblox.toml found from here (walking up) decides which schemas
    // are checked, and with which option defaults, exactly as `blinkblox sync` checks them.
    let manifest = if args.paths.is_empty() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| ProjectSchemas::found_from(&cwd))
    } else {
        None
    };
    let manifest = match manifest {
        Some(Ok(listed)) => {
            for warning in &listed.warnings {
                out.warning(warning);
            }
            files.extend(listed.schemas.iter().map(|entry| entry.path.clone()));
            Some(listed)
        }
        Some(Err(err)) => {
            out.error(&err);
            return out.exit_code(true);
        }
        None => None,
    };
    for root in roots.iter().filter(|_| manifest.is_none()) {
        if root.is_file() {
            files.push(root.clone());
        } else if root.is_dir() {
            files.extend(schema_files::find(root, out));
        } else {
            let problem = if root.exists() {
                "is neither a file nor a folder"
            } else {
                "does not exist"
            };
            out.error_text(
                &format!("`{}` {problem}", root.display()),
                Some("name .blink files or folders that contain them"),
            );
            return ExitCode::from(EXIT_USAGE);
        }
    }
    if files.is_empty() {
        let shown: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        out.status(&format!("no .blink schemas found in {}", shown.join(", ")));
        return out.exit_code(false);
    }

    let (mut errors, mut warnings) = (0usize, 0usize);
    // A file imported by several schemas is checked with each; report its problems once.
    let mut reported: HashSet<(String, u32, &'static str, String)> = HashSet::new();
    for (index, file) in files.iter().enumerate() {
        // With a manifest, `files` are its schemas, in its order.
        let listed = manifest
            .as_ref()
            .and_then(|listed| Some((listed, listed.schemas.get(index)?)));
        let compiled = match listed {
            Some((listed, entry)) => match listed.compile(entry, Outputs::Check) {
                Ok(compiled) => compiled,
                // A bad option default: the same for every schema, so said once.
                Err(err) => {
                    out.error(&err);
                    return out.exit_code(true);
                }
            },
            None => compile(Source::File(file), &CheckSettings::default(), Outputs::Check),
        };
        let (sources, diagnostics) = (compiled.sources, compiled.diagnostics);
        let fresh: Vec<Diagnostic> = diagnostics
            .into_iter()
            .filter(|diagnostic| {
                let source = sources.files().get(diagnostic.primary.span.file.0 as usize);
                reported.insert((
                    source.map(|s| s.name.clone()).unwrap_or_default(),
                    diagnostic.primary.span.start,
                    diagnostic.code,
                    diagnostic.message.clone(),
                ))
            })
            .collect();
        errors += fresh.iter().filter(|d| d.is_error()).count();
        warnings += fresh.iter().filter(|d| !d.is_error()).count();
        out.diagnostics(&fresh, &sources);
    }
    let schemas = plural(files.len(), "schema");
    let summary = if errors == 0 && warnings == 0 {
        format!("checked {schemas}: no problems")
    } else {
        format!(
            "checked {schemas}: {}, {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        )
    };
    out.status(&summary);
    out.exit_code(errors > 0)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
