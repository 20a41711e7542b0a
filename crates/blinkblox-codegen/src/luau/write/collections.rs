//! Writing arrays (`boolean[]` packed 8 to a byte) and maps, each with its count unless
//! exact.

use blinkblox_schema::model::{LengthRange, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Writer;
use crate::luau::forms::{Form, TwoForms};
use crate::luau::layout::{fixed_size_of, is_string_run, offset_plus, string_key_and_fixed_value};

impl Writer<'_> {
    /// An array: its length unless exact, then its elements (`boolean[]` packed).
    pub(super) fn write_array(&mut self, element: &Type, length: &LengthRange, value: &str) {
        let schema = self.schema;
        let element = resolve(schema, element);
        let array = self.bind(value);
        let len = self.b.fresh("Length");
        let prefixed = length.exact().is_none();
        match length.exact() {
            Some(n) => self.b.line_fmt(format_args!("local {len} = {n}")),
            None => self.b.line_fmt(format_args!("local {len} = #{array}")),
        }
        // The length prefix and the elements' bytes in one reservation when the
        // elements have a fixed size.
        let reserve = |writer: &mut Self, offset: &str, bytes: &str| {
            if prefixed {
                writer.reserve_with_length(offset, &len, bytes);
            } else {
                writer.b.line_fmt(format_args!("local {offset} = Allocate({bytes})"));
            }
        };
        if matches!(element.kind, TypeKind::Boolean) {
            let offset = self.b.fresh("O");
            reserve(self, &offset, &format!("({len} + 7) // 8"));
            self.write_packed_booleans(&array, &len, &offset);
            return;
        }
        if prefixed && element.layout.fixed_size.is_none_or(|size| size == 0) {
            self.b.line_fmt(format_args!("WriteLength({len})"));
        }
        if is_string_run(element) {
            self.write_string_array(&array, &len);
            return;
        }
        let item = self.b.fresh("Item");
        let position = self.b.fresh("I");
        match element.layout.fixed_size {
            Some(0) => {
                self.b.open_fmt(format_args!("for {position} = 1, {len} do"));
                self.write_at(element, &format!("{array}[{position}]"), "0");
                self.b.close("end");
            }
            Some(size) => {
                // `ipairs` walks the array part without an index computation and a
                // bounds check per element, natively and interpreted. It stops at the
                // first nil, never past `#array`: a hole leaves the cursor short of `Stop`
                // and raises, as indexing the nil element would.
                let cursor = self.b.fresh("P");
                let stop = self.b.fresh("Stop");
                reserve(self, &cursor, &format!("{len} * {size}"));
                self.b
                    .line_fmt(format_args!("local {stop} = {cursor} + {len} * {size}"));
                // The loop writes through a local: the bytes are reserved, so nothing in it
                // grows the batch, and a local is a register where the module's SendBuffer is
                // an upvalue read for every value (a fifth of an interpreted f64[] write).
                let buffer = self.b.fresh("Buffer");
                self.b.line_fmt(format_args!("local {buffer} = SendBuffer"));
                let mark = self.b.mark();
                self.fixed_element_writes(element, |writer| {
                    writer.b.open_fmt(format_args!("for _, {item} in ipairs({array}) do"));
                    writer.write_at(element, &item, &cursor);
                    writer.b.line_fmt(format_args!("{cursor} += {size}"));
                    writer.b.close("end");
                });
                self.b.replace_since(mark, "(SendBuffer,", &format!("({buffer},"));
                self.b.line_fmt(format_args!(
                    "if {cursor} ~= {stop} then error(`[BlinkBlox] the array has no value at position {{{len} - ({stop} - {cursor}) // {size} + 1}}`, 2) end"
                ));
            }
            None => {
                self.b.open_fmt(format_args!("for {position} = 1, {len} do"));
                self.write(element, &format!("{array}[{position}]"));
                self.b.close("end");
            }
        }
    }

    /// An array of exact length and fixed-size elements at `offset`.
    pub(super) fn write_exact_array(&mut self, element: &Type, length: &LengthRange, value: &str, offset: &str) {
        let schema = self.schema;
        let n = length.exact().unwrap_or(0);
        let array = self.bind(value);
        let element = resolve(schema, element);
        if matches!(element.kind, TypeKind::Boolean) {
            self.write_packed_booleans(&array, &n.to_string(), offset);
            return;
        }
        let size = element.layout.fixed_size.unwrap_or(0);
        let position = self.b.fresh("I");
        let cursor = self.b.fresh("P");
        let item = self.b.fresh("Item");
        self.b.line_fmt(format_args!("local {cursor} = {offset}"));
        self.fixed_element_writes(element, |writer| {
            writer.b.open_fmt(format_args!("for {position} = 1, {n} do"));
            writer.b.line_fmt(format_args!("local {item} = {array}[{position}]"));
            writer.write_at(element, &item, &cursor);
            if size > 0 {
                writer.b.line_fmt(format_args!("{cursor} += {size}"));
            }
            writer.b.close("end");
        });
    }

    /// `boolean[]` packed 8 to a byte (first value in the lowest bit): 32 values a
    /// `writeu32` (little-endian, so the same bytes as four rows of eight), then rows of
    /// eight, then the last bits. Each value sets its bit with an `if` statement rather
    /// than an `if` expression summed: fewer instructions. The runs of 32 have two forms,
    /// chosen by the module's `Interpreted` (prelude): natively, values tested in place;
    /// interpreted, the runtime's `PackBooleanWords`, which is not natively compiled, so
    /// that a native function does not carry code it never runs.
    fn write_packed_booleans(&mut self, array: &str, len: &str, offset: &str) {
        let cursor = self.b.fresh("P");
        let index = self.b.fresh("I");
        let word = self.b.fresh("Word");
        self.b.line_fmt(format_args!("local {cursor} = {offset}"));
        self.in_each_form(|writer| {
            if writer.form == Form::Interpreted {
                writer
                    .b
                    .line_fmt(format_args!("{cursor} = PackBooleanWords({array}, {len}, {cursor})"));
            } else {
                writer.b.open_fmt(format_args!("for {index} = 1, {len} - 31, 32 do"));
                writer.emit_boolean_bits(&word, 32, |bit| format!("{array}[{}]", offset_plus(&index, bit)));
                writer
                    .b
                    .line_fmt(format_args!("buffer.writeu32(SendBuffer, {cursor}, {word})"));
                writer.b.line_fmt(format_args!("{cursor} += 4"));
                writer.b.close("end");
            }
        });
        let rows = self.b.fresh("Row");
        self.b
            .open_fmt(format_args!("for {rows} = {len} - {len} % 32 + 1, {len} - 7, 8 do"));
        self.emit_boolean_bits(&word, 8, |bit| format!("{array}[{}]", offset_plus(&rows, bit)));
        self.b
            .line_fmt(format_args!("buffer.writeu8(SendBuffer, {cursor}, {word})"));
        self.b.line_fmt(format_args!("{cursor} += 1"));
        self.b.close("end");
        let tail = self.b.fresh("Tail");
        self.b.line_fmt(format_args!("local {tail} = {len} % 8"));
        self.b.open_fmt(format_args!("if {tail} > 0 then"));
        let byte = self.b.fresh("Byte");
        let bit = self.b.fresh("Bit");
        let base = self.b.fresh("Base");
        self.b.line_fmt(format_args!("local {byte} = 0"));
        self.b.line_fmt(format_args!("local {base} = {len} - {tail}"));
        self.b.open_fmt(format_args!("for {bit} = 1, {tail} do"));
        self.b.line_fmt(format_args!(
            "if {array}[{base} + {bit}] then {byte} += bit32.lshift(1, {bit} - 1) end"
        ));
        self.b.close("end");
        self.b
            .line_fmt(format_args!("buffer.writeu8(SendBuffer, {cursor}, {byte})"));
        self.b.close("end");
    }

    /// `local word = 0` and one `if value then word += 2^k end` per value, `value(k)`
    /// reading the k-th (from 0).
    fn emit_boolean_bits(&mut self, word: &str, count: u32, value: impl Fn(u32) -> String) {
        self.b.line_fmt(format_args!("local {word} = 0"));
        for bit in 0..count {
            let mask = 1u64 << bit;
            if bit == 0 {
                self.b.line_fmt(format_args!("if {} then {word} = 1 end", value(bit)));
            } else {
                self.b
                    .line_fmt(format_args!("if {} then {word} += {mask} end", value(bit)));
            }
        }
    }

    /// A map: its count unless exact, then key and value pairs.
    pub(super) fn write_map(&mut self, key: &Type, value_ty: &Type, length: &LengthRange, value: &str) {
        let map = self.bind(value);
        if length.exact().is_none() {
            let count = self.b.fresh("Count");
            self.b.line_fmt(format_args!("local {count} = 0"));
            self.b.line_fmt(format_args!("for _ in {map} do {count} += 1 end"));
            self.b.line_fmt(format_args!("WriteLength({count})"));
        }
        let k = self.b.fresh("Key");
        let v = self.b.fresh("Item");
        self.b.open_fmt(format_args!("for {k}, {v} in {map} do"));
        match string_key_and_fixed_value(self.schema, key, value_ty) {
            Some((_, size)) => self.write_string_and_fixed(&k, value_ty, &v, size),
            None => {
                self.write(key, &k);
                self.write(value_ty, &v);
            }
        }
        self.b.close("end");
    }

    /// A string key and a fixed-size value after it, in one reservation: the key's length
    /// prefix, its bytes and the value's bytes, one size check an entry rather than two.
    fn write_string_and_fixed(&mut self, key: &str, value_ty: &Type, value: &str, size: u32) {
        let len = self.b.fresh("Length");
        let offset = self.b.fresh("O");
        self.b.line_fmt(format_args!("local {len} = #{key}"));
        self.reserve_with_length(&offset, &len, &format!("{len} + {size}"));
        self.b
            .line_fmt(format_args!("buffer.writestring(SendBuffer, {offset}, {key}, {len})"));
        self.write_at(value_ty, value, &format!("{offset} + {len}"));
    }

    /// A map of exact count with fixed-size keys and values at `offset`: pairs at
    /// constant strides.
    pub(super) fn write_exact_map(&mut self, key: &Type, value_ty: &Type, value: &str, offset: &str) {
        let schema = self.schema;
        let map = self.bind(value);
        let cursor = self.b.fresh("P");
        let (k, v) = (self.b.fresh("Key"), self.b.fresh("Item"));
        let key_size = fixed_size_of(schema, key);
        let value_size = fixed_size_of(schema, value_ty);
        self.b.line_fmt(format_args!("local {cursor} = {offset}"));
        self.b.open_fmt(format_args!("for {k}, {v} in {map} do"));
        self.write_at(key, &k, &cursor);
        self.b.line_fmt(format_args!("{cursor} += {key_size}"));
        self.write_at(value_ty, &v, &cursor);
        self.b.line_fmt(format_args!("{cursor} += {value_size}"));
        self.b.close("end");
    }
}
