//! `blinkblox lsp`: the language server (`blinkblox_lsp`), speaking LSP on stdin/stdout.

use std::process::ExitCode;

use crate::cli::output::Output;

/// Run the language server for editors, on stdin and stdout.
///
/// Editors start it themselves: see docs/editors.md for VS Code, Zed and Neovim.
#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// Talk over stdin/stdout (the only transport; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Exits 0 after the editor's `shutdown` and `exit`, 1 when it exits without `shutdown` (as
/// the protocol asks) or the server could not run.
pub fn run(_args: LspArgs, out: &Output) -> ExitCode {
    match blinkblox_lsp::run_stdio() {
        Ok(blinkblox_lsp::Stopped::Clean) => ExitCode::SUCCESS,
        Ok(blinkblox_lsp::Stopped::WithoutShutdown) => ExitCode::from(crate::cli::exit::EXIT_USER_ERROR),
        Err(err) => {
            out.error_text(&format!("the language server stopped: {err}"), None);
            out.exit_code(true)
        }
    }
}
