//! Delta streams (`Delta: true`) in the modules. On the server, `Set` keeps the value's parts
//! as bytes in the stream's book (`Snapshot<Name>`), each written as it would be alone: a
//! struct's fields in declaration order; a map's entries (key and value bytes together) by
//! their key's bytes, written only when the entry's value differs from the one last written
//! for its key. The flush sends the parts that differ from those last sent
//! (`runtime/delta_streams.luau`). On the client the decode loop reads the record into a new
//! value (`read/delta.rs`) and hands it on as any stream's value.

use blinkblox_schema::model::{Reliability, Schema, StreamDecl, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::builder::CodeBuilder;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::naming::index;
use super::payload::Param;
use super::stats::sent_counter;
use super::streams::{set_get, stream_key};
use super::types::luau_type;

/// The Set and Get members of a delta stream the server sends, after its snapshot function
/// and its state in `DeltaStreamOf`.
pub fn sending_members(mg: &mut ModuleGen, body: &mut CodeBuilder, stream: &StreamDecl) -> (Vec<String>, Vec<String>) {
    let schema = mg.schema;
    let key = stream_key(stream);
    let value_type = luau_type(schema, &stream.data);
    let snapshot = mg.function_name("Snapshot", &stream.scope, &stream.name);
    body.line(marker(&stream.scope, &stream.name, Some("delta stream")));
    let data = resolve(schema, &stream.data);
    let (is_map, fields) = match &data.kind {
        TypeKind::Struct(body) => (false, body.fields.len()),
        _ => (true, 0),
    };
    mg.open_function(body, &snapshot, &format!("(Value: {value_type}, Book: DeltaBook)"));
    body.line("BeginScratch()");
    match &data.kind {
        TypeKind::Struct(structure) => {
            body.line("local Parts: { string } = {}");
            let mut writer = mg.writer(body, "\"\"".into());
            for (position, field) in structure.fields.iter().enumerate() {
                let access = format!("Value{}", index(&field.name));
                writer.scoped(|w| w.write(&field.ty, &access));
                writer.b.line_fmt(format_args!(
                    "Parts[{}] = buffer.readstring(SendBuffer, 0, SendCursor)",
                    position + 1
                ));
                writer.b.line("SendCursor = 0");
            }
            body.line("EndScratch()");
            body.line("SetDeltaFields(Book, Value, Parts)");
        }
        TypeKind::Map {
            key: key_type, value, ..
        } => {
            let stride = snapshot_entries(mg, body, key_type, value, entry_sizes(schema, &data.kind));
            body.line("EndScratch()");
            // Written again only when a key went whose part another key still holds.
            body.open_fmt(format_args!(
                "if SetDeltaEntries(DeltaStreamOf.{key}, Book, Value, Count, {stride}, Known) then"
            ));
            body.line_fmt(format_args!("{snapshot}(Value, Book)"));
            body.close("end");
        }
        _ => body.line("EndScratch()"),
    }
    body.close("end");
    let (key_size, entry_size) = entry_sizes(schema, &data.kind).unwrap_or((0, 0));
    body.line_fmt(format_args!(
        "DeltaStreamOf.{key} = NewDeltaStream({}, {is_map}, {}, {key_size}, {entry_size}, {}, {})",
        index_prefix(mg, stream),
        fields.div_ceil(8),
        stream.per_player,
        sent_counter(schema, Reliability::Reliable, stream.index)
    ));

    let (set, get) = set_get(mg);
    let params = [Param {
        name: "Value".into(),
        ty: &stream.data,
    }];
    let name = describe(&stream.scope, &stream.name);
    let mut b = CodeBuilder::new();
    if stream.per_player {
        b.open_fmt(format_args!("{set} = function(Player: Player, Value: {value_type})"));
    } else {
        b.open_fmt(format_args!("{set} = function(Value: {value_type})"));
    }
    b.line(marker(&stream.scope, &stream.name, Some("delta stream")));
    mg.emit_checks(&mut b, &format!("{name}.{set}"), &params);
    if stream.per_player {
        b.line_fmt(format_args!("local Book = DeltaBookOf(DeltaStreamOf.{key}, Player)"));
        b.open("if Book ~= nil then");
        b.line_fmt(format_args!("{snapshot}(Value, Book)"));
        b.close("end");
    } else {
        b.line_fmt(format_args!("{snapshot}(Value, DeltaStreamOf.{key}.Book)"));
    }
    b.close("end,");
    if stream.per_player {
        b.open_fmt(format_args!("{get} = function(Player: Player): ({value_type})?"));
        b.line_fmt(format_args!("local Book = DeltaStreamOf.{key}.Books[Player]"));
        b.line("return if Book ~= nil then Book.Value else nil");
    } else {
        b.open_fmt(format_args!("{get} = function(): ({value_type})?"));
        b.line_fmt(format_args!("return DeltaStreamOf.{key}.Book.Value"));
    }
    b.close("end,");
    (
        vec![b.finish()],
        vec![format!("{set} = Noop,"), format!("{get} = Noop,")],
    )
}

/// A map entry's key, as its part is filed under: its bytes read as a number when they are at
/// most four, else the bytes themselves.
fn key_id(key_size: u32) -> String {
    match key_size {
        1 => "buffer.readu8(SendBuffer, At)".to_string(),
        2 => "buffer.readu16(SendBuffer, At)".to_string(),
        3 => "buffer.readu16(SendBuffer, At) + buffer.readu8(SendBuffer, At + 2) * 65536".to_string(),
        4 => "buffer.readu32(SendBuffer, At)".to_string(),
        _ => format!("buffer.readstring(SendBuffer, At, {key_size})"),
    }
}

/// A map whose keys and values have fixed sizes: the sizes of its keys and of its entries,
/// which the runtime keeps in slots of a buffer (a removed key's bytes are the first of its
/// entry's). None for other maps and for structs, whose parts are strings.
fn entry_sizes(schema: &Schema, kind: &TypeKind) -> Option<(u32, u32)> {
    let TypeKind::Map { key, value, .. } = kind else {
        return None;
    };
    let key_size = resolve(schema, key).layout.fixed_size?;
    let value_size = resolve(schema, value).layout.fixed_size?;
    // Keys are never empty (numbers, strings, booleans, enums, vectors), so neither is a slot.
    (key_size > 0).then_some((key_size, key_size + value_size))
}

/// The record's index bytes as a Luau string literal of decimal escapes (`"\3"`).
fn index_prefix(mg: &ModuleGen, stream: &StreamDecl) -> String {
    let bytes = stream.index.to_le_bytes();
    let width = mg.index_bytes(Reliability::Reliable) as usize;
    let escaped: String = bytes[..width].iter().map(|byte| format!("\\{byte}")).collect();
    format!("\"{escaped}\"")
}

/// A map's snapshot loop: each entry whose value differs from the one last written for its key
/// (or whose value is not compared: tables, buffers) is written, and its key, its part's key,
/// its part and the compared values go to `DeltaWritten`; `Known` counts the keys seen before,
/// so that the runtime knows whether any went. Returns how many values an entry takes there.
fn snapshot_entries(
    mg: &mut ModuleGen,
    body: &mut CodeBuilder,
    key: &Type,
    value: &Type,
    sizes: Option<(u32, u32)>,
) -> usize {
    let schema = mg.schema;
    let compared = compared_values(schema, value);
    body.line("local Seen = Book.Seen");
    body.line("local Written = DeltaWritten");
    body.line("local Count = 0");
    body.line("local Known = 0");
    body.open("for Key, Item in Value do");
    for (position, access) in compared.iter().enumerate() {
        body.line_fmt(format_args!("local F{} = {access}", position + 1));
    }
    body.line("local Row = Seen[Key]");
    body.open("if Row ~= nil then");
    body.line("Known += 1");
    if !compared.is_empty() {
        let same: Vec<String> = (1..=compared.len())
            .map(|field| format!("Row[{}] == F{field}", field + 1))
            .collect();
        body.open_fmt(format_args!("if {} then", same.join(" and ")));
        body.line("continue");
        body.close("end");
    }
    body.close("end");
    let mut writer = mg.writer(body, "\"\"".into());
    let (part_key, part) = match sizes {
        // The entry's bytes stay in the scratch batch, where the runtime copies them from.
        Some((key_size, entry_size)) => {
            // Reserved in place: interpreted, a call to Allocate an entry costs more than these.
            writer.b.line("local At = SendCursor");
            writer.b.line_fmt(format_args!("local End = At + {entry_size}"));
            writer.b.line("if End > SendSize then Grow(End) end");
            writer.b.line("SendCursor = End");
            writer.scoped(|w| w.write_at(key, "Key", "At"));
            writer.scoped(|w| w.write_at(value, "Item", &format!("At + {key_size}")));
            (key_id(key_size), "At".to_string())
        }
        None => {
            writer.scoped(|w| w.write(key, "Key"));
            writer.b.line("local KeyEnd = SendCursor");
            writer.scoped(|w| w.write(value, "Item"));
            // The key's bytes and the value's, as the record carries them.
            writer
                .b
                .line("local Part = buffer.readstring(SendBuffer, 0, SendCursor)");
            writer.b.line("SendCursor = 0");
            ("string.sub(Part, 1, KeyEnd)".to_string(), "Part".to_string())
        }
    };
    body.line("Written[Count + 1] = Key");
    body.line_fmt(format_args!("Written[Count + 2] = {part_key}"));
    body.line_fmt(format_args!("Written[Count + 3] = {part}"));
    for field in 1..=compared.len() {
        body.line_fmt(format_args!("Written[Count + {}] = F{field}", field + 3));
    }
    let stride = compared.len() + 3;
    body.line_fmt(format_args!("Count += {stride}"));
    body.close("end");
    stride
}

/// The most fields a snapshot compares, each a local of the loop: a Luau function has at most
/// 200 locals, and a struct wider than this is written every `Set`.
const MAX_COMPARED_FIELDS: usize = 32;

/// What the snapshot compares to tell an unchanged entry: the value itself, or each of a
/// struct's fields, when `==` on them compares what is sent (numbers, strings, booleans,
/// enums, vectors, and optional ones); nothing when the value holds a table or a buffer, which
/// can change in place.
fn compared_values(schema: &Schema, value: &Type) -> Vec<String> {
    if compared_by_value(schema, value) {
        return vec!["Item".to_string()];
    }
    match &resolve(schema, value).kind {
        TypeKind::Struct(body)
            if body.fields.len() <= MAX_COMPARED_FIELDS
                && body.fields.iter().all(|field| compared_by_value(schema, &field.ty)) =>
        {
            body.fields
                .iter()
                .map(|field| format!("Item{}", index(&field.name)))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Whether two values of `ty` that are `==` are sent as the same bytes (but for the sign of
/// zero), so that a value equal to the one last written need not be written again.
fn compared_by_value(schema: &Schema, ty: &Type) -> bool {
    match &resolve(schema, ty).kind {
        TypeKind::Number { .. }
        | TypeKind::Quantized(_)
        | TypeKind::Boolean
        | TypeKind::String { .. }
        | TypeKind::Vector { .. }
        | TypeKind::Enum(_) => true,
        TypeKind::Optional(inner) => compared_by_value(schema, inner),
        _ => false,
    }
}
