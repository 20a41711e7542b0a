//! Delta streams (`Delta: true`) in the modules. On the server, `Set` keeps the value's parts
//! as bytes, each written as it would be alone: a struct's fields in declaration order, a
//! map's entries (key and value bytes together) by their key's bytes (`Snapshot<Name>`);
//! the flush compares them with the parts last sent and sends the changes
//! (`runtime/delta_streams.luau`). On the client the decode loop reads the record into a new
//! value (`read/delta.rs`) and hands it on as any stream's value.

use blinkblox_schema::model::{Reliability, Schema, StreamDecl, TypeKind};
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
    let returns = if is_map { "{ [any]: string }" } else { "{ string }" };
    mg.open_function(body, &snapshot, &format!("(Value: {value_type}): {returns}"));
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
        }
        TypeKind::Map { key, value, .. } => {
            // By the key's bytes: two keys the wire cannot tell apart are one entry, as the
            // client will see them. A key of up to four bytes is told by those bytes read as
            // a number, which makes no string.
            body.line("local Parts: { [any]: string } = {}");
            body.open("for Key, Item in Value do");
            let sizes = resolve(schema, key)
                .layout
                .fixed_size
                .zip(resolve(schema, value).layout.fixed_size);
            let mut writer = mg.writer(body, "\"\"".into());
            match sizes {
                // Key and value of fixed size: one reservation, both written at their offsets.
                Some((key_size, value_size)) => {
                    let size = key_size + value_size;
                    writer.b.line_fmt(format_args!("local At = Allocate({size})"));
                    writer.scoped(|w| w.write_at(key, "Key", "At"));
                    writer.scoped(|w| w.write_at(value, "Item", &format!("At + {key_size}")));
                    writer.b.line_fmt(format_args!(
                        "Parts[{}] = buffer.readstring(SendBuffer, At, {size})",
                        key_id(key_size)
                    ));
                }
                None => {
                    writer.scoped(|w| w.write(key, "Key"));
                    writer.b.line("local KeyEnd = SendCursor");
                    writer.scoped(|w| w.write(value, "Item"));
                    // The key's bytes and the value's, as the record carries them.
                    writer.b.line(
                        "Parts[buffer.readstring(SendBuffer, 0, KeyEnd)] = buffer.readstring(SendBuffer, 0, SendCursor)",
                    );
                    writer.b.line("SendCursor = 0");
                }
            }
            body.close("end");
        }
        _ => {}
    }
    body.line("EndScratch()");
    body.line("return Parts");
    body.close("end");
    body.line_fmt(format_args!(
        "DeltaStreamOf.{key} = NewDeltaStream({}, {is_map}, {}, {}, {}, {})",
        index_prefix(mg, stream),
        fields.div_ceil(8),
        numbered_key_size(schema, &data.kind),
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
        b.line_fmt(format_args!(
            "SetDeltaStreamFor(DeltaStreamOf.{key}, Player, Value, {snapshot}(Value))"
        ));
    } else {
        b.line_fmt(format_args!(
            "SetDeltaStream(DeltaStreamOf.{key}, Value, {snapshot}(Value))"
        ));
    }
    b.close("end,");
    if stream.per_player {
        b.open_fmt(format_args!("{get} = function(Player: Player): ({value_type})?"));
        b.line_fmt(format_args!("return DeltaStreamOf.{key}.Values[Player]"));
    } else {
        b.open_fmt(format_args!("{get} = function(): ({value_type})?"));
        b.line_fmt(format_args!("return DeltaStreamOf.{key}.Value"));
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

/// The size of a map's keys when its parts are filed under numbers ([`key_id`]), so that a
/// removed key's bytes are the first that many of its entry; 0 when they are filed under
/// their bytes.
fn numbered_key_size(schema: &Schema, kind: &TypeKind) -> u32 {
    let TypeKind::Map { key, value, .. } = kind else {
        return 0;
    };
    let key_size = resolve(schema, key).layout.fixed_size.unwrap_or(0);
    let value_fixed = resolve(schema, value).layout.fixed_size.is_some();
    if value_fixed && (1..=4).contains(&key_size) {
        key_size
    } else {
        0
    }
}

/// The record's index bytes as a Luau string literal of decimal escapes (`"\3"`).
fn index_prefix(mg: &ModuleGen, stream: &StreamDecl) -> String {
    let bytes = stream.index.to_le_bytes();
    let width = mg.index_bytes(Reliability::Reliable) as usize;
    let escaped: String = bytes[..width].iter().map(|byte| format!("\\{byte}")).collect();
    format!("\"{escaped}\"")
}
