//! Writing values chosen among declared names: enums as their index, tagged enums as the
//! variant's index then its struct, sets as bits; an undeclared value raises.

use blinkblox_schema::model::{TaggedEnum, Variant};

use super::Writer;
use super::scalars::write_number_call;
use crate::luau::layout::{offset_plus, tag_layout};
use crate::luau::naming::{index, string_literal};

impl Writer<'_> {
    /// A tagged enum of variable size: each variant reserves its index and fixed block
    /// together, then writes its variable fields.
    pub(super) fn write_tagged_enum(&mut self, tagged: &TaggedEnum, value: &str) {
        let value = self.bind(value);
        let (width, kind) = tag_layout(tagged.variants.len());
        self.write_variants(tagged, &value, |writer, position, variant| {
            let block = variant.body.layout.fixed_block_size;
            let offset = writer.b.fresh("O");
            writer
                .b
                .line_fmt(format_args!("local {offset} = Allocate({})", width + block));
            writer
                .b
                .line(write_number_call(kind, "SendBuffer", &offset, &position.to_string()));
            let at = offset_plus(&offset, width);
            writer.write_struct_block(&variant.body, &value, &at);
            writer.write_struct_variable(&variant.body, &value);
        });
    }

    /// A tagged enum of fixed size (every variant has the same size) at `offset`.
    pub(super) fn write_tagged_enum_at(&mut self, tagged: &TaggedEnum, value: &str, offset: &str) {
        let v = self.bind(value);
        let (width, kind) = tag_layout(tagged.variants.len());
        self.write_variants(tagged, &v, |writer, position, variant| {
            writer
                .b
                .line(write_number_call(kind, "SendBuffer", offset, &position.to_string()));
            let at = offset_plus(offset, width);
            writer.write_struct_block(&variant.body, &v, &at);
        });
    }

    /// The variant chain of [`Writer::variant_chain`], an unknown tag raising.
    fn write_variants(&mut self, tagged: &TaggedEnum, value: &str, each: impl FnMut(&mut Self, usize, &Variant)) {
        let tag = self.variant_chain(tagged, value, each);
        self.b.line_fmt(format_args!(
            "error(`[BlinkBlox] unknown variant {{tostring({tag})}}`, 2)"
        ));
        self.b.close("end");
    }

    /// `if value.tag == "A" then … elseif …` with `each` emitting each variant's branch, and
    /// the last branch opened (for an unknown tag) for the caller to fill and close. The tag
    /// is compared where it is, not through a local: Luau narrows a tagged union only on a
    /// comparison of the field itself. Returns the tag's expression.
    pub(super) fn variant_chain(
        &mut self,
        tagged: &TaggedEnum,
        value: &str,
        mut each: impl FnMut(&mut Self, usize, &Variant),
    ) -> String {
        let tag = format!("{value}{}", index(&tagged.tag));
        for (position, variant) in tagged.variants.iter().enumerate() {
            self.b
                .branch(position, &format!("{tag} == {}", string_literal(&variant.name)));
            each(self, position, variant);
        }
        self.b.otherwise(tagged.variants.len());
        tag
    }

    /// An enum value as its index: an `if` chain for up to eight names, a lookup table
    /// beyond.
    pub(super) fn write_enum(&mut self, variants: &[String], value: &str, offset: &str) {
        let v = self.bind(value);
        let (_, kind) = tag_layout(variants.len());
        let position = self.b.fresh("EnumIndex");
        if variants.len() <= 8 {
            self.b.line_fmt(format_args!("local {position}: number"));
            for (i, variant) in variants.iter().enumerate() {
                let keyword = if i == 0 { "if" } else { "elseif" };
                self.b.line_fmt(format_args!(
                    "{keyword} {v} == {} then {position} = {i}",
                    string_literal(variant)
                ));
            }
            if variants.is_empty() {
                self.b.line_fmt(format_args!(
                    "error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2)"
                ));
            } else {
                self.b.line_fmt(format_args!(
                    "else error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2) end"
                ));
            }
        } else {
            let table = self.lookups.enum_indices(variants);
            self.b.line_fmt(format_args!("local {position} = {table}[{v}]"));
            self.b.line_fmt(format_args!(
                "if {position} == nil then error(`[BlinkBlox] unknown enum value {{tostring({v})}}`, 2) end"
            ));
        }
        self.b.line(write_number_call(kind, "SendBuffer", offset, &position));
    }

    /// A set: a bit a flag, 8 to a byte.
    pub(super) fn write_set(&mut self, flags: &[String], value: &str, offset: &str) {
        let v = self.bind(value);
        for (byte, flags) in flags.chunks(8).enumerate() {
            let terms: Vec<String> = flags
                .iter()
                .enumerate()
                .map(|(bit, flag)| format!("(if {v}{} then {} else 0)", index(flag), 1u32 << bit))
                .collect();
            let at = offset_plus(offset, byte as u32);
            self.b
                .line_fmt(format_args!("buffer.writeu8(SendBuffer, {at}, {})", terms.join(" + ")));
        }
    }
}
