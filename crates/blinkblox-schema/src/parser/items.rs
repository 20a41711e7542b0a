//! Declarations: options, type declarations, events, functions, streams, scopes and
//! imports.

use super::{Parsed, Parser, Recover};
use crate::ast::{self, DeclField, DeclValue, Item, TypeKeyword};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::lexer::{TokenKind, string_value};
use crate::source::Span;
use crate::suggest::closest;
use crate::vocabulary::KEYWORDS;

impl Parser<'_> {
    /// Declarations up to the end of the file (`open == None`) or up to the `}` that
    /// closes the scope opened at `open` (left unconsumed).
    pub(super) fn items(&mut self, open: Option<Span>) -> Vec<Item> {
        let mut items = Vec::new();
        loop {
            if self.gave_up {
                break;
            }
            let token = self.peek();
            match token.kind {
                TokenKind::Eof => {
                    if let Some(open) = open {
                        self.error(
                            Diagnostic::error(codes::UNCLOSED_BLOCK, "this scope is never closed", open, "opened here")
                                .with_secondary(token.span, "the file ends here")
                                .with_note("add the closing `}` after the scope's last declaration"),
                        );
                    }
                    break;
                }
                TokenKind::RBrace => {
                    if open.is_some() {
                        break;
                    }
                    self.error(
                        Diagnostic::error(
                            codes::UNMATCHED_BRACE,
                            "unmatched `}`",
                            token.span,
                            "nothing to close here",
                        )
                        .with_note("remove it, or add the `{` it was meant to close"),
                    );
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let base = self.queue.open_braces();
            let before = self.peek().span.start;
            match self.item() {
                Ok(item) => items.push(item),
                Err(Recover) => {
                    self.recover(base);
                    let now = self.peek();
                    if now.span.start == before && now.kind != TokenKind::Eof && now.kind != TokenKind::RBrace {
                        self.bump();
                    }
                }
            }
        }
        items
    }

    fn item(&mut self) -> Parsed<Item> {
        let token = self.peek();
        let word = if token.kind == TokenKind::Ident {
            self.text_of(token.span)
        } else {
            ""
        };
        match word {
            "option" => self.option_item(),
            "export" => {
                let export = self.bump();
                let next = self.peek();
                let next_word = if next.kind == TokenKind::Ident {
                    self.text_of(next.span)
                } else {
                    ""
                };
                if matches!(next_word, "type" | "struct" | "enum" | "map" | "set") {
                    self.type_item(Some(export.span))
                } else {
                    self.error(
                        Diagnostic::error(
                            codes::MISPLACED_EXPORT,
                            "`export` must be followed by a type declaration",
                            export.span.to(next.span),
                            "nothing to export here",
                        )
                        .with_note("only `type`, `struct`, `enum`, `map` and `set` declarations can be exported"),
                    );
                    Err(Recover)
                }
            }
            "type" | "struct" | "enum" | "map" | "set" => self.type_item(None),
            "event" | "function" | "stream" => self.block_item(word),
            "scope" => self.scope_item(),
            "import" => self.import_item(),
            _ => {
                let found = self.describe(token);
                let mut diagnostic = Diagnostic::error(
                    codes::EXPECTED_DECLARATION,
                    format!("expected a declaration, found {found}"),
                    token.span,
                    "not a declaration",
                );
                match closest(word, KEYWORDS.iter().map(|keyword| keyword.word)) {
                    Some(keyword) if !word.is_empty() => {
                        diagnostic = diagnostic.with_did_you_mean(token.span, keyword);
                    }
                    _ => {
                        diagnostic = diagnostic.with_note(
                            "declarations start with `option`, `type`, `struct`, `enum`, `map`, `set`, `event`, \
                             `function`, `stream`, `scope`, `import` or `export`",
                        );
                    }
                }
                self.error(diagnostic);
                Err(Recover)
            }
        }
    }

    fn option_item(&mut self) -> Parsed<Item> {
        let keyword = self.bump();
        let name = self.name("an option name")?;
        self.expect(TokenKind::Equals, "`=` after the option name")?;
        let value = self.literal("an option value (a string, number, `true`/`false` or a name)")?;
        Ok(Item::Option(ast::OptionItem {
            span: keyword.span.to(value.span),
            name,
            value,
        }))
    }

    fn type_item(&mut self, exported: Option<Span>) -> Parsed<Item> {
        let keyword_token = self.bump();
        let keyword = match self.text_of(keyword_token.span) {
            "type" => TypeKeyword::Type,
            "struct" => TypeKeyword::Struct,
            "enum" => TypeKeyword::Enum,
            "map" => TypeKeyword::Map,
            _ => TypeKeyword::Set,
        };
        let name = self.name_with(|| format!("a name for the {}", keyword.keyword()))?;
        let (generics, generics_span) = self.generic_parameters()?;
        let body = if keyword == TypeKeyword::Struct {
            // `struct X = { … }` appears in Blink's docs; accept it.
            self.eat(TokenKind::Equals);
            let open = self.expect(TokenKind::LBrace, "`{` to start the struct's fields")?;
            let members = self.struct_members(open.span)?;
            let atom = ast::TypeExpr {
                kind: ast::TypeExprKind::Struct(members),
                span: open.span.to(self.previous_span()),
            };
            self.postfix(atom)?
        } else {
            self.expect_with(TokenKind::Equals, || {
                format!("`=` after the {} name", keyword.keyword())
            })?;
            self.declaration_body(keyword)?
        };
        let start = exported.unwrap_or(keyword_token.span);
        Ok(Item::Type(Box::new(ast::TypeItem {
            keyword,
            exported,
            name,
            generics,
            generics_span,
            span: start.to(body.span),
            body,
        })))
    }

    fn generic_parameters(&mut self) -> Parsed<(Vec<ast::Name>, Option<Span>)> {
        let Some(open) = self.eat(TokenKind::Less) else {
            return Ok((Vec::new(), None));
        };
        let mut names = Vec::new();
        loop {
            if let Some(close) = self.eat(TokenKind::Greater) {
                return Ok((names, Some(open.span.to(close.span))));
            }
            names.push(self.name("a generic parameter name")?);
            if self.eat(TokenKind::Comma).is_none() {
                let close = self.expect(TokenKind::Greater, "`,` or `>` in the generic parameters")?;
                return Ok((names, Some(open.span.to(close.span))));
            }
        }
    }

    /// `event`, `function` and `stream`: `Name { Key: value, … }`.
    fn block_item(&mut self, word: &str) -> Parsed<Item> {
        let keyword = self.bump();
        let name = self.name_with(|| format!("a name for the {word}"))?;
        let open = self.expect_with(TokenKind::LBrace, || format!("`{{` to start the {word}'s fields"))?;
        let mut fields = Vec::new();
        loop {
            if self.eat(TokenKind::RBrace).is_some() {
                break;
            }
            if self.at(TokenKind::Eof) {
                return Err(self.unclosed(open.span, word));
            }
            let key = self.name("a field such as `From`, `Type` or `Data`")?;
            self.expect_with(TokenKind::Colon, || format!("`:` after `{}`", key.text))?;
            let lower = key.text.to_ascii_lowercase();
            let value = if lower == "data" || lower == "return" {
                if self.at(TokenKind::LParen) {
                    let (types, span) = self.tuple()?;
                    DeclValue::Tuple(types, span)
                } else {
                    DeclValue::Type(self.type_expr()?)
                }
            } else {
                DeclValue::Literal(self.literal_with(|| format!("a value for `{}`", key.text))?)
            };
            let element = format!("the field `{}`", key.text);
            fields.push(DeclField {
                span: key.span.to(value.span()),
                key,
                value,
            });
            self.separator(|| element, "the fields of an event, function or stream");
        }
        let span = keyword.span.to(self.previous_span());
        Ok(match word {
            "event" => Item::Event(ast::EventItem { name, fields, span }),
            "function" => Item::Function(ast::FunctionItem { name, fields, span }),
            _ => Item::Stream(ast::StreamItem { name, fields, span }),
        })
    }

    /// After an element of a `{ … }` list: the `,` before the next one. A missing comma is
    /// reported where it belongs, and parsing goes on as if it were there, so every slip in
    /// a list is reported. A `,` after the last element is allowed, as Blink allows it.
    pub(super) fn separator(&mut self, element: impl FnOnce() -> String, list: &str) {
        if self.eat(TokenKind::Comma).is_some() || self.at(TokenKind::RBrace) || self.at(TokenKind::Eof) {
            return;
        }
        let next = self.peek();
        let found = self.describe(next);
        let element = element();
        self.error(
            Diagnostic::error(
                codes::MISSING_SEPARATOR,
                format!("expected `,` after {element}, found {found}"),
                self.previous_span(),
                "add `,` here",
            )
            .with_note(format!("separate {list} with commas, as Blink does"))
            .with_suggestion(self.previous_span(), ","),
        );
    }

    pub(super) fn unclosed(&mut self, open: Span, what: &str) -> Recover {
        let end = self.peek().span;
        self.error(
            Diagnostic::error(
                codes::UNCLOSED_BLOCK,
                format!("this {what} is never closed"),
                open,
                "opened here",
            )
            .with_secondary(end, "the file ends here")
            .with_note("add the missing `}`"),
        );
        Recover
    }

    /// `(A, B, …)` as event or function data; `()` is the empty pack.
    fn tuple(&mut self) -> Parsed<(Vec<ast::TypeExpr>, Span)> {
        let open = self.bump();
        let mut types = Vec::new();
        loop {
            if let Some(close) = self.eat(TokenKind::RParen) {
                return Ok((types, open.span.to(close.span)));
            }
            types.push(self.type_expr()?);
            if self.eat(TokenKind::Comma).is_none() {
                let close = self.expect(TokenKind::RParen, "`,` or `)` in the type pack")?;
                return Ok((types, open.span.to(close.span)));
            }
        }
    }

    fn scope_item(&mut self) -> Parsed<Item> {
        let keyword = self.bump();
        let name = self.name("a name for the scope")?;
        let open = self.expect(TokenKind::LBrace, "`{` to start the scope")?;
        self.enter(open.span)?;
        let items = self.items(Some(open.span));
        self.leave();
        if self.eat(TokenKind::RBrace).is_none() {
            // The end of the file (already reported) or the error cap.
            return Err(Recover);
        }
        Ok(Item::Scope(ast::ScopeItem {
            name,
            items,
            span: keyword.span.to(self.previous_span()),
        }))
    }

    fn import_item(&mut self) -> Parsed<Item> {
        let keyword = self.bump();
        let path = self.expect(TokenKind::String, "the imported file's path as a string")?;
        let alias = if self.at_word("as") {
            self.bump();
            Some(self.name("a scope name after `as`")?)
        } else {
            None
        };
        Ok(Item::Import(ast::ImportItem {
            path: string_value(self.text_of(path.span)).to_string(),
            path_span: path.span,
            alias,
            span: keyword.span.to(self.previous_span()),
        }))
    }
}
