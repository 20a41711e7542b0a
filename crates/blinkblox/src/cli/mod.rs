//! The command line: one file per subcommand, dispatched from here.

#[cfg(feature = "bench")]
pub mod bench;
pub mod check;
pub mod compile;
pub mod exit;
pub mod fmt;
pub mod import_zap;
pub mod init;
pub mod lsp;
pub mod output;
pub mod package;
pub mod schema_files;
pub mod sync;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// BlinkBlox: compile .blink network schemas into fast, self-checking Luau modules.
#[derive(Debug, Parser)]
#[command(name = "blinkblox", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: output::OutputArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Download, patch and run the competitors; write benchmark/Benchmarks.md.
    #[cfg(feature = "bench")]
    Bench(bench::BenchArgs),
    /// Parse and check schemas; write nothing.
    Check(check::CheckArgs),
    /// Compile one schema to its ServerOutput/ClientOutput/TypesOutput (Blink's workflow).
    Compile(compile::CompileArgs),
    /// Rewrite schemas in the canonical layout; `--check` lists those that are not.
    Fmt(fmt::FmtArgs),
    /// Translate a zap 0.6 config (net.zap) into the equivalent .blink schema.
    ImportZap(import_zap::ImportZapArgs),
    /// Write blinkblox.toml and an example schema into a Rojo project.
    Init(init::InitArgs),
    /// Run the language server on stdio, for editors.
    Lsp(lsp::LspArgs),
    /// Sync, then write the generated modules as a Wally package (folder and .zip), and a pesde one if asked.
    Package(package::PackageArgs),
    /// Compile every schema into the Rojo tree and record blinkblox.lock.
    Sync(sync::SyncArgs),
}

/// A tip for the first words a Blink user types: `blinkblox net.blink` (Blink's own habit)
/// and `blinkblox version`.
fn with_hint(mut err: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::InvalidSubcommand {
        return err;
    }
    let Some(ContextValue::String(word)) = err.get(ContextKind::InvalidSubcommand) else {
        return err;
    };
    let schema_like = word.ends_with(".blink") || word.ends_with(".txt") || std::path::Path::new(word).is_file();
    let tip = if word == "version" {
        "to see the version, run `blinkblox --version` (or `-V`)".to_string()
    } else if schema_like {
        format!("to compile a schema as `blink {word}` does, run `blinkblox compile {word}`")
    } else {
        return err;
    };
    err.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![tip.into()]));
    err
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let err = with_hint(err);
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(exit::EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let out = output::Output::new(&cli.output);
    match cli.command {
        #[cfg(feature = "bench")]
        Command::Bench(args) => bench::run(args, &out),
        Command::Check(args) => check::run(args, &out),
        Command::Compile(args) => compile::run(args, &out),
        Command::Fmt(args) => fmt::run(args, &out),
        Command::ImportZap(args) => import_zap::run(args, &out),
        Command::Init(args) => init::run(args, &out),
        Command::Lsp(args) => lsp::run(args, &out),
        Command::Package(args) => package::run(args, &out),
        Command::Sync(args) => sync::run(args, &out),
    }
}
