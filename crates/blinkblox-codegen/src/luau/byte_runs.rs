//! Runs of u8 fields in a struct's fixed block, which arrays of such structs read and
//! write in two forms.
//!
//! Interpreted Luau pays a dispatched instruction for every operation around a builtin
//! call, so fewer calls doing more work each win there: one `string.byte` on a copy of the
//! packet returns a whole run of bytes, and four u8 fields merged with `bit32.replace` go
//! out in one `buffer.writeu32`. Natively compiled code is the other way round: each
//! `buffer.readu8` and `buffer.writeu8` is a few machine instructions. So an array whose
//! elements hold a run of at least [`MIN_RUN`] u8 fields gets two element loops
//! (`read/byte_runs.rs`, `write/byte_runs.rs`), and the module's `Interpreted` (timed once
//! by the prelude's `DetectInterpreted`) picks one. Both forms give the same values and
//! bytes and run the same checks.

use std::ops::Range;

use blinkblox_schema::model::{NumberKind, Schema, StructType, Type, TypeKind};
use blinkblox_schema::wire::resolve;

/// The shortest run of u8 fields worth one `string.byte` call.
pub const MIN_RUN: usize = 4;

/// The most run bytes an element may hold for the `string.byte` form: each is a local
/// until the element's table is built (nested structs' included), and Luau allows 200
/// locals in a function.
pub const MAX_RUN_BYTES: usize = 48;

/// Runs of u8 fields at consecutive offsets in a struct's fixed block, as ranges of
/// indices into `layout.fixed`, at least [`MIN_RUN`] long.
pub fn byte_runs(schema: &Schema, body: &StructType) -> Vec<Range<usize>> {
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
pub fn run_bytes(schema: &Schema, ty: &Type) -> usize {
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

/// Whether an element is read in the `string.byte` form: it has a run, and not so many
/// run bytes that their locals would not fit.
pub fn reads_byte_runs(schema: &Schema, ty: &Type) -> bool {
    (1..=MAX_RUN_BYTES).contains(&run_bytes(schema, ty))
}
