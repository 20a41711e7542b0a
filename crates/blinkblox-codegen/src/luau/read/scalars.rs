//! Reading numbers, booleans, vectors, CFrames, colours and times, each checked as the
//! schema says: ranges, finite floats, boolean bytes, vector magnitudes.

use blinkblox_schema::model::{NumberKind, NumberRange, Quantized};

use super::Reader;
use crate::luau::conditions::range_condition;
use crate::luau::layout::offset_plus;
use crate::luau::quantized::{read_steps, value_of};
use crate::luau::value_path::ValuePath;

/// The Luau call reading a number of `kind` at `offset` of the packet `B`.
pub fn read_number_call(kind: NumberKind, offset: &str) -> String {
    match kind {
        NumberKind::U8 => format!("buffer.readu8(B, {offset})"),
        NumberKind::U16 => format!("buffer.readu16(B, {offset})"),
        NumberKind::U32 => format!("buffer.readu32(B, {offset})"),
        NumberKind::I8 => format!("buffer.readi8(B, {offset})"),
        NumberKind::I16 => format!("buffer.readi16(B, {offset})"),
        NumberKind::I32 => format!("buffer.readi32(B, {offset})"),
        NumberKind::F16 => format!("F16Value(buffer.readu16(B, {offset}))"),
        NumberKind::F32 => format!("buffer.readf32(B, {offset})"),
        NumberKind::F64 => format!("buffer.readf64(B, {offset})"),
    }
}

impl Reader<'_> {
    /// A number read at `offset`, checked as the schema says.
    pub(super) fn read_number(
        &mut self,
        kind: NumberKind,
        range: &NumberRange,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        self.checked_number(kind, range, read_number_call(kind, offset), path)
    }

    /// A number (`expr` reads it) checked as the schema says.
    pub(super) fn checked_number(
        &mut self,
        kind: NumberKind,
        range: &NumberRange,
        expr: String,
        path: &ValuePath,
    ) -> String {
        let (low, high) = kind.limits();
        let narrower = range.min.is_some_and(|m| m > low) || range.max.is_some_and(|m| m < high);
        if kind.is_float() {
            if range.min.is_some() || range.max.is_some() {
                let value = self.local("N", &expr);
                let (mut condition, _) = range_condition(range, &value);
                let both_bounds = range.min.is_some() && range.max.is_some();
                if !both_bounds && !self.allow_non_finite {
                    condition.push_str(&format!(" and {value} - {value} == 0"));
                }
                let fail = self.fail(path, "number out of range");
                self.guard(format!("if not ({condition}) then {fail} end"));
                return value;
            }
            if !self.allow_non_finite {
                let value = self.local("N", &expr);
                if let Some(sum) = self.finite_sum.clone() {
                    // A double adds `N - N` (0, or NaN), since a sum of finite doubles can
                    // overflow; narrower floats add themselves (`finite.rs`).
                    if kind == NumberKind::F64 {
                        self.guard(format!("{sum} += {value} - {value}"));
                    } else {
                        self.guard(format!("{sum} += {value}"));
                    }
                    return value;
                }
                let fail = self.fail(path, "number is NaN or infinite");
                self.guard(format!("if {value} - {value} ~= 0 then {fail} end"));
                return value;
            }
            return expr;
        }
        if narrower {
            let value = self.local("N", &expr);
            let (bounds, _) = range_condition(range, &value);
            let fail = self.fail(path, "number out of range");
            self.guard(format!("if not ({bounds}) then {fail} end"));
            return value;
        }
        expr
    }

    /// A quantized number: its steps, refused above the last one (unless every value of its
    /// bytes is a step), and the value they stand for. Always finite.
    pub(super) fn read_quantized(
        &mut self,
        quantized: &Quantized,
        offset: &str,
        followed: bool,
        path: &ValuePath,
    ) -> String {
        let q = self.local("Q", &read_steps(quantized, offset, followed));
        if !quantized.fills_its_bytes() {
            let fail = self.fail(path, "quantized number out of range");
            self.guard(format!("if {q} > {} then {fail} end", quantized.steps));
        }
        value_of(quantized, &q)
    }

    /// A component of a vector or CFrame: floats must be finite unless allowed.
    fn read_component(&mut self, kind: NumberKind, offset: &str, path: &ValuePath) -> String {
        self.read_number(kind, &NumberRange::default(), offset, path)
    }

    /// A boolean byte, which must be 0 or 1.
    pub(super) fn read_boolean(&mut self, offset: &str, path: &ValuePath) -> String {
        let byte = self.local("Bool", &format!("buffer.readu8(B, {offset})"));
        let fail = self.fail(path, "boolean byte is not 0 or 1");
        self.guard(format!("if {byte} > 1 then {fail} end"));
        format!("{byte} == 1")
    }

    /// Three components, and the magnitude checked when the schema bounds it.
    pub(super) fn read_vector(
        &mut self,
        component: NumberKind,
        magnitude: &NumberRange,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        let size = component.size();
        let parts: Vec<String> = (0..3)
            .map(|i| self.read_component(component, &offset_plus(offset, size * i), path))
            .collect();
        let built = format!("Vector3.new({})", parts.join(", "));
        let (bounds, _) = range_condition(magnitude, "M");
        if bounds == "true" {
            return built;
        }
        let value = self.local("Vector", &built);
        let magnitude_expr = self.local("Magnitude", &format!("{value}.Magnitude"));
        let (bounds, _) = range_condition(magnitude, &magnitude_expr);
        let fail = self.fail(path, "vector magnitude out of range");
        self.guard(format!("if not ({bounds}) then {fail} end"));
        value
    }

    /// Three quantized axes (such a vector takes no magnitude bound: rounding moves its length).
    pub(super) fn read_quantized_vector(&mut self, quantized: &Quantized, offset: &str, path: &ValuePath) -> String {
        let size = quantized.bytes();
        let parts: Vec<String> = (0..3)
            .map(|i| self.read_quantized(quantized, &offset_plus(offset, size * i), i < 2, path))
            .collect();
        format!("Vector3.new({})", parts.join(", "))
    }

    /// A position and an orientation (three angles).
    pub(super) fn read_cframe(
        &mut self,
        position: NumberKind,
        rotation: NumberKind,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        let ps = position.size();
        let rs = rotation.size();
        let p: Vec<String> = (0..3)
            .map(|i| self.read_component(position, &offset_plus(offset, ps * i), path))
            .collect();
        let r: Vec<String> = (0..3)
            .map(|i| self.read_component(rotation, &offset_plus(offset, ps * 3 + rs * i), path))
            .collect();
        format!(
            "CFrame.new({}) * CFrame.fromOrientation({})",
            p.join(", "),
            r.join(", ")
        )
    }

    /// Three channel bytes.
    pub(super) fn read_color3(&mut self, offset: &str) -> String {
        let channels: Vec<String> = (0..3)
            .map(|i| format!("buffer.readu8(B, {})", offset_plus(offset, i)))
            .collect();
        format!("Color3.fromRGB({})", channels.join(", "))
    }

    /// A finite timestamp, in seconds or (not `seconds`) milliseconds.
    pub(super) fn read_date_time(&mut self, seconds: bool, offset: &str, path: &ValuePath) -> String {
        let stamp = self.local("Stamp", &format!("buffer.readf64(B, {offset})"));
        let fail = self.fail(path, "timestamp is NaN or infinite");
        self.guard(format!("if {stamp} - {stamp} ~= 0 then {fail} end"));
        let constructor = if seconds {
            "DateTime.fromUnixTimestamp"
        } else {
            "DateTime.fromUnixTimestampMillis"
        };
        format!("{constructor}({stamp})")
    }
}
