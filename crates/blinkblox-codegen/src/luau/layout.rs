//! Where values sit in a record, as the readers and writers both need it: offsets as Luau
//! expressions, the width of enum and variant indices, fixed sizes.

use blinkblox_schema::model::{LengthRange, NumberKind, Schema, Type, TypeKind};
use blinkblox_schema::wire::{enum_index_bytes, resolve};

/// Past this many fields, a struct is read into a table made first, each field stored as
/// it is read: a constructor at the end needs a local a field until then, and Luau allows
/// a function 200. Narrower structs are built with one constructor from locals, which
/// runs fewer instructions.
pub const WIDE_STRUCT_FIELDS: usize = 16;

/// `offset + add` with the trivial cases folded.
pub fn offset_plus(offset: &str, add: u32) -> String {
    if add == 0 {
        return offset.to_string();
    }
    // A constant that would overflow is left as an addition rather than folded.
    let plus_add = |constant: &str| constant.parse::<u32>().ok()?.checked_add(add);
    if let Some(sum) = plus_add(offset) {
        return sum.to_string();
    }
    // `Cursor + 1` and 2 is `Cursor + 3`: one addition at run time, not two.
    if let Some((base, constant)) = offset.rsplit_once(" + ")
        && let Some(sum) = plus_add(constant)
        && !base.contains(['(', ' '])
    {
        return format!("{base} + {sum}");
    }
    format!("{offset} + {add}")
}

/// The width on the wire of an index among `variants` enum values or tagged-enum
/// variants, and the number kind it is written as.
pub fn tag_layout(variants: usize) -> (u32, NumberKind) {
    let width = enum_index_bytes(variants);
    let kind = if width == 1 { NumberKind::U8 } else { NumberKind::U16 };
    (width, kind)
}

/// The size of a fixed-size type (0 when the layout records none).
pub fn fixed_size_of(schema: &Schema, ty: &Type) -> u32 {
    resolve(schema, ty).layout.fixed_size.unwrap_or(0)
}

/// `u8`/`i8`: one byte, written from the value truncated to an unsigned integer.
pub fn is_byte_number(ty: &Type) -> bool {
    matches!(
        ty.kind,
        TypeKind::Number {
            kind: NumberKind::U8 | NumberKind::I8,
            ..
        }
    )
}

/// Whether an array of `element` (resolved) travels as its strings' lengths and then all
/// their bytes as one run (`write/string_arrays.rs`, `read/string_arrays.rs`): strings of
/// any length but an exact one, which have no prefix and a fixed size.
pub fn is_string_run(element: &Type) -> bool {
    matches!(&element.kind, TypeKind::String { length } if length.exact().is_none())
}

/// For a map entry whose key is a string of any length but an exact one and whose value
/// has a fixed size of its own: the key's length range and the value's size. Such an entry
/// is written in one reservation and read with one bounds check, the same bytes as any
/// other entry; writer and reader both ask here, so they cannot disagree.
pub fn string_key_and_fixed_value<'a>(
    schema: &'a Schema,
    key: &'a Type,
    value: &Type,
) -> Option<(&'a LengthRange, u32)> {
    let size = resolve(schema, value).layout.fixed_size.filter(|&size| size > 0)?;
    match &resolve(schema, key).kind {
        TypeKind::String { length } if length.exact().is_none() => Some((length, size)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::offset_plus;

    #[test]
    fn offsets_the_generator_can_add_up_are_one_number() {
        assert_eq!(offset_plus("Cursor", 0), "Cursor");
        assert_eq!(offset_plus("0", 4), "4");
        assert_eq!(offset_plus("2", 4), "6");
        assert_eq!(offset_plus("Cursor", 1), "Cursor + 1");
        assert_eq!(offset_plus("Cursor + 1", 2), "Cursor + 3");
        assert_eq!(offset_plus(&offset_plus("Record1", 2), 4), "Record1 + 6");
    }

    #[test]
    fn other_offsets_are_added_to_as_written() {
        assert_eq!(offset_plus("(Cursor + Length1) + 1", 2), "(Cursor + Length1) + 1 + 2");
        assert_eq!(
            offset_plus("Cursor + Length1 * 6 + 1", 2),
            "Cursor + Length1 * 6 + 1 + 2"
        );
        let largest = u32::MAX.to_string();
        assert_eq!(offset_plus(&largest, 1), format!("{largest} + 1"));
        assert_eq!(
            offset_plus(&format!("Cursor + {largest}"), 1),
            format!("Cursor + {largest} + 1")
        );
    }
}
