//! The zap importer: a zap 0.6 config (`net.zap`) in, the equivalent `.blink` schema out.
//!
//! [`import`] reads the file ([`parser`]), resolves its names the way BlinkBlox will
//! ([`translate`]), and writes the schema text: every construct that has a BlinkBlox
//! equivalent is translated, every one that has none is an error naming it, and what only
//! shapes zap's own output is dropped with a warning. The diagnostics point into the zap
//! file and render like the rest of BlinkBlox's (`blinkblox_schema::diagnostics`).
//!
//! The text is returned only when there was no error. It is meant to be checked by the
//! compile step before it is written (the CLI does), as any schema is.

pub mod codes;
pub mod lexer;
pub mod parser;
pub mod syntax;
pub mod translate;

use std::path::PathBuf;

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::{SourceFile, SourceMap};

/// What the translation needs to know besides the zap text.
pub struct Settings<'a> {
    /// Rewrites an output path of the zap file (`server_output`, `client_output`,
    /// `types_output`, relative to the zap file's folder) into the path the `.blink` file
    /// needs (relative to its own folder). The identity when both are in one folder.
    pub rebase_output: &'a dyn Fn(&str) -> String,
}

impl Default for Settings<'_> {
    fn default() -> Self {
        Settings {
            rebase_output: &|path: &str| path.to_string(),
        }
    }
}

/// What importing one zap file gave.
#[derive(Debug)]
pub struct Imported {
    /// The zap file: diagnostics point into it.
    pub sources: SourceMap,
    /// Errors and warnings, in position order.
    pub diagnostics: Vec<Diagnostic>,
    /// The `.blink` schema; `None` when any diagnostic is an error.
    pub blink: Option<String>,
}

impl Imported {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Translates zap text. `name` is shown in diagnostics and in the schema's header comment.
/// Deterministic: the same text and settings give the same bytes.
pub fn import(name: &str, text: &str, settings: &Settings<'_>) -> Imported {
    let mut sources = SourceMap::default();
    let file = sources.add(SourceFile::new(PathBuf::from(name), name.to_string(), text.to_string()));
    let (parsed, mut diagnostics) = parser::parse(file, text);
    let reading_failed = diagnostics.iter().any(Diagnostic::is_error);
    let mut blink = None;
    if !reading_failed {
        let (text_out, found) = translate::translate(&parsed, text, name, settings);
        diagnostics.extend(found);
        if !diagnostics.iter().any(Diagnostic::is_error) {
            blink = Some(text_out);
        }
    }
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    Imported {
        sources,
        diagnostics,
        blink,
    }
}
