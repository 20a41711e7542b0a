//! The parser: zap tokens → [`syntax::File`], recovering at declaration boundaries.
//!
//! Recursive descent over zap 0.6's grammar (options first, then `type`, `event`, `funct`
//! and `namespace` declarations). It is lenient where leniency cannot change a meaning
//! (event and function fields in any order, `;` after any declaration) and reports every
//! independent error: a malformed declaration is reported and skipped to the next
//! declaration keyword at the same brace depth. A depth limit keeps deeply nested input
//! from overflowing the stack, and an error cap keeps garbage from producing millions of
//! diagnostics.

mod decls;
mod types;

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::parser::queue::{QueuedToken, TokenQueue};
use blinkblox_schema::source::{FileId, Span};

use crate::codes;
use crate::lexer::{Lexer, Token, TokenKind, string_value};
use crate::syntax::{self, Comments, Name};

/// Deepest nesting of types and namespaces.
pub const MAX_DEPTH: usize = 48;
/// Diagnostics before reading stops.
pub const MAX_ERRORS: usize = 100;

/// An error was reported; the caller recovers.
#[derive(Debug)]
pub(crate) struct Recover;

pub(crate) type Parsed<T> = Result<T, Recover>;

/// Words that start a declaration (or an option).
const DECL_KEYWORDS: &[&str] = &["opt", "type", "event", "funct", "namespace"];

/// Parses a zap file. The diagnostics include the lexer's.
pub fn parse(file: FileId, text: &str) -> (syntax::File, Vec<Diagnostic>) {
    let mut parser = Parser::new(file, text);
    let parsed = parser.file();
    (parsed, parser.diagnostics)
}

pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    text: &'a str,
    file: FileId,
    queue: TokenQueue<Token>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    depth: usize,
    gave_up: bool,
}

impl<'a> Parser<'a> {
    fn new(file: FileId, text: &'a str) -> Parser<'a> {
        Parser {
            lexer: Lexer::new(file, text),
            text,
            file,
            queue: TokenQueue::default(),
            diagnostics: Vec::new(),
            depth: 0,
            gave_up: false,
        }
    }

    // ---- tokens ----

    pub(crate) fn peek_at(&mut self, n: usize) -> Token {
        while self.queue.len() <= n {
            let token = if self.gave_up {
                let end = self.text.len();
                Token {
                    kind: TokenKind::Eof,
                    span: Span::new(self.file, end, end),
                    comments: (0, 0),
                }
            } else {
                self.lexer.next(&mut self.diagnostics)
            };
            self.queue.push(token);
            self.check_error_cap();
        }
        self.queue.get(n)
    }

    pub(crate) fn peek(&mut self) -> Token {
        self.peek_at(0)
    }

    pub(crate) fn bump(&mut self) -> Token {
        self.peek();
        self.queue.bump()
    }

    pub(crate) fn text_of(&self, token: Token) -> &'a str {
        &self.text[token.span.start as usize..token.span.end as usize]
    }

    pub(crate) fn at(&mut self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    pub(crate) fn at_word(&mut self, word: &str) -> bool {
        let token = self.peek();
        token.kind == TokenKind::Ident && self.text_of(token) == word
    }

    pub(crate) fn eat(&mut self, kind: TokenKind) -> bool {
        let found = self.at(kind);
        if found {
            self.bump();
        }
        found
    }

    pub(crate) fn span_from(&self, start: u32) -> Span {
        Span {
            file: self.file,
            start,
            end: self.queue.previous_end().max(start),
        }
    }

    pub(crate) fn expect(&mut self, kind: TokenKind, what: &str) -> Parsed<Token> {
        if self.at(kind) {
            return Ok(self.bump());
        }
        Err(self.unexpected(what))
    }

    /// Reports "expected `what`, found …" at the next token.
    pub(crate) fn unexpected(&mut self, what: &str) -> Recover {
        let token = self.peek();
        let found = match token.kind {
            TokenKind::Ident | TokenKind::Number | TokenKind::String => format!("`{}`", self.text_of(token)),
            kind => kind.describe().to_string(),
        };
        self.error(
            Diagnostic::error(
                codes::UNEXPECTED_TOKEN,
                format!("expected {what}, found {found}"),
                token.span,
                format!("expected {what}"),
            )
            .with_note("zap 0.6 syntax: see `docs/migrating.md` for the constructs BlinkBlox reads"),
        );
        Recover
    }

    pub(crate) fn error(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
        self.check_error_cap();
    }

    fn check_error_cap(&mut self) {
        let errors = self.diagnostics.iter().filter(|d| d.is_error()).count();
        if errors >= MAX_ERRORS && !self.gave_up {
            self.gave_up = true;
            let end = self.text.len();
            self.diagnostics.push(
                Diagnostic::error(
                    codes::TOO_MANY_ERRORS,
                    format!("more than {MAX_ERRORS} errors: stopped reading"),
                    Span::new(self.file, end, end),
                    "the rest of the file was not read",
                )
                .with_note("fix the errors above and run the import again"),
            );
            self.queue.clear();
        }
    }

    /// A name (any word; zap's keywords are names where a name is expected).
    pub(crate) fn name(&mut self, what: &str) -> Parsed<Name> {
        let token = self.expect(TokenKind::Ident, what)?;
        Ok(Name {
            text: self.text_of(token).to_string(),
            span: token.span,
            quoted: false,
        })
    }

    /// A name or a quoted key: struct fields, enumerators and variants.
    pub(crate) fn key(&mut self, what: &str) -> Parsed<Name> {
        if self.at(TokenKind::String) {
            let token = self.bump();
            return Ok(Name {
                text: string_value(self.text_of(token)).to_string(),
                span: token.span,
                quoted: true,
            });
        }
        self.name(what)
    }

    // ---- comments ----

    /// The own-line comments before `token`: they describe what it starts.
    pub(crate) fn leading_comments(&self, token: Token) -> Vec<Span> {
        let (start, end) = token.comments;
        self.lexer.comments()[start as usize..end as usize]
            .iter()
            .filter(|comment| comment.own_line)
            .map(|comment| comment.span)
            .collect()
    }

    /// The comment that ends the line of the item just parsed: the first comment before the
    /// next token, if it is on the same line.
    pub(crate) fn trailing_comment(&mut self) -> Option<Span> {
        let next = self.peek();
        let (start, end) = next.comments;
        self.lexer.comments()[start as usize..end as usize]
            .first()
            .filter(|comment| !comment.own_line)
            .map(|comment| comment.span)
    }

    pub(crate) fn comments_for(&mut self, first: Token) -> Comments {
        Comments {
            leading: self.leading_comments(first),
            trailing: self.trailing_comment(),
        }
    }

    // ---- nesting ----

    pub(crate) fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> Parsed<T>) -> Parsed<T> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        self.depth += 1;
        let result = parse(self);
        self.depth -= 1;
        result
    }

    pub(crate) fn too_deep(&mut self) -> Recover {
        let span = self.peek().span;
        self.error(
            Diagnostic::error(
                codes::NESTING_TOO_DEEP,
                format!("nested more than {MAX_DEPTH} levels deep"),
                span,
                "too deep",
            )
            .with_note("declare the inner types with `type` and refer to them by name"),
        );
        Recover
    }

    /// Skips to the next declaration keyword at brace depth `base`, to the `}` that closes
    /// the enclosing namespace, or to the end. The caller makes sure something was consumed
    /// since the failed declaration began, so this always moves forward.
    pub(crate) fn recover(&mut self, base: usize) {
        loop {
            let token = self.peek();
            match token.kind {
                TokenKind::Eof => return,
                TokenKind::RBrace if base > 0 && self.queue.open_braces() <= base => return,
                TokenKind::Ident
                    if self.queue.open_braces() == base && DECL_KEYWORDS.contains(&self.text_of(token)) =>
                {
                    return;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }
}

impl QueuedToken for Token {
    fn kind(&self) -> TokenKind {
        self.kind
    }

    fn span(&self) -> Span {
        self.span
    }
}
