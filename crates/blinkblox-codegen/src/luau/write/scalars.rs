//! Writing numbers at their width (little-endian, f16 as IEEE half), vectors, CFrames
//! (position and orientation) and colours.

use blinkblox_schema::model::{NumberKind, Quantized};
use blinkblox_schema::print::quantized_text;

use super::Writer;
use crate::luau::layout::offset_plus;
use crate::luau::naming::string_literal;
use crate::luau::quantized::{steps_of, write_steps};

/// The Luau call writing `value` as a number of `kind` at `offset` of `buffer`.
pub fn write_number_call(kind: NumberKind, buffer: &str, offset: &str, value: &str) -> String {
    match kind {
        NumberKind::U8 => format!("buffer.writeu8({buffer}, {offset}, {value})"),
        NumberKind::U16 => format!("buffer.writeu16({buffer}, {offset}, {value})"),
        NumberKind::U32 => format!("buffer.writeu32({buffer}, {offset}, {value})"),
        NumberKind::I8 => format!("buffer.writei8({buffer}, {offset}, {value})"),
        NumberKind::I16 => format!("buffer.writei16({buffer}, {offset}, {value})"),
        NumberKind::I32 => format!("buffer.writei32({buffer}, {offset}, {value})"),
        NumberKind::F16 => format!("buffer.writeu16({buffer}, {offset}, F16Bits({value}))"),
        NumberKind::F32 => format!("buffer.writef32({buffer}, {offset}, {value})"),
        NumberKind::F64 => format!("buffer.writef64({buffer}, {offset}, {value})"),
    }
}

impl Writer<'_> {
    pub(super) fn write_number(&mut self, kind: NumberKind, value: &str, offset: &str) {
        self.b.line(write_number_call(kind, "SendBuffer", offset, value));
    }

    /// The steps from the minimum, rounded to the nearest; outside the range (or NaN) they go
    /// through `QuantizeOutside`, which raises in Studio and clamps in a live game.
    pub(super) fn write_quantized(&mut self, quantized: &Quantized, value: &str, offset: &str, followed: bool) {
        let v = self.bind(value);
        let q = self.b.fresh("Q");
        let last = quantized.steps;
        self.b.line_fmt(format_args!("local {q} = {}", steps_of(quantized, &v)));
        self.b.line_fmt(format_args!(
            "if not ({q} >= 0 and {q} <= {last}) then {q} = QuantizeOutside({v}, {q}, {last}, {}) end",
            string_literal(&quantized_text(quantized))
        ));
        for line in write_steps(quantized, "SendBuffer", offset, &q, followed) {
            self.b.line(line);
        }
    }

    /// Each axis as a quantized number, X, Y then Z (the next axis covers what X and Y write
    /// past their own bytes).
    pub(super) fn write_quantized_vector(&mut self, quantized: &Quantized, value: &str, offset: &str) {
        let v = self.bind(value);
        let size = quantized.bytes();
        for (i, axis) in ["X", "Y", "Z"].iter().enumerate() {
            let at = offset_plus(offset, size * i as u32);
            self.write_quantized(quantized, &format!("{v}.{axis}"), &at, i < 2);
        }
    }

    pub(super) fn write_vector(&mut self, component: NumberKind, value: &str, offset: &str) {
        let v = self.bind(value);
        let size = component.size();
        for (i, axis) in ["X", "Y", "Z"].iter().enumerate() {
            let at = offset_plus(offset, size * i as u32);
            self.b
                .line(write_number_call(component, "SendBuffer", &at, &format!("{v}.{axis}")));
        }
    }

    pub(super) fn write_cframe(&mut self, position: NumberKind, rotation: NumberKind, value: &str, offset: &str) {
        let v = self.bind(value);
        let p = self.b.fresh("Position");
        let (rx, ry, rz) = (self.b.fresh("RX"), self.b.fresh("RY"), self.b.fresh("RZ"));
        self.b.line_fmt(format_args!("local {p} = {v}.Position"));
        self.b
            .line_fmt(format_args!("local {rx}, {ry}, {rz} = {v}:ToOrientation()"));
        let ps = position.size();
        for (i, axis) in ["X", "Y", "Z"].iter().enumerate() {
            let at = offset_plus(offset, ps * i as u32);
            self.b
                .line(write_number_call(position, "SendBuffer", &at, &format!("{p}.{axis}")));
        }
        let rs = rotation.size();
        for (i, angle) in [&rx, &ry, &rz].iter().enumerate() {
            let at = offset_plus(offset, ps * 3 + rs * i as u32);
            self.b.line(write_number_call(rotation, "SendBuffer", &at, angle));
        }
    }

    pub(super) fn write_color3(&mut self, value: &str, offset: &str) {
        let v = self.bind(value);
        for (i, channel) in ["R", "G", "B"].iter().enumerate() {
            let at = offset_plus(offset, i as u32);
            self.b.line_fmt(format_args!(
                "buffer.writeu8(SendBuffer, {at}, math.round({v}.{channel} * 255))"
            ));
        }
    }
}
