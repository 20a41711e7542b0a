//! The integration tests of `blinkblox-lsp`, one module per area. They drive a [`Server`]
//! in this process with the messages an editor sends; the binary's own session test is in
//! the `blinkblox` crate.

mod actions;
mod completion;
mod harness;
mod hover;
mod outline;
mod project;
mod rename;
