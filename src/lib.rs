//! BlinkBlox: a networking compiler for Roblox. `.blink` schemas in, fast and
//! self-checking Luau modules out.
//!
//! The pipeline is visible in the modules: [`schema`] (lexer → parser → checked model)
//! → [`codegen`] (one emitter per output) → the project layer; [`runtime`] is the Luau
//! VM with a Roblox mock that tests and `blinkblox bench` run generated code in.

pub mod bench;
pub mod cli;
pub mod codegen;
pub mod diagnostics;
pub mod package;
pub mod project;
pub mod runtime;
pub mod schema;
