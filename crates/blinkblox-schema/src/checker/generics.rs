//! Generic declarations: which may be generic, their parameters, and instantiation
//! (`Name<A, B>` resolves the arguments where it is used, then the declaration's body
//! with the parameters bound to them; the result is inlined, never named).

use super::types::Context;
use super::{Checker, State};
use crate::ast::{self, TypeExprKind, TypeKeyword};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::Type;
use crate::source::Span;

impl Checker<'_> {
    /// Checks what can be checked on a declaration without resolving it: its generic
    /// parameters and `export`.
    pub(super) fn check_declaration_shape(&mut self, entry: usize) {
        let item = self.entries[entry].item;
        if item.generics.is_empty() {
            return;
        }
        let mut ok = true;
        let generics_span = item.generics_span.unwrap_or(item.name.span);
        let allowed = match item.keyword {
            TypeKeyword::Struct | TypeKeyword::Map => true,
            TypeKeyword::Enum => !matches!(item.body.kind, TypeExprKind::UnitEnum(_)),
            TypeKeyword::Type | TypeKeyword::Set => false,
        };
        if !allowed {
            let what = match (item.keyword, &item.body.kind) {
                (TypeKeyword::Enum, _) => "a unit enum",
                (TypeKeyword::Set, _) => "a set",
                _ => "a `type` alias",
            };
            self.report(
                Diagnostic::error(
                    codes::GENERICS_NOT_ALLOWED,
                    format!("{what} cannot have generic parameters"),
                    generics_span,
                    "not allowed here",
                )
                .with_note("only `struct`, `map` and tagged `enum` declarations can be generic"),
            );
            ok = false;
        }
        if !self.report_repeated_names(
            &item.generics,
            codes::DUPLICATE_GENERIC_PARAMETER,
            "generic parameter",
            "give each parameter its own name",
        ) {
            ok = false;
        }
        if let Some(export) = item.exported {
            self.report(
                Diagnostic::error(
                    codes::GENERIC_EXPORT,
                    format!("generic `{}` cannot be exported", item.name.text),
                    export,
                    "`export` on a generic declaration",
                )
                .with_secondary(generics_span, "generic parameters here")
                .with_note(format!(
                    "export a concrete instance instead: `export type My{0} = {0}<…>`",
                    item.name.text
                )),
            );
            ok = false;
        }
        if !ok {
            self.entries[entry].state = State::Failed;
        }
    }

    pub(super) fn instantiate(
        &mut self,
        entry: usize,
        span: Span,
        arguments: &[ast::TypeExpr],
        arguments_span: Option<Span>,
        argument: Option<&ast::TypeArgument>,
        context: Context<'_>,
    ) -> Option<Type> {
        let item = self.entries[entry].item;
        let declared = item.generics_span.unwrap_or(item.name.span);
        if arguments_span.is_none() {
            self.report(
                Diagnostic::error(
                    codes::MISSING_GENERIC_ARGUMENTS,
                    format!("generic `{}` is used without type arguments", item.name.text),
                    span,
                    format!("needs {} type argument(s)", item.generics.len()),
                )
                .with_secondary(declared, "parameters declared here")
                .with_note(format!(
                    "write `{}<{}>`",
                    item.name.text,
                    placeholder_list(item.generics.len())
                )),
            );
            return None;
        }
        if arguments.len() != item.generics.len() {
            self.report(
                Diagnostic::error(
                    codes::GENERIC_ARITY,
                    format!(
                        "`{}` takes {} type argument(s) but {} were given",
                        item.name.text,
                        item.generics.len(),
                        arguments.len()
                    ),
                    arguments_span.unwrap_or(span),
                    format!("expected {}", item.generics.len()),
                )
                .with_secondary(declared, "parameters declared here"),
            );
            return None;
        }
        if let Some(argument) = argument {
            self.report_argument_not_allowed(&item.name.text, argument, "a generic type");
            return None;
        }
        if self.entries[entry].state == State::Failed {
            return None;
        }
        if self.instantiating.contains(&entry) {
            self.report(
                Diagnostic::error(
                    codes::RECURSIVE_TYPE,
                    format!("generic `{}` contains itself", item.name.text),
                    span,
                    "used inside its own declaration",
                )
                .with_secondary(item.name.span, "declared here")
                .with_note("types cannot be recursive: the wire format has no references"),
            );
            return None;
        }
        let mut bindings = Vec::with_capacity(arguments.len());
        let mut ok = true;
        for (parameter, argument) in item.generics.iter().zip(arguments) {
            match self.resolve(argument, context) {
                Some(ty) => bindings.push((parameter.text.clone(), ty)),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        self.instantiating.push(entry);
        let inner = Context {
            scope: self.entries[entry].scope,
            generics: &bindings,
        };
        let result = self.resolve_body(item, inner);
        self.instantiating.pop();
        result
    }

    pub(super) fn report_not_generic(&mut self, name: &str, span: Span, what: &str) {
        self.report(
            Diagnostic::error(
                codes::NOT_GENERIC,
                format!("`{name}` takes no type arguments"),
                span,
                format!("`{name}` is {what}"),
            )
            .with_note("remove the `<…>`"),
        );
    }
}

fn placeholder_list(n: usize) -> String {
    (0..n)
        .map(|i| if i == 0 { "T".to_string() } else { format!("T{}", i + 1) })
        .collect::<Vec<_>>()
        .join(", ")
}
