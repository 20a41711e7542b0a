//! Luau type expressions for schema types, and the `export type` block every module
//! starts with.

use crate::type_names::literal_union;
use blinkblox_schema::model::{Payload, Schema, Type, TypeKind};

use super::builder::CodeBuilder;
use super::naming::{string_literal, type_key, type_name};

/// The Luau type of a schema type.
pub fn luau_type(schema: &Schema, ty: &Type) -> String {
    match &ty.kind {
        TypeKind::Number { .. } | TypeKind::Quantized(_) => "number".into(),
        TypeKind::Boolean => "boolean".into(),
        TypeKind::String { .. } => "string".into(),
        TypeKind::Buffer { .. } => "buffer".into(),
        TypeKind::Vector { .. } => "Vector3".into(),
        TypeKind::CFrame { .. } => "CFrame".into(),
        TypeKind::Color3 => "Color3".into(),
        TypeKind::BrickColor => "BrickColor".into(),
        TypeKind::DateTime | TypeKind::DateTimeMillis => "DateTime".into(),
        TypeKind::Instance { class } => class.clone().unwrap_or_else(|| "Instance".into()),
        TypeKind::Unknown => "unknown".into(),
        TypeKind::Optional(inner) => {
            let inner_type = luau_type(schema, inner);
            if matches!(inner.kind, TypeKind::Unknown) {
                inner_type
            } else if inner_type.contains('|') || inner_type.ends_with('?') {
                format!("({inner_type})?")
            } else {
                format!("{inner_type}?")
            }
        }
        TypeKind::Array { element, .. } => format!("{{ {} }}", luau_type(schema, element)),
        TypeKind::Struct(body) => {
            let fields: Vec<String> = body
                .fields
                .iter()
                .map(|field| format!("{}: {}", type_key(&field.name), luau_type(schema, &field.ty)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        TypeKind::Enum(unit) => literal_union(&unit.variants, string_literal),
        TypeKind::TaggedEnum(tagged) => {
            if tagged.variants.is_empty() {
                return "never".into();
            }
            let variants: Vec<String> = tagged
                .variants
                .iter()
                .map(|variant| {
                    let mut fields = vec![format!("{}: {}", type_key(&tagged.tag), string_literal(&variant.name))];
                    fields.extend(
                        variant
                            .body
                            .fields
                            .iter()
                            .map(|field| format!("{}: {}", type_key(&field.name), luau_type(schema, &field.ty))),
                    );
                    format!("{{ {} }}", fields.join(", "))
                })
                .collect();
            variants.join(" | ")
        }
        TypeKind::Map { key, value, .. } => {
            format!("{{ [{}]: {} }}", luau_type(schema, key), luau_type(schema, value))
        }
        TypeKind::Set(set) => {
            let flags: Vec<String> = set
                .flags
                .iter()
                .map(|flag| format!("{}: boolean", type_key(flag)))
                .collect();
            format!("{{ {} }}", flags.join(", "))
        }
        TypeKind::Named(id) => match schema.types.get(id.0 as usize) {
            Some(decl) => type_name(&decl.luau_name()),
            None => "any".into(),
        },
    }
}

/// The Luau types of a payload's values, in order (empty for no data).
pub fn payload_types(schema: &Schema, payload: &Payload) -> Vec<String> {
    match payload {
        Payload::None => Vec::new(),
        Payload::Single(ty) => vec![luau_type(schema, ty)],
        Payload::Tuple(types) => types.iter().map(|ty| luau_type(schema, ty)).collect(),
    }
}

/// `export type Name = …` for every named type, in declaration order.
pub fn emit_type_block(b: &mut CodeBuilder, schema: &Schema) {
    if schema.types.is_empty() {
        return;
    }
    for decl in &schema.types {
        b.line_fmt(format_args!(
            "export type {} = {}",
            type_name(&decl.luau_name()),
            luau_type(schema, &decl.ty)
        ));
    }
    b.line("");
}
