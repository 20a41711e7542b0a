//! Arrays of structs with runs of u8 fields (`luau/byte_runs.rs`), written in two forms:
//! interpreted, four fields merged with `bit32.replace` into one `buffer.writeu32` (then
//! two into a `writeu16`, then one), loading the buffer and computing an offset once a
//! group instead of once a field; natively, a `buffer.writeu8` a field.
//!
//! The bytes are the same either way, for every value: every path converts a number the
//! same way, truncating it to a 64-bit integer and keeping the low 32 bits (the C functions
//! through `luaL_checkunsigned`, the fastcall builtins through `luai_num2unsigned`, native
//! code through `NUM_TO_UINT`, for `buffer.write*` and `bit32.replace` alike);
//! `bit32.replace(r, v, f, 8)` keeps the low eight bits of `v`, and the bits of the first
//! field above its byte are replaced by the later fields or cut off by the write's width.
//! A value that is not a number raises in both forms (the message names a different
//! builtin). `tests/it/byte_runs.rs` compares the forms on out-of-range, negative,
//! fractional, huge, NaN, infinite and numeric-string values in both modes.

use std::ops::Range;

use blinkblox_schema::model::{StructType, Type};

use super::Writer;
use crate::luau::byte_runs::{byte_runs, run_bytes};
use crate::luau::forms::{Form, TwoForms};
use crate::luau::layout::offset_plus;
use crate::luau::naming::index;

impl Writer<'_> {
    /// Emits the loop over an array's fixed-size elements (`element_loop` emits it
    /// whole): in each form when the elements hold runs of u8 fields, once otherwise.
    pub(super) fn fixed_element_writes(&mut self, element: &Type, mut element_loop: impl FnMut(&mut Self)) {
        if run_bytes(self.schema, element) == 0 {
            element_loop(self);
        } else {
            self.in_each_form(element_loop);
        }
    }

    /// The runs of u8 fields of `body` to merge here (none outside the interpreted form),
    /// as ranges of indices into its `layout.fixed`.
    pub(super) fn merged_runs(&self, body: &StructType) -> Vec<Range<usize>> {
        if self.form == Form::Interpreted {
            byte_runs(self.schema, body)
        } else {
            Vec::new()
        }
    }

    /// Writes the u8 fields `run` of `value` (a struct of shape `body`) at their offsets
    /// from `offset`: four at a time with `writeu32`, then two with `writeu16`, then one.
    pub(super) fn write_byte_run(&mut self, body: &StructType, value: &str, offset: &str, run: Range<usize>) {
        // `run` comes from `byte_runs` of this same body, so its slots and fields exist.
        let Some(first) = body.layout.fixed.get(run.start).map(|slot| slot.offset) else {
            return;
        };
        let fields: Vec<String> = body.layout.fixed[run]
            .iter()
            .filter_map(|slot| body.fields.get(slot.field))
            .map(|field| format!("{value}{}", index(&field.name)))
            .collect();
        let mut at = first;
        let mut rest = fields.as_slice();
        while !rest.is_empty() {
            let (call, width) = match rest.len() {
                4.. => ("writeu32", 4),
                2 | 3 => ("writeu16", 2),
                _ => ("writeu8", 1),
            };
            let (group, after) = rest.split_at(width);
            let merged = group[1..]
                .iter()
                .enumerate()
                .fold(group[0].clone(), |low, (position, field)| {
                    format!("bit32.replace({low}, {field}, {}, 8)", 8 * (position + 1))
                });
            let target = offset_plus(offset, at);
            self.b
                .line_fmt(format_args!("buffer.{call}(SendBuffer, {target}, {merged})"));
            at += width as u32;
            rest = after;
        }
    }
}
