//! Machine-readable diagnostics: one JSON object per line, for editors and CI.
//!
//! ```json
//! {"code":"E3001","severity":"error","message":"unknown type `Helth`","file":"net.blink",
//!  "line":4,"column":9,"end_line":4,"end_column":14,
//!  "labels":[{"file":"net.blink","line":4,"column":9,"end_line":4,"end_column":14,
//!             "message":"not declared","primary":true}],
//!  "notes":["did you mean `Health`?"],
//!  "suggestions":[{"file":"net.blink","line":4,"column":9,"end_line":4,"end_column":14,
//!                  "replacement":"Health"}]}
//! ```
//!
//! A suggestion is a fix a tool may apply as it is: the replacement for the span (an empty
//! span inserts it).
//!
//! Lines and columns are 1-based; columns count characters; `end_column` is exclusive.

use serde_json::{Value, json};

use crate::diagnostics::{Diagnostic, Label};
use crate::source::SourceMap;

struct Position {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

fn position(label: &Label, sources: &SourceMap) -> Position {
    match sources.files().get(label.span.file.0 as usize) {
        Some(file) => {
            let (line, column) = file.line_col(label.span.start);
            let (end_line, end_column) = file.line_col(label.span.end);
            Position {
                file: file.name.clone(),
                line,
                column,
                end_line,
                end_column,
            }
        }
        None => Position {
            file: String::new(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
        },
    }
}

fn label_json(label: &Label, primary: bool, sources: &SourceMap) -> Value {
    let p = position(label, sources);
    json!({
        "file": p.file,
        "line": p.line,
        "column": p.column,
        "end_line": p.end_line,
        "end_column": p.end_column,
        "message": label.message,
        "primary": primary,
    })
}

pub fn to_json(diagnostic: &Diagnostic, sources: &SourceMap) -> Value {
    let p = position(&diagnostic.primary, sources);
    let mut labels = vec![label_json(&diagnostic.primary, true, sources)];
    labels.extend(diagnostic.secondary.iter().map(|l| label_json(l, false, sources)));
    json!({
        "code": diagnostic.code,
        "severity": diagnostic.severity,
        "message": diagnostic.message,
        "file": p.file,
        "line": p.line,
        "column": p.column,
        "end_line": p.end_line,
        "end_column": p.end_column,
        "labels": labels,
        "notes": diagnostic.notes,
        "suggestions": diagnostic
            .suggestions
            .iter()
            .map(|suggestion| {
                let at = label_json(
                    &Label {
                        span: suggestion.span,
                        message: String::new(),
                    },
                    true,
                    sources,
                );
                json!({
                    "file": at["file"],
                    "line": at["line"],
                    "column": at["column"],
                    "end_line": at["end_line"],
                    "end_column": at["end_column"],
                    "replacement": suggestion.replacement,
                })
            })
            .collect::<Vec<_>>(),
    })
}

/// One diagnostic as a single line of JSON (no trailing newline).
pub fn to_json_line(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    to_json(diagnostic, sources).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{SourceFile, Span};

    #[test]
    fn one_line_with_positions() {
        let mut sources = SourceMap::default();
        let file = sources.add(SourceFile::new(
            "n.blink".into(),
            "n.blink".into(),
            "x\ntype A = Q\n".into(),
        ));
        let diagnostic = Diagnostic::error("E3001", "unknown type `Q`", Span::new(file, 11, 12), "not declared");
        let line = to_json_line(&diagnostic, &sources);
        assert!(!line.contains('\n'));
        let value: Value = serde_json::from_str(&line).expect("valid JSON");
        assert_eq!(value["code"], "E3001");
        assert_eq!(value["severity"], "error");
        assert_eq!(value["line"], 2);
        assert_eq!(value["column"], 10);
        assert_eq!(value["end_column"], 11);
        assert_eq!(value["labels"][0]["primary"], true);
    }
}
