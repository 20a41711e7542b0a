//! Reading structs: the fixed block (packed bits, then fixed fields at constant offsets),
//! then the variable fields in order, built with one table constructor; a wide struct
//! (`WIDE_STRUCT_FIELDS`) is stored into a table made first.

use blinkblox_schema::model::{BitKind, StructType, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::builder::Mark;
use crate::luau::layout::{WIDE_STRUCT_FIELDS, offset_plus};
use crate::luau::naming::{index, table_key};
use crate::luau::value_path::ValuePath;

/// Each field's value expression (None while unread) and the presence conditions of the
/// flagged optionals, by field index.
type BlockValues = (Vec<Option<String>>, Vec<(usize, String)>);

impl Reader<'_> {
    /// A struct at the cursor: its fixed block (packed bits and fixed fields), then its
    /// variable fields; built with one table constructor. `extra` is a leading
    /// `key = value` (a tagged enum's tag).
    pub(super) fn read_struct(
        &mut self,
        body: &StructType,
        extra: Option<(String, String)>,
        path: &ValuePath,
    ) -> String {
        let block = body.layout.fixed_block_size;
        let offset = if block > 0 {
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line_fmt(format_args!("{cursor} = {offset} + {block}"));
            self.check_cursor_in_packet();
            offset
        } else {
            "0".to_string()
        };
        if body.fields.len() > WIDE_STRUCT_FIELDS {
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
                    self.b.line_fmt(format_args!("local {value}: any = nil"));
                    self.b.open_fmt(format_args!("if {condition} then"));
                    let inner_value = self.read(inner, &field_path);
                    self.b.line_fmt(format_args!("{value} = {inner_value}"));
                    self.b.close("end");
                    values[field_index] = Some(value);
                }
                _ => {
                    let value = self.read_scoped(&field.ty, &field_path, "Field");
                    values[field_index] = Some(value);
                }
            }
        }
        struct_constructor(body, extra, values)
    }

    /// A fixed-size struct at `offset` (its block is all of it); `extra` as for
    /// [`Reader::read_struct`].
    pub(super) fn read_fixed_struct(
        &mut self,
        body: &StructType,
        extra: Option<(String, String)>,
        offset: &str,
        path: &ValuePath,
    ) -> String {
        if body.fields.len() > WIDE_STRUCT_FIELDS {
            return self.read_wide_struct(body, extra, offset, path);
        }
        let (values, _) = self.read_struct_block(body, offset, path);
        struct_constructor(body, extra, values)
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
                    self.b.open_fmt(format_args!("if {condition} then"));
                    let value = self.read(inner, &field_path);
                    self.b.line_fmt(format_args!("{target} = {value}"));
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
    fn read_struct_block(&mut self, body: &StructType, offset: &str, path: &ValuePath) -> BlockValues {
        let (mut values, present) = self.read_bit_block(body, offset);
        self.read_fixed_slots(body, offset, path, &mut values);
        (values, present)
    }

    /// Reads the packed bits at `offset`: the booleans' values and the presence conditions
    /// of optionals, as expressions over one local a byte.
    fn read_bit_block(&mut self, body: &StructType, offset: &str) -> BlockValues {
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
}

/// `{ extra, field = value, … }`, a field without a value `nil`; `{}` when empty.
fn struct_constructor(body: &StructType, extra: Option<(String, String)>, values: Vec<Option<String>>) -> String {
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
    table_constructor(&entries)
}

/// `{ a, b }` of the entries, `{}` when there are none.
pub(super) fn table_constructor(entries: &[String]) -> String {
    if entries.is_empty() {
        "{}".into()
    } else {
        format!("{{ {} }}", entries.join(", "))
    }
}
