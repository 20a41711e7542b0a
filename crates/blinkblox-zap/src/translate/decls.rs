//! Declarations: `type` → `type`/`struct`/`enum`/`map`, `event` → `event`, `funct` →
//! `function`, `namespace` → `scope`, each with its comments, in the zap file's order.

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::Span;

use super::options::calls;
use super::{Translation, quoted};
use crate::codes;
use crate::syntax::{Comments, Decl, EventDecl, Field, FieldValue, FunctionDecl, Parameters, TyKind, TypeDecl};

/// The fields of one event or function, by key, each at most once.
struct Fields<'a> {
    found: Vec<(&'static str, &'a Field)>,
}

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a Field> {
        self.found.iter().find(|(k, _)| *k == key).map(|(_, field)| *field)
    }
}

impl<'a> Translation<'a> {
    pub(super) fn decls(&mut self, decls: &'a [Decl], scope: usize, indent: usize) {
        let mut previous: Option<&Decl> = None;
        for decl in decls {
            let start = decl
                .comments()
                .leading
                .first()
                .map_or(decl.span().start, |span| span.start);
            // A blank line where the zap file has one, and around anything multi-line.
            if let Some(previous) = previous {
                let between = self
                    .text
                    .get(previous.span().end as usize..start as usize)
                    .unwrap_or("");
                let one_line = |decl: &Decl| matches!(decl, Decl::Type(item) if !self.multiline(item));
                if between.matches('\n').count() >= 2 || !one_line(previous) || !one_line(decl) {
                    self.out.push('\n');
                }
            }
            previous = Some(decl);
            self.leading(decl.comments(), indent);
            match decl {
                Decl::Type(item) => self.type_decl(item, scope, indent),
                Decl::Event(item) => self.event(item, scope, indent),
                Decl::Function(item) => self.function(item, scope, indent),
                Decl::Namespace(item) => {
                    let child = self.scopes[scope].children.get(item.name.text.as_str()).copied();
                    self.item(indent, &format!("scope {} {{", item.name.text), &item.comments);
                    if let Some(child) = child {
                        self.decls(&item.decls, child, indent + 1);
                    }
                    self.line(indent, "}");
                }
            }
        }
    }

    /// Whether a type declaration is written on several lines: structs and tagged enums with
    /// members always are.
    fn multiline(&self, item: &TypeDecl) -> bool {
        match &item.ty.kind {
            TyKind::Struct(fields) => !fields.is_empty(),
            TyKind::TaggedEnum { variants, .. } => !variants.is_empty(),
            TyKind::UnitEnum(members) => members.iter().any(|member| member.comments != Comments::default()),
            _ => false,
        }
    }

    fn type_decl(&mut self, item: &'a TypeDecl, scope: usize, indent: usize) {
        let name = &item.name.text;
        let ty = &item.ty;
        let text = match &ty.kind {
            TyKind::Struct(fields) => self
                .fields(fields, scope, indent, true)
                .map(|body| format!("struct {name} {body}")),
            TyKind::TaggedEnum { tag, variants } => self
                .variants(tag, variants, scope, ty.span, indent, true)
                .map(|body| format!("enum {name} = {} {body}", quoted(&tag.text))),
            TyKind::UnitEnum(members) => self
                .unit_members(members, ty.span, indent, false)
                .map(|body| format!("enum {name} = {body}")),
            TyKind::Map(..) | TyKind::Set(..) => self.ty(ty, scope, indent).map(|text| {
                let body = text.strip_prefix("map ").unwrap_or(&text);
                format!("map {name} = {body}")
            }),
            _ => self.ty(ty, scope, indent).map(|text| format!("type {name} = {text}")),
        };
        self.item(indent, &text.unwrap_or_default(), &item.comments);
    }

    /// Checks the keys of an event or function block against `allowed` (aliases map to the
    /// first name of their entry).
    fn fields_of(&mut self, fields: &'a [Field], allowed: &[(&'static str, &[&str])], what: &str) -> Fields<'a> {
        let mut found: Vec<(&'static str, &'a Field)> = Vec::new();
        for field in fields {
            let key = field.key.text.as_str();
            let Some(&(canonical, _)) = allowed
                .iter()
                .find(|(name, aliases)| *name == key || aliases.contains(&key))
            else {
                let keys: Vec<String> = allowed.iter().map(|(name, _)| format!("`{name}`")).collect();
                self.report(
                    Diagnostic::error(
                        codes::UNKNOWN_FIELD,
                        format!("{what} has no field `{key}`"),
                        field.key.span,
                        "unknown field",
                    )
                    .with_note(format!("its fields are {}", keys.join(", "))),
                );
                continue;
            };
            if let Some((_, first)) = found.iter().find(|(k, _)| *k == canonical) {
                let first = first.key.span;
                self.report(
                    Diagnostic::error(
                        codes::UNKNOWN_FIELD,
                        format!("`{canonical}` is given twice"),
                        field.key.span,
                        "given again here",
                    )
                    .with_secondary(first, "first given here")
                    .with_note("keep one of the two"),
                );
                continue;
            }
            found.push((canonical, field));
        }
        Fields { found }
    }

    /// The word value of a field, which must be one of `choices`.
    fn word(&mut self, field: &'a Field, choices: &[&'static str]) -> Option<&'static str> {
        let FieldValue::Word(word) = &field.value else {
            return None;
        };
        if let Some(&choice) = choices.iter().find(|choice| **choice == word.text) {
            return Some(choice);
        }
        let listed: Vec<String> = choices.iter().map(|choice| format!("`{choice}`")).collect();
        self.report(
            Diagnostic::error(
                codes::INVALID_FIELD_VALUE,
                format!("`{}` cannot be `{}`", field.key.text, word.text),
                word.span,
                "not one of its values",
            )
            .with_note(format!("the values are {}", listed.join(", "))),
        );
        None
    }

    fn missing(&mut self, span: Span, what: &str, key: &str, note: &str) {
        self.report(
            Diagnostic::error(
                codes::MISSING_FIELD,
                format!("{what} has no `{key}`"),
                span,
                format!("`{key}` missing"),
            )
            .with_note(note.to_string()),
        );
    }

    fn event(&mut self, item: &'a EventDecl, scope: usize, indent: usize) {
        let what = format!("event `{}`", item.name.text);
        let fields = self.fields_of(
            &item.fields,
            &[("from", &[]), ("type", &[]), ("call", &[]), ("data", &[])],
            &what,
        );
        let name_span = item.name.span;
        let from = match fields.get("from") {
            Some(field) => self.word(field, &["Server", "Client"]),
            None => {
                self.missing(name_span, &what, "from", "add `from: Server` or `from: Client`");
                None
            }
        };
        let reliability = match fields.get("type") {
            Some(field) => {
                let choice = self.word(field, &["Reliable", "Unreliable", "OrderedUnreliable"]);
                if choice == Some("OrderedUnreliable") {
                    self.report(
                        Diagnostic::error(
                            codes::ORDERED_UNRELIABLE,
                            "BlinkBlox has no ordered unreliable events",
                            field.value.span(),
                            "no equivalent",
                        )
                        .with_note("for the latest value of some state, declare a `stream` (`stream Name { From: Server, Type: Unreliable, Data: T }`): its receiver ignores values older than the one it has; otherwise use `Unreliable` and accept any order"),
                    );
                    None
                } else {
                    choice
                }
            }
            None => Some("Reliable"),
        };
        let call = match fields.get("call") {
            Some(field) => self.word(field, &calls()),
            None => match self.options.call_default {
                Some(call) => Some(call),
                None => {
                    self.missing(
                        name_span,
                        &what,
                        "call",
                        "add `call: ManyAsync` (or another call mode), or set `opt call_default`",
                    );
                    None
                }
            },
        };
        let data = fields
            .get("data")
            .and_then(|field| self.parameters(field, scope, indent + 1, &what));
        self.item(indent, &format!("event {} {{", item.name.text), &item.comments);
        let lines = [
            ("From", from.unwrap_or_default()),
            ("Type", reliability.unwrap_or_default()),
            ("Call", call.unwrap_or_default()),
        ];
        for (key, value) in lines {
            self.line(indent + 1, &format!("{key}: {value},"));
        }
        self.data_line(indent + 1, "Data", data);
        self.line(indent, "}");
    }

    fn function(&mut self, item: &'a FunctionDecl, scope: usize, indent: usize) {
        let what = format!("function `{}`", item.name.text);
        let fields = self.fields_of(
            &item.fields,
            &[("call", &[]), ("args", &["data"]), ("rets", &[])],
            &what,
        );
        match fields.get("call") {
            Some(field) => {
                if self.word(field, &["Async", "Sync"]) == Some("Sync") {
                    self.report(
                        Diagnostic::warning(
                            codes::SYNC_FUNCTION,
                            format!("{what} is `Sync`: BlinkBlox runs every function's handler in a thread of its own"),
                            field.value.span(),
                            "translated as zap's `Async`",
                        )
                        .with_note("a handler that does not yield behaves the same; one that yields now works"),
                    );
                }
            }
            None => self.missing(item.name.span, &what, "call", "add `call: Async` or `call: Sync`"),
        }
        let data = fields
            .get("args")
            .and_then(|field| self.parameters(field, scope, indent + 1, &what));
        let returns = fields
            .get("rets")
            .and_then(|field| self.parameters(field, scope, indent + 1, &what));
        self.item(indent, &format!("function {} {{", item.name.text), &item.comments);
        let yield_word = self.options.yield_word.unwrap_or("Coroutine");
        self.line(indent + 1, &format!("Yield: {yield_word},"));
        self.data_line(indent + 1, "Data", data);
        self.data_line(indent + 1, "Return", returns);
        self.line(indent, "}");
    }

    fn data_line(&mut self, indent: usize, key: &str, data: Option<(String, Option<String>)>) {
        let Some((text, names)) = data else {
            return;
        };
        let comment = names.map(|names| format!(" -- {names}")).unwrap_or_default();
        self.line(indent, &format!("{key}: {text},{comment}"));
    }

    /// `data`/`args`/`rets` → the BlinkBlox type or pack, and the zap names of its values
    /// when it had any (BlinkBlox's packs have no names: they are kept in a comment).
    fn parameters(
        &mut self,
        field: &'a Field,
        scope: usize,
        indent: usize,
        what: &str,
    ) -> Option<(String, Option<String>)> {
        let FieldValue::Parameters(parameters) = &field.value else {
            return None;
        };
        let Parameters { list, .. } = parameters;
        let mut texts = Vec::new();
        let mut ok = true;
        for (_, ty) in list {
            match self.ty(ty, scope, indent) {
                Some(text) => texts.push(text),
                None => ok = false,
            }
        }
        if !ok || texts.is_empty() {
            return None;
        }
        let names = list.iter().any(|(name, _)| name.is_some()).then(|| {
            let names: Vec<&str> = list
                .iter()
                .map(|(name, _)| name.as_ref().map_or("_", |name| name.text.as_str()))
                .collect();
            self.report(
                Diagnostic::warning(
                    codes::PARAMETER_NAMES,
                    format!("the names of {what}'s `{}` values are not translated", field.key.text),
                    parameters.span,
                    "names dropped",
                )
                .with_note("BlinkBlox's type packs have no names; the values arrive in the same order, and the names are kept in a comment"),
            );
            names.join(", ")
        });
        let text = if texts.len() == 1 {
            texts.remove(0)
        } else {
            format!("({})", texts.join(", "))
        };
        Some((text, names))
    }
}
