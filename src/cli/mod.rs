//! The command line: one file per subcommand, dispatched from here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// BlinkBlox: compile .blink network schemas into fast, self-checking Luau modules.
#[derive(Debug, Parser)]
#[command(name = "blinkblox", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {}

/// Exit codes, as cargo uses them: 0 success, 1 user error, 2 usage error.
pub const EXIT_USER_ERROR: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {}
}
