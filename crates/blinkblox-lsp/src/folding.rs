//! Folding: blocks in braces that span lines, runs of comments and block comments, and
//! runs of imports.

use blinkblox_schema::lexer::{Lexer, TokenKind};
use blinkblox_schema::source::FileId;
use lsp_types::{FoldingRange, FoldingRangeKind};

use crate::positions::LineIndex;

pub fn folding_ranges(text: &str, lines: &LineIndex) -> Vec<FoldingRange> {
    let mut ranges = Vec::new();
    let mut lexer = Lexer::new(FileId(0), text);
    let mut sink = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        let token = lexer.next_token(&mut sink);
        // Lexical errors do not change where the braces are; do not keep them.
        sink.clear();
        let line = lines.line_of(token.span.start);
        match token.kind {
            TokenKind::Eof => break,
            TokenKind::LBrace => open.push(line),
            TokenKind::RBrace => {
                if let Some(start) = open.pop()
                    && line > start + 1
                {
                    ranges.push(fold(start, line - 1, None));
                }
            }
            _ => {}
        }
    }
    let mut runs = Runs::default();
    for comment in blinkblox_fmt::comments(text) {
        let (start, end) = (lines.line_of(comment.start), lines.line_of(comment.end));
        if end > start {
            ranges.push(fold(start, end, Some(FoldingRangeKind::Comment)));
            continue;
        }
        let line_start = lines.line_start(start) as usize;
        let own_line = text[line_start..comment.start as usize].trim().is_empty();
        if own_line {
            runs.add(start, FoldingRangeKind::Comment, &mut ranges);
        }
    }
    runs.finish(&mut ranges);
    for (line, text) in text.lines().enumerate() {
        let trimmed = text.trim_start();
        if trimmed.starts_with("import ") || trimmed.starts_with("import\"") {
            runs.add(line, FoldingRangeKind::Imports, &mut ranges);
        }
    }
    runs.finish(&mut ranges);
    ranges.sort_by_key(|range| (range.start_line, range.end_line));
    ranges
}

/// Consecutive lines of one kind.
#[derive(Default)]
struct Runs {
    current: Option<(usize, usize, FoldingRangeKind)>,
}

impl Runs {
    fn add(&mut self, line: usize, kind: FoldingRangeKind, out: &mut Vec<FoldingRange>) {
        self.current = match self.current.take() {
            Some((first, last, current)) if line == last + 1 && current == kind => Some((first, line, kind)),
            previous => {
                self.current = previous;
                self.finish(out);
                Some((line, line, kind))
            }
        };
    }

    fn finish(&mut self, out: &mut Vec<FoldingRange>) {
        if let Some((first, last, kind)) = self.current.take()
            && last > first
        {
            out.push(fold(first, last, Some(kind)));
        }
    }
}

fn fold(start: usize, end: usize, kind: Option<FoldingRangeKind>) -> FoldingRange {
    FoldingRange {
        start_line: start as u32,
        end_line: end as u32,
        kind,
        ..FoldingRange::default()
    }
}
