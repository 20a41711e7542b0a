//! The schema of many event declarations, in each code generator's language: the compiler's
//! Performance bench times the compilers on it, and the ManyEvents scenario sends its events.
//! The events cycle through four payloads (a u8, a struct of four fields, a u16 with a string,
//! an array of the struct), the same values on the wire in every language.

/// The declarations the Performance bench and ManyEvents use.
pub const MANY_DECLARATIONS: usize = 128;

/// The declarations of ModuleLoad's large schema: what a game with a big network surface
/// loads on joining.
pub const LARGE_SCHEMA_DECLARATIONS: usize = 1024;

/// Who fires the events: the client (the Performance bench, whose events go the way BlinkBlox
/// validates) or the server (ManyEvents, sent to a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sender {
    Client,
    Server,
}

impl Sender {
    fn name(self) -> &'static str {
        match self {
            Sender::Client => "Client",
            Sender::Server => "Server",
        }
    }
}

/// The payload of event `index` in each language: BlinkBlox's and Blink's, then zap's.
fn payload(index: usize) -> (&'static str, &'static str) {
    match index % 4 {
        0 => ("u8", "u8"),
        1 => ("Unit", "Unit"),
        // zap has no tuples, and an event carries one value: a struct of the same two fields.
        2 => ("(u16, string(0..32))", "Pair"),
        _ => ("Unit[0..16]", "Unit[0..16]"),
    }
}

/// `count` reliable events in BlinkBlox's language, sent by `from`.
pub fn blinkblox_schema(count: usize, from: Sender) -> String {
    let from = from.name();
    let mut text = String::from("option ManualReplication = true\noption RemoteScope = \"MANY\"\n\n");
    text.push_str("struct Unit {\n    id: u16,\n    position: vector,\n    health: u8,\n    alive: boolean,\n}\n\n");
    for index in 0..count {
        let (data, _) = payload(index);
        text.push_str(&format!(
            "event Event{index} {{\n    From: {from},\n    Type: Reliable,\n    Call: SingleSync,\n    Data: {data},\n}}\n\n"
        ));
    }
    text
}

/// The same events in Blink 0.18's dialect: no BlinkBlox options, no trailing commas, and the
/// output paths its parser requires.
pub fn blink_schema(count: usize, from: Sender) -> String {
    blinkblox_schema(count, from).replace(",\n}", "\n}").replace(
        "\"MANY\"",
        "\"MANY\"\noption ClientOutput = \"Client.luau\"\noption ServerOutput = \"Server.luau\"",
    )
}

/// The same events in zap 0.6's language: every `opt` first, as zap requires; `vector` is
/// zap's `Vector3` (three f32s); the (u16, string) payload is the struct `Pair` (the same
/// bytes on the wire), which the Rivals' zap adapter packs as `{ number, text }`; PascalCase
/// names, which that adapter calls.
pub fn zap_schema(count: usize, from: Sender) -> String {
    let from = from.name();
    let mut text = String::from(
        "opt remote_scope = \"MANY\"\nopt manual_event_loop = true\nopt casing = \"PascalCase\"\n\n\
         type Unit = struct {\n\tid: u16,\n\tposition: Vector3,\n\thealth: u8,\n\talive: boolean,\n}\n\n\
         type Pair = struct {\n\tnumber: u16,\n\ttext: string(0..32),\n}\n\n",
    );
    for index in 0..count {
        let (_, data) = payload(index);
        text.push_str(&format!(
            "event Event{index} = {{\n\tfrom: {from},\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: {data},\n}}\n\n"
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_declares_the_same_events_from_the_same_sender() {
        for from in [Sender::Client, Sender::Server] {
            let blinkblox = blinkblox_schema(MANY_DECLARATIONS, from);
            let blink = blink_schema(MANY_DECLARATIONS, from);
            let zap = zap_schema(MANY_DECLARATIONS, from);
            assert_eq!(blinkblox.matches("\nevent Event").count(), 128);
            assert_eq!(blink.matches("\nevent Event").count(), 128);
            assert_eq!(zap.matches("\nevent Event").count(), 128);
            let sender = from.name();
            assert_eq!(blinkblox.matches(&format!("From: {sender},")).count(), 128);
            assert_eq!(blink.matches(&format!("From: {sender},")).count(), 128);
            assert_eq!(zap.matches(&format!("\tfrom: {sender},")).count(), 128);
        }
    }

    #[test]
    fn blinks_dialect_has_no_trailing_commas_and_names_its_outputs() {
        let blink = blink_schema(4, Sender::Client);
        assert!(!blink.contains(",\n}"), "{blink}");
        assert!(blink.contains("option ClientOutput = \"Client.luau\"\noption ServerOutput = \"Server.luau\""));
        assert!(blink.contains("event Event2 {\n    From: Client,\n    Type: Reliable,\n    Call: SingleSync,\n    Data: (u16, string(0..32))\n}"));
    }

    #[test]
    fn zaps_schema_puts_every_opt_first_and_sends_the_pair_as_a_struct() {
        let zap = zap_schema(8, Sender::Server);
        assert!(zap.starts_with("opt remote_scope = \"MANY\"\nopt manual_event_loop = true\n"));
        let first_declaration = zap.find("type ").expect("a type");
        assert!(!zap[first_declaration..].contains("opt "), "zap wants every opt first");
        assert_eq!(zap.matches("\tdata: Pair,").count(), 2);
        assert!(zap.contains("type Pair = struct {\n\tnumber: u16,\n\ttext: string(0..32),\n}"));
        assert!(zap.contains("position: Vector3"));
        assert!(zap.contains(
            "event Event7 = {\n\tfrom: Server,\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: Unit[0..16],\n}"
        ));
    }
}
