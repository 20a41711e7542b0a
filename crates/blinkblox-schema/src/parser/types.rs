//! Type expressions: names with components, ranges and classes; inline structs,
//! enums, maps and sets; the `?` and `[…]` modifiers.

use super::{Parsed, Parser};
use crate::ast::{Range, Step, StructMember, TypeArgument, TypeExpr, TypeExprKind, TypeKeyword, VariantDef};
use crate::lexer::{Token, TokenKind, string_value};
use crate::source::Span;
use crate::vocabulary::keywords;

fn error_placeholder(span: Span) -> TypeExpr {
    TypeExpr {
        kind: TypeExprKind::Error,
        span,
    }
}

impl Parser<'_> {
    /// A full type: an atom followed by any number of `?` and `[…]`.
    pub(super) fn type_expr(&mut self) -> Parsed<TypeExpr> {
        let start = self.peek().span;
        self.enter(start)?;
        let result = self.type_atom().and_then(|atom| self.postfix(atom));
        self.leave();
        result
    }

    /// The right-hand side of `enum X =`, `map X =`, `set X =` and `type X =`: a body
    /// in the keyword's own syntax, or any type.
    pub(super) fn declaration_body(&mut self, keyword: TypeKeyword) -> Parsed<TypeExpr> {
        let token = self.peek();
        let atom = match (keyword, token.kind) {
            (TypeKeyword::Enum, TokenKind::LBrace) => {
                self.enter(token.span)?;
                let result = self.unit_enum_body(token.span);
                self.leave();
                result?
            }
            (TypeKeyword::Enum, TokenKind::String) => {
                self.enter(token.span)?;
                let result = self.tagged_enum_body(token.span);
                self.leave();
                result?
            }
            (TypeKeyword::Map, TokenKind::LBrace) => {
                self.enter(token.span)?;
                let result = self.map_body(token.span);
                self.leave();
                result?
            }
            (TypeKeyword::Set, TokenKind::LBrace) => self.set_body(token.span)?,
            _ => return self.type_expr(),
        };
        self.postfix(atom)
    }

    fn type_atom(&mut self) -> Parsed<TypeExpr> {
        let token = self.peek();
        // `{ [K]: V }` without the `map` keyword, as map values are often written.
        if token.kind == TokenKind::LBrace && self.peek_at(1).kind == TokenKind::LBracket {
            return self.map_body(token.span);
        }
        if token.kind != TokenKind::Ident {
            return Err(self.unexpected("a type"));
        }
        let next = self.peek_at(1);
        match (self.text_of(token.span), next.kind) {
            ("struct", TokenKind::LBrace) => {
                self.bump();
                let open = self.bump();
                let members = self.struct_members(open.span)?;
                Ok(TypeExpr {
                    kind: TypeExprKind::Struct(members),
                    span: token.span.to(self.previous_span()),
                })
            }
            ("enum", TokenKind::LBrace) => {
                self.bump();
                self.unit_enum_body(token.span)
            }
            ("enum", TokenKind::String) => {
                self.bump();
                self.tagged_enum_body(token.span)
            }
            ("map", TokenKind::LBrace) => {
                self.bump();
                self.map_body(token.span)
            }
            ("set", TokenKind::LBrace) => {
                self.bump();
                self.set_body(token.span)
            }
            _ => self.named_type(),
        }
    }

    /// `?` and `[…]` after a type, any number of times.
    pub(super) fn postfix(&mut self, mut ty: TypeExpr) -> Parsed<TypeExpr> {
        // Each modifier nests the tree one level deeper; count them against the limit
        // so later passes (which recurse) stay bounded.
        let depth = self.depth;
        let result = self.postfix_chain(&mut ty);
        self.depth = depth;
        result.map(|()| ty)
    }

    fn postfix_chain(&mut self, ty: &mut TypeExpr) -> Parsed<()> {
        loop {
            if self.at(TokenKind::Question) || self.at(TokenKind::LBracket) {
                let span = self.peek().span;
                self.enter(span)?;
            }
            if self.eat(TokenKind::Question).is_some() {
                let inner = std::mem::replace(ty, error_placeholder(ty.span));
                *ty = TypeExpr {
                    span: inner.span.to(self.previous_span()),
                    kind: TypeExprKind::Optional(Box::new(inner)),
                };
            } else if self.at(TokenKind::LBracket)
                && matches!(
                    self.peek_at(1).kind,
                    TokenKind::RBracket | TokenKind::Number | TokenKind::DotDot
                )
            {
                // `[` followed by a quoted name is the next struct member, not an array.
                let open = self.bump();
                let length = if self.eat(TokenKind::RBracket).is_some() {
                    None
                } else {
                    Some(self.range_inside(open, TokenKind::RBracket)?)
                };
                let inner = std::mem::replace(ty, error_placeholder(ty.span));
                *ty = TypeExpr {
                    span: inner.span.to(self.previous_span()),
                    kind: TypeExprKind::Array {
                        element: Box::new(inner),
                        length,
                    },
                };
            } else {
                return Ok(());
            }
        }
    }

    /// `Name`, `Scope.Name`, with optional `<…>` and `(…)`.
    fn named_type(&mut self) -> Parsed<TypeExpr> {
        let first = self.name("a type")?;
        let start = first.span;
        let mut path = vec![first];
        while self.at(TokenKind::Dot) && self.peek_at(1).kind == TokenKind::Ident {
            self.bump();
            path.push(self.name("a name after `.`")?);
        }
        let mut arguments = Vec::new();
        let mut arguments_span = None;
        if let Some(open) = self.eat(TokenKind::Less) {
            loop {
                if self.eat(TokenKind::Greater).is_some() {
                    break;
                }
                arguments.push(self.type_expr()?);
                if self.eat(TokenKind::Comma).is_none() {
                    self.expect(TokenKind::Greater, "`,` or `>` after the type argument")?;
                    break;
                }
            }
            arguments_span = Some(open.span.to(self.previous_span()));
        }
        let argument = if let Some(open) = self.eat(TokenKind::LParen) {
            let token = self.peek();
            if token.kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::RParen {
                let class = self.name("a class name")?;
                self.bump();
                Some(TypeArgument::Class(class))
            } else {
                Some(TypeArgument::Range(self.range_inside(open, TokenKind::RParen)?))
            }
        } else {
            None
        };
        Ok(TypeExpr {
            kind: TypeExprKind::Named {
                path,
                arguments,
                arguments_span,
                argument,
            },
            span: start.to(self.previous_span()),
        })
    }

    /// After `(` or `[`: `a..b`, `a..`, `..b` or `n`, then the closing token.
    pub(super) fn range_inside(&mut self, open: Token, close: TokenKind) -> Parsed<Range> {
        let closing = if close == TokenKind::RParen { "`)`" } else { "`]`" };
        let (min, max, exact) = if self.eat(TokenKind::DotDot).is_some() {
            (None, Some(self.number("a number after `..`")?), false)
        } else {
            let min = self.number("a number or `..`")?;
            if self.eat(TokenKind::DotDot).is_some() {
                let max = if self.at(TokenKind::Number) {
                    Some(self.number("a number")?)
                } else {
                    None
                };
                (Some(min), max, false)
            } else {
                (Some(min.clone()), Some(min), true)
            }
        };
        let step = self.step()?;
        self.expect_with(close, || format!("{closing} to close the range"))?;
        Ok(Range {
            min,
            max,
            exact,
            step,
            span: open.span.to(self.previous_span()),
        })
    }

    /// `step 0.5` or `step 1/64` after a range: the checker says where a step is allowed.
    fn step(&mut self) -> Parsed<Option<Box<Step>>> {
        let token = self.peek();
        if token.kind != TokenKind::Ident || self.text_of(token.span) != keywords::STEP {
            return Ok(None);
        }
        self.bump();
        let numerator = self.number("the step's size, such as `0.5` or `1/64`")?;
        let denominator = match self.eat(TokenKind::Slash) {
            Some(_) => Some(self.number("a number after `/`")?),
            None => None,
        };
        Ok(Some(Box::new(Step {
            numerator,
            denominator,
            span: token.span.to(self.previous_span()),
        })))
    }

    /// After the `{` of a struct: fields and merges up to the closing `}`.
    pub(super) fn struct_members(&mut self, open: Span) -> Parsed<Vec<StructMember>> {
        let mut members = Vec::new();
        loop {
            if self.eat(TokenKind::RBrace).is_some() {
                return Ok(members);
            }
            if self.at(TokenKind::Eof) {
                return Err(self.unclosed(open, "struct"));
            }
            if self.eat(TokenKind::DotDot).is_some() {
                members.push(StructMember::Merge(self.type_expr()?));
            } else {
                let name = self.member_name("a field name")?;
                self.expect_with(TokenKind::Colon, || format!("`:` after the field name `{}`", name.text))?;
                let ty = self.type_expr()?;
                members.push(StructMember::Field(crate::ast::FieldDef {
                    span: name.span.to(ty.span),
                    name,
                    ty,
                }));
            }
            let element = match members.last() {
                Some(StructMember::Field(field)) => format!("the field `{}`", field.name.text),
                _ => "the merged struct".to_string(),
            };
            self.separator(|| element, "the fields of a struct");
        }
    }

    /// `{ A, B, "c d" }` for unit enums and sets.
    fn member_list(&mut self, what: &str) -> Parsed<Vec<crate::ast::Name>> {
        let open = self.expect_with(TokenKind::LBrace, || format!("`{{` to start the {what}"))?;
        let mut names = Vec::new();
        loop {
            if self.eat(TokenKind::RBrace).is_some() {
                return Ok(names);
            }
            if self.at(TokenKind::Eof) {
                return Err(self.unclosed(open.span, what));
            }
            let name = self.member_name("a member name")?;
            let element = format!("`{}`", name.text);
            names.push(name);
            let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            self.separator(|| element, &format!("the members of {article} {what}"));
        }
    }

    fn unit_enum_body(&mut self, start: Span) -> Parsed<TypeExpr> {
        let names = self.member_list("enum")?;
        Ok(TypeExpr {
            kind: TypeExprKind::UnitEnum(names),
            span: start.to(self.previous_span()),
        })
    }

    fn set_body(&mut self, start: Span) -> Parsed<TypeExpr> {
        let names = self.member_list("set")?;
        Ok(TypeExpr {
            kind: TypeExprKind::Set(names),
            span: start.to(self.previous_span()),
        })
    }

    /// `"Tag" { Variant { fields }, … }`.
    fn tagged_enum_body(&mut self, start: Span) -> Parsed<TypeExpr> {
        let tag_token = self.expect(TokenKind::String, "the tag field's name as a string")?;
        let tag = crate::ast::Name {
            text: string_value(self.text_of(tag_token.span)).to_string(),
            span: tag_token.span,
            quoted: true,
        };
        let open = self.expect(TokenKind::LBrace, "`{` to start the variants")?;
        let mut variants = Vec::new();
        loop {
            if self.eat(TokenKind::RBrace).is_some() {
                break;
            }
            if self.at(TokenKind::Eof) {
                return Err(self.unclosed(open.span, "enum"));
            }
            let name = self.member_name("a variant name")?;
            let body_open = self.expect_with(TokenKind::LBrace, || {
                format!("`{{` to start the fields of `{}`", name.text)
            })?;
            let members = self.struct_members(body_open.span)?;
            variants.push(VariantDef {
                span: name.span.to(self.previous_span()),
                name,
                members,
            });
            let element = format!(
                "the variant `{}`",
                variants.last().map_or("", |v: &VariantDef| v.name.text.as_str())
            );
            self.separator(|| element, "the variants of a tagged enum");
        }
        Ok(TypeExpr {
            kind: TypeExprKind::TaggedEnum { tag, variants },
            span: start.to(self.previous_span()),
        })
    }

    /// `{ [K]: V }` with an optional `(a..b)` entry count.
    fn map_body(&mut self, start: Span) -> Parsed<TypeExpr> {
        let open = self.expect(TokenKind::LBrace, "`{` to start the map")?;
        self.expect(TokenKind::LBracket, "`[` before the map's key type")?;
        let key = self.type_expr()?;
        self.expect(TokenKind::RBracket, "`]` after the map's key type")?;
        self.expect(TokenKind::Colon, "`:` before the map's value type")?;
        let value = self.type_expr()?;
        self.eat(TokenKind::Comma);
        if self.at(TokenKind::Eof) {
            return Err(self.unclosed(open.span, "map"));
        }
        self.expect(TokenKind::RBrace, "`}` to close the map")?;
        let length = match self.eat(TokenKind::LParen) {
            Some(paren) => Some(self.range_inside(paren, TokenKind::RParen)?),
            None => None,
        };
        Ok(TypeExpr {
            kind: TypeExprKind::Map {
                key: Box::new(key),
                value: Box::new(value),
                length,
            },
            span: start.to(self.previous_span()),
        })
    }
}
