//! Type expressions: named types with their arguments, inline structs, enums, maps and
//! sets, and the `?` and `[…]` modifiers.

use blinkblox_schema::ast::{Range, StructMember, TypeArgument, TypeExpr, TypeExprKind, TypeKeyword, VariantDef};
use blinkblox_schema::source::Span;
use blinkblox_schema::vocabulary::keywords;

use crate::printer::{ANGLES, BRACES, Doc, Layout, Printer};

impl<'a> Printer<'a> {
    /// A type. `short` is the keyword of the declaration whose body this is: its own kind
    /// is written without the keyword (`enum Team = { Red, Blue }`), and a `struct`
    /// declaration's fields go one per line.
    pub(crate) fn ty(&mut self, ty: &TypeExpr, short: Option<TypeKeyword>) -> Doc<'a> {
        let close = ty.span.end.saturating_sub(1);
        let prefix = |keyword: TypeKeyword, written: &'static str| {
            if short == Some(keyword) {
                Doc::nil()
            } else {
                Doc::text(written)
            }
        };
        match &ty.kind {
            TypeExprKind::Named {
                path,
                arguments,
                arguments_span,
                argument,
            } => {
                let names: Vec<&str> = path.iter().map(|name| self.src(name.span)).collect();
                let mut doc = Doc::text(names.join("."));
                if let Some(span) = arguments_span {
                    let list = self.list(
                        arguments,
                        |argument| argument.span,
                        |printer, argument| printer.ty(argument, None),
                        span.end.saturating_sub(1),
                        ANGLES,
                        Layout::Fit,
                    );
                    doc = doc.append(list);
                }
                match argument {
                    Some(TypeArgument::Range(range)) => doc.append("(").append(self.range(range)).append(")"),
                    Some(TypeArgument::Class(class)) => doc.append("(").append(self.src(class.span)).append(")"),
                    None => doc,
                }
            }
            TypeExprKind::Struct(members) => {
                let layout = if short == Some(TypeKeyword::Struct) {
                    Layout::Broken
                } else {
                    Layout::Fit
                };
                let body = self.list(members, member_span, Self::member, close, BRACES, layout);
                prefix(TypeKeyword::Struct, "struct ").append(body)
            }
            TypeExprKind::UnitEnum(names) => {
                let body = self.names(names, close);
                prefix(TypeKeyword::Enum, "enum ").append(body)
            }
            TypeExprKind::TaggedEnum { tag, variants } => {
                let body = self.list(
                    variants,
                    |variant| variant.span,
                    Self::variant,
                    close,
                    BRACES,
                    Layout::Broken,
                );
                prefix(TypeKeyword::Enum, "enum ")
                    .append(self.src(tag.span))
                    .append(" ")
                    .append(body)
            }
            TypeExprKind::Map { key, value, length } => {
                let mut doc = prefix(TypeKeyword::Map, "map ")
                    .append("{ [")
                    .append(self.ty(key, None))
                    .append("]: ")
                    .append(self.ty(value, None))
                    .append(" }");
                if let Some(length) = length {
                    doc = doc.append("(").append(self.range(length)).append(")");
                }
                doc
            }
            TypeExprKind::Set(names) => {
                let body = self.names(names, close);
                prefix(TypeKeyword::Set, "set ").append(body)
            }
            TypeExprKind::Optional(inner) => self.ty(inner, short).append("?"),
            TypeExprKind::Array { element, length } => {
                let doc = self.ty(element, short).append("[");
                match length {
                    Some(length) => doc.append(self.range(length)).append("]"),
                    None => doc.append("]"),
                }
            }
            TypeExprKind::Error => Doc::text(self.src(ty.span)),
        }
    }

    /// Members of a unit enum or a set.
    fn names(&mut self, names: &[blinkblox_schema::ast::Name], close: u32) -> Doc<'a> {
        self.list(
            names,
            |name| name.span,
            |printer, name| Doc::text(printer.src(name.span)),
            close,
            BRACES,
            Layout::Fit,
        )
    }

    fn member(&mut self, member: &StructMember) -> Doc<'a> {
        match member {
            StructMember::Field(field) => Doc::text(self.src(field.name.span))
                .append(": ")
                .append(self.ty(&field.ty, None)),
            StructMember::Merge(ty) => Doc::text("..").append(self.ty(ty, None)),
        }
    }

    fn variant(&mut self, variant: &VariantDef) -> Doc<'a> {
        let close = variant.span.end.saturating_sub(1);
        let body = self.list(&variant.members, member_span, Self::member, close, BRACES, Layout::Fit);
        Doc::text(self.src(variant.name.span)).append(" ").append(body)
    }

    /// The inside of `(…)` or `[…]`: `a..b`, `a..`, `..b` or `n`, then any `step s` or `step a/b`.
    fn range(&self, range: &Range) -> String {
        let number = |n: &Option<blinkblox_schema::ast::Number>| n.as_ref().map_or("", |n| self.src(n.span));
        let bounds = if range.exact {
            number(&range.min).to_string()
        } else {
            format!("{}..{}", number(&range.min), number(&range.max))
        };
        match &range.step {
            None => bounds,
            Some(step) => format!("{bounds} {} {}", keywords::STEP, step.text()),
        }
    }
}

fn member_span(member: &StructMember) -> Span {
    match member {
        StructMember::Field(field) => field.span,
        StructMember::Merge(ty) => ty.span,
    }
}
