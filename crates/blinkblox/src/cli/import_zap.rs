//! `blinkblox import-zap FILE.zap`: translate a zap 0.6 config into the equivalent `.blink`
//! schema (`blinkblox_zap`), check the translation with the compile step, and write it next
//! to the zap file (or where `-o` says; `-o -` prints it). An existing schema is replaced only
//! with `--force`. Any construct without a BlinkBlox equivalent is an error: every one is
//! reported, with its place and what to write instead, and nothing is written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::exit::{EXIT_USAGE, EXIT_USER_ERROR};
use crate::cli::output::Output;
use blinkblox_codegen::{Outputs, Source, compile};
use blinkblox_fs::read::{decode_text, read_file};
use blinkblox_project::{paths, writer};
use blinkblox_schema::CheckSettings;
use blinkblox_schema::loader::MAX_FILE_BYTES;
use blinkblox_zap::{Settings, import};

/// Translate a zap 0.6 config (`net.zap`) into the equivalent .blink schema.
///
/// Exits 0 when the schema was written (warnings allowed), 1 when the zap file uses
/// something BlinkBlox has no equivalent for (nothing is written), 2 on a usage error.
#[derive(Debug, clap::Args)]
pub struct ImportZapArgs {
    /// The zap config to translate.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Where to write the schema, or `-` for standard output. Default: next to FILE, with
    /// the `.blink` extension.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Replace the schema if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: ImportZapArgs, out: &Output) -> ExitCode {
    if !args.file.is_file() {
        out.error_text(
            &format!("`{}` is not a file", args.file.display()),
            Some("give the path of a zap config, e.g. `blinkblox import-zap net.zap`"),
        );
        return ExitCode::from(EXIT_USAGE);
    }
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    let output = args.output.clone().unwrap_or_else(|| args.file.with_extension("blink"));
    if !to_stdout {
        if same_file(&output, &args.file) {
            out.error_text(
                &format!("the schema would replace the zap file `{}`", args.file.display()),
                Some("name the schema with `-o net.blink`"),
            );
            return ExitCode::from(EXIT_USAGE);
        }
        if output.exists() && !args.force {
            out.error_text(
                &format!("`{}` already exists; nothing was written", output.display()),
                Some("pass `--force` to replace it, or `-o` to write the schema elsewhere"),
            );
            return ExitCode::from(EXIT_USER_ERROR);
        }
    }
    let text = match read_file(&args.file, MAX_FILE_BYTES).map(decode_text) {
        Ok(Ok(text)) => text,
        Ok(Err(not_utf8)) => {
            out.error_text(
                &format!("`{}`:{not_utf8}", args.file.display()),
                Some("save the zap file as UTF-8"),
            );
            return ExitCode::from(EXIT_USER_ERROR);
        }
        Err(problem) => {
            out.error_text(&format!("could not read `{}`: {problem}", args.file.display()), None);
            return ExitCode::from(EXIT_USER_ERROR);
        }
    };

    let zap_folder = folder_of(&args.file);
    let schema_folder = if to_stdout {
        zap_folder.clone()
    } else {
        folder_of(&output)
    };
    let prefix = rebase_prefix(&zap_folder, &schema_folder);
    let rebase = |path: &str| match &prefix {
        Some(prefix) if !Path::new(path).is_absolute() => paths::slash(&paths::normalize(&prefix.join(path))),
        _ => path.to_string(),
    };
    let name = args.file.display().to_string();
    let imported = import(&name, &text, &Settings { rebase_output: &rebase });

    out.diagnostics(&imported.diagnostics, &imported.sources);
    let errors = imported.diagnostics.iter().filter(|d| d.is_error()).count();
    let Some(blink) = imported.blink.as_deref().filter(|_| errors == 0) else {
        out.error_text(
            &format!(
                "`{}` cannot be translated ({errors} error(s)); nothing was written",
                args.file.display()
            ),
            Some("change what the errors name in the zap file, then run the import again"),
        );
        return out.exit_code(true);
    };

    // The translation is checked as every schema is, before anything is written. What the
    // check reports points into the translation, and is named so.
    let schema_name = if to_stdout {
        args.file.with_extension("blink").display().to_string()
    } else {
        output.display().to_string()
    };
    let schema_name = format!("{schema_name} (the translation)");
    let checked = compile(
        Source::Text {
            name: &schema_name,
            text: blink,
        },
        &CheckSettings::default(),
        Outputs::Check,
    );
    out.diagnostics(&checked.diagnostics, &checked.sources);
    if checked.has_errors() {
        out.error_text(
            &format!(
                "the translation of `{}` does not pass BlinkBlox's checks; nothing was written",
                args.file.display()
            ),
            Some("the lines shown are the translation's; change the zap declarations they come from"),
        );
        return out.exit_code(true);
    }

    if to_stdout {
        let mut stdout = std::io::stdout().lock();
        if stdout
            .write_all(blink.as_bytes())
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::from(EXIT_USER_ERROR);
        }
        return out.exit_code(false);
    }
    if let Err(problem) = writer::write_atomic(&output, blink.as_bytes()) {
        out.error_text(
            &format!("could not write `{}`: {problem}", output.display()),
            Some("check that the folder is writable, or pass `-o` to write elsewhere"),
        );
        return out.exit_code(true);
    }
    out.status(&format!("wrote {}", output.display()));
    out.status(&format!(
        "next: `blinkblox compile {}` writes the modules its options name",
        output.display()
    ));
    out.exit_code(false)
}

/// The folder a path is in, made absolute (lexically: it need not exist yet).
fn folder_of(path: &Path) -> PathBuf {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    paths::normalize(&std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf()))
}

/// How to get from the schema's folder to the zap file's: the zap file's output paths are
/// relative to its folder, the schema's to its own. `None` when they are one folder (or
/// share no root, where the paths are kept as written).
fn rebase_prefix(zap_folder: &Path, schema_folder: &Path) -> Option<PathBuf> {
    if zap_folder == schema_folder {
        return None;
    }
    paths::relative_to(zap_folder, schema_folder)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => paths::normalize(a) == paths::normalize(b),
    }
}
