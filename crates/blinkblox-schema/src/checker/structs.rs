//! Structs (fields, `..Merge`, packed layout), unit and tagged enums, and the
//! uniqueness of their members.

use std::collections::HashMap;

use super::Checker;
use super::layout::{self, Shape};
use super::types::{Context, kind_name};
use crate::ast::{self, StructMember};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{Field, Layout, StructType, TaggedEnum, Type, TypeKind, Variant};
use crate::source::Span;

impl Checker<'_> {
    pub(super) fn resolve_struct(
        &mut self,
        members: &[StructMember],
        context: Context<'_>,
        tag: Option<&ast::Name>,
    ) -> Option<(StructType, Layout)> {
        let mut fields: Vec<Field> = Vec::with_capacity(members.len());
        let mut seen: HashMap<String, Span> = HashMap::new();
        let mut ok = true;
        for member in members {
            match member {
                StructMember::Field(definition) => {
                    let Some(ty) = self.resolve(&definition.ty, context) else {
                        ok = false;
                        continue;
                    };
                    if !self.add_field(&mut seen, &definition.name.text, definition.name.span, None, tag) {
                        ok = false;
                        continue;
                    }
                    fields.push(Field {
                        name: definition.name.text.clone(),
                        ty,
                        span: definition.name.span,
                    });
                }
                StructMember::Merge(expr) => {
                    let Some(merged) = self.resolve(expr, context) else {
                        ok = false;
                        continue;
                    };
                    let TypeKind::Struct(merged) = &self.underlying(&merged).kind else {
                        let found = kind_name(&self.underlying(&merged).kind);
                        self.report(
                            Diagnostic::error(
                                codes::MERGE_NOT_STRUCT,
                                format!("only structs can be merged, but this is {found}"),
                                expr.span,
                                "not a struct",
                            )
                            .with_note("`..Name` copies the fields of the struct `Name` into this one"),
                        );
                        ok = false;
                        continue;
                    };
                    let merged_fields = merged.fields.clone();
                    for field in merged_fields {
                        if !self.add_field(&mut seen, &field.name, field.span, Some(expr.span), tag) {
                            ok = false;
                            continue;
                        }
                        fields.push(field);
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        let shapes: Vec<(Layout, Shape)> = fields.iter().map(|f| (f.ty.layout, self.shape(&f.ty))).collect();
        let (layout, total) = layout::structure(&shapes);
        Some((StructType { fields, layout }, total))
    }

    /// Records a field name; reports duplicates and clashes with a tagged enum's tag.
    fn add_field(
        &mut self,
        seen: &mut HashMap<String, Span>,
        name: &str,
        span: Span,
        merged_at: Option<Span>,
        tag: Option<&ast::Name>,
    ) -> bool {
        let primary = merged_at.unwrap_or(span);
        if let Some(tag) = tag
            && tag.text == name
        {
            self.report(
                Diagnostic::error(
                    codes::TAG_FIELD_CONFLICT,
                    format!("field `{name}` has the same name as the enum's tag"),
                    primary,
                    "clashes with the tag",
                )
                .with_secondary(tag.span, "the tag is named here")
                .with_note("the tag field holds the variant's name in Luau; rename the field or the tag"),
            );
            return false;
        }
        if let Some(&first) = seen.get(name) {
            let mut diagnostic = Diagnostic::error(
                codes::DUPLICATE_MEMBER,
                format!("field `{name}` is declared twice"),
                primary,
                if merged_at.is_some() {
                    "merged in again here"
                } else {
                    "declared again here"
                },
            )
            .with_secondary(first, "first declared here");
            if merged_at.is_some() {
                diagnostic = diagnostic.with_secondary(span, "the merged field");
            }
            self.report(diagnostic.with_note("rename one of the fields"));
            return false;
        }
        seen.insert(name.to_string(), span);
        true
    }

    pub(super) fn check_members_unique(&mut self, names: &[ast::Name], what: &str) -> bool {
        self.report_repeated_names(names, codes::DUPLICATE_MEMBER, what, "remove one of them")
    }

    /// Reports every name in `names` that repeats an earlier one (as `code`, with
    /// `fix` as the help); `true` when all are distinct.
    pub(super) fn report_repeated_names(
        &mut self,
        names: &[ast::Name],
        code: &'static str,
        what: &str,
        fix: &str,
    ) -> bool {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut ok = true;
        for name in names {
            if let Some(&first) = seen.get(name.text.as_str()) {
                self.report(
                    Diagnostic::error(
                        code,
                        format!("{what} `{}` is declared twice", name.text),
                        name.span,
                        "declared again here",
                    )
                    .with_secondary(first, "first declared here")
                    .with_note(fix),
                );
                ok = false;
            } else {
                seen.insert(&name.text, name.span);
            }
        }
        ok
    }

    pub(super) fn report_empty_enum(&mut self, span: Span) {
        self.report(
            Diagnostic::error(
                codes::EMPTY_ENUM,
                "an enum needs at least one variant",
                span,
                "no variants",
            )
            .with_note("a value of an enum without variants could never be sent"),
        );
    }

    pub(super) fn resolve_tagged_enum(
        &mut self,
        span: Span,
        tag: &ast::Name,
        variants: &[ast::VariantDef],
        context: Context<'_>,
    ) -> Option<Type> {
        let names: Vec<ast::Name> = variants.iter().map(|v| v.name.clone()).collect();
        let mut ok = self.check_members_unique(&names, "variant");
        if variants.is_empty() {
            self.report_empty_enum(span);
            return None;
        }
        let mut resolved = Vec::with_capacity(variants.len());
        let mut layouts = Vec::with_capacity(variants.len());
        for variant in variants {
            match self.resolve_struct(&variant.members, context, Some(tag)) {
                Some((body, total)) => {
                    layouts.push(total);
                    resolved.push(Variant {
                        name: variant.name.text.clone(),
                        body,
                    });
                }
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        Some(Type {
            layout: layout::tagged_enum(&layouts),
            kind: TypeKind::TaggedEnum(TaggedEnum {
                tag: tag.text.clone(),
                variants: resolved,
            }),
        })
    }
}
