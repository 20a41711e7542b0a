//! `blinkblox compile FILE [--watch]`: Blink's single-file workflow. The schema's own
//! `ServerOutput`, `ClientOutput` and `TypesOutput` options say where the modules go,
//! relative to the schema file; `.luau` is appended as Blink does (unless the path
//! already ends in `.luau` or `.lua`), and missing folders are created. With
//! `Typescript = true` a `.d.ts` goes next to each Luau output, named as Blink names it
//! (`Server.luau` → `Server.d.ts`, `init.luau` → `index.d.ts`). A schema with errors
//! prints its diagnostics and writes nothing. Outputs are written as `sync` writes them:
//! atomically, and only when their contents changed (an unchanged module keeps its
//! modification time, so Rojo does not re-sync it).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blinkblox_codegen::{Outputs, Source, Targets, compile, placement};
use blinkblox_project::writer;
use blinkblox_schema::CheckSettings;

use crate::cli::exit::EXIT_USAGE;
use crate::cli::output::Output;

/// Compile one schema to the files its ServerOutput/ClientOutput/TypesOutput name.
#[derive(Debug, clap::Args)]
pub struct CompileArgs {
    /// The schema to compile: `net.blink`, or `net` for `net.blink` or `net.txt` as Blink
    /// takes it.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Keep running and compile again whenever the schema or one of its imports changes.
    #[arg(long)]
    pub watch: bool,
}

pub fn run(args: CompileArgs, out: &Output) -> ExitCode {
    let Some(file) = schema_file(&args.file) else {
        out.error_text(
            &format!("`{}` is not a file", args.file.display()),
            Some("give the path of a .blink schema, e.g. `blinkblox compile net.blink` (or `net`)"),
        );
        return ExitCode::from(EXIT_USAGE);
    };
    if !args.watch {
        let ok = compile_once(&file, out).is_some();
        return out.exit_code(!ok);
    }
    let folder = file
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let watched = blinkblox_project::watch::watch_files(folder, || {
        let started = std::time::Instant::now();
        let inputs = compile_once(&file, out);
        let verdict = if inputs.is_some() { "compiled" } else { "compile failed" };
        out.status(&format!(
            "{verdict} `{}` ({} ms); watching for changes",
            file.display(),
            started.elapsed().as_millis()
        ));
        inputs.unwrap_or_else(|| std::iter::once(file.clone()).collect())
    });
    match watched {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            out.error(&err);
            out.exit_code(true)
        }
    }
}

/// The schema a `FILE` argument names: the file itself, else `FILE.blink`, else `FILE.txt`.
fn schema_file(given: &Path) -> Option<PathBuf> {
    if given.is_file() {
        return Some(given.to_path_buf());
    }
    ["blink", "txt"]
        .iter()
        .map(|extension| {
            let mut name = given.as_os_str().to_os_string();
            name.push(".");
            name.push(extension);
            PathBuf::from(name)
        })
        .find(|candidate| candidate.is_file())
}

/// Compiles `file` and writes its outputs; the files it read (the schema and its imports)
/// when it succeeded.
fn compile_once(file: &Path, out: &Output) -> Option<BTreeSet<PathBuf>> {
    let compiled = compile(
        Source::File(file),
        &CheckSettings::default(),
        Outputs::Modules(Targets::default()),
    );
    out.diagnostics(&compiled.diagnostics, &compiled.sources);
    let errors = compiled.diagnostics.iter().filter(|d| d.is_error()).count();
    let Some(schema) = compiled.schema.as_ref().filter(|_| errors == 0) else {
        out.error_text(
            &format!("`{}` has {errors} error(s); nothing was written", file.display()),
            None,
        );
        return None;
    };
    let destinations = match placement::destinations(file, &schema.options) {
        Ok(destinations) => destinations,
        Err(err) => {
            out.error_text(&err.message, err.help.as_deref());
            return None;
        }
    };
    if out.denied() {
        out.error_text(
            &format!(
                "`{}` has {} warning(s) and `--deny-warnings` is set; nothing was written",
                file.display(),
                out.warning_count()
            ),
            None,
        );
        return None;
    }
    let files: Vec<(&Path, &[u8])> = destinations
        .iter()
        .filter_map(|(kind, path)| {
            let generated = compiled.files.iter().find(|f| f.kind == *kind)?;
            Some((path.as_path(), generated.contents.as_bytes()))
        })
        .collect();
    match writer::write_changed(&files) {
        Ok(written) => {
            for ((path, _), written) in files.iter().zip(written) {
                let verdict = if written { "wrote" } else { "unchanged" };
                out.status(&format!("{verdict} {}", path.display()));
            }
        }
        Err((path, problem)) => {
            out.error_text(
                &format!("could not write `{}`: {problem}", path.display()),
                Some("check that the folder is writable, or change the schema's output options"),
            );
            return None;
        }
    }
    let mut inputs: BTreeSet<PathBuf> = compiled.imports().into_iter().collect();
    inputs.insert(file.to_path_buf());
    Some(inputs)
}
