//! Types: numbers and strings with ranges, arrays and optionals, maps, sets, structs, unit
//! and tagged enums, vectors, Instances, OR types and references.

use super::{DECL_KEYWORDS, Parsed, Parser};
use crate::lexer::{Token, TokenKind};
use crate::syntax::{Member, Name, Number, Range, StringKind, Ty, TyKind, zap_number};

impl Parser<'_> {
    /// A type with its `[range]` and `?` suffixes.
    pub(crate) fn ty(&mut self) -> Parsed<Ty> {
        self.nested(|parser| {
            let start = parser.peek().span.start;
            let mut ty = parser.primary()?;
            // Each suffix wraps the type once more: `u8[][]…` nests as deep as a struct in
            // a struct, and counts against the same limit.
            let mut suffixes = 0;
            loop {
                if parser.at(TokenKind::LBracket) || parser.at(TokenKind::Question) {
                    suffixes += 1;
                    if parser.depth + suffixes > super::MAX_DEPTH {
                        return Err(parser.too_deep());
                    }
                }
                if parser.eat(TokenKind::LBracket) {
                    let length = if parser.at(TokenKind::RBracket) {
                        None
                    } else {
                        Some(parser.range()?)
                    };
                    parser.expect(TokenKind::RBracket, "`]`")?;
                    ty = Ty {
                        kind: TyKind::Array(Box::new(ty), length),
                        span: parser.span_from(start),
                    };
                } else if parser.eat(TokenKind::Question) {
                    ty = Ty {
                        kind: TyKind::Optional(Box::new(ty)),
                        span: parser.span_from(start),
                    };
                } else {
                    return Ok(ty);
                }
            }
        })
    }

    fn primary(&mut self) -> Parsed<Ty> {
        let token = self.peek();
        let start = token.span.start;
        if token.kind == TokenKind::LParen {
            self.bump();
            let first = self.ty()?;
            if !self.at(TokenKind::Pipe) {
                return Err(self.unexpected("`|` (an OR type is `(A | B)`)"));
            }
            return self.or_rest(start, first);
        }
        if token.kind != TokenKind::Ident {
            return Err(self.unexpected("a type"));
        }
        let word = self.text_of(token);
        let next = self.peek_at(1).kind;
        // `type A =` with its type missing, then `event B = …`: the keyword starts the next
        // declaration rather than naming a type.
        if DECL_KEYWORDS.contains(&word) && next == TokenKind::Ident && self.peek_at(2).kind == TokenKind::Equals {
            return Err(self.unexpected("a type"));
        }
        let kind = if let Some(kind) = zap_number(word) {
            self.bump();
            TyKind::Num(kind, self.parenthesised_range()?)
        } else {
            match (word, next) {
                ("string", _) => {
                    self.bump();
                    let mut kind = StringKind::Plain;
                    if self.at(TokenKind::Dot) {
                        self.bump();
                        let which = self.name("`utf8` or `binary`")?;
                        kind = match which.text.as_str() {
                            "utf8" => StringKind::Utf8,
                            "binary" => StringKind::Binary,
                            _ => return Err(self.unexpected_at(which, "`utf8` or `binary`")),
                        };
                    }
                    TyKind::Str(kind, self.parenthesised_range()?)
                }
                ("buffer", _) => {
                    self.bump();
                    TyKind::Buffer(self.parenthesised_range()?)
                }
                ("vector", _) => {
                    self.bump();
                    let mut components = Vec::new();
                    if self.eat(TokenKind::LParen) {
                        loop {
                            components.push(self.ty()?);
                            if !self.eat(TokenKind::Comma) {
                                break;
                            }
                        }
                        self.expect(TokenKind::RParen, "`,` or `)`")?;
                    }
                    TyKind::Vector(components)
                }
                ("Instance", _) => {
                    self.bump();
                    let class = if self.eat(TokenKind::LParen) {
                        let class = self.name("a class name")?;
                        self.expect(TokenKind::RParen, "`)`")?;
                        Some(class)
                    } else if self.eat(TokenKind::Dot) {
                        Some(self.name("a class name")?)
                    } else {
                        None
                    };
                    TyKind::Instance(class)
                }
                ("map", TokenKind::LBrace) => {
                    self.bump();
                    self.bump();
                    self.expect(TokenKind::LBracket, "`[`")?;
                    let key = self.ty()?;
                    self.expect(TokenKind::RBracket, "`]`")?;
                    self.expect(TokenKind::Colon, "`:`")?;
                    let value = self.ty()?;
                    self.expect(TokenKind::RBrace, "`}`")?;
                    TyKind::Map(Box::new(key), Box::new(value))
                }
                ("set", TokenKind::LBrace) => {
                    self.bump();
                    self.bump();
                    let element = self.ty()?;
                    self.expect(TokenKind::RBrace, "`}`")?;
                    TyKind::Set(Box::new(element))
                }
                ("struct", TokenKind::LBrace) => {
                    self.bump();
                    TyKind::Struct(self.struct_body()?)
                }
                ("enum", TokenKind::LBrace) => {
                    self.bump();
                    TyKind::UnitEnum(self.unit_enum_body()?)
                }
                ("enum", TokenKind::String) => {
                    self.bump();
                    let tag = self.key("the tag field's name")?;
                    let variants = self.list(TokenKind::LBrace, TokenKind::RBrace, "a variant", |parser| {
                        parser.struct_body()
                    })?;
                    TyKind::TaggedEnum { tag, variants }
                }
                _ => {
                    let mut path = vec![self.name("a type")?];
                    while self.at(TokenKind::Dot) {
                        self.bump();
                        path.push(self.name("a name after `.`")?);
                    }
                    TyKind::Ref(path)
                }
            }
        };
        Ok(Ty {
            kind,
            span: self.span_from(start),
        })
    }

    /// The rest of `(A | B | …)` once `(A` is read.
    pub(crate) fn or_rest(&mut self, start: u32, first: Ty) -> Parsed<Ty> {
        let mut options = vec![first];
        while self.eat(TokenKind::Pipe) {
            options.push(self.ty()?);
        }
        self.expect(TokenKind::RParen, "`|` or `)`")?;
        Ok(Ty {
            kind: TyKind::Or(options),
            span: self.span_from(start),
        })
    }

    fn unexpected_at(&mut self, name: Name, what: &str) -> super::Recover {
        self.error(
            blinkblox_schema::diagnostics::Diagnostic::error(
                crate::codes::UNEXPECTED_TOKEN,
                format!("expected {what}, found `{}`", name.text),
                name.span,
                format!("expected {what}"),
            )
            .with_note("`string.utf8` counts characters and checks UTF-8; `string.binary` counts bytes"),
        );
        super::Recover
    }

    fn parenthesised_range(&mut self) -> Parsed<Option<Range>> {
        if !self.eat(TokenKind::LParen) {
            return Ok(None);
        }
        let range = self.range()?;
        self.expect(TokenKind::RParen, "`)`")?;
        Ok(Some(range))
    }

    /// `..`, `n`, `a..`, `..b` or `a..b`.
    fn range(&mut self) -> Parsed<Range> {
        let start = self.peek().span.start;
        let min = if self.at(TokenKind::Number) {
            let token = self.bump();
            Some(self.number(token))
        } else {
            None
        };
        if !self.eat(TokenKind::DotDot) {
            return match min {
                Some(n) => Ok(Range {
                    max: Some(n.clone()),
                    min: Some(n),
                    exact: true,
                    step: None,
                    span: self.span_from(start),
                }),
                None => Err(self.unexpected("a range such as `0..100`, `..100`, `5` or `..`")),
            };
        }
        let max = if self.at(TokenKind::Number) {
            let token = self.bump();
            Some(self.number(token))
        } else {
            None
        };
        Ok(Range {
            min,
            max,
            exact: false,
            step: None,
            span: self.span_from(start),
        })
    }

    fn number(&self, token: Token) -> Number {
        let text = self.text_of(token).to_string();
        Number {
            value: text.parse().unwrap_or(0.0),
            text,
            span: token.span,
        }
    }

    fn struct_body(&mut self) -> Parsed<Vec<Member<Ty>>> {
        self.list(TokenKind::LBrace, TokenKind::RBrace, "a field", |parser| {
            parser.expect(TokenKind::Colon, "`:`")?;
            parser.ty()
        })
    }

    fn unit_enum_body(&mut self) -> Parsed<Vec<Member<()>>> {
        self.list(TokenKind::LBrace, TokenKind::RBrace, "an enumerator", |_| Ok(()))
    }

    /// `open key… , key… close` with an optional trailing comma, keeping each member's
    /// comments. `value` parses what follows the key.
    fn list<T>(
        &mut self,
        open: TokenKind,
        close: TokenKind,
        what: &str,
        mut value: impl FnMut(&mut Self) -> Parsed<T>,
    ) -> Parsed<Vec<Member<T>>> {
        self.expect(open, open.describe())?;
        let mut members = Vec::new();
        while !self.at(close) {
            let first = self.peek();
            let name = self.key(what)?;
            let parsed = value(self)?;
            let more = self.eat(TokenKind::Comma);
            let comments = self.comments_for(first);
            members.push(Member {
                name,
                value: parsed,
                comments,
            });
            if !more {
                break;
            }
        }
        let expected = format!("`,` or {}", close.describe());
        self.expect(close, &expected)?;
        Ok(members)
    }
}
