//! The canonical layout of `.blink` schemas, for `blinkblox fmt` and the language server.
//!
//! The layout, decided by the syntax tree and not by how the file was written:
//! - declarations one after another, with at most one blank line between them (a blank
//!   line in the source is kept, several become one);
//! - the bodies of `event`, `function`, `stream`, `scope`, `struct` declarations and the
//!   variants of tagged enums one entry per line, indented by four spaces, each with a
//!   trailing comma;
//! - everything else (inline structs, enums, sets, type packs, generic arguments) on one
//!   line when it fits in [`WIDTH`] columns, otherwise one entry per line with trailing
//!   commas;
//! - every comment kept, at the entry it was written before or after; a list holding a
//!   comment or a blank line is laid out one entry per line;
//! - the file's line endings kept (`\r\n` when it has them), no trailing whitespace.
//!
//! Formatting changes only layout: the schema means the same and compiles to the same
//! modules, and formatting a formatted schema changes nothing.

mod comments;
mod printer;
mod types;

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::parser;
use blinkblox_schema::source::FileId;

pub use comments::Comment;

/// Columns a line may take before a list is broken over several lines.
pub const WIDTH: usize = 100;
/// Spaces per level of indentation.
pub const INDENT: isize = 4;

/// Why a schema was not formatted: it does not parse. The diagnostics point into the text
/// given (file 0).
#[derive(Debug, Clone)]
pub struct NotFormatted {
    pub diagnostics: Vec<Diagnostic>,
}

/// Every comment of `text`, in order; a file that does not lex has its comments found
/// too (for editors: folding, highlighting).
pub fn comments(text: &str) -> Vec<Comment> {
    comments::collect(text).0
}

/// The schema `text` in the canonical layout. A schema that does not lex or parse is left
/// alone: its diagnostics say why.
pub fn format_source(text: &str) -> Result<String, NotFormatted> {
    // A UTF-8 byte-order mark is accepted as `check` and `compile` accept it, and kept.
    match text.strip_prefix('\u{FEFF}') {
        Some(rest) => format_text(rest).map(|formatted| format!("\u{FEFF}{formatted}")),
        None => format_text(text),
    }
}

/// [`format_source`] of text without a byte-order mark.
fn format_text(text: &str) -> Result<String, NotFormatted> {
    let (comments, diagnostics) = comments::collect(text);
    if !diagnostics.is_empty() {
        return Err(NotFormatted { diagnostics });
    }
    let (file, diagnostics) = parser::parse(FileId(0), text);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(NotFormatted { diagnostics });
    }
    Ok(printer::Printer::new(text, comments).file(&file))
}
