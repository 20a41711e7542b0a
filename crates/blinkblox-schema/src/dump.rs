//! A readable text dump of a checked schema: every option, channel, scope, type (with
//! its layout) and declaration. Used by golden tests, and handy when debugging a
//! generator.

use std::fmt::Write;

use crate::model::{BitKind, Layout, Payload, Schema, StructType, Type, TypeKind};
use crate::print::{dotted_name, type_text};
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
            let _ = write!(out, "  #{index} {export}{} = ", dotted_name(&decl.scope, &decl.name));
            write_type(&mut out, schema, &decl.ty, 4);
        }
    }
    for event in &schema.events {
        let _ = write!(
            out,
            "event {} #{} {:?} from {:?}, {:?}: ",
            dotted_name(&event.scope, &event.name),
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
            dotted_name(&function.scope, &function.name),
            function.index,
            function.yield_mode
        );
        write_payload(&mut out, schema, &function.data);
        out.push_str("  returns: ");
        write_payload(&mut out, schema, &function.returns);
    }
    for stream in &schema.streams {
        let per = match (stream.per_player, stream.delta) {
            (true, true) => ", per player, delta",
            (true, false) => ", per player",
            (false, true) => ", delta",
            (false, false) => "",
        };
        let _ = write!(
            out,
            "stream {} #{} {:?} from {:?}{per}: ",
            dotted_name(&stream.scope, &stream.name),
            stream.index,
            stream.reliability,
            stream.from
        );
        write_type(&mut out, schema, &stream.data, 2);
    }
    out
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
    let _ = write!(out, "{} {}", type_text(schema, ty, 0), layout_text(&ty.layout));
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
