//! The lexer: source text → tokens, on demand.
//!
//! Tokens carry only a kind and a span; their text is sliced from the source when the
//! parser needs it. That keeps a token at 16 bytes and lets the parser pull tokens one
//! at a time, so a 10 MB file of garbage never becomes a 10-million-entry vector.
//!
//! Lexical errors (stray characters, unterminated strings and comments, malformed
//! numbers) are pushed to the diagnostics list and lexing continues after them. A run
//! of stray characters is reported once. Once the list holds the parser's error cap
//! ([`MAX_ERRORS`]), the file ends there: nothing after it could be shown.

use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::scan::{self, CommentScan, StringScan};
use crate::source::{FileId, Span};

/// Diagnostics per file before lexing and parsing give up.
pub const MAX_ERRORS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// `[A-Za-z_][A-Za-z0-9_]*`; keywords are identifiers too (they are contextual).
    Ident,
    /// `-?digits[.digits]`.
    Number,
    /// `"…"` or `'…'` on one line; the span includes the quotes.
    String,
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Less,
    Greater,
    Colon,
    Equals,
    Comma,
    /// `;` and `|`: zap's, never produced for a schema.
    Semicolon,
    Pipe,
    Question,
    Dot,
    DotDot,
    /// `/`, in a number type's step: `step 1/64`.
    Slash,
    Eof,
}

impl TokenKind {
    /// How the token is named in "expected …, found …" messages.
    pub fn describe(self) -> &'static str {
        match self {
            TokenKind::Ident => "a name",
            TokenKind::Number => "a number",
            TokenKind::String => "a string",
            TokenKind::LBrace => "`{`",
            TokenKind::RBrace => "`}`",
            TokenKind::LParen => "`(`",
            TokenKind::RParen => "`)`",
            TokenKind::LBracket => "`[`",
            TokenKind::RBracket => "`]`",
            TokenKind::Less => "`<`",
            TokenKind::Greater => "`>`",
            TokenKind::Colon => "`:`",
            TokenKind::Equals => "`=`",
            TokenKind::Comma => "`,`",
            TokenKind::Semicolon => "`;`",
            TokenKind::Pipe => "`|`",
            TokenKind::Question => "`?`",
            TokenKind::Dot => "`.`",
            TokenKind::DotDot => "`..`",
            TokenKind::Slash => "`/`",
            TokenKind::Eof => "the end of the file",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    file: FileId,
}

impl<'a> Lexer<'a> {
    pub fn new(file: FileId, text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            file,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// The next token; lexical errors found on the way are appended to `diagnostics`.
    pub fn next_token(&mut self, diagnostics: &mut Vec<Diagnostic>) -> Token {
        loop {
            if diagnostics.len() >= MAX_ERRORS {
                self.pos = self.bytes.len();
                return self.token(TokenKind::Eof, self.pos);
            }
            self.skip_whitespace();
            let start = self.pos;
            let Some(&byte) = self.bytes.get(start) else {
                return Token {
                    kind: TokenKind::Eof,
                    span: self.span(start, start),
                };
            };
            if scan::starts_comment(self.bytes, start) {
                self.skip_comment(diagnostics);
                continue;
            }
            let kind = match byte {
                b'{' => TokenKind::LBrace,
                b'}' => TokenKind::RBrace,
                b'(' => TokenKind::LParen,
                b')' => TokenKind::RParen,
                b'[' => TokenKind::LBracket,
                b']' => TokenKind::RBracket,
                b'<' => TokenKind::Less,
                b'>' => TokenKind::Greater,
                b':' => TokenKind::Colon,
                b'=' => TokenKind::Equals,
                b',' => TokenKind::Comma,
                b'?' => TokenKind::Question,
                b'/' => TokenKind::Slash,
                b'.' => {
                    if self.bytes.get(start + 1) == Some(&b'.') {
                        self.pos += 2;
                        return self.token(TokenKind::DotDot, start);
                    }
                    TokenKind::Dot
                }
                b'"' | b'\'' => return self.string(byte, diagnostics),
                _ if scan::starts_number(self.bytes, start) => return self.number(diagnostics),
                b if scan::starts_word(b) => {
                    self.pos = scan::word_end(self.bytes, start);
                    return self.token(TokenKind::Ident, start);
                }
                _ => {
                    self.stray_characters(diagnostics);
                    continue;
                }
            };
            self.pos += 1;
            return self.token(kind, start);
        }
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            span: self.span(start, self.pos),
        }
    }

    fn skip_whitespace(&mut self) {
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    /// `-- line`, `--[[ block ]]`, `--[==[ block ]==]`.
    fn skip_comment(&mut self, diagnostics: &mut Vec<Diagnostic>) {
        let start = self.pos;
        self.pos = match scan::comment(self.text, start) {
            CommentScan::Line(end) | CommentScan::Block(end) => end,
            CommentScan::OpenBlock { open_end, level } => {
                diagnostics.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_COMMENT,
                        "unterminated block comment",
                        self.span(start, open_end),
                        "this comment is never closed",
                    )
                    .with_note(format!("close the comment with `{}`", scan::closing_bracket(level))),
                );
                self.bytes.len()
            }
        };
    }

    fn string(&mut self, quote: u8, diagnostics: &mut Vec<Diagnostic>) -> Token {
        let start = self.pos;
        match scan::string(self.bytes, start) {
            StringScan::Closed(end) => {
                self.pos = end;
                self.token(TokenKind::String, start)
            }
            StringScan::Open(end) => {
                let line_end = if end > start && self.bytes[end - 1] == b'\r' {
                    end - 1
                } else {
                    end
                };
                diagnostics.push(
                    Diagnostic::error(
                        codes::UNTERMINATED_STRING,
                        "unterminated string",
                        self.span(start, line_end.max(start + 1)),
                        "this string is never closed",
                    )
                    .with_note(format!(
                        "add the closing `{}` before the end of the line",
                        quote as char
                    )),
                );
                // The string ends at the line end: the parser sees it and recovers.
                self.pos = end;
                self.token(TokenKind::String, start)
            }
        }
    }

    fn number(&mut self, diagnostics: &mut Vec<Diagnostic>) -> Token {
        let start = self.pos;
        let scanned = scan::number(self.bytes, start);
        self.pos = scanned.glued_end.unwrap_or(scanned.end);
        if scanned.glued_end.is_some() {
            diagnostics.push(
                Diagnostic::error(
                    codes::INVALID_NUMBER,
                    format!("invalid number `{}`", &self.text[start..self.pos]),
                    self.span(start, self.pos),
                    "not a number",
                )
                .with_note("numbers are written as digits with an optional sign and decimal part, such as `-12.5`; there is no exponent or hex form"),
            );
        }
        self.token(TokenKind::Number, start)
    }

    /// Skips a run of characters that start no token and reports it once.
    fn stray_characters(&mut self, diagnostics: &mut Vec<Diagnostic>) {
        let start = self.pos;
        while let Some(c) = self.text[self.pos..].chars().next() {
            let starts_token = c.is_ascii_alphanumeric()
                || c.is_ascii_whitespace()
                || "{}()[]<>:=,?.\"'_".contains(c)
                || (c == '-'
                    && self
                        .bytes
                        .get(self.pos + 1)
                        .is_some_and(|&b| b == b'-' || b.is_ascii_digit()));
            if starts_token && self.pos > start {
                break;
            }
            self.pos += c.len_utf8();
        }
        let text = &self.text[start..self.pos];
        let shown: String = text.chars().take(16).collect();
        let message = if text.chars().count() == 1 {
            format!("unexpected character `{}`", shown.escape_debug())
        } else {
            format!("unexpected characters `{}`", shown.escape_debug())
        };
        diagnostics.push(
            Diagnostic::error(
                codes::STRAY_CHARACTER,
                message,
                self.span(start, self.pos),
                "not part of the language",
            )
            .with_note("remove it; comments start with `--`"),
        );
    }
}

/// The text of a string token without its quotes (an unterminated one has no closing
/// quote to drop).
pub fn string_value(text: &str) -> &str {
    let inner = text.get(1..).unwrap_or("");
    let quote = text.as_bytes().first().copied();
    match inner.as_bytes().last() {
        Some(&last) if Some(last) == quote && !inner.is_empty() => &inner[..inner.len() - 1],
        _ => inner.trim_end_matches('\r'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Vec<TokenKind>, Vec<Diagnostic>) {
        let mut lexer = Lexer::new(FileId(0), text);
        let mut diagnostics = Vec::new();
        let mut out = Vec::new();
        loop {
            let token = lexer.next_token(&mut diagnostics);
            if token.kind == TokenKind::Eof {
                return (out, diagnostics);
            }
            out.push(token.kind);
        }
    }

    #[test]
    fn ranges_and_numbers() {
        let (tokens, diagnostics) = kinds("u8(-1..2.5) [..] x.y");
        use TokenKind::*;
        assert_eq!(
            tokens,
            vec![
                Ident, LParen, Number, DotDot, Number, RParen, LBracket, DotDot, RBracket, Ident, Dot, Ident
            ]
        );
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn comments_and_errors() {
        let (tokens, diagnostics) = kinds("a -- c\n--[==[ x ]] ]==] b @@ 'open\n1e3");
        assert_eq!(tokens.len(), 4);
        let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            vec![
                codes::STRAY_CHARACTER,
                codes::UNTERMINATED_STRING,
                codes::INVALID_NUMBER
            ]
        );
    }

    #[test]
    fn lexing_stops_at_the_error_cap() {
        let text = "@ ".repeat(100_000);
        let (tokens, diagnostics) = kinds(&text);
        assert!(tokens.is_empty());
        assert_eq!(diagnostics.len(), MAX_ERRORS);
    }

    #[test]
    fn string_values() {
        assert_eq!(string_value("\"a b\""), "a b");
        assert_eq!(string_value("'open"), "open");
        assert_eq!(string_value("\""), "");
    }
}
