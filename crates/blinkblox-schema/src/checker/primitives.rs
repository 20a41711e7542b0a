//! Primitive types with their components (`vector<i16>`, `CFrame<f32, f16>`), ranges
//! (`u8(0..100)`, `string(..32)`, `vector(..512)`) and classes (`Instance(Part)`).

use super::Checker;
use super::layout;
use crate::ast::{self, TypeArgument, TypeExprKind};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{LengthRange, NumberKind, NumberRange, Quantized, Type, TypeKind};
use crate::source::Span;

/// Shows a bound without a pointless `.0`.
fn show(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e16 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

/// The bounds written in a range (`(n)` stores `n` as both; it is checked once).
fn bounds(range: &ast::Range) -> Vec<&ast::Number> {
    if range.exact {
        range.min.iter().collect()
    } else {
        [&range.min, &range.max].into_iter().flatten().collect()
    }
}

/// The bounds as written, once they are known to be valid.
fn written_range(range: &ast::Range) -> NumberRange {
    NumberRange {
        min: range.min.as_ref().map(|n| n.value),
        max: range.max.as_ref().map(|n| n.value),
    }
}

impl Checker<'_> {
    pub(super) fn resolve_primitive(
        &mut self,
        span: Span,
        name: &str,
        components: &[ast::TypeExpr],
        components_span: Option<Span>,
        argument: Option<&TypeArgument>,
    ) -> Option<Type> {
        let takes_components = matches!(name, "vector" | "CFrame");
        if !takes_components && let Some(components_span) = components_span {
            self.report(
                Diagnostic::error(
                    codes::INVALID_COMPONENT,
                    format!("`{name}` takes no `<…>`"),
                    components_span,
                    "not allowed here",
                )
                .with_note("only `vector<T>` and `CFrame<P, R>` take component types"),
            );
            return None;
        }
        if let Some(kind) = NumberKind::named(name) {
            if let Some(TypeArgument::Range(range @ ast::Range { step: Some(step), .. })) = argument {
                let quantized = self.quantized(kind, range, step)?;
                let layout = layout::fixed(quantized.bytes());
                return Some(Type {
                    kind: TypeKind::Quantized(quantized),
                    layout,
                });
            }
            let range = match argument {
                None => NumberRange::default(),
                Some(TypeArgument::Range(range)) => self.number_range(kind, range)?,
                Some(argument) => return self.no_argument(name, argument),
            };
            return Some(Type {
                kind: TypeKind::Number { kind, range },
                layout: layout::number(kind),
            });
        }
        let kind = match name {
            "boolean" => {
                match argument {
                    Some(TypeArgument::Range(range)) => self.report(
                        Diagnostic::warning(
                            codes::RANGE_HAS_NO_EFFECT,
                            "a range on `boolean` has no effect",
                            range.span,
                            "ignored",
                        )
                        .with_note("remove the range"),
                    ),
                    Some(argument) => return self.no_argument(name, argument),
                    None => {}
                }
                return Some(Type {
                    kind: TypeKind::Boolean,
                    layout: layout::fixed(1),
                });
            }
            "string" | "buffer" => {
                let length = match argument {
                    None => LengthRange::default(),
                    Some(TypeArgument::Range(range)) => self.length_range(range, &format!("a {name}'s length"))?,
                    Some(argument) => return self.no_argument(name, argument),
                };
                let layout = layout::bytes(length);
                let kind = if name == "string" {
                    TypeKind::String { length }
                } else {
                    TypeKind::Buffer { length }
                };
                return Some(Type { kind, layout });
            }
            "vector" => {
                let (component, quantized) = match components {
                    [] => (NumberKind::F32, None),
                    [one] => self.vector_component(one)?,
                    _ => {
                        self.report(
                            Diagnostic::error(
                                codes::INVALID_COMPONENT,
                                format!("`vector` takes one component type, not {}", components.len()),
                                components_span.unwrap_or(span),
                                "too many components",
                            )
                            .with_note("write `vector<T>`: X, Y and Z all use T"),
                        );
                        return None;
                    }
                };
                let magnitude = match argument {
                    None => NumberRange::default(),
                    Some(TypeArgument::Range(range)) if quantized.is_some() => {
                        return self.quantized_magnitude(range);
                    }
                    Some(TypeArgument::Range(range)) => self.magnitude_range(range)?,
                    Some(argument) => return self.no_argument(name, argument),
                };
                TypeKind::Vector {
                    component,
                    quantized,
                    magnitude,
                }
            }
            "CFrame" => {
                let (position, rotation) = match components {
                    [] => (NumberKind::F32, NumberKind::F32),
                    [both] => {
                        let kind = self.component(both)?;
                        (kind, kind)
                    }
                    [position, rotation] => {
                        let position = self.component(position);
                        let rotation = self.component(rotation);
                        (position?, rotation?)
                    }
                    _ => {
                        self.report(
                            Diagnostic::error(
                                codes::INVALID_COMPONENT,
                                format!("`CFrame` takes at most two component types, not {}", components.len()),
                                components_span.unwrap_or(span),
                                "too many components",
                            )
                            .with_note("write `CFrame<P, R>`: P for the position, R for the rotation"),
                        );
                        return None;
                    }
                };
                if let Some(argument) = argument {
                    return self.no_argument(name, argument);
                }
                TypeKind::CFrame { position, rotation }
            }
            "Instance" => match argument {
                None => TypeKind::Instance { class: None },
                Some(TypeArgument::Class(class)) => TypeKind::Instance {
                    class: Some(class.text.clone()),
                },
                Some(argument) => return self.no_argument(name, argument),
            },
            other => {
                if let Some(argument) = argument {
                    return self.no_argument(other, argument);
                }
                match other {
                    "Color3" => TypeKind::Color3,
                    "BrickColor" => TypeKind::BrickColor,
                    "DateTime" => TypeKind::DateTime,
                    "DateTimeMillis" => TypeKind::DateTimeMillis,
                    _ => TypeKind::Unknown,
                }
            }
        };
        let layout = match &kind {
            TypeKind::Vector {
                quantized: Some(quantized),
                ..
            } => layout::fixed(3 * quantized.bytes()),
            TypeKind::Vector { component, .. } => layout::fixed(3 * component.size()),
            TypeKind::CFrame { position, rotation } => layout::fixed(3 * position.size() + 3 * rotation.size()),
            TypeKind::Color3 => layout::fixed(3),
            TypeKind::BrickColor => layout::fixed(2),
            TypeKind::DateTime | TypeKind::DateTimeMillis => layout::fixed(8),
            _ => layout::side_array(),
        };
        Some(Type { kind, layout })
    }

    fn no_argument(&mut self, name: &str, argument: &TypeArgument) -> Option<Type> {
        let (span, message, label) = match argument {
            TypeArgument::Range(range) => (range.span, format!("`{name}` cannot take a range"), "no range here"),
            TypeArgument::Class(class) => (
                class.span,
                format!("`{name}` cannot take a class name"),
                "only `Instance(Class)` takes a class",
            ),
        };
        let note = match argument {
            TypeArgument::Range(_) => {
                "ranges go on numbers (value bounds), `string`/`buffer` (length) and `vector` (magnitude)"
            }
            TypeArgument::Class(_) => "write `Instance(ClassName)` to accept only that class",
        };
        self.report(Diagnostic::error(codes::RANGE_NOT_ALLOWED, message, span, label).with_note(note));
        None
    }

    /// A vector's component: a number primitive, or a quantized float (`f32(0..1 step 1/8)`).
    fn vector_component(&mut self, expr: &ast::TypeExpr) -> Option<(NumberKind, Option<Quantized>)> {
        if let TypeExprKind::Named {
            path,
            arguments_span: None,
            argument: Some(TypeArgument::Range(range @ ast::Range { step: Some(step), .. })),
            ..
        } = &expr.kind
            && let [name] = path.as_slice()
            && let Some(kind) = NumberKind::named(&name.text)
        {
            let quantized = self.quantized(kind, range, step)?;
            return Some((kind, Some(quantized)));
        }
        Some((self.component(expr)?, None))
    }

    /// A component type: one of the number primitives, written directly.
    fn component(&mut self, expr: &ast::TypeExpr) -> Option<NumberKind> {
        if let TypeExprKind::Named {
            path,
            arguments_span: None,
            argument: None,
            ..
        } = &expr.kind
            && let [name] = path.as_slice()
            && let Some(kind) = NumberKind::named(&name.text)
        {
            return Some(kind);
        }
        self.report(
            Diagnostic::error(
                codes::INVALID_COMPONENT,
                "a component must be a number type",
                expr.span,
                "cannot be used as a component",
            )
            .with_note("components are `u8`, `u16`, `u32`, `i8`, `i16`, `i32`, `f16`, `f32` or `f64`"),
        );
        None
    }

    /// Value bounds of a number type.
    pub(super) fn number_range(&mut self, kind: NumberKind, range: &ast::Range) -> Option<NumberRange> {
        let (low, high) = kind.limits();
        let mut ok = true;
        for bound in bounds(range) {
            if !kind.is_float() && !bound.is_integer() {
                self.report(
                    Diagnostic::error(
                        codes::FRACTIONAL_BOUND,
                        format!(
                            "`{}` is an integer type, but `{}` is not an integer",
                            kind.keyword(),
                            bound.text
                        ),
                        bound.span,
                        "fractional bound",
                    )
                    .with_note(format!(
                        "use a whole number, or a float type such as `f32({}..)`",
                        bound.text
                    )),
                );
                ok = false;
            } else if bound.value < low || bound.value > high {
                self.report(
                    Diagnostic::error(
                        codes::BOUND_OUT_OF_LIMITS,
                        format!("`{}` is outside the limits of `{}`", bound.text, kind.keyword()),
                        bound.span,
                        format!("`{}` holds {} to {}", kind.keyword(), show(low), show(high)),
                    )
                    .with_note("use a wider type, or a bound inside the limits"),
                );
                ok = false;
            }
        }
        ok &= self.check_order(range);
        ok.then(|| written_range(range))
    }

    fn magnitude_range(&mut self, range: &ast::Range) -> Option<NumberRange> {
        let mut ok = self.no_step(range, "a vector's magnitude");
        for bound in bounds(range) {
            if bound.value < 0.0 {
                self.report(
                    Diagnostic::error(
                        codes::BOUND_OUT_OF_LIMITS,
                        format!(
                            "a vector's magnitude cannot be negative, but the bound is `{}`",
                            bound.text
                        ),
                        bound.span,
                        "negative magnitude",
                    )
                    .with_note("a vector's range bounds its length: `vector(..512)`"),
                );
                ok = false;
            }
        }
        ok &= self.check_order(range);
        ok.then(|| written_range(range))
    }

    /// A length or count: whole, non-negative, at most `u32::MAX`.
    pub(super) fn length_range(&mut self, range: &ast::Range, what: &str) -> Option<LengthRange> {
        let mut ok = self.no_step(range, what);
        for bound in bounds(range) {
            if !bound.is_integer() {
                self.report(
                    Diagnostic::error(
                        codes::FRACTIONAL_BOUND,
                        format!("{what} must be a whole number, not `{}`", bound.text),
                        bound.span,
                        "fractional length",
                    )
                    .with_note("lengths count bytes or elements"),
                );
                ok = false;
            } else if bound.value < 0.0 || bound.value > f64::from(u32::MAX) {
                self.report(
                    Diagnostic::error(
                        codes::BOUND_OUT_OF_LIMITS,
                        format!("{what} must be between 0 and {}, not `{}`", u32::MAX, bound.text),
                        bound.span,
                        "out of range",
                    )
                    .with_note("lengths count bytes or elements"),
                );
                ok = false;
            }
        }
        ok &= self.check_order(range);
        if !ok {
            return None;
        }
        Some(LengthRange {
            min: range.min.as_ref().map_or(0, |n| n.value as u32),
            max: range.max.as_ref().map(|n| n.value as u32),
        })
    }

    fn check_order(&mut self, range: &ast::Range) -> bool {
        if let (Some(min), Some(max)) = (&range.min, &range.max)
            && min.value > max.value
        {
            self.report(
                Diagnostic::error(
                    codes::REVERSED_RANGE,
                    format!("the range `{}..{}` is reversed", min.text, max.text),
                    range.span,
                    "minimum above maximum",
                )
                .with_note(format!("write the smaller bound first: `({}..{})`", max.text, min.text)),
            );
            return false;
        }
        true
    }
}
