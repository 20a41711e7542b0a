//! zap's tokens, produced on demand: words, numbers, strings and punctuation. Whitespace is
//! skipped; comments (`-- line` and `--[[ block ]]`) are kept aside with their spans, so the
//! translation can carry a declaration's comments into the `.blink` file.
//!
//! Lexical errors (stray characters, unterminated strings and comments) are reported and
//! lexing goes on after them; a run of stray characters is reported once.

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::{FileId, Span};

use crate::codes;
use blinkblox_schema::scan::{self, CommentScan, StringScan};

/// zap's tokens are the schema language's (`Ident` for zap's names and keywords alike; zap
/// adds `;` and `|`, and has no `<` or `>`).
pub use blinkblox_schema::lexer::TokenKind;

/// A comment as written, `--` included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    /// Nothing but whitespace before it on its line: it describes what follows. Otherwise it
    /// ends the line of the token before it.
    pub own_line: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// The comments between the previous token and this one: indices into
    /// [`Lexer::comments`], `start..end`.
    pub comments: (u32, u32),
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    file: FileId,
    comments: Vec<Comment>,
}

impl<'a> Lexer<'a> {
    pub fn new(file: FileId, text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            file,
            comments: Vec::new(),
        }
    }

    pub fn comments(&self) -> &[Comment] {
        &self.comments
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// True when only spaces and tabs separate `at` from the start of its line (or the file).
    fn starts_line(&self, at: usize) -> bool {
        self.bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace())
    }

    /// Skips whitespace and comments, recording the comments.
    fn skip_trivia(&mut self, diagnostics: &mut Vec<Diagnostic>) {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if !trimmed.starts_with("--") {
                return;
            }
            let start = self.pos;
            let own_line = self.starts_line(start);
            self.pos = match scan::comment(self.text, start) {
                CommentScan::Line(end) | CommentScan::Block(end) => end,
                CommentScan::OpenBlock { open_end, level } => {
                    diagnostics.push(
                        Diagnostic::error(
                            codes::UNTERMINATED_COMMENT,
                            "this block comment is never closed",
                            self.span(start, open_end),
                            "opened here",
                        )
                        .with_note(format!("close it with `{}`", scan::closing_bracket(level))),
                    );
                    self.text.len()
                }
            };
            self.comments.push(Comment {
                span: self.span(start, self.pos),
                own_line,
            });
        }
    }

    pub fn next(&mut self, diagnostics: &mut Vec<Diagnostic>) -> Token {
        loop {
            let first_comment = self.comments.len() as u32;
            self.skip_trivia(diagnostics);
            let comments = (first_comment, self.comments.len() as u32);
            let start = self.pos;
            let token = |kind, end| Token {
                kind,
                span: Span::new(self.file, start, end),
                comments,
            };
            let Some(&byte) = self.bytes.get(start) else {
                return token(TokenKind::Eof, start);
            };
            let single = match byte {
                b'{' => Some(TokenKind::LBrace),
                b'}' => Some(TokenKind::RBrace),
                b'(' => Some(TokenKind::LParen),
                b')' => Some(TokenKind::RParen),
                b'[' => Some(TokenKind::LBracket),
                b']' => Some(TokenKind::RBracket),
                b':' => Some(TokenKind::Colon),
                b'=' => Some(TokenKind::Equals),
                b',' => Some(TokenKind::Comma),
                b';' => Some(TokenKind::Semicolon),
                b'?' => Some(TokenKind::Question),
                b'|' => Some(TokenKind::Pipe),
                _ => None,
            };
            if let Some(kind) = single {
                self.pos += 1;
                return token(kind, self.pos);
            }
            if byte == b'.' {
                let double = self.bytes.get(start + 1) == Some(&b'.');
                self.pos += if double { 2 } else { 1 };
                let kind = if double { TokenKind::DotDot } else { TokenKind::Dot };
                return token(kind, self.pos);
            }
            if scan::starts_word(byte) {
                self.pos = scan::word_end(self.bytes, start);
                return token(TokenKind::Ident, self.pos);
            }
            if scan::starts_number(self.bytes, start) {
                // Letters glued to a number start a name of their own, as zap reads them.
                self.pos = scan::number(self.bytes, start).end;
                return token(TokenKind::Number, self.pos);
            }
            if byte == b'"' || byte == b'\'' {
                match scan::string(self.bytes, start) {
                    StringScan::Closed(end) => {
                        self.pos = end;
                        return token(TokenKind::String, self.pos);
                    }
                    StringScan::Open(end) => {
                        diagnostics.push(
                            Diagnostic::error(
                                codes::UNTERMINATED_STRING,
                                "this string is not closed on its line",
                                self.span(start, end),
                                "unterminated string",
                            )
                            .with_note(format!("end it with {} before the line ends", byte as char)),
                        );
                        self.pos = end;
                        continue;
                    }
                }
            }
            // A run of characters that start no token, reported once.
            let mut end = start;
            while end < self.text.len() && !self.starts_token(end) {
                end += self.text[end..].chars().next().map_or(1, char::len_utf8);
            }
            let shown: String = self.text[start..end].chars().take(16).collect();
            diagnostics.push(
                Diagnostic::error(
                    codes::STRAY_CHARACTER,
                    format!("`{shown}` is not part of zap's language"),
                    self.span(start, end),
                    "unexpected character",
                )
                .with_note("remove it; zap comments start with `--`"),
            );
            self.pos = end;
        }
    }

    /// Whether a token, a comment or whitespace can start at `at`.
    fn starts_token(&self, at: usize) -> bool {
        let byte = self.bytes[at];
        if byte == b'-' {
            let next = self.bytes.get(at + 1);
            return next == Some(&b'-') || next.is_some_and(u8::is_ascii_digit);
        }
        byte.is_ascii_alphanumeric()
            || byte.is_ascii_whitespace()
            || b"{}()[]:=,;?|._\"'".contains(&byte)
            || self.text[at..].starts_with(char::is_whitespace)
    }
}

/// The text of a string token, without its quotes.
pub fn string_value(raw: &str) -> &str {
    raw.get(1..raw.len().saturating_sub(1)).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Vec<TokenKind>, usize) {
        let mut lexer = Lexer::new(FileId(0), text);
        let mut diagnostics = Vec::new();
        let mut out = Vec::new();
        loop {
            let token = lexer.next(&mut diagnostics);
            if token.kind == TokenKind::Eof {
                return (out, diagnostics.len());
            }
            out.push(token.kind);
        }
    }

    #[test]
    fn ranges_split_around_the_dots() {
        use TokenKind::*;
        assert_eq!(
            kinds("u8(0..100) f32(-1.5..2)"),
            (
                vec![
                    Ident, LParen, Number, DotDot, Number, RParen, Ident, LParen, Number, DotDot, Number, RParen
                ],
                0
            )
        );
    }

    #[test]
    fn a_block_comment_with_equals_signs_is_one_comment() {
        let text = "--[==[ a ]] b\n]==] type";
        let mut lexer = Lexer::new(FileId(0), text);
        let mut diagnostics = Vec::new();
        let token = lexer.next(&mut diagnostics);
        assert_eq!(&text[token.span.start as usize..token.span.end as usize], "type");
        assert_eq!(lexer.comments().len(), 1);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn comments_are_kept_with_the_next_token() {
        let text = "-- lead\nopt a = 1 -- trail\n--[[ block ]] type";
        let mut lexer = Lexer::new(FileId(0), text);
        let mut diagnostics = Vec::new();
        let first = lexer.next(&mut diagnostics);
        assert_eq!(first.comments, (0, 1));
        let mut last = first;
        while last.kind != TokenKind::Eof {
            last = lexer.next(&mut diagnostics);
            if &text[last.span.start as usize..last.span.end as usize] == "type" {
                break;
            }
        }
        assert_eq!(last.comments, (1, 3));
        let comments = lexer.comments();
        assert!(comments[0].own_line && !comments[1].own_line && comments[2].own_line);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn bad_input_is_reported_and_skipped() {
        let (tokens, errors) = kinds("type @@@ = \"open\nu8 --[[ never closed");
        assert_eq!(tokens, vec![TokenKind::Ident, TokenKind::Equals, TokenKind::Ident]);
        assert_eq!(errors, 3);
    }
}
