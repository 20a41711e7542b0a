//! Options and declarations: `opt`, `type`, `event`, `funct` and `namespace`.

use blinkblox_schema::diagnostics::Diagnostic;

use super::{Parsed, Parser};
use crate::codes;
use crate::lexer::{TokenKind, string_value};
use crate::syntax::{
    Decl, EventDecl, Field, FieldValue, File, FunctionDecl, NamespaceDecl, Opt, OptValue, OptValueKind, Parameters,
    TypeDecl,
};

/// Event and function fields whose value is data (a type or a list of them).
const DATA_FIELDS: &[&str] = &["data", "args", "rets"];

impl Parser<'_> {
    pub(super) fn file(&mut self) -> File {
        let mut file = File::default();
        while self.at_word("opt") {
            self.guarded(0, |parser| {
                let opt = parser.opt()?;
                file.opts.push(opt);
                Ok(())
            });
        }
        file.decls = self.decls(0);
        file
    }

    /// Runs one declaration's parser; on an error, skips to the next declaration at depth
    /// `base`, consuming at least one token so the loop always moves on.
    fn guarded(&mut self, base: usize, parse: impl FnOnce(&mut Self) -> Parsed<()>) {
        let start = self.peek().span.start;
        if parse(self).is_err() {
            if self.peek().span.start == start {
                self.bump();
            }
            self.recover(base);
        }
    }

    /// Declarations until the end of the file (`base` 0) or the `}` of a namespace.
    fn decls(&mut self, base: usize) -> Vec<Decl> {
        let mut decls = Vec::new();
        loop {
            let token = self.peek();
            match token.kind {
                TokenKind::Eof => return decls,
                TokenKind::RBrace if base > 0 => return decls,
                _ => {}
            }
            if self.at_word("opt") {
                let span = token.span;
                self.error(
                    Diagnostic::error(
                        codes::OPTION_AFTER_DECLARATION,
                        "options must come before every declaration",
                        span,
                        "an `opt` after a declaration",
                    )
                    .with_note("move the `opt` lines to the top of the file (zap requires it too)"),
                );
                self.guarded(base, |parser| parser.opt().map(|_| ()));
                continue;
            }
            self.guarded(base, |parser| {
                let decl = parser.decl()?;
                decls.push(decl);
                Ok(())
            });
        }
    }

    fn opt(&mut self) -> Parsed<Opt> {
        let first = self.bump();
        let name = self.name("the option's name")?;
        self.expect(TokenKind::Equals, "`=`")?;
        let token = self.peek();
        let kind = match token.kind {
            TokenKind::String => {
                let raw = self.text_of(token);
                let quote = raw.chars().next().unwrap_or('"');
                OptValueKind::Str(string_value(raw).to_string(), quote)
            }
            TokenKind::Number => OptValueKind::Num(self.text_of(token).to_string()),
            TokenKind::Ident if matches!(self.text_of(token), "true" | "false") => {
                OptValueKind::Bool(self.text_of(token) == "true")
            }
            _ => return Err(self.unexpected("a string, a number, `true` or `false`")),
        };
        self.bump();
        let value = OptValue { kind, span: token.span };
        self.eat(TokenKind::Semicolon);
        let span = self.span_from(first.span.start);
        let comments = self.comments_for(first);
        Ok(Opt {
            name,
            value,
            span,
            comments,
        })
    }

    fn decl(&mut self) -> Parsed<Decl> {
        let first = self.peek();
        let keyword = if first.kind == TokenKind::Ident {
            self.text_of(first)
        } else {
            ""
        };
        match keyword {
            "type" => {
                self.bump();
                let name = self.name("the type's name")?;
                self.expect(TokenKind::Equals, "`=`")?;
                let ty = self.ty()?;
                self.eat(TokenKind::Semicolon);
                let span = self.span_from(first.span.start);
                let comments = self.comments_for(first);
                Ok(Decl::Type(TypeDecl {
                    name,
                    ty,
                    span,
                    comments,
                }))
            }
            "event" | "funct" => {
                self.bump();
                let name = self.name(if keyword == "event" {
                    "the event's name"
                } else {
                    "the function's name"
                })?;
                self.expect(TokenKind::Equals, "`=`")?;
                let fields = self.fields()?;
                self.eat(TokenKind::Semicolon);
                let span = self.span_from(first.span.start);
                let comments = self.comments_for(first);
                Ok(if keyword == "event" {
                    Decl::Event(EventDecl {
                        name,
                        fields,
                        span,
                        comments,
                    })
                } else {
                    Decl::Function(FunctionDecl {
                        name,
                        fields,
                        span,
                        comments,
                    })
                })
            }
            "namespace" => {
                self.bump();
                let name = self.name("the namespace's name")?;
                self.expect(TokenKind::Equals, "`=`")?;
                let comments_token = first;
                let decls = self.nested(|parser| {
                    parser.expect(TokenKind::LBrace, "`{`")?;
                    let base = parser.queue.open_braces();
                    let decls = parser.decls(base);
                    parser.expect(TokenKind::RBrace, "`}` to close the namespace")?;
                    Ok(decls)
                })?;
                self.eat(TokenKind::Semicolon);
                let span = self.span_from(first.span.start);
                let comments = self.comments_for(comments_token);
                Ok(Decl::Namespace(NamespaceDecl {
                    name,
                    decls,
                    span,
                    comments,
                }))
            }
            _ => Err(self.unexpected("a declaration (`type`, `event`, `funct` or `namespace`)")),
        }
    }

    /// `{ key: value, … }` of an event or a function.
    fn fields(&mut self) -> Parsed<Vec<Field>> {
        self.expect(TokenKind::LBrace, "`{`")?;
        let mut fields = Vec::new();
        while !self.at(TokenKind::RBrace) {
            let key = self.name("a field such as `from`, `type`, `call` or `data`")?;
            self.expect(TokenKind::Colon, "`:`")?;
            let value = if DATA_FIELDS.contains(&key.text.as_str()) {
                FieldValue::Parameters(self.parameters()?)
            } else {
                FieldValue::Word(self.name("a value such as `Server`, `Reliable` or `ManyAsync`")?)
            };
            let span = key.span.to(value.span());
            fields.push(Field { key, value, span });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RBrace, "`,` or `}`")?;
        Ok(fields)
    }

    /// One type, or `( [name:] T, … )`. A parenthesised first element followed by `|` is an
    /// OR type instead: `(A | B)`.
    fn parameters(&mut self) -> Parsed<Parameters> {
        let start = self.peek().span.start;
        if !self.at(TokenKind::LParen) {
            let ty = self.ty()?;
            return Ok(Parameters {
                span: ty.span,
                list: vec![(None, ty)],
            });
        }
        let open = self.bump();
        let mut list = Vec::new();
        while !self.at(TokenKind::RParen) {
            let named = self.peek().kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::Colon;
            let name = if named {
                let name = self.name("a name")?;
                self.bump();
                Some(name)
            } else {
                None
            };
            let ty = self.ty()?;
            if list.is_empty() && name.is_none() && self.at(TokenKind::Pipe) {
                let ty = self.or_rest(open.span.start, ty)?;
                return Ok(Parameters {
                    span: ty.span,
                    list: vec![(None, ty)],
                });
            }
            list.push((name, ty));
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RParen, "`,` or `)`")?;
        Ok(Parameters {
            list,
            span: self.span_from(start),
        })
    }
}
