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

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
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
        Command::Bench(args) => bench::run(args),
        Command::Check(args) => check::run(args, &out),
        Command::Compile(args) => compile::run(args, &out),
        Command::Fmt(args) => fmt::run(args, &out),
        Command::ImportZap(args) => import_zap::run(args, &out),
        Command::Init(args) => init::run(args, &out),
        Command::Lsp(args) => lsp::run(args),
        Command::Package(args) => package::run(args, &out),
        Command::Sync(args) => sync::run(args, &out),
    }
}
