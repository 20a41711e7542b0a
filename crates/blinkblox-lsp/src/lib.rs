//! The BlinkBlox language server: `blinkblox lsp`.
//!
//! Built on the same front end as `blinkblox check` (the compile step of
//! `blinkblox-codegen`, the manifest defaults of `blinkblox-project`), so the editor and
//! the command line never disagree. It speaks LSP over stdin/stdout with lsp-server's
//! message types and lsp-types' protocol types.
//!
//! [`Server`] is the whole state and handles one message at a time; [`serve`] runs it
//! over a transport, analysing documents in the background once typing pauses.

mod analysis;
mod api;
mod code_actions;
mod completion;
mod diagnostics;
mod documents;
mod folding;
mod formatting;
mod hover;
mod index;
mod navigation;
mod positions;
mod project;
mod rename;
mod requests;
mod semantic_tokens;
mod server;
mod sizes;
mod symbols;
pub mod transport;
mod worker;

pub use server::{Server, Stopped, serve};

/// Runs the server on stdin and stdout until the editor says `exit` or closes stdin.
pub fn run_stdio() -> std::io::Result<Stopped> {
    let stdin = std::io::stdin();
    let input = std::io::BufReader::new(stdin);
    let (incoming, outgoing, writer) = transport::spawn(input, std::io::stdout())?;
    let stopped = serve(incoming, outgoing);
    // The writer ends once every queued message is written (`serve` dropped its sender).
    writer
        .join()
        .map_err(|_| std::io::Error::other("the writer thread stopped unexpectedly"))?;
    Ok(stopped)
}
