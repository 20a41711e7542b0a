//! Human rendering, in the style of rustc:
//!
//! ```text
//! error[E3001]: unknown type `Helth`
//!  --> net.blink:4:9
//!   |
//! 4 |     hp: Helth,
//!   |         ^^^^^ not declared
//!   |
//!   = help: did you mean `Health`?
//! ```
//!
//! Primary labels are underlined with `^`, secondary ones with `-`; labels in another
//! file get their own `::: file:line:col` header. Colour is optional and decided by
//! the caller ([`color_wanted`] for the usual rule).

use std::io::IsTerminal;

use unicode_width::UnicodeWidthChar;

use crate::diagnostics::{Diagnostic, Label, Severity};
use crate::source::{SourceFile, SourceMap};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const CYAN: &str = "\x1b[1;36m";

/// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
pub fn color_wanted() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stdout().is_terminal()
}

struct Style {
    on: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}

/// Renders diagnostics one after another, each followed by a blank line.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&render(diagnostic, sources, color));
        out.push('\n');
    }
    out
}

/// Renders one diagnostic (ending with a newline).
pub fn render(diagnostic: &Diagnostic, sources: &SourceMap, color: bool) -> String {
    let style = Style { on: color };
    let (word, severity_color) = match diagnostic.severity {
        Severity::Error => ("error", RED),
        Severity::Warning => ("warning", YELLOW),
    };
    let mut out = String::new();
    out.push_str(&style.paint(severity_color, &format!("{word}[{}]", diagnostic.code)));
    out.push_str(&style.paint(BOLD, &format!(": {}", diagnostic.message)));
    out.push('\n');

    // Group labels by file: the primary label's file first, in label order.
    let mut labels: Vec<(&Label, bool)> = vec![(&diagnostic.primary, true)];
    labels.extend(diagnostic.secondary.iter().map(|l| (l, false)));
    let mut files: Vec<u32> = Vec::new();
    for (label, _) in &labels {
        if !files.contains(&label.span.file.0) {
            files.push(label.span.file.0);
        }
    }
    let max_line = labels
        .iter()
        .filter_map(|(label, _)| file_of(sources, label).map(|f| f.line_col(label.span.start).0))
        .max()
        .unwrap_or(1);
    let width = max_line.to_string().len();
    let gutter = " ".repeat(width);

    for (index, &file_id) in files.iter().enumerate() {
        let in_file: Vec<(&Label, bool)> = labels
            .iter()
            .copied()
            .filter(|(l, _)| l.span.file.0 == file_id)
            .collect();
        let Some(file) = in_file.first().and_then(|(label, _)| file_of(sources, label)) else {
            continue;
        };
        let anchor = in_file.iter().find(|(_, primary)| *primary).unwrap_or(&in_file[0]).0;
        let (line, column) = file.line_col(anchor.span.start);
        let arrow = if index == 0 { "-->" } else { ":::" };
        out.push_str(&format!(
            "{gutter}{} {}:{line}:{column}\n",
            style.paint(BLUE, arrow),
            file.name
        ));
        out.push_str(&format!("{gutter} {}\n", style.paint(BLUE, "|")));

        let mut lines: Vec<usize> = in_file.iter().map(|(l, _)| file.line_col(l.span.start).0).collect();
        lines.sort_unstable();
        lines.dedup();
        let mut previous: Option<usize> = None;
        for line in lines {
            if previous.is_some_and(|p| line > p + 1) {
                out.push_str(&format!("{}\n", style.paint(BLUE, "...")));
            }
            previous = Some(line);
            let mut on_line: Vec<(&Label, bool)> = in_file
                .iter()
                .copied()
                .filter(|(l, _)| file.line_col(l.span.start).0 == line)
                .collect();
            on_line.sort_by_key(|(l, _)| l.span.start);
            let full_text = file.line_text(line).replace('\t', " ");
            let first_col = on_line.first().map_or(1, |(l, _)| file.line_col(l.span.start).1);
            let window = Window::around(&full_text, first_col);
            out.push_str(&format!(
                "{} {} {}\n",
                style.paint(BLUE, &format!("{line:>width$}")),
                style.paint(BLUE, "|"),
                window.text
            ));
            for (label, primary) in on_line {
                let (start_col, end_col) = columns(file, label, line, &full_text);
                let (start_col, end_col) = window.shift(start_col, end_col);
                let marker = if primary { "^" } else { "-" };
                let color = if !primary {
                    BLUE
                } else if diagnostic.severity == Severity::Error {
                    RED
                } else {
                    YELLOW
                };
                // Columns count characters; the terminal shows some (CJK, emoji) two
                // cells wide, so the padding and the underline are measured in cells.
                let pad = display_width(&window.text, 0, start_col - 1);
                let underline = marker.repeat(display_width(&window.text, start_col - 1, end_col - 1).max(1));
                let message = if label.message.is_empty() {
                    String::new()
                } else {
                    format!(" {}", label.message)
                };
                out.push_str(&format!(
                    "{gutter} {} {}{}\n",
                    style.paint(BLUE, "|"),
                    " ".repeat(pad),
                    style.paint(color, &format!("{underline}{message}"))
                ));
            }
        }
    }
    if !diagnostic.notes.is_empty() {
        out.push_str(&format!("{gutter} {}\n", style.paint(BLUE, "|")));
        for note in &diagnostic.notes {
            out.push_str(&format!(
                "{gutter} {} {} {note}\n",
                style.paint(BLUE, "="),
                style.paint(CYAN, "help:")
            ));
        }
    }
    out
}

/// Longest source line shown whole; longer lines are cut to a window around the
/// first label (a 10 000-level nesting is one line of 170 000 characters).
const MAX_LINE_CHARS: usize = 120;

/// The part of a long line that is shown, and how columns move because of the cut.
struct Window {
    text: String,
    /// Characters cut from the start.
    skipped: usize,
    /// Characters added in front (`...`).
    prefix: usize,
    /// One past the last shown column of the original line.
    end_col: usize,
}

impl Window {
    fn around(line: &str, first_col: usize) -> Window {
        let count = line.chars().count();
        if count <= MAX_LINE_CHARS {
            return Window {
                text: line.to_string(),
                skipped: 0,
                prefix: 0,
                end_col: count + 2,
            };
        }
        let skipped = first_col.saturating_sub(1).saturating_sub(MAX_LINE_CHARS / 3);
        let shown: String = line.chars().skip(skipped).take(MAX_LINE_CHARS).collect();
        let prefix = if skipped > 0 { 3 } else { 0 };
        let mut text = String::new();
        if skipped > 0 {
            text.push_str("...");
        }
        text.push_str(&shown);
        if skipped + MAX_LINE_CHARS < count {
            text.push_str("...");
        }
        Window {
            text,
            skipped,
            prefix,
            end_col: skipped + MAX_LINE_CHARS + 1,
        }
    }

    /// Maps original 1-based columns to shown ones (at least one caret wide).
    fn shift(&self, start: usize, end: usize) -> (usize, usize) {
        let start = start.clamp(self.skipped + 1, self.end_col.saturating_sub(1).max(self.skipped + 1));
        let end = end.min(self.end_col).max(start + 1);
        (start - self.skipped + self.prefix, end - self.skipped + self.prefix)
    }
}

/// Terminal cells taken by characters `from..to` (0-based) of `text`; a position past its
/// end (a label at the end of the line) takes one cell.
fn display_width(text: &str, from: usize, to: usize) -> usize {
    let shown: usize = text
        .chars()
        .skip(from)
        .take(to.saturating_sub(from))
        .map(|c| UnicodeWidthChar::width(c).unwrap_or(1))
        .sum();
    let past_end = to.saturating_sub(from.max(text.chars().count()));
    shown + past_end
}

fn file_of<'a>(sources: &'a SourceMap, label: &Label) -> Option<&'a SourceFile> {
    sources.files().get(label.span.file.0 as usize)
}

/// 1-based start and exclusive end columns of a label's underline on `line` (a span
/// running past the line is cut at its end; an empty span still gets one caret).
fn columns(file: &SourceFile, label: &Label, line: usize, text: &str) -> (usize, usize) {
    let (_, start_col) = file.line_col(label.span.start);
    let (end_line, end_col) = file.line_col(label.span.end);
    let line_end_col = text.chars().count() + 1;
    let end_col = if end_line > line { line_end_col } else { end_col };
    let end_col = end_col.max(start_col + 1);
    (start_col, end_col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, SourceFile, Span};

    #[test]
    fn underlines_wide_characters_by_the_cells_they_take() {
        let mut sources = SourceMap::default();
        // `日本` is two characters of three bytes, each two cells wide.
        let text = "type 日本 = Nope\n";
        let file = sources.add(SourceFile::new("w.blink".into(), "w.blink".into(), text.into()));
        let start = text.find("Nope").expect("Nope");
        let diagnostic = Diagnostic::error(
            "E3001",
            "unknown type `Nope`",
            Span::new(file, start, start + 4),
            "here",
        );
        let rendered = render(&diagnostic, &sources, false);
        assert!(
            rendered.contains("1 | type 日本 = Nope\n  |             ^^^^ here\n"),
            "{rendered}"
        );
        let on_name = Diagnostic::error("E3001", "odd name", Span::new(file, 5, 11), "name");
        let rendered = render(&on_name, &sources, false);
        assert!(rendered.contains("  |      ^^^^ name\n"), "{rendered}");
    }

    #[test]
    fn renders_primary_and_secondary_labels() {
        let mut sources = SourceMap::default();
        let file = sources.add(SourceFile::new(
            "a.blink".into(),
            "a.blink".into(),
            "type A = u8\ntype A = u16\n".into(),
        ));
        let diagnostic = Diagnostic::error("E3002", "type `A` is declared twice", Span::new(file, 17, 18), "again")
            .with_secondary(Span::new(FileId(0), 5, 6), "first")
            .with_note("rename one");
        let text = render(&diagnostic, &sources, false);
        let expected = "error[E3002]: type `A` is declared twice\n --> a.blink:2:6\n  |\n1 | type A = u8\n  |      - first\n2 | type A = u16\n  |      ^ again\n  |\n  = help: rename one\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn colour_codes_only_when_asked() {
        let mut sources = SourceMap::default();
        let file = sources.add(SourceFile::new("a".into(), "a".into(), String::new()));
        let diagnostic = Diagnostic::warning("W4003", "empty", Span::new(file, 0, 0), "here");
        assert!(!render(&diagnostic, &sources, false).contains('\x1b'));
        assert!(render(&diagnostic, &sources, true).contains('\x1b'));
    }
}
