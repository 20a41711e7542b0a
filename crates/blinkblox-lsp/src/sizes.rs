//! How many bytes a value takes on the wire, from the checked model: the fewest (the
//! checker's layout), the most (following every bound up to its maximum), and what sets
//! them; and types written back in the schema's own syntax.

use blinkblox_schema::model::{LengthRange, Schema, StructType, Type, TypeKind};
use blinkblox_schema::print::type_text;
use blinkblox_schema::wire::{enum_index_bytes, optional_has_flag, resolve, varint_size};

/// Bytes a value takes: `max` is `None` when a length has no upper bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub min: u64,
    pub max: Option<u64>,
}

impl Size {
    fn exact(n: u64) -> Size {
        Size { min: n, max: Some(n) }
    }

    pub fn describe(self) -> String {
        match self.max {
            Some(max) if max == self.min => bytes(max),
            Some(max) => format!("{}–{}", self.min, bytes(max)),
            None => format!("at least {}, no upper bound", bytes(self.min)),
        }
    }
}

pub fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

/// The size of a value of `ty` written on its own (as data, not inside a struct).
pub fn size(schema: &Schema, ty: &Type) -> Size {
    let min = u64::from(ty.layout.min_size);
    if let Some(fixed) = ty.layout.fixed_size {
        return Size::exact(u64::from(fixed));
    }
    let max = max_size(schema, ty, 0);
    Size {
        min,
        max: max.map(|max| max.max(min)),
    }
}

/// Types nest at most this deep in a checked schema; the bound only guards the recursion.
const MAX_DEPTH: usize = 200;

fn max_size(schema: &Schema, ty: &Type, depth: usize) -> Option<u64> {
    if depth > MAX_DEPTH {
        return None;
    }
    if let Some(fixed) = ty.layout.fixed_size {
        return Some(u64::from(fixed));
    }
    let next = depth + 1;
    match &resolve(schema, ty).kind {
        TypeKind::String { length } | TypeKind::Buffer { length } => {
            let max = u64::from(length.max?);
            Some(prefix(*length) + max)
        }
        TypeKind::Optional(inner) => {
            let flag = u64::from(optional_has_flag(schema, inner));
            Some(flag + max_size(schema, inner, next)?)
        }
        TypeKind::Array { element, length } => {
            let count = u64::from(length.max?);
            let each = if matches!(resolve(schema, element).kind, TypeKind::Boolean) {
                return Some(prefix(*length) + count.div_ceil(8));
            } else {
                max_size(schema, element, next)?
            };
            Some(prefix(*length).saturating_add(count.saturating_mul(each)))
        }
        TypeKind::Struct(body) => struct_max(schema, body, next),
        TypeKind::TaggedEnum(tagged) => {
            let mut largest = 0;
            for variant in &tagged.variants {
                largest = largest.max(struct_max(schema, &variant.body, next)?);
            }
            Some(u64::from(enum_index_bytes(tagged.variants.len())) + largest)
        }
        TypeKind::Map { key, value, length } => {
            let count = u64::from(length.max?);
            let entry = max_size(schema, key, next)?.saturating_add(max_size(schema, value, next)?);
            Some(prefix(*length).saturating_add(count.saturating_mul(entry)))
        }
        _ => Some(u64::from(ty.layout.min_size)),
    }
}

/// The length prefix: none for an exact length, otherwise the varint of the largest.
fn prefix(length: LengthRange) -> u64 {
    match (length.exact(), length.max) {
        (Some(_), _) => 0,
        (None, Some(max)) => u64::from(varint_size(u64::from(max))),
        (None, None) => 5,
    }
}

fn struct_max(schema: &Schema, body: &StructType, depth: usize) -> Option<u64> {
    let mut total = u64::from(body.layout.fixed_block_size);
    for &index in &body.layout.variable {
        let field = &body.fields[index];
        // A flagged optional's presence bit is in the packed block already.
        let value = match &field.ty.kind {
            TypeKind::Optional(inner) if optional_has_flag(schema, inner) => inner,
            _ => &field.ty,
        };
        total = total.saturating_add(max_size(schema, value, depth)?);
    }
    Some(total)
}

/// Lines saying what sets a size: each field of a struct, the bounds of a length.
pub fn breakdown(schema: &Schema, ty: &Type) -> Vec<String> {
    let mut lines = Vec::new();
    match &resolve(schema, ty).kind {
        TypeKind::Struct(body) => struct_lines(schema, body, &mut lines),
        TypeKind::TaggedEnum(tagged) => {
            lines.push(format!(
                "{} of variant index, then the variant's fields",
                bytes(u64::from(enum_index_bytes(tagged.variants.len())))
            ));
            for variant in &tagged.variants {
                let size = struct_size(schema, &variant.body);
                lines.push(format!("`{}`: {}", variant.name, size.describe()));
            }
        }
        TypeKind::String { length } | TypeKind::Buffer { length } => lines.push(length_line(*length, "bytes")),
        TypeKind::Array { element, length } => {
            lines.push(length_line(*length, "elements"));
            lines.push(format!("each element: {}", element_size(schema, element)));
        }
        TypeKind::Map { key, value, length } => {
            lines.push(length_line(*length, "entries"));
            lines.push(format!(
                "each entry: key {}, value {}",
                size(schema, key).describe(),
                size(schema, value).describe()
            ));
        }
        TypeKind::Optional(inner) if optional_has_flag(schema, inner) => {
            lines.push(format!(
                "1 byte saying whether it is there, then {}",
                size(schema, inner).describe()
            ));
        }
        TypeKind::Optional(_) | TypeKind::Instance { .. } | TypeKind::Unknown => {
            lines.push("travels beside the buffer (Instances and `unknown` take no bytes in it)".to_string());
        }
        _ => {}
    }
    lines
}

fn element_size(schema: &Schema, element: &Type) -> String {
    if matches!(resolve(schema, element).kind, TypeKind::Boolean) {
        "1 bit (booleans are packed 8 to a byte)".to_string()
    } else {
        size(schema, element).describe()
    }
}

fn struct_size(schema: &Schema, body: &StructType) -> Size {
    Size {
        min: u64::from(body.layout.fixed_block_size)
            + body
                .layout
                .variable
                .iter()
                .filter(|&&i| !is_flagged_optional(schema, &body.fields[i].ty))
                .map(|&i| u64::from(body.fields[i].ty.layout.min_size))
                .sum::<u64>(),
        max: struct_max(schema, body, 0),
    }
}

fn is_flagged_optional(schema: &Schema, ty: &Type) -> bool {
    matches!(&ty.kind, TypeKind::Optional(inner) if optional_has_flag(schema, inner))
}

fn struct_lines(schema: &Schema, body: &StructType, lines: &mut Vec<String>) {
    let bits = body.layout.bits.len();
    if bits > 0 {
        lines.push(format!(
            "{}: {bits} packed bits (booleans and the presence flags of optional fields)",
            bytes((bits as u64).div_ceil(8))
        ));
    }
    for field in &body.fields {
        let shown = match &field.ty.kind {
            TypeKind::Optional(inner) if optional_has_flag(schema, inner) => {
                format!("1 bit, then {} when present", size(schema, inner).describe())
            }
            _ if matches!(resolve(schema, &field.ty).kind, TypeKind::Boolean) => "1 bit".to_string(),
            _ => size(schema, &field.ty).describe(),
        };
        lines.push(format!(
            "`{}`: `{}` — {shown}",
            field.name,
            type_text(schema, &field.ty, 1)
        ));
    }
}

fn length_line(length: LengthRange, what: &str) -> String {
    match (length.exact(), length.max) {
        (Some(n), _) => format!("exactly {n} {what}, no length written"),
        (None, Some(max)) => format!(
            "{}–{max} {what}, after a {} length",
            length.min,
            bytes(u64::from(varint_size(u64::from(max))))
        ),
        (None, None) => format!("{} or more {what} (no maximum), after a 1–5 byte length", length.min),
    }
}
