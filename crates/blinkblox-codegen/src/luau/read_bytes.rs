//! Arrays of structs read with `string.byte` where that is faster.
//!
//! Interpreted Luau pays a builtin call for every `buffer.readu8`; one `string.byte` on a
//! copy of the packet returns a whole run of bytes for the price of about two and a half
//! of them (a run of six u8 fields reads 1.4 times faster; a run of three barely gains, a
//! run of two loses). Natively compiled code is the other way round: `buffer.readu8` is a
//! few instructions and the plain reads are about 1.2 times faster. So an array whose
//! elements hold a run of at least [`MIN_RUN`] u8 fields gets two element loops, and the
//! module's `Interpreted` (timed once by the prelude's `DetectInterpreted`) picks one.
//! Both give the same values and run the same checks; the bytes were already checked to be
//! in the packet before either loop.

use std::ops::Range;

use blinkblox_schema::model::{NumberKind, Schema, StructType, Type, TypeKind};

use super::ValuePath;
use super::forms::{Form, TwoForms};
use super::read::Reader;
use super::resolve;
use super::write::offset_plus;

/// The shortest run of u8 fields worth one `string.byte` call.
pub const MIN_RUN: usize = 4;

/// The most run bytes an element may hold for the `string.byte` form: each is a local
/// until the element's table is built (nested structs' included), and Luau allows 200
/// locals in a function.
pub const MAX_RUN_BYTES: usize = 48;

/// Runs of u8 fields at consecutive offsets in a struct's fixed block, as ranges of
/// indices into `layout.fixed`, at least [`MIN_RUN`] long.
pub(super) fn byte_runs(schema: &Schema, body: &StructType) -> Vec<Range<usize>> {
    let is_byte = |index: usize| {
        body.layout
            .fixed
            .get(index)
            .and_then(|slot| body.fields.get(slot.field))
            .is_some_and(|field| {
                matches!(
                    resolve(schema, &field.ty).kind,
                    TypeKind::Number {
                        kind: NumberKind::U8,
                        ..
                    }
                )
            })
    };
    let mut runs = Vec::new();
    let mut start = 0;
    while start < body.layout.fixed.len() {
        if !is_byte(start) {
            start += 1;
            continue;
        }
        let mut end = start + 1;
        while end < body.layout.fixed.len()
            && is_byte(end)
            && body.layout.fixed[end].offset == body.layout.fixed[end - 1].offset + 1
        {
            end += 1;
        }
        if end - start >= MIN_RUN {
            runs.push(start..end);
        }
        start = end;
    }
    runs
}

/// How many u8 fields of a fixed-size element (a struct, and the fixed structs it holds)
/// sit in runs: the locals its `string.byte` form keeps until the element is built.
pub(super) fn run_bytes(schema: &Schema, ty: &Type) -> usize {
    let TypeKind::Struct(body) = &resolve(schema, ty).kind else {
        return 0;
    };
    let own: usize = byte_runs(schema, body).iter().map(|run| run.len()).sum();
    let nested: usize = body
        .layout
        .fixed
        .iter()
        .filter_map(|slot| body.fields.get(slot.field))
        .map(|field| run_bytes(schema, &field.ty))
        .sum();
    own + nested
}

/// Whether an element gets the `string.byte` form: it has a run, and not so many run
/// bytes that their locals would not fit.
fn has_byte_run(schema: &Schema, ty: &Type) -> bool {
    (1..=MAX_RUN_BYTES).contains(&run_bytes(schema, ty))
}

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
        if !has_byte_run(self.schema, element) {
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
                .line(format!("local {text} = PacketStrings[B] or PacketString(B)"));
            if !in_packet {
                // `string.byte` past the end returns nothing where `buffer.readu8` raises:
                // an exact-size array (no length prefix, so no check before it) must fit.
                let size = resolve(reader.schema, element).layout.fixed_size.unwrap_or(0);
                reader.b.line(format!(
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
        self.b.open(format!("for {position} = 1, {count} do"));
        let item = self.read_at(element, cursor, path);
        self.b.line(format!("{array}[{position}] = {item}"));
        if size > 0 {
            self.b.line(format!("{cursor} += {size}"));
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
                self.b.line(format!(
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
