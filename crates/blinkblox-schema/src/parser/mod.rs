//! The parser: tokens → [`ast::File`], recovering at declaration boundaries.
//!
//! Recursive descent with an explicit depth limit (so 10 000 nested types give a
//! diagnostic instead of a stack overflow) and an error cap (so 10 MB of garbage gives
//! a hundred diagnostics in milliseconds instead of millions). When a declaration is
//! malformed, the error is reported and tokens are skipped to the next declaration
//! keyword at the same brace depth, so every independent error in a file is reported.

mod items;
pub mod queue;
mod types;

use crate::ast;
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::lexer::{Lexer, Token, TokenKind, string_value};
use crate::source::{FileId, Span};
use crate::vocabulary::is_keyword;
use queue::{QueuedToken, TokenQueue};

/// Deepest nesting of types and scopes. Real schemas stay far below; the limit keeps
/// the recursive parser and checker well inside a thread's stack.
pub const MAX_DEPTH: usize = 48;
pub use crate::lexer::MAX_ERRORS;

/// An error was reported; the caller should recover.
#[derive(Debug)]
pub(crate) struct Recover;

pub(crate) type Parsed<T> = Result<T, Recover>;

/// Parses one file. Diagnostics include the lexer's.
pub fn parse(file: FileId, text: &str) -> (ast::File, Vec<Diagnostic>) {
    let mut parser = Parser::new(file, text);
    let items = parser.items(None);
    (ast::File { items }, parser.diagnostics)
}

pub(crate) struct Parser<'a> {
    lexer: Lexer<'a>,
    file: FileId,
    text: &'a str,
    queue: TokenQueue<Token>,
    diagnostics: Vec<Diagnostic>,
    depth: usize,
    /// Set when the error cap is reached: everything returns at once.
    gave_up: bool,
}

impl<'a> Parser<'a> {
    fn new(file: FileId, text: &'a str) -> Parser<'a> {
        Parser {
            lexer: Lexer::new(file, text),
            file,
            text,
            queue: TokenQueue::default(),
            diagnostics: Vec::new(),
            depth: 0,
            gave_up: false,
        }
    }

    // ---- Tokens -------------------------------------------------------------------

    fn fill(&mut self, n: usize) {
        while self.queue.len() <= n {
            let token = if self.gave_up {
                // After the error cap, the file ends here as far as the parser knows.
                Token {
                    kind: TokenKind::Eof,
                    span: Span::new(self.file, self.text.len(), self.text.len()),
                }
            } else {
                self.lexer.next_token(&mut self.diagnostics)
            };
            self.queue.push(token);
            self.check_error_cap();
        }
    }

    fn peek(&mut self) -> Token {
        self.peek_at(0)
    }

    fn peek_at(&mut self, n: usize) -> Token {
        self.fill(n);
        self.queue.get(n)
    }

    fn bump(&mut self) -> Token {
        self.fill(0);
        self.queue.bump()
    }

    fn previous_span(&self) -> Span {
        Span {
            file: self.file,
            start: self.queue.previous_end(),
            end: self.queue.previous_end(),
        }
    }

    fn text_of(&self, span: Span) -> &'a str {
        self.text.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    fn at(&mut self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    fn at_word(&mut self, word: &str) -> bool {
        let token = self.peek();
        token.kind == TokenKind::Ident && self.text_of(token.span) == word
    }

    fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        if self.at(kind) { Some(self.bump()) } else { None }
    }

    /// Consumes a token of `kind` or reports what was expected.
    fn expect(&mut self, kind: TokenKind, what: &str) -> Parsed<Token> {
        if let Some(token) = self.eat(kind) {
            return Ok(token);
        }
        Err(self.unexpected(what))
    }

    /// [`Parser::expect`] with a message built only when it is needed.
    fn expect_with(&mut self, kind: TokenKind, what: impl FnOnce() -> String) -> Parsed<Token> {
        if let Some(token) = self.eat(kind) {
            return Ok(token);
        }
        let what = what();
        Err(self.unexpected(&what))
    }

    /// Reports "expected X, found Y" at the next token.
    fn unexpected(&mut self, expected: &str) -> Recover {
        let token = self.peek();
        let found = self.describe(token);
        if token.kind == TokenKind::Eof {
            let span = token.span;
            self.error(
                Diagnostic::error(
                    codes::UNEXPECTED_TOKEN,
                    format!("expected {expected}, found the end of the file"),
                    span,
                    format!("expected {expected}"),
                )
                .with_note("the file ends in the middle of a declaration; finish or remove it"),
            );
        } else {
            self.error(Diagnostic::error(
                codes::UNEXPECTED_TOKEN,
                format!("expected {expected}, found {found}"),
                token.span,
                format!("expected {expected}"),
            ));
        }
        Recover
    }

    fn describe(&self, token: Token) -> String {
        match token.kind {
            TokenKind::Ident | TokenKind::Number => format!("`{}`", self.text_of(token.span)),
            TokenKind::String => "a string".to_string(),
            kind => kind.describe().to_string(),
        }
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        if self.gave_up {
            return;
        }
        self.diagnostics.push(diagnostic);
        self.check_error_cap();
    }

    fn check_error_cap(&mut self) {
        if !self.gave_up && self.diagnostics.len() >= MAX_ERRORS {
            self.gave_up = true;
            let span = self.peek_span_without_lexing();
            self.diagnostics.push(
                Diagnostic::error(
                    codes::TOO_MANY_ERRORS,
                    format!("too many errors ({MAX_ERRORS}); checking of this file stopped here"),
                    span,
                    "stopped here",
                )
                .with_note("is this really a .blink schema? fix the errors above and check again"),
            );
        }
    }

    fn peek_span_without_lexing(&self) -> Span {
        self.queue.front_span().unwrap_or_else(|| self.previous_span())
    }

    // ---- Names and literals -------------------------------------------------------

    /// A declaration or member name: any identifier, keywords included.
    fn name(&mut self, what: &str) -> Parsed<ast::Name> {
        let token = self.expect(TokenKind::Ident, what)?;
        Ok(ast::Name {
            text: self.text_of(token.span).to_string(),
            span: token.span,
            quoted: false,
        })
    }

    fn name_with(&mut self, what: impl FnOnce() -> String) -> Parsed<ast::Name> {
        let token = self.expect_with(TokenKind::Ident, what)?;
        Ok(ast::Name {
            text: self.text_of(token.span).to_string(),
            span: token.span,
            quoted: false,
        })
    }

    /// A member name: an identifier, `"text"` or `["text"]`.
    fn member_name(&mut self, what: &str) -> Parsed<ast::Name> {
        match self.peek().kind {
            TokenKind::String => {
                let token = self.bump();
                Ok(self.quoted_name(token, token.span))
            }
            TokenKind::LBracket if self.peek_at(1).kind == TokenKind::String => {
                let open = self.bump();
                let token = self.bump();
                let close = self.expect(TokenKind::RBracket, "`]` after the quoted name")?;
                Ok(self.quoted_name(token, open.span.to(close.span)))
            }
            _ => self.name(what),
        }
    }

    fn quoted_name(&self, token: Token, span: Span) -> ast::Name {
        ast::Name {
            text: string_value(self.text_of(token.span)).to_string(),
            span,
            quoted: true,
        }
    }

    fn number(&mut self, what: &str) -> Parsed<ast::Number> {
        let token = self.expect(TokenKind::Number, what)?;
        Ok(self.number_from(token))
    }

    fn number_from(&self, token: Token) -> ast::Number {
        let text = self.text_of(token.span);
        // The lexer has already reported a malformed number; use what parses.
        let numeric: String = text
            .char_indices()
            .take_while(|&(i, c)| c.is_ascii_digit() || c == '.' || (i == 0 && c == '-'))
            .map(|(_, c)| c)
            .collect();
        ast::Number {
            value: numeric.parse().unwrap_or(0.0),
            text: numeric,
            span: token.span,
        }
    }

    fn literal(&mut self, what: &str) -> Parsed<ast::Literal> {
        self.literal_with(|| what.to_string())
    }

    fn literal_with(&mut self, what: impl FnOnce() -> String) -> Parsed<ast::Literal> {
        let token = self.peek();
        let kind = match token.kind {
            TokenKind::String => ast::LiteralKind::String(string_value(self.text_of(token.span)).to_string()),
            TokenKind::Number => {
                let number = self.number_from(token);
                ast::LiteralKind::Number {
                    value: number.value,
                    text: number.text,
                }
            }
            TokenKind::Ident => match self.text_of(token.span) {
                "true" => ast::LiteralKind::Bool(true),
                "false" => ast::LiteralKind::Bool(false),
                word => ast::LiteralKind::Ident(word.to_string()),
            },
            _ => {
                let what = what();
                return Err(self.unexpected(&what));
            }
        };
        self.bump();
        Ok(ast::Literal { kind, span: token.span })
    }

    // ---- Depth --------------------------------------------------------------------

    /// Enters one level of nesting, or reports that the limit is reached.
    fn enter(&mut self, span: Span) -> Parsed<()> {
        if self.depth >= MAX_DEPTH {
            self.error(
                Diagnostic::error(
                    codes::NESTING_TOO_DEEP,
                    format!("nested more than {MAX_DEPTH} levels deep"),
                    span,
                    "too deep",
                )
                .with_note("declare the inner types separately and refer to them by name"),
            );
            return Err(Recover);
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- Recovery -----------------------------------------------------------------

    /// Whether the next token starts a declaration: a declaration keyword followed by
    /// a name (`type: u8` inside a struct is a field, not a declaration).
    fn at_item_start(&mut self) -> bool {
        let token = self.peek();
        if token.kind != TokenKind::Ident || !is_keyword(self.text_of(token.span)) {
            return false;
        }
        let next = self.peek_at(1).kind;
        next == TokenKind::Ident || (next == TokenKind::String && self.text_of(token.span) == "import")
    }

    fn starts_line(&mut self) -> bool {
        let start = self.peek().span.start as usize;
        let previous_end = self.queue.previous_end();
        let gap = self.text.get(previous_end as usize..start).unwrap_or("");
        previous_end == 0 || gap.contains('\n')
    }

    /// Skips what is left of a broken declaration: to the next declaration keyword at
    /// the declaration's brace depth (or, for a block left open, at the start of a
    /// line), or to the `}` that closes the enclosing block.
    fn recover(&mut self, base_braces: usize) {
        loop {
            if self.gave_up {
                return;
            }
            let token = self.peek();
            match token.kind {
                TokenKind::Eof => return,
                TokenKind::RBrace if self.queue.open_braces() <= base_braces => return,
                TokenKind::Ident if self.at_item_start() => {
                    if self.queue.open_braces() <= base_braces {
                        return;
                    }
                    if self.starts_line() {
                        self.queue.set_open_braces(base_braces);
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
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
