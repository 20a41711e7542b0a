//! A `[package]` table or a set of modules Wally or pesde would not accept: `message` names
//! the field (and its manifest line), `help` says how to fix it. The one error shape every
//! command reports.

pub use blinkblox_error::UserError as Error;
