//! Streams: state, not a queue. The sending side's `Set` serializes the
//! value into a record kept by the stream (`runtime/send_*.luau`); each flush sends it
//! (reliable: when Set since the last flush; unreliable: every flush). A broadcast
//! stream's record goes into the frame's broadcast batch (reliable) or unreliable
//! broadcast batch, so it costs no remote call of its own; a `Per: Player` stream's
//! into that player's batches. The receiving side keeps the latest value for `Get` and
//! hands each arrival to the `On` listeners (`runtime/streams_receive.luau`).

use blinkblox_schema::model::{Reliability, Side, StreamDecl};

use super::builder::CodeBuilder;
use super::delta;
use super::markers::{describe, marker};
use super::module::ModuleGen;
use super::payload::Param;
use super::types::luau_type;

/// The key of a stream in the `OutgoingStreamOf`/`IncomingStreams` tables: channel
/// initial and index (`R3`, `U0`), unique within a module.
pub fn stream_key(stream: &StreamDecl) -> String {
    let channel = match stream.reliability {
        Reliability::Reliable => "R",
        Reliability::Unreliable => "U",
    };
    format!("{channel}{}", stream.index)
}

/// `Set`/`Get` in the schema's casing (the same in all three).
pub fn set_get(mg: &ModuleGen) -> (&'static str, &'static str) {
    let casing = mg.schema.options.casing;
    (casing.pick("Set", "set", "set"), casing.pick("Get", "get", "get"))
}

/// Emits the module-level part of every stream (writers, stream state) into `body`,
/// and adds each stream's API members.
pub fn emit_streams(mg: &mut ModuleGen, body: &mut CodeBuilder) {
    let schema = mg.schema;
    if schema.streams.is_empty() {
        return;
    }
    if schema.streams.iter().any(|s| s.from == mg.side && !s.delta) {
        body.line("local OutgoingStreamOf: { [string]: OutgoingStream } = {}");
    }
    if schema.streams.iter().any(|s| s.from == mg.side && s.delta) {
        body.line("local DeltaStreamOf: { [string]: DeltaStream } = {}");
    }
    for stream in &schema.streams {
        let (real, noop) = if stream.from == mg.side && stream.delta {
            delta::sending_members(mg, body, stream)
        } else if stream.from == mg.side {
            sending_members(mg, body, stream)
        } else {
            receiving_members(mg, body, stream)
        };
        mg.api.add(&stream.scope, &stream.name, real, noop);
    }
    body.line("");
}

fn sending_members(mg: &mut ModuleGen, body: &mut CodeBuilder, stream: &StreamDecl) -> (Vec<String>, Vec<String>) {
    let key = stream_key(stream);
    let value_type = luau_type(mg.schema, &stream.data);
    let params = [Param {
        name: "Value".into(),
        ty: &stream.data,
    }];
    let writer = mg.function_name("Write", &stream.scope, &stream.name);
    body.line(marker(&stream.scope, &stream.name, Some("stream")));
    mg.open_function(body, &writer, &format!("(Value: {value_type})"));
    // Unreliable: a flush-number byte after the index, filled in at each flush.
    let header: Vec<(u32, String)> = match stream.reliability {
        Reliability::Reliable => Vec::new(),
        Reliability::Unreliable => vec![(1, "0".into())],
    };
    mg.emit_scratch_record(body, stream.reliability, stream.index, &header, &params);
    body.close("end");
    let flush_offset = match stream.reliability {
        Reliability::Reliable => 0,
        Reliability::Unreliable => mg.index_bytes(Reliability::Unreliable),
    };
    body.line_fmt(format_args!(
        "OutgoingStreamOf.{key} = NewOutgoingStream({}, {}, {flush_offset})",
        stream.reliability == Reliability::Reliable,
        stream.per_player
    ));

    let (set, get) = set_get(mg);
    let per_player = stream.per_player && mg.side == Side::Server;
    let name = describe(&stream.scope, &stream.name);
    let mut b = CodeBuilder::new();
    if per_player {
        b.open_fmt(format_args!(
            "{set} = @native function(Player: Player, Value: {value_type})"
        ));
    } else {
        b.open_fmt(format_args!("{set} = @native function(Value: {value_type})"));
    }
    b.line(marker(&stream.scope, &stream.name, Some("stream")));
    mg.emit_checks(&mut b, &format!("{name}.{set}"), &params);
    b.line_fmt(format_args!("{writer}(Value)"));
    if per_player {
        b.line_fmt(format_args!("SetStreamFor(OutgoingStreamOf.{key}, Player, Value)"));
    } else {
        b.line_fmt(format_args!("SetStream(OutgoingStreamOf.{key}, Value)"));
    }
    b.close("end,");
    if per_player {
        b.open_fmt(format_args!(
            "{get} = @native function(Player: Player): ({value_type})?"
        ));
        b.line_fmt(format_args!("return OutgoingStreamOf.{key}.Values[Player]"));
    } else {
        b.open_fmt(format_args!("{get} = @native function(): ({value_type})?"));
        b.line_fmt(format_args!("return OutgoingStreamOf.{key}.Value"));
    }
    b.close("end,");
    let real = vec![b.finish()];
    let noop = vec![format!("{set} = Noop,"), format!("{get} = Noop,")];
    (real, noop)
}

fn receiving_members(mg: &mut ModuleGen, body: &mut CodeBuilder, stream: &StreamDecl) -> (Vec<String>, Vec<String>) {
    let key = stream_key(stream);
    let value_type = luau_type(mg.schema, &stream.data);
    body.line_fmt(format_args!("NewIncomingStream(\"{key}\")"));
    let (_, get) = set_get(mg);
    let on = mg.members.on;
    let real = if mg.side == Side::Server {
        vec![
            format!(
                "{on} = function(Listener: (Player, {value_type}) -> ()): () -> ()\n\treturn ConnectStream(IncomingStreams.{key}, Listener, true)\nend,"
            ),
            format!(
                "{get} = @native function(Player: Player): ({value_type})?\n\treturn IncomingStreams.{key}.Values[Player]\nend,"
            ),
        ]
    } else {
        vec![
            format!(
                "{on} = function(Listener: ({value_type}) -> ()): () -> ()\n\treturn ConnectStream(IncomingStreams.{key}, Listener, false)\nend,"
            ),
            format!("{get} = @native function(): ({value_type})?\n\treturn IncomingStreams.{key}.Value\nend,"),
        ]
    };
    (real, vec![format!("{on} = NoopConnect,"), format!("{get} = Noop,")])
}

/// An unreliable stream's record carries the sender's flush number after its index
/// (`[index][flush u8][value]`), so a packet Roblox delivers late cannot replace a
/// newer value. Reads it into `Flush`.
pub fn emit_read_flush(leaf: &mut CodeBuilder, stream: &StreamDecl) {
    if stream.reliability == Reliability::Unreliable {
        leaf.line("NeedBytes(1)");
        leaf.line("local Flush = buffer.readu8(B, RecvCursor)");
        leaf.line("RecvCursor += 1");
    }
}

/// The decode loop's code for a stream record whose value was read into `value`.
pub fn emit_receive(leaf: &mut CodeBuilder, stream: &StreamDecl, with_player: bool, value: &str) {
    let player = if with_player { "Player" } else { "nil" };
    let key = stream_key(stream);
    match stream.reliability {
        Reliability::Reliable => leaf.line_fmt(format_args!("ReceiveStream(IncomingStreams.{key}, {player}, {value})")),
        Reliability::Unreliable => leaf.line_fmt(format_args!(
            "ReceiveStreamInOrder(IncomingStreams.{key}, {player}, Flush, {value})"
        )),
    }
}

#[cfg(test)]
mod tests {
    use blinkblox_schema::check_source;

    fn modules(text: &str) -> (String, String) {
        let output = check_source("streams.blink", text);
        let schema = output.schema.expect("schema checks");
        (
            super::super::server::generate(&schema, None),
            super::super::client::generate(&schema, None),
        )
    }

    #[test]
    fn each_side_gets_the_members_of_its_role() {
        let (server, client) = modules(
            "option Casing = Snake\nstream S { From: Server, Type: Reliable, Per: Player, Data: u8 }\nstream C { From: Client, Type: Unreliable, Data: u8 }",
        );
        assert!(
            server.contains("set = @native function(Player: Player, Value: number)"),
            "{server}"
        );
        assert!(server.contains(
            "get = @native function(Player: Player): (number)?\n\t\t\treturn IncomingStreams.U0.Values[Player]\n\t\tend,"
        ));
        assert!(client.contains(
            "on = function(Listener: (number) -> ()): () -> ()\n\t\t\treturn ConnectStream(IncomingStreams.R0, Listener, false)\n\t\tend,"
        ));
        assert!(client.contains("OutgoingStreamOf.U0 = NewOutgoingStream(false, false, 1)"));
        assert!(server.contains("ReceiveStreamInOrder(IncomingStreams.U0, Player, Flush, Value)"));
    }
}
