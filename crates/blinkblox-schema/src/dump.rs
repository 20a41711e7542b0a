//! A readable text dump of a checked schema: every option, channel, scope, type (with
//! its layout) and declaration. Used by golden tests, and handy when debugging a
//! generator.

use std::fmt::Write;

use crate::model::{
    BitKind, Layout, LengthRange, NumberKind, NumberRange, Payload, Schema, StructType, Type, TypeKind,
};
use crate::vocabulary::{OPTIONS, OptionState};

pub fn dump(schema: &Schema) -> String {
    let mut out = String::new();
    let o = &schema.options;
    out.push_str("options:\n");
    let mut line = |name: &str, value: String| {
        let _ = writeln!(out, "  {name} = {value}");
    };
    for spec in OPTIONS {
        let shown = match (spec.get)(o) {
            Some(OptionState::MaybeText(text)) => format!("{text:?}"),
            Some(OptionState::Text(text)) => format!("{text:?}"),
            Some(OptionState::Casing(casing)) => format!("{casing:?}"),
            Some(state @ (OptionState::Flag(_) | OptionState::Count(_))) => state.as_written(),
            None => continue,
        };
        line(spec.name, shown);
    }
    line("set in schema", format!("{:?}", o.set_in_schema));
    let _ = writeln!(
        out,
        "channels: reliable {} ({}-byte index), unreliable {} ({}-byte index)",
        schema.reliable.count, schema.reliable.index_bytes, schema.unreliable.count, schema.unreliable.index_bytes
    );
    if !schema.scopes.is_empty() {
        out.push_str("scopes:\n");
        for scope in &schema.scopes {
            let _ = writeln!(out, "  {}", scope.join("."));
        }
    }
    if !schema.types.is_empty() {
        out.push_str("types:\n");
        for (index, decl) in schema.types.iter().enumerate() {
            let export = if decl.exported { "export " } else { "" };
            let _ = write!(out, "  #{index} {export}{} = ", dotted(&decl.scope, &decl.name));
            write_type(&mut out, schema, &decl.ty, 4);
        }
    }
    for event in &schema.events {
        let _ = write!(
            out,
            "event {} #{} {:?} from {:?}, {:?}: ",
            dotted(&event.scope, &event.name),
            event.index,
            event.reliability,
            event.from,
            event.call
        );
        write_payload(&mut out, schema, &event.data);
    }
    for function in &schema.functions {
        let timeout = function.timeout.map(|t| format!(", timeout {t}s")).unwrap_or_default();
        let _ = write!(
            out,
            "function {} #{} {:?}{timeout}: ",
            dotted(&function.scope, &function.name),
            function.index,
            function.yield_mode
        );
        write_payload(&mut out, schema, &function.data);
        out.push_str("  returns: ");
        write_payload(&mut out, schema, &function.returns);
    }
    for stream in &schema.streams {
        let per = if stream.per_player { ", per player" } else { "" };
        let _ = write!(
            out,
            "stream {} #{} {:?} from {:?}{per}: ",
            dotted(&stream.scope, &stream.name),
            stream.index,
            stream.reliability,
            stream.from
        );
        write_type(&mut out, schema, &stream.data, 2);
    }
    out
}

fn dotted(scope: &[String], name: &str) -> String {
    let mut parts = scope.to_vec();
    parts.push(name.to_string());
    parts.join(".")
}

fn write_payload(out: &mut String, schema: &Schema, payload: &Payload) {
    match payload {
        Payload::None => out.push_str("no data\n"),
        Payload::Single(ty) => write_type(out, schema, ty, 2),
        Payload::Tuple(types) => {
            let _ = writeln!(out, "({} values)", types.len());
            for (i, ty) in types.iter().enumerate() {
                let _ = write!(out, "    {}: ", i + 1);
                write_type(out, schema, ty, 6);
            }
        }
    }
}

fn layout_text(layout: &Layout) -> String {
    let size = match layout.fixed_size {
        Some(size) => format!("fixed {size}"),
        None => format!("min {}", layout.min_size),
    };
    if layout.uses_instances {
        format!("[{size}, instances]")
    } else {
        format!("[{size}]")
    }
}

/// Writes a type on the current line (and nested lines for structs and enums),
/// ending with a newline.
fn write_type(out: &mut String, schema: &Schema, ty: &Type, indent: usize) {
    let _ = write!(out, "{} {}", inline(schema, ty), layout_text(&ty.layout));
    out.push('\n');
    write_children(out, schema, ty, indent);
}

fn write_children(out: &mut String, schema: &Schema, ty: &Type, indent: usize) {
    let pad = " ".repeat(indent);
    match &ty.kind {
        TypeKind::Struct(body) => write_struct(out, schema, body, indent),
        TypeKind::TaggedEnum(tagged) => {
            for variant in &tagged.variants {
                let _ = write!(out, "{pad}{} ", variant.name);
                let layout = struct_layout(variant.body.layout.fixed_block_size, &variant.body);
                let _ = writeln!(out, "{}", layout);
                write_struct(out, schema, &variant.body, indent + 2);
            }
        }
        TypeKind::Optional(inner) | TypeKind::Array { element: inner, .. } => {
            write_children(out, schema, inner, indent);
        }
        TypeKind::Map { key, value, .. } => {
            write_children(out, schema, key, indent);
            write_children(out, schema, value, indent);
        }
        _ => {}
    }
}

fn struct_layout(fixed_block: u32, body: &StructType) -> String {
    format!("{{ {} fields, block {fixed_block} }}", body.fields.len())
}

fn write_struct(out: &mut String, schema: &Schema, body: &StructType, indent: usize) {
    let pad = " ".repeat(indent);
    let layout = &body.layout;
    if !layout.bits.is_empty() {
        let bits: Vec<String> = layout
            .bits
            .iter()
            .map(|slot| {
                let kind = match slot.kind {
                    BitKind::Boolean => "",
                    BitKind::Present => "?",
                };
                format!("{}{kind}", body.fields[slot.field].name)
            })
            .collect();
        let _ = writeln!(out, "{pad}bits: {}", bits.join(" "));
    }
    if !layout.fixed.is_empty() {
        let fixed: Vec<String> = layout
            .fixed
            .iter()
            .map(|slot| format!("{}@{}", body.fields[slot.field].name, slot.offset))
            .collect();
        let _ = writeln!(
            out,
            "{pad}fixed: {} (block {})",
            fixed.join(" "),
            layout.fixed_block_size
        );
    }
    if !layout.variable.is_empty() {
        let variable: Vec<&str> = layout.variable.iter().map(|&i| body.fields[i].name.as_str()).collect();
        let _ = writeln!(out, "{pad}variable: {}", variable.join(" "));
    }
    for field in &body.fields {
        let _ = write!(out, "{pad}{}: ", field.name);
        write_type(out, schema, &field.ty, indent + 2);
    }
}

fn number_range(range: &NumberRange) -> String {
    match (range.min, range.max) {
        (None, None) => String::new(),
        (Some(min), Some(max)) if min == max => format!("({min})"),
        (min, max) => format!(
            "({}..{})",
            min.map(|v| v.to_string()).unwrap_or_default(),
            max.map(|v| v.to_string()).unwrap_or_default()
        ),
    }
}

fn length(range: &LengthRange, open: &str, close: &str) -> String {
    match (range.min, range.max) {
        (0, None) => String::new(),
        (min, Some(max)) if min == max => format!("{open}{min}{close}"),
        (min, max) => format!("{open}{min}..{}{close}", max.map(|v| v.to_string()).unwrap_or_default()),
    }
}

fn kind(kind: NumberKind) -> &'static str {
    kind.keyword()
}

/// A one-line description of a type (structs and enums summarised).
pub fn inline(schema: &Schema, ty: &Type) -> String {
    match &ty.kind {
        TypeKind::Number { kind: k, range } => format!("{}{}", kind(*k), number_range(range)),
        TypeKind::Boolean => "boolean".to_string(),
        TypeKind::String { length: l } => format!("string{}", length(l, "(", ")")),
        TypeKind::Buffer { length: l } => format!("buffer{}", length(l, "(", ")")),
        TypeKind::Vector { component, magnitude } => {
            format!("vector<{}>{}", kind(*component), number_range(magnitude))
        }
        TypeKind::CFrame { position, rotation } => format!("CFrame<{}, {}>", kind(*position), kind(*rotation)),
        TypeKind::Color3 => "Color3".to_string(),
        TypeKind::BrickColor => "BrickColor".to_string(),
        TypeKind::DateTime => "DateTime".to_string(),
        TypeKind::DateTimeMillis => "DateTimeMillis".to_string(),
        TypeKind::Instance { class: None } => "Instance".to_string(),
        TypeKind::Instance { class: Some(class) } => format!("Instance({class})"),
        TypeKind::Unknown => "unknown".to_string(),
        TypeKind::Optional(inner) => format!("({})?", inline(schema, inner)),
        TypeKind::Array { element, length: l } => {
            let shown = length(l, "", "");
            format!("({})[{shown}]", inline(schema, element))
        }
        TypeKind::Struct(body) => format!("struct {}", struct_layout(body.layout.fixed_block_size, body)),
        TypeKind::Enum(unit) => format!("enum {{ {} }}", unit.variants.join(", ")),
        TypeKind::TaggedEnum(tagged) => format!("enum \"{}\" ({} variants)", tagged.tag, tagged.variants.len()),
        TypeKind::Map { key, value, length: l } => format!(
            "map {{ [{}]: {} }}{}",
            inline(schema, key),
            inline(schema, value),
            length(l, "(", ")")
        ),
        TypeKind::Set(set) => format!("set {{ {} }}", set.flags.join(", ")),
        TypeKind::Named(id) => match schema.types.get(id.0 as usize) {
            Some(decl) => dotted(&decl.scope, &decl.name),
            None => format!("#{}", id.0),
        },
    }
}
