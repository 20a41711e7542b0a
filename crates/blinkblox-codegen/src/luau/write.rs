//! Emits the sending side: serializers that write values into the current batch, and
//! WriteValidations checks that run before anything is written.
//!
//! Fixed-size runs are written into one `Allocate` with constant offsets (`write_at`);
//! variable parts allocate as they go (`write`). Both follow the model's `Layout` and
//! `StructLayout` exactly, so the reader (`read.rs`) mirrors them field for field.

use blinkblox_schema::model::{BitKind, LengthRange, NumberKind, Schema, StructType, Type, TypeKind};

use super::builder::CodeBuilder;
use super::forms::{Form, TwoForms};
use super::naming::{index, is_identifier, string_literal};
use super::{Lookups, resolve};
use blinkblox_schema::wire::optional_has_flag;

/// Width of an enum or variant index on the wire.
pub fn tag_bytes(count: usize) -> u32 {
    if count <= 256 { 1 } else { 2 }
}

/// `offset + add` with the trivial cases folded.
pub fn offset_plus(offset: &str, add: u32) -> String {
    if add == 0 {
        offset.to_string()
    } else if offset == "0" {
        add.to_string()
    } else {
        format!("{offset} + {add}")
    }
}

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

pub struct Writer<'a> {
    pub schema: &'a Schema,
    pub b: &'a mut CodeBuilder,
    pub lookups: &'a mut Lookups,
    /// Names the operation in WriteValidations errors, as a Luau string literal.
    pub context: String,
    pub allow_non_finite: bool,
    /// The branch of a two-form path being emitted into (`forms.rs`).
    pub form: Form,
}

impl TwoForms for Writer<'_> {
    fn form_mut(&mut self) -> &mut Form {
        &mut self.form
    }

    fn builder(&mut self) -> &mut CodeBuilder {
        self.b
    }
}

impl Writer<'_> {
    /// A name for `value` that is cheap to repeat: identifiers as they are, anything
    /// else bound to a fresh local.
    pub(super) fn bind(&mut self, value: &str) -> String {
        if is_identifier(value) {
            return value.to_string();
        }
        let name = self.b.fresh("W");
        self.b.line(format!("local {name} = {value}"));
        name
    }

    /// Runs `emit`, putting what it writes in a block of its own when it declares locals
    /// ([`CodeBuilder::scope_since`]): each field of a struct and each value of a tuple,
    /// so that their locals do not add up in one function.
    pub(super) fn scoped(&mut self, emit: impl FnOnce(&mut Self)) {
        let mark = self.b.mark();
        emit(self);
        self.b.scope_since(mark, "", "");
    }

    /// Writes `value` at the end of the batch, allocating as it goes.
    pub fn write(&mut self, ty: &Type, value: &str) {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        if let Some(size) = ty.layout.fixed_size {
            if size == 0 {
                self.write_at(ty, value, "0");
            } else {
                let offset = self.b.fresh("O");
                self.b.line(format!("local {offset} = Allocate({size})"));
                self.write_at(ty, value, &offset);
            }
            return;
        }
        match &ty.kind {
            TypeKind::Optional(inner) => {
                let value = self.bind(value);
                let inner_ty = resolve(schema, inner);
                self.b.open(format!("if {value} ~= nil then"));
                match inner_ty.layout.fixed_size {
                    Some(size) => {
                        let offset = self.b.fresh("O");
                        self.b.line(format!("local {offset} = Allocate({})", size + 1));
                        self.b.line(format!("buffer.writeu8(SendBuffer, {offset}, 1)"));
                        let at = offset_plus(&offset, 1);
                        self.write_at(inner_ty, &value, &at);
                    }
                    None => {
                        self.b.line("buffer.writeu8(SendBuffer, Allocate(1), 1)");
                        self.write(inner_ty, &value);
                    }
                }
                self.b.middle("else");
                self.b.line("buffer.writeu8(SendBuffer, Allocate(1), 0)");
                self.b.close("end");
            }
            TypeKind::String { length } | TypeKind::Buffer { length } => {
                let is_string = matches!(ty.kind, TypeKind::String { .. });
                let value = self.bind(value);
                let len = self.b.fresh("Length");
                let offset = self.b.fresh("O");
                match length.exact() {
                    Some(n) => {
                        self.b.line(format!("local {len} = {n}"));
                        self.b.line(format!("local {offset} = Allocate({len})"));
                    }
                    None => {
                        let measure = if is_string {
                            format!("#{value}")
                        } else {
                            format!("buffer.len({value})")
                        };
                        self.b.line(format!("local {len} = {measure}"));
                        self.reserve_with_length(&offset, &len, &len);
                    }
                }
                if is_string {
                    self.b
                        .line(format!("buffer.writestring(SendBuffer, {offset}, {value}, {len})"));
                } else {
                    self.b
                        .line(format!("buffer.copy(SendBuffer, {offset}, {value}, 0, {len})"));
                }
            }
            TypeKind::Array { element, length } => self.write_array(element, length, value),
            TypeKind::Struct(body) => {
                let value = self.bind(value);
                self.write_struct(body, &value);
            }
            TypeKind::TaggedEnum(tagged) => {
                let value = self.bind(value);
                let tag = self.b.fresh("Tag");
                self.b.line(format!("local {tag} = {value}{}", index(&tagged.tag)));
                let width = tag_bytes(tagged.variants.len());
                for (position, variant) in tagged.variants.iter().enumerate() {
                    let keyword = if position == 0 { "if" } else { "elseif" };
                    let condition = format!("{keyword} {tag} == {} then", string_literal(&variant.name));
                    if position == 0 {
                        self.b.open(condition);
                    } else {
                        self.b.middle(condition);
                    }
                    let block = variant.body.layout.fixed_block_size;
                    let offset = self.b.fresh("O");
                    self.b.line(format!("local {offset} = Allocate({})", width + block));
                    let width_kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                    self.b.line(write_number_call(
                        width_kind,
                        "SendBuffer",
                        &offset,
                        &position.to_string(),
                    ));
                    let at = offset_plus(&offset, width);
                    self.write_struct_block(&variant.body, &value, &at);
                    self.write_struct_variable(&variant.body, &value);
                }
                if tagged.variants.is_empty() {
                    self.b.open("do");
                } else {
                    self.b.middle("else");
                }
                self.b
                    .line(format!("error(`[BlinkBlox] unknown variant {{tostring({tag})}}`, 2)"));
                self.b.close("end");
            }
            TypeKind::Map {
                key,
                value: value_ty,
                length,
            } => {
                let map = self.bind(value);
                if length.exact().is_none() {
                    let count = self.b.fresh("Count");
                    self.b.line(format!("local {count} = 0"));
                    self.b.line(format!("for _ in {map} do {count} += 1 end"));
                    self.b.line(format!("WriteLength({count})"));
                }
                let k = self.b.fresh("Key");
                let v = self.b.fresh("Item");
                self.b.open(format!("for {k}, {v} in {map} do"));
                self.write(key, &k);
                self.write(value_ty, &v);
                self.b.close("end");
            }
            // Fixed-size kinds were handled above; a model without a layout for them is
            // written through the fixed path with a fresh allocation.
            _ => {
                let size = fixed_size_of(schema, ty);
                let offset = self.b.fresh("O");
                self.b.line(format!("local {offset} = Allocate({size})"));
                self.write_at(ty, value, &offset);
            }
        }
    }

    fn write_array(&mut self, element: &Type, length: &LengthRange, value: &str) {
        let schema = self.schema;
        let element = resolve(schema, element);
        let array = self.bind(value);
        let len = self.b.fresh("Length");
        let prefixed = length.exact().is_none();
        match length.exact() {
            Some(n) => self.b.line(format!("local {len} = {n}")),
            None => self.b.line(format!("local {len} = #{array}")),
        }
        // The length prefix and the elements' bytes in one reservation when the
        // elements have a fixed size.
        let reserve = |writer: &mut Self, offset: &str, bytes: &str| {
            if prefixed {
                writer.reserve_with_length(offset, &len, bytes);
            } else {
                writer.b.line(format!("local {offset} = Allocate({bytes})"));
            }
        };
        if matches!(element.kind, TypeKind::Boolean) {
            let offset = self.b.fresh("O");
            reserve(self, &offset, &format!("({len} + 7) // 8"));
            self.write_packed_booleans(&array, &len, &offset);
            return;
        }
        if prefixed && element.layout.fixed_size.is_none_or(|size| size == 0) {
            self.b.line(format!("WriteLength({len})"));
        }
        let item = self.b.fresh("Item");
        let position = self.b.fresh("I");
        match element.layout.fixed_size {
            Some(0) => {
                self.b.open(format!("for {position} = 1, {len} do"));
                self.write_at(element, &format!("{array}[{position}]"), "0");
                self.b.close("end");
            }
            Some(size) => {
                // `ipairs` walks the array part without an index computation and a
                // bounds check per element (measured faster natively and interpreted). It
                // stops at the first nil, never past `#array`: a hole leaves the cursor
                // short of `Stop` and raises, as indexing the nil element did before.
                let cursor = self.b.fresh("P");
                let stop = self.b.fresh("Stop");
                reserve(self, &cursor, &format!("{len} * {size}"));
                self.b.line(format!("local {stop} = {cursor} + {len} * {size}"));
                self.fixed_element_writes(element, |writer| {
                    writer.b.open(format!("for _, {item} in ipairs({array}) do"));
                    writer.write_at(element, &item, &cursor);
                    writer.b.line(format!("{cursor} += {size}"));
                    writer.b.close("end");
                });
                self.b.line(format!(
                    "if {cursor} ~= {stop} then error(`[BlinkBlox] the array has no value at position {{{len} - ({stop} - {cursor}) // {size} + 1}}`, 2) end"
                ));
            }
            None => {
                self.b.open(format!("for {position} = 1, {len} do"));
                self.write(element, &format!("{array}[{position}]"));
                self.b.close("end");
            }
        }
    }

    /// `local offset`: `bytes` reserved after the LEB128 prefix of `len`, as
    /// `WriteLength(len)` then `Allocate(bytes)` would, with lengths under 2^14 (one or
    /// two prefix bytes) done inline in one reservation: two calls fewer per value.
    fn reserve_with_length(&mut self, offset: &str, len: &str, bytes: &str) {
        let at = self.b.fresh("At");
        let stop = self.b.fresh("Stop");
        self.b.line(format!("local {offset}: number"));
        self.b.open(format!("if {len} < 0x4000 then"));
        self.b.line(format!("local {at} = SendCursor"));
        self.b.line(format!(
            "local {stop} = {at} + (if {len} < 0x80 then 1 else 2) + {bytes}"
        ));
        self.b.line(format!("if {stop} > SendSize then Grow({stop}) end"));
        self.b.line(format!("SendCursor = {stop}"));
        self.b.open(format!("if {len} < 0x80 then"));
        self.b.line(format!("buffer.writeu8(SendBuffer, {at}, {len})"));
        self.b.line(format!("{offset} = {at} + 1"));
        self.b.middle("else");
        // Low seven bits with the continuation bit, then the rest: little-endian u16.
        self.b.line(format!(
            "buffer.writeu16(SendBuffer, {at}, {len} % 0x80 + 0x80 + {len} // 0x80 * 0x100)"
        ));
        self.b.line(format!("{offset} = {at} + 2"));
        self.b.close("end");
        self.b.middle("else");
        self.b.line(format!("WriteLength({len})"));
        self.b.line(format!("{offset} = Allocate({bytes})"));
        self.b.close("end");
    }

    /// `boolean[]` packed 8 to a byte (first value in the lowest bit): 32 values a
    /// `writeu32` (little-endian, so the same bytes as four rows of eight), then rows of
    /// eight, then the last bits. Each value sets its bit with an `if` statement rather
    /// than an `if` expression summed: fewer instructions, measured faster natively and
    /// interpreted. The runs of 32 have two forms, chosen by the module's `Interpreted`
    /// (prelude): natively, values tested in place; interpreted, 32 copied with one
    /// `table.move` into the module's `BooleanWord` and tested at constant positions (an
    /// instruction fewer a value: 1.1 times faster there, 1.7 times slower natively).
    fn write_packed_booleans(&mut self, array: &str, len: &str, offset: &str) {
        let cursor = self.b.fresh("P");
        let index = self.b.fresh("I");
        let word = self.b.fresh("Word");
        self.b.line(format!("local {cursor} = {offset}"));
        self.in_each_form(|writer| {
            if writer.form == Form::Interpreted {
                let moved = writer.b.fresh("Moved");
                writer.b.line(format!("local {moved} = BooleanWord"));
                writer.b.open(format!("for {index} = 1, {len} - 31, 32 do"));
                writer
                    .b
                    .line(format!("table.move({array}, {index}, {index} + 31, 1, {moved})"));
                writer.emit_boolean_bits(&word, 32, |bit| format!("{moved}[{}]", bit + 1));
            } else {
                writer.b.open(format!("for {index} = 1, {len} - 31, 32 do"));
                writer.emit_boolean_bits(&word, 32, |bit| format!("{array}[{}]", offset_plus(&index, bit)));
            }
            writer.b.line(format!("buffer.writeu32(SendBuffer, {cursor}, {word})"));
            writer.b.line(format!("{cursor} += 4"));
            writer.b.close("end");
        });
        let rows = self.b.fresh("Row");
        self.b
            .open(format!("for {rows} = {len} - {len} % 32 + 1, {len} - 7, 8 do"));
        self.emit_boolean_bits(&word, 8, |bit| format!("{array}[{}]", offset_plus(&rows, bit)));
        self.b.line(format!("buffer.writeu8(SendBuffer, {cursor}, {word})"));
        self.b.line(format!("{cursor} += 1"));
        self.b.close("end");
        let tail = self.b.fresh("Tail");
        self.b.line(format!("local {tail} = {len} % 8"));
        self.b.open(format!("if {tail} > 0 then"));
        let byte = self.b.fresh("Byte");
        let bit = self.b.fresh("Bit");
        let base = self.b.fresh("Base");
        self.b.line(format!("local {byte} = 0"));
        self.b.line(format!("local {base} = {len} - {tail}"));
        self.b.open(format!("for {bit} = 1, {tail} do"));
        self.b.line(format!(
            "if {array}[{base} + {bit}] then {byte} += bit32.lshift(1, {bit} - 1) end"
        ));
        self.b.close("end");
        self.b.line(format!("buffer.writeu8(SendBuffer, {cursor}, {byte})"));
        self.b.close("end");
    }

    /// `local word = 0` and one `if value then word += 2^k end` per value, `value(k)`
    /// reading the k-th (from 0).
    fn emit_boolean_bits(&mut self, word: &str, count: u32, value: impl Fn(u32) -> String) {
        self.b.line(format!("local {word} = 0"));
        for bit in 0..count {
            let mask = 1u64 << bit;
            if bit == 0 {
                self.b.line(format!("if {} then {word} = 1 end", value(bit)));
            } else {
                self.b.line(format!("if {} then {word} += {mask} end", value(bit)));
            }
        }
    }

    fn write_struct(&mut self, body: &StructType, value: &str) {
        let block = body.layout.fixed_block_size;
        if block > 0 {
            let offset = self.b.fresh("O");
            self.b.line(format!("local {offset} = Allocate({block})"));
            self.write_struct_block(body, value, &offset);
        } else {
            self.write_struct_block(body, value, "0");
        }
        self.write_struct_variable(body, value);
    }

    /// The packed bits and the fixed fields of a struct, at `offset`.
    fn write_struct_block(&mut self, body: &StructType, value: &str, offset: &str) {
        let layout = &body.layout;
        for (byte, slots) in layout.bits.chunks(8).enumerate() {
            let terms: Vec<String> = slots
                .iter()
                .enumerate()
                .filter_map(|(bit, slot)| {
                    let field = body.fields.get(slot.field)?;
                    let access = format!("{value}{}", index(&field.name));
                    let mask = 1u32 << bit;
                    Some(match slot.kind {
                        BitKind::Boolean => format!("(if {access} then {mask} else 0)"),
                        BitKind::Present => format!("(if {access} ~= nil then {mask} else 0)"),
                    })
                })
                .collect();
            let at = offset_plus(offset, byte as u32);
            self.b
                .line(format!("buffer.writeu8(SendBuffer, {at}, {})", terms.join(" + ")));
        }
        let merged = self.merged_runs(body);
        for (position, slot) in layout.fixed.iter().enumerate() {
            if let Some(run) = merged.iter().find(|run| run.contains(&position)) {
                if run.start == position {
                    self.write_byte_run(body, value, offset, run.clone());
                }
                continue;
            }
            let Some(field) = body.fields.get(slot.field) else {
                continue;
            };
            let access = format!("{value}{}", index(&field.name));
            let at = offset_plus(offset, slot.offset);
            self.scoped(|w| w.write_at(&field.ty, &access, &at));
        }
    }

    fn write_struct_variable(&mut self, body: &StructType, value: &str) {
        for &field_index in &body.layout.variable {
            let Some(field) = body.fields.get(field_index) else {
                continue;
            };
            let access = format!("{value}{}", index(&field.name));
            let flagged = body
                .layout
                .bits
                .iter()
                .any(|s| s.field == field_index && s.kind == BitKind::Present);
            let value_in_bits = body
                .layout
                .bits
                .iter()
                .any(|s| s.field == field_index && s.kind == BitKind::Boolean);
            if value_in_bits {
                continue;
            }
            self.scoped(|w| match (&resolve(w.schema, &field.ty).kind, flagged) {
                (TypeKind::Optional(inner), true) => {
                    let bound = w.b.fresh("F");
                    w.b.line(format!("local {bound} = {access}"));
                    w.b.open(format!("if {bound} ~= nil then"));
                    w.write(inner, &bound);
                    w.b.close("end");
                }
                _ => w.write(&field.ty, &access),
            });
        }
    }

    /// Writes a fixed-size value at `offset` of the current batch (already allocated).
    pub fn write_at(&mut self, ty: &Type, value: &str, offset: &str) {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        match &ty.kind {
            TypeKind::Number { kind, .. } => {
                self.b.line(write_number_call(*kind, "SendBuffer", offset, value));
            }
            TypeKind::Boolean => {
                self.b.line(format!(
                    "buffer.writeu8(SendBuffer, {offset}, if {value} then 1 else 0)"
                ));
            }
            TypeKind::String { length } => {
                let n = length.exact().unwrap_or(0);
                self.b
                    .line(format!("buffer.writestring(SendBuffer, {offset}, {value}, {n})"));
            }
            TypeKind::Buffer { length } => {
                let n = length.exact().unwrap_or(0);
                self.b
                    .line(format!("buffer.copy(SendBuffer, {offset}, {value}, 0, {n})"));
            }
            TypeKind::Vector { component, .. } => {
                let v = self.bind(value);
                let size = component.size();
                for (i, axis) in ["X", "Y", "Z"].iter().enumerate() {
                    let at = offset_plus(offset, size * i as u32);
                    self.b
                        .line(write_number_call(*component, "SendBuffer", &at, &format!("{v}.{axis}")));
                }
            }
            TypeKind::CFrame { position, rotation } => {
                let v = self.bind(value);
                let p = self.b.fresh("Position");
                let (rx, ry, rz) = (self.b.fresh("RX"), self.b.fresh("RY"), self.b.fresh("RZ"));
                self.b.line(format!("local {p} = {v}.Position"));
                self.b.line(format!("local {rx}, {ry}, {rz} = {v}:ToOrientation()"));
                let ps = position.size();
                for (i, axis) in ["X", "Y", "Z"].iter().enumerate() {
                    let at = offset_plus(offset, ps * i as u32);
                    self.b
                        .line(write_number_call(*position, "SendBuffer", &at, &format!("{p}.{axis}")));
                }
                let rs = rotation.size();
                for (i, angle) in [&rx, &ry, &rz].iter().enumerate() {
                    let at = offset_plus(offset, ps * 3 + rs * i as u32);
                    self.b.line(write_number_call(*rotation, "SendBuffer", &at, angle));
                }
            }
            TypeKind::Color3 => {
                let v = self.bind(value);
                for (i, channel) in ["R", "G", "B"].iter().enumerate() {
                    let at = offset_plus(offset, i as u32);
                    self.b.line(format!(
                        "buffer.writeu8(SendBuffer, {at}, math.round({v}.{channel} * 255))"
                    ));
                }
            }
            TypeKind::BrickColor => {
                self.b
                    .line(format!("buffer.writeu16(SendBuffer, {offset}, {value}.Number)"));
            }
            TypeKind::DateTime => {
                self.b
                    .line(format!("buffer.writef64(SendBuffer, {offset}, {value}.UnixTimestamp)"));
            }
            TypeKind::DateTimeMillis => {
                self.b.line(format!(
                    "buffer.writef64(SendBuffer, {offset}, {value}.UnixTimestampMillis)"
                ));
            }
            TypeKind::Instance { .. } | TypeKind::Unknown => {
                self.b.line(format!("WriteSlot({value})"));
            }
            TypeKind::Optional(inner) => {
                if !optional_has_flag(schema, inner) {
                    // `Instance?`/`unknown?`: nil travels in the side array.
                    self.b.line(format!("WriteSlot({value})"));
                    return;
                }
                // A flag before a value of no bytes (it may still carry Instances).
                let v = self.bind(value);
                self.b.line(format!(
                    "buffer.writeu8(SendBuffer, {offset}, if {v} ~= nil then 1 else 0)"
                ));
                self.b.open(format!("if {v} ~= nil then"));
                let at = offset_plus(offset, 1);
                self.write_at(inner, &v, &at);
                self.b.close("end");
            }
            TypeKind::Array { element, length } => {
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
                self.b.line(format!("local {cursor} = {offset}"));
                self.fixed_element_writes(element, |writer| {
                    writer.b.open(format!("for {position} = 1, {n} do"));
                    writer.b.line(format!("local {item} = {array}[{position}]"));
                    writer.write_at(element, &item, &cursor);
                    if size > 0 {
                        writer.b.line(format!("{cursor} += {size}"));
                    }
                    writer.b.close("end");
                });
            }
            TypeKind::Struct(body) => {
                let v = self.bind(value);
                self.write_struct_block(body, &v, offset);
            }
            TypeKind::Enum(unit) => {
                let v = self.bind(value);
                let width = tag_bytes(unit.variants.len());
                let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                let position = self.b.fresh("EnumIndex");
                if unit.variants.len() <= 8 {
                    self.b.line(format!("local {position}: number"));
                    for (i, variant) in unit.variants.iter().enumerate() {
                        let keyword = if i == 0 { "if" } else { "elseif" };
                        self.b.line(format!(
                            "{keyword} {v} == {} then {position} = {i}",
                            string_literal(variant)
                        ));
                    }
                    if unit.variants.is_empty() {
                        self.b
                            .line(format!("error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2)"));
                    } else {
                        self.b.line(format!(
                            "else error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2) end"
                        ));
                    }
                } else {
                    let table = self.lookups.enum_indices(&unit.variants);
                    self.b.line(format!("local {position} = {table}[{v}]"));
                    self.b.line(format!(
                        "if {position} == nil then error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2) end"
                    ));
                }
                self.b.line(write_number_call(kind, "SendBuffer", offset, &position));
            }
            TypeKind::Set(set) => {
                let v = self.bind(value);
                for (byte, flags) in set.flags.chunks(8).enumerate() {
                    let terms: Vec<String> = flags
                        .iter()
                        .enumerate()
                        .map(|(bit, flag)| format!("(if {v}{} then {} else 0)", index(flag), 1u32 << bit))
                        .collect();
                    let at = offset_plus(offset, byte as u32);
                    self.b
                        .line(format!("buffer.writeu8(SendBuffer, {at}, {})", terms.join(" + ")));
                }
            }
            TypeKind::TaggedEnum(tagged) => {
                // Fixed only when every variant has the same fixed size.
                let v = self.bind(value);
                let tag = self.b.fresh("Tag");
                self.b.line(format!("local {tag} = {v}{}", index(&tagged.tag)));
                let width = tag_bytes(tagged.variants.len());
                let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
                for (position, variant) in tagged.variants.iter().enumerate() {
                    let keyword = if position == 0 { "if" } else { "elseif" };
                    let condition = format!("{keyword} {tag} == {} then", string_literal(&variant.name));
                    if position == 0 {
                        self.b.open(condition);
                    } else {
                        self.b.middle(condition);
                    }
                    self.b
                        .line(write_number_call(kind, "SendBuffer", offset, &position.to_string()));
                    let at = offset_plus(offset, width);
                    self.write_struct_block(&variant.body, &v, &at);
                }
                if tagged.variants.is_empty() {
                    self.b.open("do");
                } else {
                    self.b.middle("else");
                }
                self.b
                    .line(format!("error(`[BlinkBlox] unknown variant {{tostring({tag})}}`, 2)"));
                self.b.close("end");
            }
            TypeKind::Map {
                key, value: value_ty, ..
            } => {
                // Exact count, fixed-size keys and values: pairs at constant strides.
                let map = self.bind(value);
                let cursor = self.b.fresh("P");
                let (k, v) = (self.b.fresh("Key"), self.b.fresh("Item"));
                let key_size = fixed_size_of(schema, key);
                let value_size = fixed_size_of(schema, value_ty);
                self.b.line(format!("local {cursor} = {offset}"));
                self.b.open(format!("for {k}, {v} in {map} do"));
                self.write_at(key, &k, &cursor);
                self.b.line(format!("{cursor} += {key_size}"));
                self.write_at(value_ty, &v, &cursor);
                self.b.line(format!("{cursor} += {value_size}"));
                self.b.close("end");
            }
            TypeKind::Named(_) => {
                // `resolve` never returns a named type for a well-formed model.
                self.b
                    .line(format!("error(\"[BlinkBlox] internal: unresolved {}\")", kind_name(ty)));
            }
        }
    }
}

/// The receiving side's size for a fixed kind when the layout did not record one.
pub fn fixed_size_of(schema: &Schema, ty: &Type) -> u32 {
    resolve(schema, ty).layout.fixed_size.unwrap_or(0)
}

fn kind_name(ty: &Type) -> &'static str {
    match ty.kind {
        TypeKind::Named(_) => "named type",
        _ => "type",
    }
}
