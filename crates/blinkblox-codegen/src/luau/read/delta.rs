//! Reading a delta stream's record (`Delta: true`), after its index: a kind byte (0: the whole
//! value, 1: the changes), the stream's version (a byte, counting records mod 256), then
//!
//! - a struct: whole, every field in declaration order; changes, a mask of the changed fields
//!   (bit `i` of byte `i / 8` for field `i`) and those fields;
//! - a map: whole, a LEB128 count and the entries; changes, the count and keys of the entries
//!   removed, then the count and entries added or changed.
//!
//! Each field, key and value is written as it would be alone. Changes apply to the value kept
//! when the version before theirs is the one kept; otherwise (a player who joined as they were
//! sent) they are read and ignored, and the next whole value (every player gets one on joining,
//! and every stream sends one at regular intervals) brings the player up to date.

use blinkblox_schema::model::{LengthRange, StructType, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::naming::index;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// Reads the record of the delta stream kept in `stream` (a Luau expression for its
    /// `IncomingStream`) and returns the local holding its new value, nil when the record's
    /// changes do not apply to the value kept.
    pub fn read_delta(&mut self, data: &Type, stream: &str, path: &ValuePath) -> String {
        let cursor = self.cursor;
        self.need_at_cursor(2);
        let kind = self.local("Kind", &format!("buffer.readu8(B, {cursor})"));
        let version = self.local("Version", &format!("buffer.readu8(B, {cursor} + 1)"));
        self.b.line_fmt(format_args!("{cursor} += 2"));
        let value = self.b.fresh("Value");
        self.b.line_fmt(format_args!("local {value}: any = nil"));
        let schema = self.schema;
        let data = resolve(schema, data);
        self.b.open_fmt(format_args!("if {kind} == 0 then"));
        match &data.kind {
            TypeKind::Struct(body) => self.whole_struct(body, &value, path),
            TypeKind::Map { key, value: item, .. } => self.whole_map(key, item, &value, path),
            _ => self.b.line(self.fail(path, "not a struct or a map")),
        }
        self.b.middle(format!("elseif {kind} == 1 then"));
        let base = self.local("Base", &format!("{stream}.Value"));
        self.b.line_fmt(format_args!(
            "{value} = if {base} ~= nil then table.clone({base}) else {{}}"
        ));
        match &data.kind {
            TypeKind::Struct(body) => self.changed_fields(body, &value, path),
            TypeKind::Map { key, value: item, .. } => self.changed_entries(key, item, &value, path),
            _ => {}
        }
        self.b.open_fmt(format_args!(
            "if {base} == nil or {stream}.DeltaVersion ~= ({version} + 255) % 256 then"
        ));
        self.b.line_fmt(format_args!("{value} = nil"));
        self.b.close("end");
        self.b.middle("else");
        let fail = self.fail(path, "delta record kind is not 0 or 1");
        self.b.line(fail);
        self.b.close("end");
        self.b.open_fmt(format_args!("if {value} ~= nil then"));
        self.b.line_fmt(format_args!("{stream}.DeltaVersion = {version}"));
        // Frozen: the next changes apply to it, so game code must not change it in place.
        self.b.line_fmt(format_args!("table.freeze({value} :: any)"));
        self.b.close("end");
        value
    }

    /// Every field, in declaration order.
    fn whole_struct(&mut self, body: &StructType, value: &str, path: &ValuePath) {
        self.b.line_fmt(format_args!("{value} = {{}}"));
        for field in &body.fields {
            let read = self.read_scoped(&field.ty, &path.field(&field.name), "Field");
            self.b.line_fmt(format_args!("{value}{} = {read}", index(&field.name)));
        }
    }

    /// The mask, then each field whose bit is set.
    fn changed_fields(&mut self, body: &StructType, value: &str, path: &ValuePath) {
        let mask_bytes = body.fields.len().div_ceil(8) as u32;
        self.need_at_cursor(mask_bytes);
        let cursor = self.cursor;
        let masks: Vec<String> = (0..mask_bytes)
            .map(|byte| self.local("Mask", &format!("buffer.readu8(B, {cursor} + {byte})")))
            .collect();
        self.b.line_fmt(format_args!("{cursor} += {mask_bytes}"));
        for (position, field) in body.fields.iter().enumerate() {
            let bit = 1u32 << (position % 8);
            self.b
                .open_fmt(format_args!("if bit32.btest({}, {bit}) then", masks[position / 8]));
            let read = self.read_scoped(&field.ty, &path.field(&field.name), "Field");
            self.b.line_fmt(format_args!("{value}{} = {read}", index(&field.name)));
            self.b.close("end");
        }
    }

    /// A count, then that many entries.
    fn whole_map(&mut self, key: &Type, item: &Type, value: &str, path: &ValuePath) {
        self.b.line_fmt(format_args!("{value} = {{}}"));
        self.entries(key, Some(item), value, path);
    }

    /// The removed keys, then the entries added or changed.
    fn changed_entries(&mut self, key: &Type, item: &Type, value: &str, path: &ValuePath) {
        self.entries(key, None, value, path);
        self.entries(key, Some(item), value, path);
    }

    /// A LEB128 count and that many keys, each with its value (or removed, without one).
    fn entries(&mut self, key: &Type, item: Option<&Type>, value: &str, path: &ValuePath) {
        let count = self.read_length(&LengthRange::default(), path);
        let schema = self.schema;
        let entry_min =
            resolve(schema, key).layout.min_size + item.map_or(0, |item| resolve(schema, item).layout.min_size);
        self.guard_count(&count, entry_min, false, path);
        self.b.open_fmt(format_args!("for _ = 1, {count} do"));
        let key_expr = self.read(key, path);
        let key_local = self.local("Key", &key_expr);
        let item_expr = match item {
            Some(item) => self.read(item, path),
            None => "nil".to_string(),
        };
        self.b.line_fmt(format_args!("{value}[{key_local}] = {item_expr}"));
        self.b.close("end");
    }
}
