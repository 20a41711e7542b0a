//! Quantized numbers, `f32(-2048..2048 step 1/64)`: a float range cut into whole steps,
//! sent as the count of steps from the minimum. The step must divide the range, so that
//! both bounds are values the wire can carry, and the count must fit four bytes.

use super::Checker;
use crate::ast::{self, Step};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{NumberKind, Quantized};

/// How far `min + steps * step` may land from `max`, in steps, and the range still count as a
/// whole number of them: the rounding of decimal fractions such as `0.1`, never a remainder.
const WHOLE_TOLERANCE: f64 = 1e-6;

impl Checker<'_> {
    /// A number type with a step: checked bounds, a positive step that divides the range.
    pub(super) fn quantized(&mut self, kind: NumberKind, range: &ast::Range, step: &Step) -> Option<Quantized> {
        if !kind.is_float() {
            self.step_error(
                step,
                format!("`{}` is an integer type and cannot take a step", kind.keyword()),
                "a step needs a float type",
                format!(
                    "write `f32(…)` (or `f16`, `f64`) for a quantized number, or drop `step {}`",
                    step.text()
                ),
            );
            return None;
        }
        let (Some(min), Some(max), false) = (&range.min, &range.max, range.exact) else {
            self.step_error(
                step,
                "a quantized number needs both bounds".to_string(),
                if range.exact {
                    "one value, not a range"
                } else {
                    "the range is open"
                },
                format!(
                    "write the range it covers: `{}(-2048..2048 step {})`",
                    kind.keyword(),
                    step.text()
                ),
            );
            return None;
        };
        self.number_range(kind, range)?;
        let (min_value, max_value) = (min.value, max.value);
        let size = step.value();
        if !(size.is_finite() && size > 0.0) {
            self.step_error(
                step,
                format!("the step `{}` is not a positive number", step.text()),
                "not a step",
                "a step is the distance between two values the number can take, such as `0.5` or `1/64`".to_string(),
            );
            return None;
        }
        let count = (max_value - min_value) / size;
        let whole = count.round();
        if whole < 1.0 || (min_value + whole * size - max_value).abs() > WHOLE_TOLERANCE * size {
            let fits = if whole < 1.0 { 1.0 } else { whole };
            self.step_error(
                step,
                format!(
                    "`{}..{}` is not a whole number of steps of `{}`",
                    min.text,
                    max.text,
                    step.text()
                ),
                format!("{} steps", rounded(count, 12)),
                format!(
                    "choose a step that divides the range, or bounds {} steps apart: `{}..{}`",
                    fits,
                    min.text,
                    rounded(min_value + fits * size, 12)
                ),
            );
            return None;
        }
        if whole > f64::from(u32::MAX) {
            self.step_error(
                step,
                format!(
                    "`{}..{} step {}` has {whole} steps, more than four bytes hold",
                    min.text,
                    max.text,
                    step.text()
                ),
                "too fine",
                format!(
                    "a step of at least {} keeps it in four bytes; or use a plain `{}`",
                    rounded_up((max_value - min_value) / f64::from(u32::MAX)),
                    kind.keyword()
                ),
            );
            return None;
        }
        Some(Quantized {
            kind,
            min: min_value,
            max: max_value,
            step: size,
            step_text: step.text(),
            steps: whole as u32,
        })
    }

    /// A magnitude bound on a vector of quantized axes: each axis is rounded on its own, which
    /// moves the vector's length, so a value inside the bound could arrive outside it.
    pub(super) fn quantized_magnitude(&mut self, range: &ast::Range) -> Option<crate::model::Type> {
        self.report(
            Diagnostic::error(
                codes::INVALID_STEP,
                "a vector of quantized axes cannot bound its magnitude",
                range.span,
                "rounding each axis moves the length",
            )
            .with_note("bound each axis with its range instead: `vector<f32(-1..1 step 1/100)>`"),
        );
        None
    }

    /// Reports a step on a range that counts or bounds something other than a float's value.
    pub(super) fn no_step(&mut self, range: &ast::Range, what: &str) -> bool {
        let Some(step) = &range.step else {
            return true;
        };
        self.step_error(
            step,
            format!("{what} cannot take a step"),
            "not allowed here",
            "a step goes on a float's range: `f32(-2048..2048 step 1/64)`".to_string(),
        );
        false
    }

    fn step_error(&mut self, step: &Step, message: String, label: impl Into<String>, note: String) {
        self.report(Diagnostic::error(codes::INVALID_STEP, message, step.span, label).with_note(note));
    }
}

/// `value` to `digits` significant digits, for messages: `0.8999999999999999` reads `0.9`.
fn rounded(value: f64, digits: i32) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(digits - 1 - value.abs().log10().floor() as i32);
    (value * scale).round() / scale
}

/// A positive `value` rounded up to two significant digits: a step suggested as the least
/// that fits must not fall below it.
fn rounded_up(value: f64) -> f64 {
    let scale = 10f64.powi(1 - value.log10().floor() as i32);
    (value * scale).ceil() / scale
}
