//! `blinkblox fmt`: rewrite schemas in the one canonical layout (`blinkblox_fmt`), or with
//! `--check` list the ones that are not in it, for CI.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{EXIT_USAGE, EXIT_USER_ERROR};
use blinkblox_project::writer;
use blinkblox_schema::diagnostics::render;
use blinkblox_schema::loader::display_name;
use blinkblox_schema::source::{SourceFile, SourceMap};

/// Format schemas: comments kept, declarations one field per line, trailing commas.
///
/// Exits 0 when every schema is formatted (or was rewritten), 1 when `--check` found one
/// that is not, or a schema does not parse, 2 on a usage error.
#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Schema files, or folders to search for *.blink files. Default: every *.blink file
    /// under the current folder.
    #[arg(value_name = "FILES|DIRS")]
    pub paths: Vec<PathBuf>,

    /// Write nothing: list the schemas that are not formatted, and exit 1 if there are any.
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

pub fn run(args: FmtArgs) -> ExitCode {
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut files = Vec::new();
    for root in &roots {
        if root.is_file() {
            files.push(root.clone());
        } else if root.is_dir() {
            files.extend(find_schemas(root));
        } else {
            eprintln!("error: `{}` does not exist", root.display());
            eprintln!("help: name .blink files or folders that contain them");
            return ExitCode::from(EXIT_USAGE);
        }
    }
    let color = render::color_wanted();
    let (mut changed, mut failed) = (0usize, 0usize);
    for file in &files {
        match format_file(file, args.check, color) {
            Outcome::Unchanged => {}
            Outcome::Changed => {
                changed += 1;
                if args.check {
                    println!("{}", display_name(file));
                }
            }
            Outcome::Failed => failed += 1,
        }
    }
    let schemas = plural(files.len(), "schema");
    if args.check && changed > 0 {
        eprintln!(
            "checked {schemas}: {} not formatted; run `blinkblox fmt`",
            plural(changed, "schema")
        );
    } else if !args.check {
        eprintln!("formatted {schemas}: {} rewritten", plural(changed, "schema"));
    }
    if failed > 0 {
        eprintln!("{} could not be formatted", plural(failed, "schema"));
    }
    if failed > 0 || (args.check && changed > 0) {
        ExitCode::from(EXIT_USER_ERROR)
    } else {
        ExitCode::SUCCESS
    }
}

fn format_file(path: &Path, check: bool, color: bool) -> Outcome {
    let name = display_name(path);
    let text = match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("error: `{name}` is not valid UTF-8");
                eprintln!("help: save the schema as UTF-8 text");
                return Outcome::Failed;
            }
        },
        Err(err) => {
            eprintln!("error: cannot read `{name}`: {err}");
            return Outcome::Failed;
        }
    };
    let formatted = match blinkblox_fmt::format_source(&text) {
        Ok(formatted) => formatted,
        Err(not_formatted) => {
            let mut sources = SourceMap::default();
            sources.add(SourceFile::new(path.to_path_buf(), name.clone(), text));
            for diagnostic in &not_formatted.diagnostics {
                eprintln!("{}", render::render(diagnostic, &sources, color));
            }
            eprintln!("error: `{name}` was not formatted: fix the syntax errors above first");
            return Outcome::Failed;
        }
    };
    if formatted == text {
        return Outcome::Unchanged;
    }
    if !check && let Err(err) = writer::write_atomic(path, formatted.as_bytes()) {
        eprintln!("error: cannot write `{name}`: {err}");
        return Outcome::Failed;
    }
    Outcome::Changed
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Every `*.blink` file under `root`, sorted, skipping hidden folders; a folder that cannot
/// be read is a warning.
fn find_schemas(root: &Path) -> Vec<PathBuf> {
    let walk = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || !entry.file_name().to_str().is_some_and(|name| name.starts_with('.'))
        });
    let mut files = Vec::new();
    for entry in walk {
        match entry {
            Ok(entry) if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "blink") => {
                files.push(entry.into_path());
            }
            Ok(_) => {}
            Err(err) => {
                let place = err.path().unwrap_or(root).display().to_string();
                eprintln!("warning: skipped `{place}`: {err}");
            }
        }
    }
    files.sort();
    files
}
