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

use blinkblox_codegen::{OutputKind, Outputs, Source, Targets, compile};
use blinkblox_project::writer;
use blinkblox_schema::CheckSettings;
use blinkblox_schema::model::Options;

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
    let destinations = match destinations(file, &schema.options) {
        Ok(destinations) => destinations,
        Err((message, help)) => {
            out.error_text(&message, Some(&help));
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

/// Where each output goes, from the schema's output options (relative to its folder);
/// an error and its help when an option is missing, names no file, or two outputs would
/// land on one file.
fn destinations(file: &Path, options: &Options) -> Result<Vec<(OutputKind, PathBuf)>, (String, String)> {
    let (Some(server), Some(client)) = (&options.server_output, &options.client_output) else {
        let (missing, module) = if options.server_output.is_none() {
            ("ServerOutput", "Server")
        } else {
            ("ClientOutput", "Client")
        };
        return Err((
            format!("`{}` does not set the `{missing}` option", file.display()),
            format!(
                "`blinkblox compile` writes where the schema says; add e.g. `option {missing} = \"net/{module}\"` at the top of the file, or use `blinkblox sync` with a manifest"
            ),
        ));
    };
    let named = [
        ("ServerOutput", Some(server)),
        ("ClientOutput", Some(client)),
        ("TypesOutput", options.types_output.as_ref()),
    ];
    for (option, value) in named.iter().filter_map(|(option, value)| Some((option, (*value)?))) {
        if names_no_file(value) {
            return Err((
                format!("`option {option} = \"{value}\"` in `{}` names no file", file.display()),
                format!(
                    "give a module's path, relative to the schema, e.g. `option {option} = \"net/{}\"` (`.luau` is added)",
                    option.trim_end_matches("Output")
                ),
            ));
        }
    }
    let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut destinations = vec![
        (OutputKind::Server, output_path(&base, server)),
        (OutputKind::Client, output_path(&base, client)),
    ];
    if let Some(types) = &options.types_output {
        destinations.push((OutputKind::Types, output_path(&base, types)));
    }
    if options.typescript {
        let declarations: Vec<(OutputKind, PathBuf)> = destinations
            .iter()
            .map(|(kind, path)| {
                let dts = match kind {
                    OutputKind::Server => OutputKind::ServerDts,
                    OutputKind::Client => OutputKind::ClientDts,
                    _ => OutputKind::TypesDts,
                };
                (dts, declaration_path(path))
            })
            .collect();
        destinations.extend(declarations);
    }
    for (position, (kind, path)) in destinations.iter().enumerate() {
        if let Some((other, other_path)) = destinations[..position]
            .iter()
            .find(|(_, earlier)| file_key(earlier, true) == file_key(path, true))
        {
            let case_only = file_key(other_path, false) != file_key(path, false);
            return Err((
                format!(
                    "the {} and the {} module would both be written to `{}`{}",
                    module_name(*other),
                    module_name(*kind),
                    path.display(),
                    if case_only {
                        format!(" and `{}`, one file on Windows and macOS", other_path.display())
                    } else {
                        String::new()
                    }
                ),
                format!(
                    "give `ServerOutput`, `ClientOutput` and `TypesOutput` different paths in `{}`",
                    file.display()
                ),
            ));
        }
    }
    Ok(destinations)
}

/// Whether an output option's value names no file: empty, or ending in a folder
/// (`""`, `"out/"`, `"/"`, `".."`), where `.luau` would be added to nothing.
fn names_no_file(value: &str) -> bool {
    let value = value.trim();
    value.is_empty()
        || value.ends_with('/')
        || value.ends_with('\\')
        || matches!(
            Path::new(value).components().next_back(),
            None | Some(std::path::Component::RootDir | std::path::Component::ParentDir | std::path::Component::CurDir)
        )
}

/// An output path made absolute with `..` folded in, and with letters folded to one case
/// when `fold_case`: paths that differ only in case are one file on Windows and macOS,
/// where the same schema is often compiled, so they count as a collision too.
fn file_key(path: &Path, fold_case: bool) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let key = blinkblox_project::paths::slash(&blinkblox_project::paths::normalize(&cwd.join(path)));
    if fold_case { key.to_lowercase() } else { key }
}

fn module_name(kind: OutputKind) -> &'static str {
    match kind {
        OutputKind::Server => "Server",
        OutputKind::Client => "Client",
        OutputKind::Types => "Types",
        OutputKind::ServerDts => "Server declarations",
        OutputKind::ClientDts => "Client declarations",
        OutputKind::TypesDts => "Types declarations",
    }
}

/// An output option's path, relative to the schema's folder, with `.luau` appended
/// as Blink appends it.
pub fn output_path(base: &Path, option: &str) -> PathBuf {
    let mut path = base.join(option);
    let has_extension = path.extension().is_some_and(|ext| ext == "luau" || ext == "lua");
    if !has_extension {
        let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(".luau");
        path.set_file_name(name);
    }
    path
}

/// The `.d.ts` next to a Luau output, as Blink names it: the `.luau`/`.lua` extension
/// replaced, and `init` (a folder's module) declared as `index` for roblox-ts.
pub fn declaration_path(luau: &Path) -> PathBuf {
    let stem = luau
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = if stem == "init" { "index".to_string() } else { stem };
    luau.with_file_name(format!("{stem}.d.ts"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luau_is_appended_unless_present() {
        let base = Path::new("net");
        assert_eq!(output_path(base, "../out/Server"), Path::new("net/../out/Server.luau"));
        assert_eq!(output_path(base, "client.luau"), Path::new("net/client.luau"));
        assert_eq!(output_path(base, "shared/init"), Path::new("net/shared/init.luau"));
    }

    #[test]
    fn declarations_sit_next_to_their_module() {
        assert_eq!(
            declaration_path(Path::new("net/Server.luau")),
            Path::new("net/Server.d.ts")
        );
        assert_eq!(
            declaration_path(Path::new("net/shared/init.luau")),
            Path::new("net/shared/index.d.ts")
        );
        assert_eq!(declaration_path(Path::new("client.lua")), Path::new("client.d.ts"));
    }
}
