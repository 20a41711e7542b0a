//! Writing structs as the model lays them out: the packed bits (booleans and optional
//! flags) and the fixed fields at constant offsets in one block, then the variable
//! fields in order.

use blinkblox_schema::model::{BitKind, StructType, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Writer;
use crate::luau::layout::offset_plus;
use crate::luau::naming::index;

impl Writer<'_> {
    /// A struct: its fixed block in one reservation, then its variable fields.
    pub(super) fn write_struct(&mut self, body: &StructType, value: &str) {
        let block = body.layout.fixed_block_size;
        if block > 0 {
            let offset = self.b.fresh("O");
            self.b.line_fmt(format_args!("local {offset} = Allocate({block})"));
            self.write_struct_block(body, value, &offset);
        } else {
            self.write_struct_block(body, value, "0");
        }
        self.write_struct_variable(body, value);
    }

    /// The packed bits and the fixed fields of a struct, at `offset`.
    pub(super) fn write_struct_block(&mut self, body: &StructType, value: &str, offset: &str) {
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
                .line_fmt(format_args!("buffer.writeu8(SendBuffer, {at}, {})", terms.join(" + ")));
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

    /// The variable fields of a struct, in order; a flagged optional's value only when
    /// present (its flag is in the bit block).
    pub(super) fn write_struct_variable(&mut self, body: &StructType, value: &str) {
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
                    w.b.line_fmt(format_args!("local {bound} = {access}"));
                    w.b.open_fmt(format_args!("if {bound} ~= nil then"));
                    w.write(inner, &bound);
                    w.b.close("end");
                }
                _ => w.write(&field.ty, &access),
            });
        }
    }
}
