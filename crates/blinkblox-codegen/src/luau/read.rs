//! Emits the receiving side: decoders that read values from the current packet and
//! check them as they go.
//!
//! Every decoder mirrors the writer in `write.rs` field for field. Reads return Luau
//! *expressions* so that a decoded struct is built with one table constructor holding
//! every field; an expression only refers to locals that never change after it is made
//! (fixed-block offsets), or is consumed before the loop cursor it uses moves.
//!
//! The checks (SPEC §3.4): lengths against their bounds and against the bytes left
//! before anything is allocated or looped over; numbers against ranges; floats finite
//! unless the schema allows non-finite values; enum, variant and set values against
//! their declarations; boolean bytes 0 or 1; Instances by `typeof` and `IsA`. A failed
//! check raises, which ends the packet inside its pcall.

use blinkblox_schema::model::{BitKind, LengthRange, NumberKind, NumberRange, Schema, StructType, Type, TypeKind};

use std::cell::Cell;

use super::builder::{CodeBuilder, Mark};
use super::check::range_condition;
use super::forms::{Form, TwoForms};
use super::naming::{index, string_literal, table_key};
use super::write::{offset_plus, tag_bytes};
use super::{Lookups, ValuePath, resolve};
use blinkblox_schema::wire::optional_has_flag;

thread_local! {
    static DECODE_CHECKS_OFF: Cell<bool> = const { Cell::new(false) };
}

/// Measurement only (the hardening benchmark): runs `generate` with the receive-side
/// checks left out of the decoders and the server's remotes entering through the plain
/// `ReceivePacket` (no size, byte budget or event count), so the price of the checks
/// can be measured. Never used to produce modules for a game.
#[doc(hidden)]
pub fn without_decode_checks<R>(generate: impl FnOnce() -> R) -> R {
    struct Restore;
    impl Drop for Restore {
        fn drop(&mut self) {
            DECODE_CHECKS_OFF.set(false);
        }
    }
    DECODE_CHECKS_OFF.set(true);
    let _restore = Restore;
    generate()
}

/// False only inside [`without_decode_checks`].
pub fn decode_checks_enabled() -> bool {
    !DECODE_CHECKS_OFF.get()
}

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

/// Reads use the packet's buffer through the local `B` (bound once per packet or per
/// reader function), a cursor and the packet's size.
pub struct Reader<'a> {
    pub schema: &'a Schema,
    pub b: &'a mut CodeBuilder,
    pub lookups: &'a mut Lookups,
    pub allow_non_finite: bool,
    /// The variable holding the read position: the module's `RecvCursor`, or the decode
    /// loop's local `Cursor` (a register rather than an upvalue read and written per
    /// value; the loop writes it back before anything that reads `RecvCursor`).
    pub cursor: &'static str,
    /// The variable holding the end of the packet: `RecvSize`, or the loop's `Size`.
    pub size: &'static str,
    /// The branch of a two-form path being emitted into (`forms.rs`).
    pub form: Form,
    /// In the interpreted loop of an array of structs with byte runs (`read_bytes.rs`):
    /// the local holding the packet as a string.
    pub packet_text: Option<String>,
}

impl TwoForms for Reader<'_> {
    fn form_mut(&mut self) -> &mut Form {
        &mut self.form
    }

    fn builder(&mut self) -> &mut CodeBuilder {
        self.b
    }
}

impl Reader<'_> {
    fn fail(&self, path: &ValuePath, problem: &str) -> String {
        format!("error({}, 0)", string_literal(&format!("{}: {problem}", path.text())))
    }

    /// Ends a tagged enum's `if index == … elseif …` chain with the branch that refuses an
    /// unknown variant (a `do` block when there are no variants to chain after).
    fn close_variant_chain(&mut self, no_variants: bool, path: &ValuePath) {
        if no_variants {
            self.b.open("do");
        } else {
            self.b.middle("else");
        }
        let fail = self.fail(path, "unknown variant");
        self.b.line(fail);
        self.b.close("end");
    }

    /// Emits a check line, unless the checks are compiled out for a measurement.
    fn guard(&mut self, line: String) {
        if decode_checks_enabled() {
            self.b.line(line);
        }
    }

    /// A fresh local with a type annotation (tables filled after they are made).
    fn typed_local(&mut self, stem: &str, luau_type: &str, expr: &str) -> String {
        let name = self.b.fresh(stem);
        self.b.line(format!("local {name}: {luau_type} = {expr}"));
        name
    }

    fn local(&mut self, stem: &str, expr: &str) -> String {
        let name = self.b.fresh(stem);
        self.b.line(format!("local {name} = {expr}"));
        name
    }

    /// Like [`Reader::read`], but the locals the value's code declares end with it
    /// ([`CodeBuilder::scope_since`]); the value is then held in one local named from `stem`.
    /// For the parts of a struct or a tuple: otherwise each part's locals would live until
    /// the whole is built.
    pub fn read_scoped(&mut self, ty: &Type, path: &ValuePath, stem: &str) -> String {
        let mark = self.b.mark();
        let value = self.read(ty, path);
        self.bind_scoped(mark, value, stem)
    }

    /// `value`, computed by the code written since `mark`: as it is when that code declared
    /// at most one local (holding it in a local of its own would keep as many), else held in
    /// one local while the code goes in a block of its own.
    pub(super) fn bind_scoped(&mut self, mark: Mark, value: String, stem: &str) -> String {
        if self.b.declared_count_since(mark) < 2 {
            return value;
        }
        let name = self.b.fresh(stem);
        self.bind_local(mark, &value, &name);
        name
    }

    /// `local {name} = {value}`, `value` computed by the code written since `mark`; when that
    /// code declared locals, it goes in a block of its own that ends them, with `name` declared
    /// ahead of it.
    pub(super) fn bind_local(&mut self, mark: Mark, value: &str, name: &str) {
        if !self
            .b
            .scope_since(mark, &format!("local {name}: any"), &format!("{name} = {value}"))
        {
            self.b.line(format!("local {name} = {value}"));
        }
    }

    /// Reads a value at the cursor and returns an expression for it.
    pub fn read(&mut self, ty: &Type, path: &ValuePath) -> String {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        if let Some(size) = ty.layout.fixed_size {
            if size == 0 {
                return self.read_at(ty, "0", path);
            }
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line(format!("{cursor} = {offset} + {size}"));
            return self.read_at(ty, &offset, path);
        }
        let cursor = self.cursor;
        match &ty.kind {
            TypeKind::Optional(inner) => {
                let flag = self.local("Flag", &format!("buffer.readu8(B, {cursor})"));
                self.b.line(format!("{cursor} += 1"));
                let value = self.b.fresh("Maybe");
                self.b.line(format!("local {value}: any = nil"));
                self.b.open(format!("if {flag} == 1 then"));
                let inner_value = self.read(inner, path);
                self.b.line(format!("{value} = {inner_value}"));
                self.b.middle(format!("elseif {flag} ~= 0 then"));
                let fail = self.fail(path, "optional flag is not 0 or 1");
                self.b.line(fail);
                self.b.close("end");
                value
            }
            TypeKind::String { length } => {
                let len = self.read_length(length, path);
                let text = self.local("Text", &format!("buffer.readstring(B, {cursor}, {len})"));
                self.b.line(format!("{cursor} += {len}"));
                text
            }
            TypeKind::Buffer { length } => {
                let len = self.read_length(length, path);
                self.need_bytes(&len);
                let data = self.local("Data", &format!("buffer.create({len})"));
                self.b.line(format!("buffer.copy({data}, 0, B, {cursor}, {len})"));
                self.b.line(format!("{cursor} += {len}"));
                data
            }
            TypeKind::Array { element, length } => self.read_array(element, length, path),
            TypeKind::Struct(body) => self.read_struct(body, None, path),
            TypeKind::TaggedEnum(tagged) => {
                let width = tag_bytes(tagged.variants.len());
                let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                let variant_index = self.local("Variant", &read_number_call(kind, cursor));
                self.b.line(format!("{cursor} += {width}"));
                let value = self.b.fresh("Tagged");
                self.b.line(format!("local {value}: any"));
                for (position, variant) in tagged.variants.iter().enumerate() {
                    let keyword = if position == 0 { "if" } else { "elseif" };
                    let condition = format!("{keyword} {variant_index} == {position} then");
                    if position == 0 {
                        self.b.open(condition);
                    } else {
                        self.b.middle(condition);
                    }
                    let tag_field = (table_key(&tagged.tag), string_literal(&variant.name));
                    let built = self.read_struct(&variant.body, Some(tag_field), path);
                    self.b.line(format!("{value} = {built}"));
                }
                self.close_variant_chain(tagged.variants.is_empty(), path);
                value
            }
            TypeKind::Map { key, value, length } => {
                let len = self.read_length(length, path);
                let entry_min = resolve(schema, key).layout.min_size + resolve(schema, value).layout.min_size;
                self.guard_count(
                    &len,
                    entry_min,
                    key.layout.uses_instances || value.layout.uses_instances,
                    path,
                );
                let map = self.b.fresh("Map");
                self.b.line(format!("local {map}: {{ [any]: any }} = {{}}"));
                self.b.open(format!("for _ = 1, {len} do"));
                let key_expr = self.read(key, path);
                let key_local = self.local("Key", &key_expr);
                let value_expr = self.read(value, path);
                self.b.line(format!("{map}[{key_local}] = {value_expr}"));
                self.b.close("end");
                map
            }
            _ => {
                // Every other kind is fixed-size in a well-formed model.
                let fail = self.fail(path, "type has no layout");
                self.b.line(fail);
                "nil".into()
            }
        }
    }

    /// A length prefix at the cursor. One byte (below 0x80: lengths up to 127) is read
    /// inline; longer prefixes go through `ReadLength`, which reads and moves
    /// `RecvCursor` (synced around the call when the cursor is the loop's local).
    fn read_length_prefix(&mut self) -> String {
        let cursor = self.cursor;
        let len = self.local("Length", &format!("buffer.readu8(B, {cursor})"));
        self.b.open(format!("if {len} < 0x80 then"));
        self.b.line(format!("{cursor} += 1"));
        self.b.middle("else");
        if cursor == "RecvCursor" {
            self.b.line(format!("{len} = ReadLength()"));
        } else {
            self.b.line(format!("RecvCursor = {cursor}"));
            self.b.line(format!("{len} = ReadLength()"));
            self.b.line(format!("{cursor} = RecvCursor"));
        }
        self.b.close("end");
        len
    }

    /// Before allocating or looping: `count` bytes must be left in the packet (inline:
    /// a comparison, no call).
    fn need_bytes(&mut self, count: &str) {
        let (size, cursor) = (self.size, self.cursor);
        self.guard(format!("if {count} > {size} - {cursor} then OutOfBytes() end"));
    }

    /// Reads a length prefix (or takes the exact length) and checks its bounds.
    fn read_length(&mut self, length: &LengthRange, path: &ValuePath) -> String {
        if let Some(n) = length.exact() {
            return n.to_string();
        }
        let len = self.read_length_prefix();
        let mut conditions = Vec::new();
        if length.min > 0 {
            conditions.push(format!("{len} < {}", length.min));
        }
        if let Some(max) = length.max {
            conditions.push(format!("{len} > {max}"));
        }
        if !conditions.is_empty() {
            let fail = self.fail(path, "length out of bounds");
            self.guard(format!("if {} then {fail} end", conditions.join(" or ")));
        }
        len
    }

    /// Before looping `count` times: each item needs at least `item_min` bytes (or a
    /// side-array slot); an item of no size at all is capped by the packet's size.
    fn guard_count(&mut self, count: &str, item_min: u32, uses_instances: bool, path: &ValuePath) {
        if item_min > 0 {
            self.need_bytes(&format!("{count} * {item_min}"));
        } else if uses_instances {
            let fail = self.fail(path, "more items than Instances sent");
            self.guard(format!(
                "if {count} > #RecvInstances - RecvInstanceCursor then {fail} end"
            ));
        } else {
            let fail = self.fail(path, "length out of bounds");
            let size = self.size;
            self.guard(format!("if {count} > {size} then {fail} end"));
        }
    }

    fn read_array(&mut self, element: &Type, length: &LengthRange, path: &ValuePath) -> String {
        let schema = self.schema;
        let element = resolve(schema, element);
        let len = self.read_length(length, path);
        let item_path = path.element("");
        if matches!(element.kind, TypeKind::Boolean) {
            self.need_bytes(&format!("({len} + 7) // 8"));
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line(format!("{cursor} = {offset} + ({len} + 7) // 8"));
            return self.read_packed_booleans(&len, &offset);
        }
        let array = self.b.fresh("Array");
        match element.layout.fixed_size {
            Some(size) if size > 0 => {
                self.need_bytes(&format!("{len} * {size}"));
                let at = self.cursor;
                let cursor = self.local("P", at);
                self.b.line(format!("{at} = {cursor} + {len} * {size}"));
                self.b.line(format!("local {array}: {{ any }} = table.create({len})"));
                // The count check above (unless checks are compiled out) covers the bytes.
                self.fixed_element_loop(element, &len, &cursor, &array, &item_path, decode_checks_enabled());
            }
            _ => {
                let position = self.b.fresh("I");
                if length.exact().is_none() {
                    self.guard_count(&len, element.layout.min_size, element.layout.uses_instances, path);
                }
                self.b.line(format!("local {array}: {{ any }} = table.create({len})"));
                self.b.open(format!("for {position} = 1, {len} do"));
                let item = self.read(element, &item_path);
                self.b.line(format!("{array}[{position}] = {item}"));
                self.b.close("end");
            }
        }
        array
    }

    /// `boolean[]`, 8 to a byte, read by rows of eight. Two loops, chosen by the
    /// module's `Interpreted` (timed once, prelude): natively compiled code tests the
    /// eight bits (about 2.5× faster than a `table.move` call there); interpreted code
    /// copies one of 256 prepared rows with one `table.move` (about 1.5× faster than the
    /// sixteen instructions of bit tests and stores).
    fn read_packed_booleans(&mut self, len: &str, offset: &str) -> String {
        let array = self.typed_local("Array", "{ any }", &format!("table.create({len})"));
        let rows = self.local("Rows", &format!("{len} // 8"));
        let row = self.b.fresh("Row");
        self.in_each_form(|reader| {
            if reader.form == Form::Interpreted {
                // Interpreted, every instruction counts: the rows table in a register, the
                // loop over byte positions and a running destination index.
                let table = reader.local("Table", "BooleanRows");
                let into = reader.local("Into", "1");
                let at = reader.b.fresh("At");
                reader.b.open(format!("for {at} = {offset}, {offset} + {rows} - 1 do"));
                reader.b.line(format!(
                    "table.move({table}[buffer.readu8(B, {at}) + 1], 1, 8, {into}, {array})"
                ));
                reader.b.line(format!("{into} += 8"));
            } else {
                reader.b.open(format!("for {row} = 0, {rows} - 1 do"));
                let byte = reader.local("Byte", &format!("buffer.readu8(B, {offset} + {row})"));
                let base = reader.local("Base", &format!("{row} * 8"));
                for bit in 0..8u32 {
                    reader.b.line(format!(
                        "{array}[{base} + {}] = bit32.btest({byte}, {})",
                        bit + 1,
                        1u32 << bit
                    ));
                }
            }
            reader.b.close("end");
        });
        let tail = self.local("Tail", &format!("{len} % 8"));
        self.b.open(format!("if {tail} > 0 then"));
        let byte = self.local("Byte", &format!("buffer.readu8(B, {offset} + {rows})"));
        let base = self.local("Base", &format!("{rows} * 8"));
        let bit = self.b.fresh("Bit");
        self.b.open(format!("for {bit} = 1, {tail} do"));
        self.b.line(format!(
            "{array}[{base} + {bit}] = bit32.btest({byte}, bit32.lshift(1, {bit} - 1))"
        ));
        self.b.close("end");
        self.b.close("end");
        array
    }

    /// A struct at the cursor: its fixed block (packed bits and fixed fields), then its
    /// variable fields; built with one table constructor. `extra` is a leading
    /// `key = value` (a tagged enum's tag).
    fn read_struct(&mut self, body: &StructType, extra: Option<(String, String)>, path: &ValuePath) -> String {
        let block = body.layout.fixed_block_size;
        let offset = if block > 0 {
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line(format!("{cursor} = {offset} + {block}"));
            offset
        } else {
            "0".to_string()
        };
        if body.fields.len() > super::WIDE_STRUCT_FIELDS {
            return self.read_wide_struct(body, extra, &offset, path);
        }
        let (mut values, present) = self.read_struct_block(body, &offset, path);
        for &field_index in &body.layout.variable {
            let Some(field) = body.fields.get(field_index) else {
                continue;
            };
            if values[field_index].is_some() {
                continue;
            }
            let field_path = path.field(&field.name);
            let flag = present.iter().find(|(f, _)| *f == field_index).map(|(_, c)| c.clone());
            match (&resolve(self.schema, &field.ty).kind, flag) {
                (TypeKind::Optional(inner), Some(condition)) => {
                    let value = self.b.fresh("Field");
                    self.b.line(format!("local {value}: any = nil"));
                    self.b.open(format!("if {condition} then"));
                    let inner_value = self.read(inner, &field_path);
                    self.b.line(format!("{value} = {inner_value}"));
                    self.b.close("end");
                    values[field_index] = Some(value);
                }
                _ => {
                    let value = self.read_scoped(&field.ty, &field_path, "Field");
                    values[field_index] = Some(value);
                }
            }
        }
        let mut entries = Vec::with_capacity(body.fields.len() + 1);
        if let Some((key, value)) = extra {
            entries.push(format!("{key} = {value}"));
        }
        for (field, value) in body.fields.iter().zip(values) {
            entries.push(format!(
                "{} = {}",
                table_key(&field.name),
                value.unwrap_or_else(|| "nil".into())
            ));
        }
        if entries.is_empty() {
            "{}".into()
        } else {
            format!("{{ {} }}", entries.join(", "))
        }
    }

    /// A wide struct (`WIDE_STRUCT_FIELDS`): the table is made first, with the fields held
    /// in the bit block, and every other field is read in a block of its own and stored
    /// into it, so no field holds a local past its block. (A constructor at the end would
    /// need a local a field, and Luau allows a function 200.)
    fn read_wide_struct(
        &mut self,
        body: &StructType,
        extra: Option<(String, String)>,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        let (values, present) = self.read_bit_block(body, offset);
        let mut entries = Vec::new();
        if let Some((key, value)) = extra {
            entries.push(format!("{key} = {value}"));
        }
        for (field, value) in body.fields.iter().zip(&values) {
            if let Some(value) = value {
                entries.push(format!("{} = {value}", table_key(&field.name)));
            }
        }
        let table = self.typed_local("Struct", "any", &format!("{{ {} }}", entries.join(", ")));
        for slot in &body.layout.fixed {
            let Some(field) = body.fields.get(slot.field) else {
                continue;
            };
            let mark = self.b.mark();
            let value = self.read_at(&field.ty, &offset_plus(offset, slot.offset), &path.field(&field.name));
            self.store_scoped(mark, &format!("{table}{}", index(&field.name)), &value);
        }
        for &field_index in &body.layout.variable {
            let Some(field) = body.fields.get(field_index) else {
                continue;
            };
            let field_path = path.field(&field.name);
            let target = format!("{table}{}", index(&field.name));
            let flag = present.iter().find(|(f, _)| *f == field_index).map(|(_, c)| c.clone());
            match (&resolve(self.schema, &field.ty).kind, flag) {
                (TypeKind::Optional(inner), Some(condition)) => {
                    self.b.open(format!("if {condition} then"));
                    let value = self.read(inner, &field_path);
                    self.b.line(format!("{target} = {value}"));
                    self.b.close("end");
                }
                _ => {
                    let mark = self.b.mark();
                    let value = self.read(&field.ty, &field_path);
                    self.store_scoped(mark, &target, &value);
                }
            }
        }
        table
    }

    /// Stores into `target` the value the code written since `mark` computed, that code in
    /// a block of its own when it declared locals.
    fn store_scoped(&mut self, mark: Mark, target: &str, value: &str) {
        let store = format!("{target} = {value}");
        if !self.b.scope_since(mark, "", &store) {
            self.b.line(store);
        }
    }

    /// Reads the packed bits and fixed fields at `offset`. Returns each field's value
    /// expression (None for variable fields) and the presence conditions of optionals.
    #[allow(clippy::type_complexity)]
    fn read_struct_block(
        &mut self,
        body: &StructType,
        offset: &str,
        path: &ValuePath,
    ) -> (Vec<Option<String>>, Vec<(usize, String)>) {
        let (mut values, present) = self.read_bit_block(body, offset);
        self.read_fixed_slots(body, offset, path, &mut values);
        (values, present)
    }

    /// Reads the packed bits at `offset`: the booleans' values and the presence conditions
    /// of optionals, as expressions over one local a byte.
    #[allow(clippy::type_complexity)]
    fn read_bit_block(&mut self, body: &StructType, offset: &str) -> (Vec<Option<String>>, Vec<(usize, String)>) {
        let mut values: Vec<Option<String>> = vec![None; body.fields.len()];
        let mut present = Vec::new();
        for (byte, slots) in body.layout.bits.chunks(8).enumerate() {
            let bits = self.local(
                "Bits",
                &format!("buffer.readu8(B, {})", offset_plus(offset, byte as u32)),
            );
            for (bit, slot) in slots.iter().enumerate() {
                let test = format!("bit32.btest({bits}, {})", 1u32 << bit);
                match slot.kind {
                    BitKind::Boolean => {
                        if let Some(value) = values.get_mut(slot.field) {
                            *value = Some(test);
                        }
                    }
                    BitKind::Present => present.push((slot.field, test)),
                }
            }
        }
        (values, present)
    }

    /// A number read at `offset`, checked as the schema says.
    fn read_number(&mut self, kind: NumberKind, range: &NumberRange, offset: &str, path: &ValuePath) -> String {
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

    /// A component of a vector or CFrame: floats must be finite unless allowed.
    fn read_component(&mut self, kind: NumberKind, offset: &str, path: &ValuePath) -> String {
        self.read_number(kind, &NumberRange::default(), offset, path)
    }

    /// Reads a fixed-size value at `offset` (the bytes are already reserved).
    pub fn read_at(&mut self, ty: &Type, offset: &str, path: &ValuePath) -> String {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        match &ty.kind {
            TypeKind::Number { kind, range } => self.read_number(*kind, range, offset, path),
            TypeKind::Boolean => {
                let byte = self.local("Bool", &format!("buffer.readu8(B, {offset})"));
                let fail = self.fail(path, "boolean byte is not 0 or 1");
                self.guard(format!("if {byte} > 1 then {fail} end"));
                format!("{byte} == 1")
            }
            TypeKind::String { length } => {
                format!("buffer.readstring(B, {offset}, {})", length.exact().unwrap_or(0))
            }
            TypeKind::Buffer { length } => {
                let n = length.exact().unwrap_or(0);
                let data = self.local("Data", &format!("buffer.create({n})"));
                self.b.line(format!("buffer.copy({data}, 0, B, {offset}, {n})"));
                data
            }
            TypeKind::Vector { component, magnitude } => {
                let size = component.size();
                let parts: Vec<String> = (0..3)
                    .map(|i| self.read_component(*component, &offset_plus(offset, size * i), path))
                    .collect();
                let built = format!("Vector3.new({})", parts.join(", "));
                let (bounds, _) = range_condition(magnitude, "M");
                if bounds == "true" {
                    return built;
                }
                let value = self.local("Vector", &built);
                let magnitude_expr = self.local("Magnitude", &format!("vector.magnitude({value})"));
                let (bounds, _) = range_condition(magnitude, &magnitude_expr);
                let fail = self.fail(path, "vector magnitude out of range");
                self.guard(format!("if not ({bounds}) then {fail} end"));
                value
            }
            TypeKind::CFrame { position, rotation } => {
                let ps = position.size();
                let rs = rotation.size();
                let p: Vec<String> = (0..3)
                    .map(|i| self.read_component(*position, &offset_plus(offset, ps * i), path))
                    .collect();
                let r: Vec<String> = (0..3)
                    .map(|i| self.read_component(*rotation, &offset_plus(offset, ps * 3 + rs * i), path))
                    .collect();
                format!(
                    "CFrame.new({}) * CFrame.fromOrientation({})",
                    p.join(", "),
                    r.join(", ")
                )
            }
            TypeKind::Color3 => {
                let channels: Vec<String> = (0..3)
                    .map(|i| format!("buffer.readu8(B, {})", offset_plus(offset, i)))
                    .collect();
                format!("Color3.fromRGB({})", channels.join(", "))
            }
            TypeKind::BrickColor => format!("BrickColor.new(buffer.readu16(B, {offset}))"),
            TypeKind::DateTime | TypeKind::DateTimeMillis => {
                let stamp = self.local("Stamp", &format!("buffer.readf64(B, {offset})"));
                let fail = self.fail(path, "timestamp is NaN or infinite");
                self.guard(format!("if {stamp} - {stamp} ~= 0 then {fail} end"));
                let constructor = if matches!(ty.kind, TypeKind::DateTime) {
                    "DateTime.fromUnixTimestamp"
                } else {
                    "DateTime.fromUnixTimestampMillis"
                };
                format!("{constructor}({stamp})")
            }
            TypeKind::Instance { class } => {
                let instance = self.local("Instance", "ReadSlot()");
                let fail = self.fail(path, "not an Instance of the declared class");
                match class {
                    Some(class) => self.guard(format!(
                        "if typeof({instance}) ~= \"Instance\" or not {instance}:IsA({}) then {fail} end",
                        string_literal(class)
                    )),
                    None => self.guard(format!("if typeof({instance}) ~= \"Instance\" then {fail} end")),
                }
                instance
            }
            TypeKind::Unknown => self.local("Unknown", "ReadSlot()"),
            TypeKind::Optional(inner) if optional_has_flag(schema, inner) => {
                // A flag before a value of no bytes (it may still carry Instances).
                let flag = self.local("Flag", &format!("buffer.readu8(B, {offset})"));
                let value = self.b.fresh("Maybe");
                self.b.line(format!("local {value}: any = nil"));
                self.b.open(format!("if {flag} == 1 then"));
                let inner_value = self.read_at(inner, &offset_plus(offset, 1), path);
                self.b.line(format!("{value} = {inner_value}"));
                self.b.middle(format!("elseif {flag} ~= 0 then"));
                let fail = self.fail(path, "optional flag is not 0 or 1");
                self.b.line(fail);
                self.b.close("end");
                value
            }
            TypeKind::Optional(inner) => {
                let slot = self.local("Slot", "ReadSlot()");
                if let TypeKind::Instance { class } = &resolve(schema, inner).kind {
                    // A slot that holds no Instance is nil (Roblox sends nil for an
                    // Instance the receiver cannot see); one of the wrong class is an error.
                    self.b
                        .line(format!("if typeof({slot}) ~= \"Instance\" then {slot} = nil end"));
                    if let Some(class) = class {
                        let fail = self.fail(path, "not an Instance of the declared class");
                        self.b.line(format!(
                            "if {slot} ~= nil and not {slot}:IsA({}) then {fail} end",
                            string_literal(class)
                        ));
                    }
                }
                slot
            }
            TypeKind::Array { element, length } => {
                let n = length.exact().unwrap_or(0);
                let element = resolve(schema, element);
                if matches!(element.kind, TypeKind::Boolean) {
                    return self.read_packed_booleans(&n.to_string(), offset);
                }
                let array = self.typed_local("Array", "{ any }", &format!("table.create({n})"));
                let cursor = self.local("P", offset);
                self.fixed_element_loop(element, &n.to_string(), &cursor, &array, &path.element(""), false);
                array
            }
            TypeKind::Struct(body) => {
                if body.fields.len() > super::WIDE_STRUCT_FIELDS {
                    return self.read_wide_struct(body, None, offset, path);
                }
                let (values, _) = self.read_struct_block(body, offset, path);
                let entries: Vec<String> = body
                    .fields
                    .iter()
                    .zip(values)
                    .map(|(field, value)| format!("{} = {}", table_key(&field.name), value.unwrap_or("nil".into())))
                    .collect();
                if entries.is_empty() {
                    "{}".into()
                } else {
                    format!("{{ {} }}", entries.join(", "))
                }
            }
            TypeKind::Enum(unit) => {
                let width = tag_bytes(unit.variants.len());
                let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                let names = self.lookups.enum_names(&unit.variants);
                let value = self.local("Enum", &format!("{names}[{} + 1]", read_number_call(kind, offset)));
                let fail = self.fail(path, "unknown enum value");
                self.guard(format!("if {value} == nil then {fail} end"));
                value
            }
            TypeKind::Set(set) => {
                let mut entries = Vec::with_capacity(set.flags.len());
                let chunks: Vec<&[String]> = set.flags.chunks(8).collect();
                for (byte, flags) in chunks.iter().enumerate() {
                    let bits = self.local(
                        "Flags",
                        &format!("buffer.readu8(B, {})", offset_plus(offset, byte as u32)),
                    );
                    if flags.len() < 8 {
                        let fail = self.fail(path, "set has undeclared flags");
                        self.guard(format!("if {bits} >= {} then {fail} end", 1u32 << flags.len()));
                    }
                    for (bit, flag) in flags.iter().enumerate() {
                        entries.push(format!("{} = bit32.btest({bits}, {})", table_key(flag), 1u32 << bit));
                    }
                }
                if entries.is_empty() {
                    "{}".into()
                } else {
                    format!("{{ {} }}", entries.join(", "))
                }
            }
            TypeKind::TaggedEnum(tagged) => {
                let width = tag_bytes(tagged.variants.len());
                let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                let variant_index = self.local("Variant", &read_number_call(kind, offset));
                let value = self.b.fresh("Tagged");
                self.b.line(format!("local {value}: any"));
                let body_offset = offset_plus(offset, width);
                for (position, variant) in tagged.variants.iter().enumerate() {
                    let keyword = if position == 0 { "if" } else { "elseif" };
                    let condition = format!("{keyword} {variant_index} == {position} then");
                    if position == 0 {
                        self.b.open(condition);
                    } else {
                        self.b.middle(condition);
                    }
                    if variant.body.fields.len() > super::WIDE_STRUCT_FIELDS {
                        let tag = (table_key(&tagged.tag), string_literal(&variant.name));
                        let built = self.read_wide_struct(&variant.body, Some(tag), &body_offset, path);
                        self.b.line(format!("{value} = {built}"));
                        continue;
                    }
                    let (values, _) = self.read_struct_block(&variant.body, &body_offset, path);
                    let mut entries = vec![format!(
                        "{} = {}",
                        table_key(&tagged.tag),
                        string_literal(&variant.name)
                    )];
                    for (field, v) in variant.body.fields.iter().zip(values) {
                        entries.push(format!("{} = {}", table_key(&field.name), v.unwrap_or("nil".into())));
                    }
                    self.b.line(format!("{value} = {{ {} }}", entries.join(", ")));
                }
                self.close_variant_chain(tagged.variants.is_empty(), path);
                value
            }
            TypeKind::Map { key, value, length } => {
                // Exact count, fixed-size keys and values.
                let n = length.exact().unwrap_or(0);
                let key_size = resolve(schema, key).layout.fixed_size.unwrap_or(0);
                let value_size = resolve(schema, value).layout.fixed_size.unwrap_or(0);
                let map = self.typed_local("Map", "{ [any]: any }", "{}");
                let cursor = self.local("P", offset);
                self.b.open(format!("for _ = 1, {n} do"));
                let key_expr = self.read_at(key, &cursor, path);
                let key_local = self.local("Key", &key_expr);
                let at = offset_plus(&cursor, key_size);
                let value_expr = self.read_at(value, &at, path);
                self.b.line(format!("{map}[{key_local}] = {value_expr}"));
                self.b.line(format!("{cursor} += {}", key_size + value_size));
                self.b.close("end");
                map
            }
            TypeKind::Named(_) => {
                let fail = self.fail(path, "type has no fixed layout");
                self.b.line(fail);
                "nil".into()
            }
        }
    }
}
