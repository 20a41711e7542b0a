//! Reading arrays (`boolean[]` packed 8 to a byte) and maps, their counts checked against
//! the bytes left before the loop, their floats checked together after it.

use blinkblox_schema::model::{LengthRange, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::decode_checks::decode_checks_enabled;
use crate::luau::forms::{Form, TwoForms};
use crate::luau::layout::{is_string_run, offset_plus, string_key_and_fixed_value};
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// An array at the cursor: its length (prefixed unless exact), then its elements.
    pub(super) fn read_array(&mut self, element: &Type, length: &LengthRange, path: &ValuePath) -> String {
        let schema = self.schema;
        let element = resolve(schema, element);
        let len = self.read_length(length, path);
        let item_path = path.element("");
        if matches!(element.kind, TypeKind::Boolean) {
            self.need_bytes(&format!("({len} + 7) // 8"));
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line_fmt(format_args!("{cursor} = {offset} + ({len} + 7) // 8"));
            return self.read_packed_booleans(&len, &offset);
        }
        let array = self.b.fresh("Array");
        match element.layout.fixed_size {
            Some(size) if size > 0 => {
                self.need_bytes(&format!("{len} * {size}"));
                let at = self.cursor;
                let cursor = self.local("P", at);
                self.b.line_fmt(format_args!("{at} = {cursor} + {len} * {size}"));
                self.b
                    .line_fmt(format_args!("local {array}: {{ any }} = table.create({len})"));
                // The count check above (unless checks are compiled out) covers the bytes.
                self.summing_floats(element, &item_path, |reader| {
                    reader.fixed_element_loop(element, &len, &cursor, &array, &item_path, decode_checks_enabled());
                });
            }
            _ => {
                if length.exact().is_none() {
                    self.guard_count(&len, element.layout.min_size, element.layout.uses_instances, path);
                }
                if let TypeKind::String { length } = &element.kind
                    && is_string_run(element)
                {
                    self.read_string_array(&array, &len, length, &item_path);
                    return array;
                }
                let position = self.b.fresh("I");
                self.b
                    .line_fmt(format_args!("local {array}: {{ any }} = table.create({len})"));
                self.summing_floats(element, &item_path, |reader| {
                    reader.b.open_fmt(format_args!("for {position} = 1, {len} do"));
                    let item = reader.read(element, &item_path);
                    reader.b.line_fmt(format_args!("{array}[{position}] = {item}"));
                    reader.b.close("end");
                });
            }
        }
        array
    }

    /// An array of exact length and fixed-size elements at `offset`.
    pub(super) fn read_exact_array(
        &mut self,
        element: &Type,
        length: &LengthRange,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        let n = length.exact().unwrap_or(0);
        let element = resolve(self.schema, element);
        if matches!(element.kind, TypeKind::Boolean) {
            return self.read_packed_booleans(&n.to_string(), offset);
        }
        let array = self.typed_local("Array", "{ any }", &format!("table.create({n})"));
        let cursor = self.local("P", offset);
        let item_path = path.element("");
        self.summing_floats(element, &item_path, |reader| {
            reader.fixed_element_loop(element, &n.to_string(), &cursor, &array, &item_path, false);
        });
        array
    }

    /// `boolean[]`, 8 to a byte, read by rows of eight. Two loops, chosen by the module's
    /// `Interpreted` (prelude): natively compiled code tests the eight bits, where each
    /// test is a few instructions; interpreted code calls the runtime's `UnpackBooleanRows`,
    /// which copies one of 256 prepared rows a byte and is not natively compiled.
    fn read_packed_booleans(&mut self, len: &str, offset: &str) -> String {
        let array = self.typed_local("Array", "{ any }", &format!("table.create({len})"));
        let rows = self.local("Rows", &format!("{len} // 8"));
        let row = self.b.fresh("Row");
        self.in_each_form(|reader| {
            if reader.form == Form::Interpreted {
                reader
                    .b
                    .line_fmt(format_args!("UnpackBooleanRows({array}, B, {offset}, {rows})"));
            } else {
                reader.b.open_fmt(format_args!("for {row} = 0, {rows} - 1 do"));
                let byte = reader.local("Byte", &format!("buffer.readu8(B, {offset} + {row})"));
                let base = reader.local("Base", &format!("{row} * 8"));
                for bit in 0..8u32 {
                    reader.b.line_fmt(format_args!(
                        "{array}[{base} + {}] = bit32.btest({byte}, {})",
                        bit + 1,
                        1u32 << bit
                    ));
                }
                reader.b.close("end");
            }
        });
        let tail = self.local("Tail", &format!("{len} % 8"));
        self.b.open_fmt(format_args!("if {tail} > 0 then"));
        let byte = self.local("Byte", &format!("buffer.readu8(B, {offset} + {rows})"));
        let base = self.local("Base", &format!("{rows} * 8"));
        let bit = self.b.fresh("Bit");
        self.b.open_fmt(format_args!("for {bit} = 1, {tail} do"));
        self.b.line_fmt(format_args!(
            "{array}[{base} + {bit}] = bit32.btest({byte}, bit32.lshift(1, {bit} - 1))"
        ));
        self.b.close("end");
        self.b.close("end");
        array
    }

    /// A map at the cursor: its count (prefixed unless exact), then key and value pairs.
    pub(super) fn read_map(&mut self, key: &Type, value: &Type, length: &LengthRange, path: &ValuePath) -> String {
        let schema = self.schema;
        let len = self.read_length(length, path);
        let entry_min = resolve(schema, key).layout.min_size + resolve(schema, value).layout.min_size;
        self.guard_count(
            &len,
            entry_min,
            key.layout.uses_instances || value.layout.uses_instances,
            path,
        );
        let map = self.b.fresh("Map");
        self.b.line_fmt(format_args!("local {map}: {{ [any]: any }} = {{}}"));
        let fused = string_key_and_fixed_value(schema, key, value);
        self.summing_floats(value, path, |reader| {
            reader.b.open_fmt(format_args!("for _ = 1, {len} do"));
            if let Some((key_length, size)) = fused {
                reader.read_string_and_fixed(&map, key_length, value, size, path);
            } else {
                let key_expr = reader.checking_each_float(|reader| reader.read(key, path));
                let key_local = reader.local("Key", &key_expr);
                let value_expr = reader.read(value, path);
                reader.b.line_fmt(format_args!("{map}[{key_local}] = {value_expr}"));
            }
            reader.b.close("end");
        });
        map
    }

    /// One entry of a map whose key is a string and whose value has a fixed size: the
    /// key's length, then one check that the key's bytes and the value's are left.
    fn read_string_and_fixed(
        &mut self,
        map: &str,
        key_length: &LengthRange,
        value: &Type,
        size: u32,
        path: &ValuePath,
    ) {
        let len = self.read_length(key_length, path);
        self.need_bytes(&format!("{len} + {size}"));
        let cursor = self.cursor;
        let key = self.local("Key", &format!("buffer.readstring(B, {cursor}, {len})"));
        let value_expr = self.read_at(value, &format!("{cursor} + {len}"), path);
        self.b.line_fmt(format_args!("{map}[{key}] = {value_expr}"));
        self.b.line_fmt(format_args!("{cursor} += {len} + {size}"));
    }

    /// A map of exact count with fixed-size keys and values at `offset`.
    pub(super) fn read_exact_map(
        &mut self,
        key: &Type,
        value: &Type,
        length: &LengthRange,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        let schema = self.schema;
        let n = length.exact().unwrap_or(0);
        let key_size = resolve(schema, key).layout.fixed_size.unwrap_or(0);
        let value_size = resolve(schema, value).layout.fixed_size.unwrap_or(0);
        let map = self.typed_local("Map", "{ [any]: any }", "{}");
        let cursor = self.local("P", offset);
        self.summing_floats(value, path, |reader| {
            reader.b.open_fmt(format_args!("for _ = 1, {n} do"));
            let key_expr = reader.checking_each_float(|reader| reader.read_at(key, &cursor, path));
            let key_local = reader.local("Key", &key_expr);
            let at = offset_plus(&cursor, key_size);
            let value_expr = reader.read_at(value, &at, path);
            reader.b.line_fmt(format_args!("{map}[{key_local}] = {value_expr}"));
            reader.b.line_fmt(format_args!("{cursor} += {}", key_size + value_size));
            reader.b.close("end");
        });
        map
    }
}
