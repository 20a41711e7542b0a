//! Helpers for code generators walking a checked [`Schema`]: the wire format's rules
//! that depend on looking through named types, stated once so every generator and the
//! checker's layouts agree.
//!
//! - A `T?` has a presence flag unless `T` is (through names) `Instance`/`unknown`,
//!   whose nil travels in the side array.
//! - Inside a struct, `boolean` fields and presence flags live in the packed bit block
//!   ([`crate::model::StructLayout::bits`]); a flagged optional's value is
//!   among the variable fields, a flagless one among the fixed fields (0 bytes).
//! - `boolean` array elements (through names) are packed 8 to a byte.
//! - Lengths and counts are LEB128 varints unless exact ([`LengthRange::exact`]).
//! - Enum and tagged-enum indices are 1 byte, 2 past 256 variants.

use crate::model::{LengthRange, Payload, Schema, Type, TypeKind};

/// Follows `Named` references to the type they name.
pub fn resolve<'a>(schema: &'a Schema, ty: &'a Type) -> &'a Type {
    let mut current = ty;
    // A checked schema has no reference cycles; the bound is only a guard.
    for _ in 0..=schema.types.len() {
        match current.kind {
            TypeKind::Named(id) => match schema.types.get(id.0 as usize) {
                Some(decl) => current = &decl.ty,
                None => return current,
            },
            _ => return current,
        }
    }
    current
}

/// Whether `T?` writes a presence flag for this `T`.
pub fn optional_has_flag(schema: &Schema, inner: &Type) -> bool {
    !matches!(
        resolve(schema, inner).kind,
        TypeKind::Instance { .. } | TypeKind::Unknown
    )
}

/// Whether a value of this type is a boolean (packed in structs and arrays).
pub fn is_boolean(schema: &Schema, ty: &Type) -> bool {
    matches!(resolve(schema, ty).kind, TypeKind::Boolean)
}

/// Whether a length or count is written (it is not when exact).
pub fn has_length_prefix(length: LengthRange) -> bool {
    length.exact().is_none()
}

/// Bytes of an enum or tagged-enum index.
pub fn enum_index_bytes(variants: usize) -> u32 {
    if variants > 256 { 2 } else { 1 }
}

/// Bytes of the LEB128 encoding of `n`.
pub fn varint_size(n: u64) -> u32 {
    let mut size = 1;
    let mut rest = n >> 7;
    while rest != 0 {
        size += 1;
        rest >>= 7;
    }
    size
}

/// The fewest bytes a payload takes.
pub fn payload_min_size(payload: &Payload) -> u64 {
    match payload {
        Payload::None => 0,
        Payload::Single(ty) => u64::from(ty.layout.min_size),
        Payload::Tuple(types) => types.iter().map(|t| u64::from(t.layout.min_size)).sum(),
    }
}
