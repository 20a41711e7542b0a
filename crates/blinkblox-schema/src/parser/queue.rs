//! The tokens a parser has looked at but not consumed, and what consuming them tells it: where
//! the last consumed token ended (for spans) and how many `{` are open (for recovery). The
//! schema parser and the zap importer's parser both read their lexers through one.

use std::collections::VecDeque;

use crate::lexer::TokenKind;
use crate::source::Span;

/// What a [`TokenQueue`] needs of a token: its kind and its place.
pub trait QueuedToken: Copy {
    fn kind(&self) -> TokenKind;
    fn span(&self) -> Span;
}

/// Looked-ahead tokens, in order.
#[derive(Debug)]
pub struct TokenQueue<T> {
    tokens: VecDeque<T>,
    /// End of the last consumed token (0 before the first).
    previous_end: u32,
    /// `{` consumed and not yet closed.
    open_braces: usize,
}

impl<T> Default for TokenQueue<T> {
    fn default() -> TokenQueue<T> {
        TokenQueue {
            tokens: VecDeque::with_capacity(4),
            previous_end: 0,
            open_braces: 0,
        }
    }
}

impl<T: QueuedToken> TokenQueue<T> {
    /// How many tokens are looked ahead.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    pub fn push(&mut self, token: T) {
        self.tokens.push_back(token);
    }

    /// The `n`th looked-ahead token (the caller has filled the queue that far).
    pub fn get(&self, n: usize) -> T {
        self.tokens[n]
    }

    /// The next token's span, when one is looked ahead.
    pub fn front_span(&self) -> Option<Span> {
        self.tokens.front().map(|token| token.span())
    }

    /// Consumes the next token (the caller has filled the queue): the end of the file is
    /// returned and stays, so that every later look sees it too.
    pub fn bump(&mut self) -> T {
        let token = self.tokens[0];
        if token.kind() != TokenKind::Eof {
            self.tokens.pop_front();
            self.previous_end = token.span().end;
            match token.kind() {
                TokenKind::LBrace => self.open_braces += 1,
                TokenKind::RBrace => self.open_braces = self.open_braces.saturating_sub(1),
                _ => {}
            }
        }
        token
    }

    pub fn previous_end(&self) -> u32 {
        self.previous_end
    }

    pub fn open_braces(&self) -> usize {
        self.open_braces
    }

    /// After recovering from a block left open: the braces that block opened count as closed.
    pub fn set_open_braces(&mut self, open: usize) {
        self.open_braces = open;
    }

    /// Forgets the looked-ahead tokens (the parser stopped reading).
    pub fn clear(&mut self) {
        self.tokens.clear();
    }
}
