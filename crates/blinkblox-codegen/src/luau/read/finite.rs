//! The finite check of the floats of an array or a map, made once for the whole loop: each
//! double read adds `N - N` to one local (0 for a finite number, NaN for NaN or an
//! infinity, and NaN stays NaN through any sum), each `f32` or `f16` adds itself (one
//! instruction fewer: a sum of them cannot overflow a double, it would take 10^269 values
//! of the largest), and one comparison after the loop, `Sum - Sum ~= 0`, rejects the
//! packet when the sum is not finite. A branch per value costs more than the decode of the
//! value itself on the number-heavy payloads; the sum has none, and nothing reaches a
//! listener before the comparison.

use blinkblox_schema::model::{Schema, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::decode_checks::decode_checks_enabled;
use crate::luau::value_path::ValuePath;

/// How deep [`reads_unchecked_float`] looks into nested types before it assumes a float.
const MAX_DEPTH: u32 = 32;

impl Reader<'_> {
    /// Emits a loop (`body`) over values of type `element` at `path`. When the values hold
    /// floats read with only the finite check, the loop is preceded by the local that sums
    /// them and followed by its test; inside a loop that already sums, `body` adds to that one.
    pub(super) fn summing_floats(&mut self, element: &Type, path: &ValuePath, body: impl FnOnce(&mut Self)) {
        if self.finite_sum.is_some()
            || self.allow_non_finite
            || !decode_checks_enabled()
            || !reads_unchecked_float(self.schema, element, 0)
        {
            body(self);
            return;
        }
        let sum = self.local("Finite", "0");
        self.finite_sum = Some(sum.clone());
        body(self);
        self.finite_sum = None;
        let fail = self.fail(path, "number is NaN or infinite");
        self.b.line_fmt(format_args!("if {sum} - {sum} ~= 0 then {fail} end"));
    }

    /// Emits `body` outside any loop's sum: for map keys, which are checked one by one (a
    /// NaN key would raise on its own when the map is filled).
    pub(super) fn checking_each_float(&mut self, body: impl FnOnce(&mut Self) -> String) -> String {
        let sum = self.finite_sum.take();
        let value = body(self);
        self.finite_sum = sum;
        value
    }
}

/// Whether reading `ty` reads a float whose only check is that it is finite (a number with
/// no range, or a vector's or CFrame's component); a range is checked with the value.
fn reads_unchecked_float(schema: &Schema, ty: &Type, depth: u32) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    let ty = resolve(schema, ty);
    let inner = |ty: &Type| reads_unchecked_float(schema, ty, depth + 1);
    match &ty.kind {
        TypeKind::Number { kind, range } => kind.is_float() && range.min.is_none() && range.max.is_none(),
        TypeKind::Vector {
            component, quantized, ..
        } => quantized.is_none() && component.is_float(),
        TypeKind::CFrame { .. } => true,
        TypeKind::Optional(value) | TypeKind::Array { element: value, .. } => inner(value),
        TypeKind::Map { key, value, .. } => inner(key) || inner(value),
        TypeKind::Struct(body) => body.fields.iter().any(|field| inner(&field.ty)),
        TypeKind::TaggedEnum(tagged) => tagged
            .variants
            .iter()
            .any(|variant| variant.body.fields.iter().any(|field| inner(&field.ty))),
        _ => false,
    }
}
