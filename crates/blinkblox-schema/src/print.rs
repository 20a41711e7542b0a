//! The one printer of types: a checked type written back in schema syntax (`u8(0..100)?`,
//! `Unit[..16]`, `map { [string]: f64 }`), named types by their scoped name and structs
//! written out to a chosen depth. The dump, the language server's hover and its size
//! breakdowns all show types through it.

use crate::model::{LengthRange, NumberRange, Quantized, Schema, Type, TypeKind};

/// A declaration's name with its scopes first: `Combat.Weapons.Equip`.
pub fn dotted_name(scope: &[String], name: &str) -> String {
    crate::model::scoped_name(scope, name, '.')
}

/// A type in schema syntax; named types by name, structs written out `depth` levels deep.
pub fn type_text(schema: &Schema, ty: &Type, depth: usize) -> String {
    match &ty.kind {
        TypeKind::Number { kind, range } => format!("{}{}", kind.keyword(), number_range(*range)),
        TypeKind::Quantized(quantized) => quantized_text(quantized),
        TypeKind::Boolean => "boolean".to_string(),
        TypeKind::String { length } => format!("string{}", length_range(*length, true)),
        TypeKind::Buffer { length } => format!("buffer{}", length_range(*length, true)),
        TypeKind::Vector {
            component,
            quantized,
            magnitude,
        } => {
            let component = quantized
                .as_ref()
                .map_or_else(|| component.keyword().to_string(), quantized_text);
            format!("vector<{component}>{}", number_range(*magnitude))
        }
        TypeKind::CFrame { position, rotation } => format!("CFrame<{}, {}>", position.keyword(), rotation.keyword()),
        TypeKind::Color3 => "Color3".to_string(),
        TypeKind::BrickColor => "BrickColor".to_string(),
        TypeKind::DateTime => "DateTime".to_string(),
        TypeKind::DateTimeMillis => "DateTimeMillis".to_string(),
        TypeKind::Instance { class: Some(class) } => format!("Instance({class})"),
        TypeKind::Instance { class: None } => "Instance".to_string(),
        TypeKind::Unknown => "unknown".to_string(),
        TypeKind::Optional(inner) => format!("{}?", type_text(schema, inner, depth)),
        TypeKind::Array { element, length } => {
            format!("{}{}", type_text(schema, element, depth), length_range(*length, false))
        }
        TypeKind::Struct(body) if depth == 0 => format!("struct {{ {} fields }}", body.fields.len()),
        TypeKind::Struct(body) => {
            let fields: Vec<String> = body
                .fields
                .iter()
                .map(|field| format!("{}: {}", field.name, type_text(schema, &field.ty, depth - 1)))
                .collect();
            format!("struct {{ {} }}", fields.join(", "))
        }
        TypeKind::Enum(unit) => format!("enum {{ {} }}", unit.variants.join(", ")),
        TypeKind::TaggedEnum(tagged) => {
            let names: Vec<&str> = tagged.variants.iter().map(|v| v.name.as_str()).collect();
            format!("enum \"{}\" {{ {} }}", tagged.tag, names.join(", "))
        }
        TypeKind::Map { key, value, length } => format!(
            "map {{ [{}]: {} }}{}",
            type_text(schema, key, depth),
            type_text(schema, value, depth),
            length_range(*length, true)
        ),
        TypeKind::Set(set) => format!("set {{ {} }}", set.flags.join(", ")),
        TypeKind::Named(id) => match schema.types.get(id.0 as usize) {
            Some(decl) => dotted_name(&decl.scope, &decl.name),
            None => format!("#{}", id.0),
        },
    }
}

/// `f32(-2048..2048 step 1/64)`.
pub fn quantized_text(quantized: &Quantized) -> String {
    format!(
        "{}({}..{} step {})",
        quantized.kind.keyword(),
        quantized.min,
        quantized.max,
        quantized.step_text
    )
}

fn number_range(range: NumberRange) -> String {
    match (range.min, range.max) {
        (None, None) => String::new(),
        (Some(min), Some(max)) if min == max => format!("({min})"),
        (min, max) => format!(
            "({}..{})",
            min.map(|n| n.to_string()).unwrap_or_default(),
            max.map(|n| n.to_string()).unwrap_or_default()
        ),
    }
}

/// `(2..10)` / `[2..10]`; nothing (parentheses) or `[]` when unbounded.
fn length_range(length: LengthRange, parens: bool) -> String {
    let (open, close) = if parens { ("(", ")") } else { ("[", "]") };
    let inner = match (length.exact(), length.min, length.max) {
        (Some(n), _, _) => n.to_string(),
        (None, 0, None) => return if parens { String::new() } else { "[]".to_string() },
        (None, 0, Some(max)) => format!("..{max}"),
        (None, min, None) => format!("{min}.."),
        (None, min, Some(max)) => format!("{min}..{max}"),
    };
    format!("{open}{inner}{close}")
}
