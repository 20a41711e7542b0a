//! `blinkblox fmt`: rewrite schemas in the one canonical layout (`blinkblox_fmt`), or with
//! `--check` show how the ones that are not in it would change, for CI. With no paths, in a
//! project it formats the manifest's schemas and what they import, elsewhere every schema
//! below the current folder that version control would see.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blinkblox_fs::read::{decode_text, read_file};
use blinkblox_project::writer;
use blinkblox_schema::loader::{MAX_FILE_BYTES, display_name};
use blinkblox_schema::source::{SourceFile, SourceMap};

use crate::cli::exit::EXIT_USAGE;
use crate::cli::output::Output;
use crate::cli::schema_files;
use blinkblox_project::project_schemas::ProjectSchemas;

/// Format schemas: comments kept, declarations one field per line, trailing commas.
///
/// Exits 0 when every schema is formatted (or was rewritten), 1 when `--check` found one
/// that is not, or a schema does not parse, 2 on a usage error.
#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Schema files, or folders to search for *.blink files. Default: the schemas of the
    /// blinkblox.toml found from here and the files they import, else every *.blink file
    /// under the current folder (skipping what .gitignore ignores, Packages/ and node_modules/).
    #[arg(value_name = "FILES|DIRS")]
    pub paths: Vec<PathBuf>,

    /// Write nothing: show how each schema that is not formatted would change (a unified
    /// diff on stdout), and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

/// What formatting one file came to.
enum Outcome {
    Unchanged,
    /// Rewritten, or with `--check`, would be.
    Changed,
    /// Does not parse, or could not be read or written: reported already.
    Failed,
}

pub fn run(args: FmtArgs, out: &Output) -> ExitCode {
    let files = match files_to_format(&args.paths, out) {
        Ok(files) => files,
        Err(code) => return code,
    };
    let (mut changed, mut failed) = (0usize, 0usize);
    for file in &files {
        match format_file(file, args.check, out) {
            Outcome::Unchanged => {}
            Outcome::Changed => {
                changed += 1;
                if !args.check {
                    out.detail(&format!("  formatted {}", display_name(file)));
                }
            }
            Outcome::Failed => failed += 1,
        }
    }
    if !args.check {
        clean_up_after_stopped_runs(&files, out);
    }
    let schemas = plural(files.len(), "schema");
    if args.check && changed > 0 {
        out.error_text(
            &format!("checked {schemas}: {} not formatted", plural(changed, "schema")),
            Some("run `blinkblox fmt`"),
        );
    } else if !args.check {
        out.status(&format!("formatted {schemas}: {} rewritten", plural(changed, "schema")));
    }
    if failed > 0 {
        out.error_text(&format!("{} could not be formatted", plural(failed, "schema")), None);
    }
    out.exit_code(failed > 0 || (args.check && changed > 0))
}

/// The files `fmt` is pointed at: the paths given (folders searched), or with none, the
/// project's schemas and their imports when a blinkblox.toml is found from here (walking
/// up), else every schema below the current folder.
fn files_to_format(paths: &[PathBuf], out: &Output) -> Result<Vec<PathBuf>, ExitCode> {
    if paths.is_empty() {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match ProjectSchemas::found_from(&cwd) {
            Some(Ok(listed)) => {
                for warning in &listed.warnings {
                    out.warning(warning);
                }
                let files = listed.files_to_format();
                return Ok(files
                    .into_iter()
                    .map(|file| blinkblox_fs::path::relative_to(&file, &cwd).unwrap_or(file))
                    .collect());
            }
            Some(Err(err)) => {
                out.error(&err);
                return Err(out.exit_code(true));
            }
            None => return Ok(schema_files::find(Path::new("."), out)),
        }
    }
    let mut files = Vec::new();
    for root in paths {
        if root.is_dir() {
            files.extend(schema_files::find(root, out));
        } else if root.exists() {
            // A file, or something that is not one: reading it names what it is.
            files.push(root.clone());
        } else {
            out.error_text(
                &format!("`{}` does not exist", root.display()),
                Some("name .blink files or folders that contain them"),
            );
            return Err(ExitCode::from(EXIT_USAGE));
        }
    }
    Ok(files)
}

fn format_file(path: &Path, check: bool, out: &Output) -> Outcome {
    let name = display_name(path);
    let text = match read_file(path, MAX_FILE_BYTES) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                let place = decode_text(err.into_bytes()).err().map(|located| located.to_string());
                out.error_text(
                    &format!("`{name}`:{}", place.unwrap_or_else(|| " not UTF-8".to_string())),
                    Some("save the schema as UTF-8 text"),
                );
                return Outcome::Failed;
            }
        },
        Err(err) => {
            out.error_text(&format!("cannot read `{name}`: {err}"), None);
            return Outcome::Failed;
        }
    };
    let formatted = match blinkblox_fmt::format_source(&text) {
        Ok(formatted) => formatted,
        Err(not_formatted) => {
            let mut sources = SourceMap::default();
            sources.add(SourceFile::new(path.to_path_buf(), name.clone(), text));
            out.diagnostics(&not_formatted.diagnostics, &sources);
            out.error_text(
                &format!("`{name}` was not formatted: fix the syntax errors above first"),
                None,
            );
            return Outcome::Failed;
        }
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    if check {
        let diff = similar::TextDiff::from_lines(&text, &formatted);
        let shown = diff
            .unified_diff()
            .context_radius(3)
            .header(&name, &format!("{name} (formatted)"))
            .to_string();
        out.status(shown.trim_end());
    }
    if !check && let Err(err) = writer::write_atomic(path, formatted.as_bytes()) {
        out.error_text(&format!("cannot write `{name}`: {err}"), None);
        return Outcome::Failed;
    }
    Outcome::Changed
}

/// The temporary files a stopped `fmt` (or any other writer) left beside these schemas:
/// they carry the id of a process that is gone, so nothing is still writing them.
fn clean_up_after_stopped_runs(files: &[PathBuf], out: &Output) {
    for (stale, removed) in blinkblox_fs::write::remove_stale_temp_files_of(files) {
        match removed {
            Ok(()) => out.detail(&format!(
                "  removed `{}`, a temporary file a stopped run left behind",
                display_name(&stale)
            )),
            Err(err) => out.warning(&format!("could not remove `{}`: {err}", display_name(&stale))),
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
