//! Delivery to listeners: the `On`/`Iter`/`Next` members of a received event, and the
//! decode loop's hand-over of each record's values as the event's Call mode says.

use blinkblox_schema::model::{CallMode, EventDecl, Reliability, Side};

use super::builder::CodeBuilder;
use super::module::ModuleGen;
use super::naming::channel_name;
use super::payload::payload_params;
use super::types::luau_type;

impl ModuleGen<'_> {
    /// `On`/`Iter`/`Next` members of a received event.
    pub fn receive_members(&self, event: &EventDecl) -> (Vec<String>, Vec<String>) {
        let schema = self.schema;
        let channel = channel_name(event.reliability);
        let slot = event.index as u32 + 1;
        let params = payload_params(&event.data);
        let with_player = self.side == Side::Server;
        let packed = params.len() > 1;
        let mut listener_params: Vec<String> = Vec::new();
        if with_player {
            listener_params.push("Player".into());
        }
        listener_params.extend(params.iter().map(|p| luau_type(schema, p.ty)));
        let m = self.members;
        if event.call == CallMode::Polling {
            let iterator = format!(
                "() -> (number, {})",
                if listener_params.is_empty() {
                    "nil".into()
                } else {
                    listener_params.join(", ")
                }
            );
            // Cast: the iterator's values are the event's, which PollIterator's type cannot say.
            let real = format!(
                "@native function(): {iterator}\n\treturn PollIterator({channel}Queues[{slot}], {with_player}, {packed}) :: any\nend"
            );
            return (
                vec![format!("{} = {real},", m.iter), format!("{} = {real},", m.next)],
                vec![format!("{} = NoopIter,", m.iter), format!("{} = NoopIter,", m.next)],
            );
        }
        let (many, is_async) = match event.call {
            CallMode::SingleSync => (false, false),
            CallMode::SingleAsync => (false, true),
            CallMode::ManySync => (true, false),
            CallMode::ManyAsync | CallMode::Polling => (true, true),
        };
        let connect = if many { "ConnectMany" } else { "ConnectSingle" };
        let pending = match event.reliability {
            Reliability::Reliable => format!("{channel}Queues[{slot}]"),
            Reliability::Unreliable => "nil".into(),
        };
        let listener_type = format!("({}) -> ()", listener_params.join(", "));
        let real = format!(
            "{} = function(Listener: {listener_type}): () -> ()\n\treturn {connect}({channel}Listeners, {slot}, Listener, {pending}, {is_async}, {with_player}, {packed})\nend,",
            m.on
        );
        (vec![real], vec![format!("{} = NoopConnect,", m.on)])
    }
}

/// Hands decoded values to the listeners as the event's Call mode says, as Blink 0.18
/// does: Sync inline (inside the packet's pcall), Async through `task.spawn`; a
/// reliable event with no listener yet is queued for the first `On`, an unreliable one
/// is dropped; Polling always queues.
pub fn emit_deliver(
    b: &mut CodeBuilder,
    reliability: Reliability,
    call: CallMode,
    slot: u32,
    with_player: bool,
    values: &[String],
) {
    let channel = channel_name(reliability);
    let mut args: Vec<String> = Vec::new();
    if with_player {
        args.push("Player".into());
    }
    args.extend(values.iter().cloned());
    if values.is_empty() {
        args.push("nil".into());
    }
    let player = if with_player { "Player" } else { "nil" };
    let queued = match values.len() {
        0 => "nil".to_string(),
        1 => values[0].clone(),
        _ => format!("table.pack({})", values.join(", ")),
    };
    let push = format!("Push({channel}Queues[{slot}], {player}, {queued})");
    if call == CallMode::Polling {
        b.line(push);
        return;
    }
    let all = args.join(", ");
    match call {
        CallMode::SingleSync | CallMode::SingleAsync => {
            b.line_fmt(format_args!(
                "local Listener: ((...any) -> ()) | false = {channel}Listeners[{slot}]"
            ));
            b.open("if Listener then");
            if call == CallMode::SingleSync {
                // Left set after the call: a failed check clears it (recv_state.luau).
                b.line("ListenerResume = Cursor");
                b.line_fmt(format_args!("Listener({all})"));
            } else {
                b.line_fmt(format_args!("task.spawn(Listener, {all})"));
            }
        }
        _ => {
            b.line_fmt(format_args!(
                "local List: {{ (...any) -> () }} | false = {channel}Listeners[{slot}]"
            ));
            b.open("if List then");
            if call == CallMode::ManySync {
                b.line("ListenerResume = Cursor");
                b.open("for _, Listener in List do");
                b.line_fmt(format_args!("Listener({all})"));
                b.close("end");
            } else {
                b.open("for _, Listener in List do");
                b.line_fmt(format_args!("task.spawn(Listener, {all})"));
                b.close("end");
            }
        }
    }
    if reliability == Reliability::Reliable {
        b.middle("else");
        b.line(push);
    }
    b.close("end");
}
