//! Pass 2: type declarations and type expressions → [`Type`]s with layouts.
//!
//! Named, non-generic declarations are resolved lazily and memoised, so a type may be
//! used before its declaration; a declaration met again while it is being resolved is
//! a cycle. Generic declarations are templates: each use `Name<A, B>` resolves the
//! arguments in the user's scope, then the body in the declaration's scope with the
//! parameters bound, and the result is inlined.

use super::layout::{self, Shape};
use super::{Checker, MAX_RESOLVE_DEPTH, MAX_TYPE_NODES, State};
use crate::ast::{self, TypeExprKind, TypeKeyword};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{Layout, SetType, Type, TypeDecl, TypeKind, UnitEnum};
use crate::source::Span;

use super::names::Lookup;
use crate::vocabulary::is_primitive;

/// Where a type expression is resolved: its scope and the generic parameters bound
/// there.
#[derive(Clone, Copy)]
pub(super) struct Context<'c> {
    pub scope: usize,
    pub generics: &'c [(String, Type)],
}

impl<'a> Checker<'a> {
    pub(super) fn resolve_all_types(&mut self) {
        for entry in 0..self.entries.len() {
            self.check_declaration_shape(entry);
        }
        for entry in 0..self.entries.len() {
            if self.entries[entry].id.is_some() {
                self.resolve_entry(entry, None);
            }
        }
    }

    /// Resolves a non-generic declaration; returns its layout. `reference` is where it
    /// is used from (to point a cycle error at).
    fn resolve_entry(&mut self, entry: usize, reference: Option<Span>) -> Option<Layout> {
        let id = self.entries[entry].id?;
        match self.entries[entry].state {
            State::Done => return self.types[id.0 as usize].as_ref().map(|decl| decl.ty.layout),
            State::Failed => return None,
            State::InProgress => {
                self.report_cycle(entry, reference);
                return None;
            }
            State::Unresolved => {}
        }
        self.entries[entry].state = State::InProgress;
        self.resolving.push(entry);
        let item = self.entries[entry].item;
        let context = Context {
            scope: self.entries[entry].scope,
            generics: &[],
        };
        let ty = self.resolve_body(item, context);
        self.resolving.pop();
        let Some(ty) = ty else {
            self.entries[entry].state = State::Failed;
            return None;
        };
        let layout = ty.layout;
        let scope = self.scopes[self.entries[entry].scope].path.clone();
        self.types[id.0 as usize] = Some(TypeDecl {
            name: item.name.text.clone(),
            scope,
            exported: item.exported.is_some(),
            ty,
            span: item.name.span,
        });
        self.entries[entry].state = State::Done;
        Some(layout)
    }

    fn report_cycle(&mut self, entry: usize, reference: Option<Span>) {
        let start = self.resolving.iter().position(|&e| e == entry).unwrap_or(0);
        let mut chain: Vec<String> = self.resolving[start..]
            .iter()
            .map(|&e| self.entries[e].item.name.text.clone())
            .collect();
        let name = self.entries[entry].item.name.text.clone();
        chain.push(name.clone());
        let declared = self.entries[entry].item.name.span;
        let span = reference.unwrap_or(declared);
        self.report(
            Diagnostic::error(
                codes::RECURSIVE_TYPE,
                format!("type `{name}` contains itself: {}", chain.join(" → ")),
                span,
                "this reference closes the cycle",
            )
            .with_secondary(declared, "declared here")
            .with_note("types cannot be recursive (even through `?` or arrays): the wire format has no references"),
        );
    }

    /// A declaration's right-hand side, checked against its keyword.
    pub(super) fn resolve_body(&mut self, item: &'a ast::TypeItem, context: Context<'_>) -> Option<Type> {
        let ty = self.resolve(&item.body, context)?;
        let expected = match item.keyword {
            TypeKeyword::Map => Some("map"),
            TypeKeyword::Enum => Some("enum"),
            TypeKeyword::Set => Some("set"),
            TypeKeyword::Type | TypeKeyword::Struct => None,
        };
        if let Some(expected) = expected {
            let mut inner = &ty;
            while let TypeKind::Optional(next) | TypeKind::Array { element: next, .. } = &inner.kind {
                inner = next;
            }
            let inner = self.underlying(inner);
            let matches = match expected {
                "map" => matches!(inner.kind, TypeKind::Map { .. }),
                "enum" => matches!(inner.kind, TypeKind::Enum(_) | TypeKind::TaggedEnum(_)),
                _ => matches!(inner.kind, TypeKind::Set(_)),
            };
            if !matches {
                let found = kind_name(&inner.kind);
                let article = if expected == "enum" { "an" } else { "a" };
                self.report(
                    Diagnostic::error(
                        codes::WRONG_KIND,
                        format!(
                            "`{expected} {}` must be {article} {expected}, but this is {found}",
                            item.name.text
                        ),
                        item.body.span,
                        format!("{found}, not {article} {expected}"),
                    )
                    .with_note(format!("declare it with `type {} = …` instead", item.name.text)),
                );
                return None;
            }
        }
        Some(ty)
    }

    /// Follows named references to the type they name.
    pub(super) fn underlying<'t>(&'t self, ty: &'t Type) -> &'t Type {
        let mut current = ty;
        for _ in 0..MAX_RESOLVE_DEPTH {
            match current.kind {
                TypeKind::Named(id) => match self.types.get(id.0 as usize).and_then(Option::as_ref) {
                    Some(decl) => current = &decl.ty,
                    None => return current,
                },
                _ => return current,
            }
        }
        current
    }

    pub(super) fn shape(&self, ty: &Type) -> Shape {
        match &self.underlying(ty).kind {
            TypeKind::Boolean => Shape::Boolean,
            TypeKind::Optional(inner) if self.is_side_array(inner) => Shape::FlaglessOptional,
            TypeKind::Optional(_) => Shape::FlaggedOptional,
            _ => Shape::Other,
        }
    }

    fn is_side_array(&self, ty: &Type) -> bool {
        matches!(self.underlying(ty).kind, TypeKind::Instance { .. } | TypeKind::Unknown)
    }

    /// Resolves a type expression. `None` means an error was reported.
    pub(super) fn resolve(&mut self, expr: &ast::TypeExpr, context: Context<'_>) -> Option<Type> {
        if self.depth >= MAX_RESOLVE_DEPTH {
            self.report(
                Diagnostic::error(
                    codes::NESTING_TOO_DEEP,
                    "types nested too deeply",
                    expr.span,
                    "too deep",
                )
                .with_note("declare the inner types separately, with fewer levels of references"),
            );
            return None;
        }
        if !self.count_nodes(1, expr.span) {
            return None;
        }
        self.depth += 1;
        let result = self.resolve_kind(expr, context);
        self.depth -= 1;
        result
    }

    /// Charges `n` type nodes to the schema's budget; false (reported once) when over.
    fn count_nodes(&mut self, n: usize, span: Span) -> bool {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes <= MAX_TYPE_NODES {
            return true;
        }
        if !self.too_large_reported {
            self.too_large_reported = true;
            self.report(
                Diagnostic::error(
                    codes::TYPE_TOO_LARGE,
                    format!("the schema's types expand to more than {MAX_TYPE_NODES} nodes"),
                    span,
                    "expansion stopped here",
                )
                .with_note("generic instantiations nest exponentially here; declare intermediate types by name"),
            );
        }
        false
    }

    fn resolve_kind(&mut self, expr: &ast::TypeExpr, context: Context<'_>) -> Option<Type> {
        match &expr.kind {
            TypeExprKind::Named {
                path,
                arguments,
                arguments_span,
                argument,
            } => self.resolve_named(expr.span, path, arguments, *arguments_span, argument.as_ref(), context),
            TypeExprKind::Struct(members) => {
                let (body, layout) = self.resolve_struct(members, context, None)?;
                Some(Type {
                    layout,
                    kind: TypeKind::Struct(body),
                })
            }
            TypeExprKind::UnitEnum(names) => {
                self.check_members_unique(names, "enum member");
                if names.is_empty() {
                    self.report_empty_enum(expr.span);
                    return None;
                }
                Some(Type {
                    layout: layout::fixed(layout::index_size(names.len())),
                    kind: TypeKind::Enum(UnitEnum {
                        variants: names.iter().map(|n| n.text.clone()).collect(),
                    }),
                })
            }
            TypeExprKind::TaggedEnum { tag, variants } => self.resolve_tagged_enum(expr.span, tag, variants, context),
            TypeExprKind::Map { key, value, length } => {
                let key_type = self.resolve(key, context);
                let value_type = self.resolve(value, context);
                let length = match length {
                    Some(range) => self.length_range(range, "a map's entry count")?,
                    None => Default::default(),
                };
                let (key_type, value_type) = (key_type?, value_type?);
                let mut ok = true;
                for (ty, expr, what) in [(&key_type, key, "key"), (&value_type, value, "value")] {
                    if matches!(self.underlying(ty).kind, TypeKind::Optional(_)) {
                        self.report(
                            Diagnostic::error(
                                codes::OPTIONAL_MAP_KEY,
                                format!("a map {what} cannot be optional"),
                                expr.span,
                                format!("optional {what}"),
                            )
                            .with_note("a Luau table cannot hold nil keys or values; remove the `?`"),
                        );
                        ok = false;
                    }
                }
                if !ok {
                    return None;
                }
                Some(Type {
                    layout: layout::map(key_type.layout, value_type.layout, length),
                    kind: TypeKind::Map {
                        key: Box::new(key_type),
                        value: Box::new(value_type),
                        length,
                    },
                })
            }
            TypeExprKind::Set(names) => {
                self.check_members_unique(names, "set flag");
                Some(Type {
                    layout: layout::set(names.len()),
                    kind: TypeKind::Set(SetType {
                        flags: names.iter().map(|n| n.text.clone()).collect(),
                    }),
                })
            }
            TypeExprKind::Optional(inner) => {
                let inner = self.resolve(inner, context)?;
                let flagless = self.is_side_array(&inner);
                Some(Type {
                    layout: layout::optional(inner.layout, flagless),
                    kind: TypeKind::Optional(Box::new(inner)),
                })
            }
            TypeExprKind::Array { element, length } => {
                let element = self.resolve(element, context);
                let length = match length {
                    Some(range) => self.length_range(range, "an array's length")?,
                    None => Default::default(),
                };
                let element = element?;
                let shape = self.shape(&element);
                Some(Type {
                    layout: layout::array(element.layout, shape, length),
                    kind: TypeKind::Array {
                        element: Box::new(element),
                        length,
                    },
                })
            }
            TypeExprKind::Error => None,
        }
    }

    fn resolve_named(
        &mut self,
        span: Span,
        path: &[ast::Name],
        arguments: &[ast::TypeExpr],
        arguments_span: Option<Span>,
        argument: Option<&ast::TypeArgument>,
        context: Context<'_>,
    ) -> Option<Type> {
        let last = path.last()?;
        if path.len() == 1 {
            if let Some((_, bound)) = context.generics.iter().find(|(name, _)| *name == last.text) {
                if let Some(arguments_span) = arguments_span {
                    self.report_not_generic(&last.text, arguments_span, "a generic parameter");
                    return None;
                }
                if let Some(argument) = argument {
                    self.report_argument_not_allowed(&last.text, argument, "a generic parameter");
                    return None;
                }
                let bound = bound.clone();
                if !self.count_nodes(node_count(&bound), span) {
                    return None;
                }
                return Some(bound);
            }
            if is_primitive(&last.text) {
                return self.resolve_primitive(span, &last.text, arguments, arguments_span, argument);
            }
        }
        let entry = match self.lookup(context.scope, path) {
            Lookup::Found(entry) => entry,
            Lookup::UnknownType => {
                let generic_names: Vec<String> = context.generics.iter().map(|(n, _)| n.clone()).collect();
                let shown: Vec<&str> = path.iter().map(|n| n.text.as_str()).collect();
                let mut diagnostic = Diagnostic::error(
                    codes::UNKNOWN_TYPE,
                    format!("unknown type `{}`", shown.join(".")),
                    path[0].span.to(last.span),
                    "not declared",
                );
                if path.len() == 1 {
                    if let Some(suggestion) = self.suggest_type(context.scope, &last.text, &generic_names) {
                        diagnostic = diagnostic.with_did_you_mean(last.span, &suggestion);
                    } else {
                        diagnostic = diagnostic
                            .with_note("declare it with `type`, `struct`, `enum`, `map` or `set`, or import it");
                    }
                } else {
                    diagnostic = diagnostic.with_note(format!(
                        "scope `{}` declares no such type",
                        shown[..shown.len() - 1].join(".")
                    ));
                }
                self.report(diagnostic);
                return None;
            }
            Lookup::UnknownScope(index) => {
                let shown: Vec<&str> = path[..=index].iter().map(|n| n.text.as_str()).collect();
                self.report(
                    Diagnostic::error(
                        codes::UNKNOWN_SCOPE,
                        format!("unknown scope `{}`", shown.join(".")),
                        path[index].span,
                        "no scope or import by this name",
                    )
                    .with_note("a dotted name goes through scopes: `Scope.Type`; declare the scope or import it"),
                );
                return None;
            }
        };
        let item = self.entries[entry].item;
        if item.generics.is_empty() {
            if let Some(arguments_span) = arguments_span {
                self.report_not_generic(&item.name.text, arguments_span, "not generic");
                return None;
            }
            if let Some(argument) = argument {
                self.report_argument_not_allowed(&item.name.text, argument, "a declared type");
                return None;
            }
            let layout = self.resolve_entry(entry, Some(span))?;
            let id = self.entry_id(entry)?;
            return Some(Type {
                kind: TypeKind::Named(id),
                layout,
            });
        }
        self.instantiate(entry, span, arguments, arguments_span, argument, context)
    }

    pub(super) fn report_argument_not_allowed(&mut self, name: &str, argument: &ast::TypeArgument, what: &str) {
        let (span, thing) = match argument {
            ast::TypeArgument::Range(range) => (range.span, "a range"),
            ast::TypeArgument::Class(class) => (class.span, "a class"),
        };
        self.report(
            Diagnostic::error(
                codes::RANGE_NOT_ALLOWED,
                format!("`{name}` cannot take {thing}"),
                span,
                format!("`{name}` is {what}"),
            )
            .with_note("ranges go on primitives (`u8(0..10)`, `string(..32)`); put the range in the declaration"),
        );
    }
}

/// How a type is named in messages.
pub(super) fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Number { .. } | TypeKind::Quantized(_) => "a number",
        TypeKind::Boolean => "a boolean",
        TypeKind::String { .. } => "a string",
        TypeKind::Buffer { .. } => "a buffer",
        TypeKind::Vector { .. } => "a vector",
        TypeKind::CFrame { .. } => "a CFrame",
        TypeKind::Color3 => "a Color3",
        TypeKind::BrickColor => "a BrickColor",
        TypeKind::DateTime | TypeKind::DateTimeMillis => "a DateTime",
        TypeKind::Instance { .. } => "an Instance",
        TypeKind::Unknown => "unknown",
        TypeKind::Optional(_) => "an optional",
        TypeKind::Array { .. } => "an array",
        TypeKind::Struct(_) => "a struct",
        TypeKind::Enum(_) => "an enum",
        TypeKind::TaggedEnum(_) => "a tagged enum",
        TypeKind::Map { .. } => "a map",
        TypeKind::Set(_) => "a set",
        TypeKind::Named(_) => "a named type",
    }
}

/// Nodes in a type tree (charged when a generic argument is copied into a body).
pub(super) fn node_count(ty: &Type) -> usize {
    1 + match &ty.kind {
        TypeKind::Optional(inner) => node_count(inner),
        TypeKind::Array { element, .. } => node_count(element),
        TypeKind::Map { key, value, .. } => node_count(key) + node_count(value),
        TypeKind::Struct(body) => body.fields.iter().map(|f| node_count(&f.ty)).sum(),
        TypeKind::TaggedEnum(tagged) => tagged
            .variants
            .iter()
            .flat_map(|v| v.body.fields.iter())
            .map(|f| node_count(&f.ty))
            .sum(),
        _ => 0,
    }
}
