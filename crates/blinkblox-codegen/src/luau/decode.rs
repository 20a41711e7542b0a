//! The receiving half of a module: one decode function per channel, a loop over the
//! packet's records that finds each record's declaration by halving the index range
//! down to runs of eight, reads its payload and hands it to the listeners as the
//! event's Call mode says.

use blinkblox_schema::model::{EventDecl, FunctionDecl, Reliability, Side, StreamDecl};
use blinkblox_schema::wire::resolve;

use super::builder::CodeBuilder;
use super::decode_checks::decode_checks_enabled;
use super::layout::offset_plus;
use super::listeners::emit_deliver;
use super::markers::marker;
use super::module::ModuleGen;
use super::naming::channel_name;
use super::payload::{Param, payload_params};
use super::read::Reader;
use super::stats::{Direction, RecordStats};
use super::streams::{emit_read_flush, emit_receive, stream_key};
use super::types::luau_type;
use super::value_path::ValuePath;

/// Channels with more receivable declarations than this decode through one reader
/// function per declaration (kept in the `Readers` table) rather than inline in the
/// decode loop, so the decode function stays small enough to compile natively.
const INLINE_READ_LIMIT: usize = 32;

/// A declaration one side receives, as the decode loop sees it.
pub enum Received<'a> {
    Event(&'a EventDecl),
    /// Server: a client's invocation.
    Request(&'a FunctionDecl),
    /// Client: the server's answer.
    Response(&'a FunctionDecl),
    /// A stream the other side sends (streams.rs keeps its state).
    Stream(&'a StreamDecl),
}

impl Received<'_> {
    pub fn index(&self) -> u16 {
        match self {
            Received::Event(e) => e.index,
            Received::Request(f) | Received::Response(f) => f.index,
            Received::Stream(s) => s.index,
        }
    }
}

impl<'a> ModuleGen<'a> {
    /// Declarations this side receives on a channel, by index.
    pub fn received(&self, reliability: Reliability) -> Vec<Received<'a>> {
        let schema = self.schema;
        let other = match self.side {
            Side::Server => Side::Client,
            Side::Client => Side::Server,
        };
        let mut out: Vec<Received<'a>> = schema
            .events
            .iter()
            .filter(|e| e.from == other && e.reliability == reliability)
            .map(Received::Event)
            .collect();
        if reliability == Reliability::Reliable {
            for function in &schema.functions {
                out.push(match self.side {
                    Side::Server => Received::Request(function),
                    Side::Client => Received::Response(function),
                });
            }
        }
        out.extend(
            schema
                .streams
                .iter()
                .filter(|s| s.from == other && s.reliability == reliability)
                .map(Received::Stream),
        );
        out.sort_by_key(|r| r.index());
        out
    }

    /// The decode function of one channel: a loop over the packet's records.
    pub fn emit_decode(&mut self, b: &mut CodeBuilder, reliability: Reliability) {
        let channel = channel_name(reliability);
        let received = self.received(reliability);
        if received.is_empty() {
            // Nothing arrives on this channel: its remote is not listened to at all.
            return;
        }
        let inline = received.len() <= INLINE_READ_LIMIT;
        let with_player = self.side == Side::Server;
        // Reader functions first (large channels only), then the decode loop.
        let mut leaves = Vec::with_capacity(received.len());
        for item in &received {
            let mut leaf = CodeBuilder::new();
            self.emit_leaf(&mut leaf, item, reliability, inline, b);
            leaves.push((item.index(), leaf.finish()));
        }
        let signature = if with_player { "Player: Player" } else { "Player: nil" };
        // The cursor lives in the local `Cursor` (a register, not an upvalue read and
        // written per value; reader functions take it and return it); it is written back
        // to `RecvCursor` around what reads that (ReadLength's long form, an unreliable
        // stream record's flush number) and when the loop ends. A Sync listener's
        // resume point is `ListenerResume` (recv_state.luau).
        b.open_function(format!("@native local function Decode{channel}({signature})"));
        b.line("local B = RecvBuffer");
        b.line("local Size = RecvSize");
        b.line("local Cursor = RecvCursor");
        let count_events = with_player && decode_checks_enabled();
        if count_events {
            // MaxEventsPerPacket: the record past the limit ends the packet. Every record
            // takes at least its index byte, so when no more records are left to take
            // than bytes are left in the packet, the limit cannot be reached and the
            // records need no counting (the common case: one test per record).
            b.line("local CountEvents = RecvEventsLeft < Size - Cursor");
        }
        b.open("while Cursor < Size do");
        if count_events {
            b.open("if CountEvents then");
            b.line("RecvEventsLeft -= 1");
            b.line("if RecvEventsLeft < 0 then TooManyEvents() end");
            b.close("end");
        }
        if self.index_bytes(reliability) == 2 {
            need_at_cursor(b, 2);
            b.line("local Index = buffer.readu16(B, Cursor)");
        } else {
            b.line("local Index = buffer.readu8(B, Cursor)");
        }
        if leaves.is_empty() {
            b.line("UnknownIndex(Index)");
        } else {
            emit_dispatch(b, &leaves);
        }
        b.close("end");
        b.line("RecvCursor = Cursor");
        b.close("end");
        b.line("");
    }

    /// The code run for one record: read the payload, deliver it.
    fn emit_leaf(
        &mut self,
        leaf: &mut CodeBuilder,
        item: &Received,
        reliability: Reliability,
        inline: bool,
        outer: &mut CodeBuilder,
    ) {
        let with_player = self.side == Side::Server;
        let player = if with_player { "Player" } else { "nil" };
        let (scope, name, role) = match item {
            Received::Event(event) => (&event.scope, &event.name, None),
            Received::Request(function) => (&function.scope, &function.name, Some("invocation")),
            Received::Stream(stream) => (&stream.scope, &stream.name, Some("stream")),
            Received::Response(function) => (&function.scope, &function.name, Some("response")),
        };
        leaf.line(marker(scope, name, role));
        let stats = RecordStats::new(self.schema, reliability, item.index(), Direction::Received);
        if stats.counts() {
            leaf.line("local RecordStart = Cursor");
        }
        stats.begin(leaf);
        let index_bytes = self.index_bytes(reliability);
        let fixed_event = match item {
            Received::Event(event) if inline => self.fixed_payload_size(&payload_params(&event.data), index_bytes),
            _ => None,
        };
        if fixed_event.is_none() {
            // Past the record's index here, not before the dispatch: natively compiled, the
            // cursor then changes in the block that goes on to read the record, and Luau's
            // code generator keeps it in a register instead of storing and loading it again.
            leaf.line_fmt(format_args!("Cursor += {index_bytes}"));
        }
        match item {
            Received::Event(event) => {
                let params = payload_params(&event.data);
                let values = match fixed_event {
                    Some(size) => self.read_fixed_record(leaf, &params, index_bytes, size),
                    None => self.read_values(leaf, &params, inline, outer, &event.scope, &event.name),
                };
                stats.end(leaf, "Cursor - RecordStart");
                let slot = event.index as u32 + 1;
                emit_deliver(leaf, reliability, event.call, slot, with_player, &values);
            }
            Received::Request(function) => {
                need_at_cursor(leaf, 2);
                leaf.line("local CallId = buffer.readu16(B, Cursor)");
                leaf.line("Cursor += 2");
                let params = payload_params(&function.data);
                let values = self.read_values(leaf, &params, inline, outer, &function.scope, &function.name);
                stats.end(leaf, "Cursor - RecordStart");
                let slot = function.index as u32 + 1;
                let respond = self
                    .schema
                    .functions
                    .iter()
                    .position(|f| std::ptr::eq(f, *function))
                    .and_then(|position| self.responders.get(position))
                    .cloned()
                    .unwrap_or_default();
                // A player with MAX_PENDING_INVOCATIONS waiting is answered "failed"
                // at once (so an honest caller's Invoke ends) and the handler is not run.
                leaf.open("if not BeginInvocation(Player) then");
                self.emit_failed_answer(leaf, function.index);
                leaf.middle("else");
                let mut args = vec!["CallId".to_string(), "Listener".to_string()];
                args.extend(values.iter().cloned());
                leaf.line_fmt(format_args!(
                    "local Listener: ((...any) -> ...any) | false = FunctionListeners[{slot}]"
                ));
                leaf.open("if Listener then");
                leaf.line_fmt(format_args!("task.spawn({respond}, {player}, {})", args.join(", ")));
                leaf.middle("else");
                let mut packed = vec!["CallId".to_string()];
                packed.extend(values.iter().cloned());
                // A player has at most MAX_PENDING_INVOCATIONS waiting, fewer than its share
                // of the queue (PLAYER_QUEUE_LIMIT), so the queue always takes it; were it
                // refused, it would no longer be waiting.
                leaf.line_fmt(format_args!(
                    "if not Push(FunctionQueues[{slot}], {player}, table.pack({})) then EndInvocation(Player) end",
                    packed.join(", ")
                ));
                leaf.close("end");
                leaf.close("end");
            }
            Received::Stream(stream) if stream.delta => {
                let incoming = format!("IncomingStreams.{}", stream_key(stream));
                let mut reader = self.reader(leaf);
                reader.cursor = "Cursor";
                reader.size = "Size";
                let value = reader.read_delta(&stream.data, &incoming, &ValuePath::root("Value"));
                stats.end(leaf, "Cursor - RecordStart");
                leaf.line_fmt(format_args!(
                    "if {value} ~= nil then ReceiveStream({incoming}, nil, {value}) end"
                ));
            }
            Received::Stream(stream) => {
                let params = [Param {
                    name: "Value".into(),
                    ty: &stream.data,
                }];
                let reader = (stream.scope.clone(), stream.name.clone());
                if stream.reliability == Reliability::Unreliable {
                    // The flush number is read through `RecvCursor` (streams.rs).
                    leaf.line("RecvCursor = Cursor");
                    emit_read_flush(leaf, stream);
                    leaf.line("Cursor = RecvCursor");
                } else {
                    emit_read_flush(leaf, stream);
                }
                let values = self.read_values(leaf, &params, inline, outer, &reader.0, &reader.1);
                stats.end(leaf, "Cursor - RecordStart");
                emit_receive(leaf, stream, with_player, &values[0]);
            }
            Received::Response(function) => {
                need_at_cursor(leaf, 3);
                leaf.line("local CallId = buffer.readu16(B, Cursor)");
                leaf.line("local Success = buffer.readu8(B, Cursor + 2)");
                leaf.line("Cursor += 3");
                leaf.line("local Thread = Calls[CallId]");
                leaf.open("if Success == 1 then");
                let params = payload_params(&function.returns);
                let values = self.read_values(leaf, &params, inline, outer, &function.scope, &function.name);
                stats.end(leaf, "Cursor - RecordStart");
                leaf.line("Calls[CallId] = nil");
                let mut args = vec!["Thread".to_string(), "true".to_string()];
                args.extend(values);
                leaf.line_fmt(format_args!("if Thread then task.spawn({}) end", args.join(", ")));
                leaf.middle("elseif Success == 0 then");
                stats.end(leaf, "Cursor - RecordStart");
                leaf.line("Calls[CallId] = nil");
                leaf.line("if Thread then task.spawn(Thread, false, \"the server's handler failed\") end");
                leaf.middle("else");
                leaf.line("error(Failed(\"response status is not 0 or 1\"), 0)");
                leaf.close("end");
            }
        }
    }

    /// The size of a payload whose every value is of fixed size, when it has values and its
    /// record (`index_bytes` and the payload) fits a `u32`.
    fn fixed_payload_size(&self, params: &[Param], index_bytes: u32) -> Option<u32> {
        if params.is_empty() {
            return None;
        }
        let record = params.iter().try_fold(index_bytes, |total, p| {
            total.checked_add(resolve(self.schema, p.ty).layout.fixed_size?)
        })?;
        Some(record - index_bytes)
    }

    /// A record of fixed size (`index_bytes` and a payload of `size`): one check that all of
    /// it is in the packet, each value read at its offset from the record's start, then the
    /// cursor moved past it once. The values are bound to locals before the cursor moves,
    /// since their expressions are read at offsets from it.
    fn read_fixed_record(
        &mut self,
        leaf: &mut CodeBuilder,
        params: &[Param],
        index_bytes: u32,
        size: u32,
    ) -> Vec<String> {
        need_at_cursor(leaf, index_bytes + size);
        let schema = self.schema;
        let mut reader = self.reader(leaf);
        reader.cursor = "Cursor";
        reader.size = "Size";
        let mut at = index_bytes;
        for param in params {
            let mark = reader.b.mark();
            let expr = reader.read_at(param.ty, &offset_plus("Cursor", at), &ValuePath::root(&param.name));
            if params.len() > 1 {
                reader.bind_local(mark, &expr, &param.name);
            } else {
                reader.b.line_fmt(format_args!("local {} = {expr}", param.name));
            }
            at += resolve(schema, param.ty).layout.fixed_size.unwrap_or(0);
        }
        leaf.line_fmt(format_args!("Cursor += {}", index_bytes + size));
        params.iter().map(|p| p.name.clone()).collect()
    }

    /// Reads a payload's values into locals, inline or through a reader function
    /// (`ReadHit`) defined in `outer`.
    fn read_values(
        &mut self,
        leaf: &mut CodeBuilder,
        params: &[Param],
        inline: bool,
        outer: &mut CodeBuilder,
        scope: &[String],
        name: &str,
    ) -> Vec<String> {
        if params.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        if inline {
            let mut reader = self.reader(leaf);
            reader.cursor = "Cursor";
            reader.size = "Size";
            // Each value straight into its local; a tuple's values each in a block of their
            // own, so one value's locals do not stay alive while the next is read.
            for param in params {
                let mark = reader.b.mark();
                let expr = reader.read(param.ty, &ValuePath::root(&param.name));
                if params.len() > 1 {
                    reader.bind_local(mark, &expr, &param.name);
                } else {
                    reader.b.line_fmt(format_args!("local {} = {expr}", param.name));
                }
            }
        } else {
            let types: Vec<String> = params.iter().map(|p| luau_type(self.schema, p.ty)).collect();
            // A reader function takes the loop's cursor and returns where it ended, after
            // the values: the cursor stays in registers across the call.
            let reader_name = self.function_name("Read", scope, name);
            self.open_function(
                outer,
                &reader_name,
                &format!("(Cursor: number): ({}, number)", types.join(", ")),
            );
            outer.line("local B = RecvBuffer");
            let mut reader = self.reader(outer);
            reader.cursor = "Cursor";
            let exprs: Vec<String> = params
                .iter()
                .map(|p| read_param(&mut reader, p, params.len()))
                .collect();
            outer.line_fmt(format_args!("return {}, Cursor", exprs.join(", ")));
            outer.close("end");
            leaf.line_fmt(format_args!("local {}", names.join(", ")));
            leaf.line_fmt(format_args!("{}, Cursor = {reader_name}(Cursor)", names.join(", ")));
        }
        names
    }
}

/// One value of a payload. The values of a tuple are each scoped (`Reader::read_scoped`),
/// so one value's locals do not stay alive while the next is read.
fn read_param(reader: &mut Reader<'_>, param: &Param, count: usize) -> String {
    let path = ValuePath::root(&param.name);
    if count > 1 {
        reader.read_scoped(param.ty, &path, "Part")
    } else {
        reader.read(param.ty, &path)
    }
}

/// Finds the record's index by halving the range down to runs of eight, then a plain
/// `if` chain; an index no declaration has ends the packet.
fn emit_dispatch(b: &mut CodeBuilder, leaves: &[(u16, String)]) {
    if leaves.len() <= 8 {
        for (position, (index, code)) in leaves.iter().enumerate() {
            b.branch(position, &format!("Index == {index}"));
            b.raw(code);
        }
        b.middle("else");
        b.line("UnknownIndex(Index)");
        b.close("end");
        return;
    }
    let middle = leaves.len() / 2;
    let (low, high) = leaves.split_at(middle);
    b.open_fmt(format_args!("if Index < {} then", high[0].0));
    emit_dispatch(b, low);
    b.middle("else");
    emit_dispatch(b, high);
    b.close("end");
}

/// The loop's record header of `bytes` at the cursor must be in the packet before it is read:
/// no read raises on its own (`ListenerResume`, recv_state.luau).
fn need_at_cursor(b: &mut CodeBuilder, bytes: u32) {
    if decode_checks_enabled() {
        b.line_fmt(format_args!("if Cursor + {bytes} > Size then OutOfBytes() end"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dispatch_text(count: u16) -> String {
        let leaves: Vec<(u16, String)> = (0..count).map(|i| (i * 2, format!("Leaf{i}()"))).collect();
        let mut b = CodeBuilder::new();
        emit_dispatch(&mut b, &leaves);
        b.finish()
    }

    #[test]
    fn eight_or_fewer_declarations_are_a_plain_if_chain() {
        let text = dispatch_text(8);
        assert!(!text.contains("Index <"), "{text}");
        assert_eq!(text.matches("Index ==").count(), 8);
        assert!(text.contains("else\n\tUnknownIndex(Index)"), "{text}");
    }

    #[test]
    fn larger_channels_halve_down_to_runs_of_eight() {
        let text = dispatch_text(40);
        assert_eq!(text.matches("Index ==").count(), 40);
        // 40 -> 20 + 20 -> 10 + 10 each -> 5 + 5 each: 7 range tests, 8 chains.
        assert_eq!(text.matches("if Index < ").count(), 7, "{text}");
        assert!(text.starts_with("if Index < 40 then"), "{text}");
        for chain in text.split("if Index < ").skip(1) {
            let before_next = chain.split("else\n").next().unwrap_or("");
            assert!(before_next.matches("Index ==").count() <= 8);
        }
    }
}
