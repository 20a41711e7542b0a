//! Reading values chosen among declared names: enums (an index into the names), tagged
//! enums (an index, then that variant's struct) and sets (bits), each refusing what the
//! schema does not declare.

use blinkblox_schema::model::{TaggedEnum, Variant};

use super::Reader;
use super::scalars::read_number_call;
use super::structs::table_constructor;
use crate::luau::layout::{offset_plus, tag_layout};
use crate::luau::naming::{string_literal, table_key};
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// A tagged enum at the cursor: the variant's index, then its struct.
    pub(super) fn read_tagged_enum(&mut self, tagged: &TaggedEnum, path: &ValuePath) -> String {
        let cursor = self.cursor;
        let (width, kind) = tag_layout(tagged.variants.len());
        self.need_at_cursor(width);
        let variant_index = self.local("Variant", &read_number_call(kind, cursor));
        self.b.line_fmt(format_args!("{cursor} += {width}"));
        self.read_variants(tagged, &variant_index, path, |reader, variant, tag| {
            reader.read_struct(&variant.body, Some(tag), path)
        })
    }

    /// A tagged enum of fixed size at `offset` (every variant has the same size).
    pub(super) fn read_tagged_enum_at(&mut self, tagged: &TaggedEnum, offset: &str, path: &ValuePath) -> String {
        let (width, kind) = tag_layout(tagged.variants.len());
        let variant_index = self.local("Variant", &read_number_call(kind, offset));
        let body_offset = offset_plus(offset, width);
        self.read_variants(tagged, &variant_index, path, |reader, variant, tag| {
            reader.read_fixed_struct(&variant.body, Some(tag), &body_offset, path)
        })
    }

    /// `if index == 0 then … elseif …`, each branch storing the variant `read_variant`
    /// builds (given the tag's `key = value`), and an unknown index refused.
    fn read_variants(
        &mut self,
        tagged: &TaggedEnum,
        variant_index: &str,
        path: &ValuePath,
        mut read_variant: impl FnMut(&mut Self, &Variant, (String, String)) -> String,
    ) -> String {
        let value = self.b.fresh("Tagged");
        self.b.line_fmt(format_args!("local {value}: any"));
        for (position, variant) in tagged.variants.iter().enumerate() {
            self.b.branch(position, &format!("{variant_index} == {position}"));
            let tag = (table_key(&tagged.tag), string_literal(&variant.name));
            let built = read_variant(self, variant, tag);
            self.b.line_fmt(format_args!("{value} = {built}"));
        }
        self.b.otherwise(tagged.variants.len());
        let fail = self.fail(path, "unknown variant");
        self.b.line(fail);
        self.b.close("end");
        value
    }

    /// An enum value: its index into the names (`Lookups`), refused past the last.
    pub(super) fn read_enum(&mut self, variants: &[String], offset: &str, path: &ValuePath) -> String {
        let (_, kind) = tag_layout(variants.len());
        let names = self.lookups.enum_names(variants);
        // Typed: an unannotated local would widen the names to `string`.
        let union: Vec<String> = variants.iter().map(|v| string_literal(v)).collect();
        let union = if union.is_empty() {
            "never".to_string()
        } else {
            union.join(" | ")
        };
        let value = self.typed_local(
            "Enum",
            &format!("({union})?"),
            &format!("{names}[{} + 1]", read_number_call(kind, offset)),
        );
        let fail = self.fail(path, "unknown enum value");
        self.guard(format!("if {value} == nil then {fail} end"));
        value
    }

    /// A set: a bit a flag, 8 to a byte, undeclared bits refused.
    pub(super) fn read_set(&mut self, flags: &[String], offset: &str, path: &ValuePath) -> String {
        let mut entries = Vec::with_capacity(flags.len());
        let chunks: Vec<&[String]> = flags.chunks(8).collect();
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
        table_constructor(&entries)
    }
}
