//! Diagnostics: what the compiler says about a schema, and how it is shown.
//!
//! Codes are stable and grouped by phase so users (and golden tests) can rely on them:
//! - `E1xxx` lexer, `E2xxx` parser, `E3xxx` names, types and imports,
//!   `E4xxx` options, declarations and limits (events, functions, streams, wire layout);
//! - `W` + the same ranges for warnings.
//!
//! Rendering (rustc-style text and JSON lines) lives in the submodules.

pub mod json;
pub mod render;

use crate::source::Span;

/// Diagnostics kept for one schema; the rest are summarised in one line.
pub const MAX_DIAGNOSTICS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A labelled span: the primary label says what is wrong here, secondary ones give
/// context ("first declared here").
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A fix certain enough for a tool to apply: put `replacement` in place of `span` (an empty
/// span inserts it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub span: Span,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// A stable code such as `E3007`.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    /// Help lines: how to fix it.
    pub notes: Vec<String>,
    /// Machine-applicable fixes (`--message-format json`, the editor's quick fixes).
    pub suggestions: Vec<Suggestion>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                message: label.into(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
            suggestions: Vec::new(),
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span, label)
        }
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// A fix a tool may apply as it is.
    pub fn with_suggestion(mut self, span: Span, replacement: impl Into<String>) -> Diagnostic {
        self.suggestions.push(Suggestion {
            span,
            replacement: replacement.into(),
        });
        self
    }

    /// "Did you mean `name`?" for the word at `span`, as a note and as a fix.
    pub fn with_did_you_mean(self, span: Span, name: &str) -> Diagnostic {
        self.with_note(format!("did you mean `{name}`?"))
            .with_suggestion(span, name)
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
