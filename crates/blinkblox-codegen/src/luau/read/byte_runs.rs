//! Arrays of structs with runs of u8 fields (`luau/byte_runs.rs`), read in two forms:
//! interpreted, one `string.byte` a run on the packet as a string; natively, a
//! `buffer.readu8` a field. Both run the same checks; the bytes were already checked to
//! be in the packet before either loop.

use blinkblox_schema::model::{StructType, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::byte_runs::{byte_runs, reads_byte_runs};
use crate::luau::forms::{Form, TwoForms};
use crate::luau::layout::offset_plus;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// Reads `count` fixed-size elements from `cursor` (a local moved along) into
    /// `array`: a loop in each form when the elements have byte runs, the interpreted one
    /// reading them from the packet's string. `in_packet`: the elements' bytes were already
    /// checked to be in the packet (a length-prefixed array's count check).
    pub(super) fn fixed_element_loop(
        &mut self,
        element: &Type,
        count: &str,
        cursor: &str,
        array: &str,
        path: &ValuePath,
        in_packet: bool,
    ) {
        if !reads_byte_runs(self.schema, element) {
            self.element_loop(element, count, cursor, array, path);
            return;
        }
        self.in_each_form(|reader| {
            // An enclosing loop that chose the interpreted form already holds the string
            // and checked the bytes of its elements, these included.
            if reader.form != Form::Interpreted || reader.packet_text.is_some() {
                reader.element_loop(element, count, cursor, array, path);
                return;
            }
            let text = reader.b.fresh("Text");
            reader
                .b
                .line_fmt(format_args!("local {text} = PacketStrings[B] or PacketString(B)"));
            if !in_packet {
                // `string.byte` past the end returns nothing where `buffer.readu8` raises:
                // an exact-size array (no length prefix, so no check before it) must fit.
                let size = resolve(reader.schema, element).layout.fixed_size.unwrap_or(0);
                reader.b.line_fmt(format_args!(
                    "if {cursor} + {count} * {size} > #{text} then OutOfBytes() end"
                ));
            }
            reader.packet_text = Some(text);
            reader.element_loop(element, count, cursor, array, path);
            reader.packet_text = None;
        });
    }

    fn element_loop(&mut self, element: &Type, count: &str, cursor: &str, array: &str, path: &ValuePath) {
        let size = resolve(self.schema, element).layout.fixed_size.unwrap_or(0);
        let position = self.b.fresh("I");
        self.b.open_fmt(format_args!("for {position} = 1, {count} do"));
        let item = self.read_at(element, cursor, path);
        self.b.line_fmt(format_args!("{array}[{position}] = {item}"));
        if size > 0 {
            self.b.line_fmt(format_args!("{cursor} += {size}"));
        }
        self.b.close("end");
    }

    /// The fixed fields of a struct block at `offset` into `values`: runs of u8 fields
    /// with one `string.byte` each when a loop chose the string, the rest as usual.
    pub(super) fn read_fixed_slots(
        &mut self,
        body: &StructType,
        offset: &str,
        path: &ValuePath,
        values: &mut [Option<String>],
    ) {
        let mut run_bytes: Vec<Option<String>> = vec![None; body.layout.fixed.len()];
        if let Some(text) = self.packet_text.clone() {
            for run in byte_runs(self.schema, body) {
                let names: Vec<String> = run.clone().map(|_| self.b.fresh("Byte")).collect();
                let first = body.layout.fixed[run.start].offset;
                // string.byte counts from 1.
                self.b.line_fmt(format_args!(
                    "local {} = string.byte({text}, {}, {})",
                    names.join(", "),
                    offset_plus(offset, first + 1),
                    offset_plus(offset, first + names.len() as u32)
                ));
                for (index, name) in run.zip(names) {
                    run_bytes[index] = Some(name);
                }
            }
        }
        for (slot, byte) in body.layout.fixed.iter().zip(run_bytes) {
            let Some(field) = body.fields.get(slot.field) else {
                continue;
            };
            let field_path = path.field(&field.name);
            let value = match (byte, &resolve(self.schema, &field.ty).kind) {
                (Some(byte), TypeKind::Number { kind, range }) => self.checked_number(*kind, range, byte, &field_path),
                // Scoped like a variable field: a CFrame's or a checked vector's locals
                // would otherwise live until the struct is built.
                _ => {
                    let mark = self.b.mark();
                    let value = self.read_at(&field.ty, &offset_plus(offset, slot.offset), &field_path);
                    self.bind_scoped(mark, value, "Field")
                }
            };
            if let Some(entry) = values.get_mut(slot.field) {
                *entry = Some(value);
            }
        }
    }
}
