//! Wire layouts: how many bytes each type takes, whether that is fixed,
//! and where each struct field goes.
//!
//! Pure functions over already-computed child layouts. Sizes are computed in `u64`
//! and saturate at `u32::MAX` so absurd schemas (`u32[4000000000]`) cannot overflow;
//! a map entry (two `u32` sizes) times a `u32` count can pass `u64`, so it saturates too.
//!
//! Conventions the generators rely on:
//! - variable lengths are unsigned LEB128 varints; exact lengths are not written;
//! - a `boolean[…]` packs 8 values to a byte; a struct packs its booleans and the
//!   presence flags of its optionals into one bit block;
//! - `Instance`, `unknown` and their optionals take 0 bytes (side array);
//! - enums and tagged-enum variants are an index of 1 byte, 2 past 256 variants.

use crate::model::{BitKind, BitSlot, FixedSlot, Layout, LengthRange, NumberKind, StructLayout};

/// What a type is for packing purposes, looking through named references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Boolean,
    /// `T?` with a presence flag.
    FlaggedOptional,
    /// `Instance?` / `unknown?`: nil travels in the side array, no flag.
    FlaglessOptional,
    Other,
}

fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Bytes of the LEB128 encoding of `n`.
pub fn varint_size(n: u64) -> u32 {
    crate::wire::varint_size(n)
}

pub fn fixed(size: u32) -> Layout {
    Layout {
        fixed_size: Some(size),
        min_size: size,
        uses_instances: false,
        inlined_nodes: 1,
    }
}

/// One node plus its children's.
fn nodes_over(children: impl IntoIterator<Item = u32>) -> u32 {
    children.into_iter().fold(1u32, u32::saturating_add)
}

/// `Instance`, `Instance(Class)`, `unknown`.
pub fn side_array() -> Layout {
    Layout {
        fixed_size: Some(0),
        min_size: 0,
        uses_instances: true,
        inlined_nodes: 1,
    }
}

pub fn number(kind: NumberKind) -> Layout {
    fixed(kind.size())
}

/// Bytes of an enum or tagged-enum index.
pub fn index_size(variants: usize) -> u32 {
    crate::wire::enum_index_bytes(variants)
}

/// `string(…)` and `buffer(…)`.
pub fn bytes(length: LengthRange) -> Layout {
    match length.exact() {
        Some(n) => fixed(n),
        None => Layout {
            fixed_size: None,
            min_size: clamp(u64::from(varint_size(u64::from(length.min))) + u64::from(length.min)),
            uses_instances: false,
            inlined_nodes: 1,
        },
    }
}

/// `T[…]`; `boolean` elements are packed eight to a byte.
pub fn array(element: Layout, element_shape: Shape, length: LengthRange) -> Layout {
    let content = |count: u32| -> u64 {
        if element_shape == Shape::Boolean {
            u64::from(count).div_ceil(8)
        } else {
            u64::from(count) * u64::from(element.min_size)
        }
    };
    match length.exact() {
        Some(n) => {
            let fixed_size = if element_shape == Shape::Boolean {
                Some(clamp(content(n)))
            } else {
                element.fixed_size.map(|size| clamp(u64::from(size) * u64::from(n)))
            };
            Layout {
                fixed_size,
                min_size: clamp(content(n)),
                uses_instances: element.uses_instances,
                inlined_nodes: nodes_over([element.inlined_nodes]),
            }
        }
        None => Layout {
            fixed_size: None,
            min_size: clamp(u64::from(varint_size(u64::from(length.min))) + content(length.min)),
            uses_instances: element.uses_instances,
            inlined_nodes: nodes_over([element.inlined_nodes]),
        },
    }
}

/// `{[K]: V}(…)`: a count (not written when exact), then key/value pairs.
pub fn map(key: Layout, value: Layout, length: LengthRange) -> Layout {
    let entry_min = u64::from(key.min_size) + u64::from(value.min_size);
    let uses_instances = key.uses_instances || value.uses_instances;
    let inlined_nodes = nodes_over([key.inlined_nodes, value.inlined_nodes]);
    match length.exact() {
        Some(n) => Layout {
            fixed_size: match (key.fixed_size, value.fixed_size) {
                (Some(k), Some(v)) => Some(clamp((u64::from(k) + u64::from(v)).saturating_mul(u64::from(n)))),
                _ => None,
            },
            min_size: clamp(entry_min.saturating_mul(u64::from(n))),
            uses_instances,
            inlined_nodes,
        },
        None => Layout {
            fixed_size: None,
            min_size: clamp(
                entry_min
                    .saturating_mul(u64::from(length.min))
                    .saturating_add(u64::from(varint_size(u64::from(length.min)))),
            ),
            uses_instances,
            inlined_nodes,
        },
    }
}

/// A standalone `T?` (outside a struct): a flag byte then the value, or nothing at all
/// for `Instance?`/`unknown?`.
pub fn optional(inner: Layout, flagless: bool) -> Layout {
    let inlined_nodes = nodes_over([inner.inlined_nodes]);
    if flagless {
        return Layout {
            inlined_nodes,
            ..side_array()
        };
    }
    Layout {
        fixed_size: if inner.fixed_size == Some(0) { Some(1) } else { None },
        min_size: 1,
        uses_instances: inner.uses_instances,
        inlined_nodes,
    }
}

/// `set { … }`: one bit per flag.
pub fn set(flags: usize) -> Layout {
    fixed(clamp((flags as u64).div_ceil(8)))
}

/// Lays out a struct: packed bits first, then fixed fields at constant offsets, then
/// variable fields in declaration order.
pub fn structure(fields: &[(Layout, Shape)]) -> (StructLayout, Layout) {
    let mut bits = Vec::new();
    let mut sized = Vec::new();
    let mut variable = Vec::new();
    let mut uses_instances = false;
    for (index, &(layout, shape)) in fields.iter().enumerate() {
        uses_instances |= layout.uses_instances;
        match shape {
            Shape::Boolean => bits.push(BitSlot {
                field: index,
                kind: BitKind::Boolean,
            }),
            Shape::FlaggedOptional => {
                bits.push(BitSlot {
                    field: index,
                    kind: BitKind::Present,
                });
                variable.push(index);
            }
            Shape::FlaglessOptional | Shape::Other => match layout.fixed_size {
                Some(size) => sized.push((index, size)),
                None => variable.push(index),
            },
        }
    }
    let packed_bytes = (bits.len() as u64).div_ceil(8);
    let mut offset = packed_bytes;
    let mut fixed_slots = Vec::with_capacity(sized.len());
    for (field, size) in sized {
        fixed_slots.push(FixedSlot {
            field,
            offset: clamp(offset),
        });
        offset += u64::from(size);
    }
    let fixed_block_size = clamp(offset);
    let mut min = offset;
    for &field in &variable {
        let (layout, shape) = fields[field];
        if shape != Shape::FlaggedOptional {
            min += u64::from(layout.min_size);
        }
    }
    let layout = Layout {
        fixed_size: variable.is_empty().then_some(fixed_block_size),
        min_size: clamp(min),
        uses_instances,
        inlined_nodes: nodes_over(fields.iter().map(|(layout, _)| layout.inlined_nodes)),
    };
    (
        StructLayout {
            bits,
            fixed: fixed_slots,
            fixed_block_size,
            variable,
        },
        layout,
    )
}

/// A tagged enum: the variant index, then the variant's struct.
pub fn tagged_enum(variants: &[Layout]) -> Layout {
    let index = u64::from(index_size(variants.len()));
    let first = variants.first().and_then(|v| v.fixed_size);
    let all_same = variants.iter().all(|v| v.fixed_size.is_some() && v.fixed_size == first);
    let min = variants.iter().map(|v| v.min_size).min().unwrap_or(0);
    Layout {
        fixed_size: if all_same {
            first.map(|size| clamp(index + u64::from(size)))
        } else {
            None
        },
        min_size: clamp(index + u64::from(min)),
        uses_instances: variants.iter().any(|v| v.uses_instances),
        inlined_nodes: nodes_over(variants.iter().map(|v| v.inlined_nodes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(min: u32, max: Option<u32>) -> LengthRange {
        LengthRange { min, max }
    }

    #[test]
    fn varints() {
        assert_eq!(varint_size(0), 1);
        assert_eq!(varint_size(127), 1);
        assert_eq!(varint_size(128), 2);
        assert_eq!(varint_size(1000), 2);
        assert_eq!(varint_size(u64::from(u32::MAX)), 5);
    }

    #[test]
    fn boolean_array_of_a_thousand_is_127_bytes_of_data() {
        // 1000 values: 2 bytes of varint + 125 bytes of bits; the record adds 1 index.
        let layout = array(fixed(1), Shape::Boolean, range(0, Some(1000)));
        assert_eq!(layout.min_size, 1);
        assert_eq!(u64::from(varint_size(1000)) + 1000u64.div_ceil(8), 127);
        let exact = array(fixed(1), Shape::Boolean, range(1000, Some(1000)));
        assert_eq!(exact.fixed_size, Some(125));
    }

    #[test]
    fn struct_packs_bits_then_fixed_then_variable() {
        let fields = [
            (fixed(1), Shape::Boolean),
            (fixed(4), Shape::Other),
            (optional(fixed(2), false), Shape::FlaggedOptional),
            (bytes(range(0, None)), Shape::Other),
            (side_array(), Shape::FlaglessOptional),
        ];
        let (layout, total) = structure(&fields);
        assert_eq!(layout.bits.len(), 2);
        assert_eq!(
            layout.fixed,
            vec![FixedSlot { field: 1, offset: 1 }, FixedSlot { field: 4, offset: 5 }]
        );
        assert_eq!(layout.fixed_block_size, 5);
        assert_eq!(layout.variable, vec![2, 3]);
        assert_eq!(total.fixed_size, None);
        assert_eq!(total.min_size, 6);
        assert!(total.uses_instances);
    }

    #[test]
    fn six_u8_struct_array_of_100() {
        let fields: Vec<_> = (0..6).map(|_| (fixed(1), Shape::Other)).collect();
        let (_, element) = structure(&fields);
        let layout = array(element, Shape::Other, range(100, Some(100)));
        assert_eq!(layout.fixed_size, Some(600));
    }

    #[test]
    fn huge_map_of_huge_entries_saturates() {
        let huge = fixed(u32::MAX);
        let exact = map(huge, huge, range(u32::MAX, Some(u32::MAX)));
        assert_eq!((exact.fixed_size, exact.min_size), (Some(u32::MAX), u32::MAX));
        let open = map(huge, huge, range(u32::MAX, None));
        assert_eq!((open.fixed_size, open.min_size), (None, u32::MAX));
    }
}
