//! Hover: resolved types, wire sizes with what sets them, the generated API in the
//! schema's casing, and the meaning of primitives, options and field keys.

use crate::harness::{Harness, folder, root};

const SCHEMA: &str = "option Casing = Camel\n\
struct Unit {\n    id: u16,\n    alive: boolean,\n    name: string(..16)?,\n    tags: u8[..4],\n}\n\
type Log = string\n\
event Spawn {\n    From: Server,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: (Unit, u8),\n}\n\
function Ask {\n    Yield: Coroutine,\n    Data: u8,\n    Return: Unit,\n}\n\
stream World {\n    From: Server,\n    Type: Unreliable,\n    Per: Player,\n    Data: Unit[..2],\n}\n\
export enum Team = { Red, Blue }\n";

fn open() -> (tempfile::TempDir, Harness, String) {
    let temp = folder(&[]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("a.blink"), SCHEMA);
    assert!(harness.diagnostics(&uri).is_empty(), "{:?}", harness.diagnostics(&uri));
    (temp, harness, uri)
}

#[test]
fn a_struct_shows_each_field_and_what_bounds_its_size() {
    let (_temp, mut harness, uri) = open();
    let unit = harness.hover(&uri, SCHEMA, "struct Unit", 7);
    // 1 packed byte (alive, name's flag) + 2 (id) + name 1–17 when present + tags 1–5.
    assert!(unit.contains("**Wire size:** 4–25 bytes"), "{unit}");
    assert!(unit.contains("1 byte: 2 packed bits"), "{unit}");
    assert!(
        unit.contains("`name`: `string(..16)?` — 1 bit, then 1–17 bytes when present"),
        "{unit}"
    );
    assert!(unit.contains("`tags`: `u8[..4]` — 1–5 bytes"), "{unit}");
    let log = harness.hover(&uri, SCHEMA, "type Log", 5);
    assert!(log.contains("at least 1 byte, no upper bound"), "{log}");
    assert!(log.contains("0 or more bytes (no maximum)"), "{log}");
    let field = harness.hover(&uri, SCHEMA, "tags: u8", 0);
    assert!(
        field.contains("tags: u8[..4]") && field.contains("4 elements, after a 1 byte length"),
        "{field}"
    );
}

#[test]
fn declarations_show_their_record_and_their_api_in_the_schemas_casing() {
    let (_temp, mut harness, uri) = open();
    let spawn = harness.hover(&uri, SCHEMA, "event Spawn", 7);
    assert!(spawn.contains("index 0 on the reliable channel"), "{spawn}");
    assert!(spawn.contains("**Wire size:** 6–27 bytes per record"), "{spawn}");
    assert!(spawn.contains("Server: `Spawn.fireAll(value1, value2)`"), "{spawn}");
    assert!(
        spawn.contains("Client: `Spawn.on(function(value1, value2)) -> disconnect`"),
        "{spawn}"
    );
    let ask = harness.hover(&uri, SCHEMA, "function Ask", 10);
    assert!(
        ask.contains("2 bytes of header") && ask.contains("Client: `Ask.invoke(value) -> (value)`"),
        "{ask}"
    );
    let world = harness.hover(&uri, SCHEMA, "stream World", 8);
    assert!(
        world.contains("one value per player") && world.contains("Server: `World.set(player, value)`"),
        "{world}"
    );
    let team = harness.hover(&uri, SCHEMA, "enum Team", 6);
    assert!(
        team.contains("Both: `Team.read(buffer, instances?) -> value`"),
        "{team}"
    );
}

#[test]
fn words_of_the_language_say_what_they_mean() {
    let (_temp, mut harness, uri) = open();
    assert!(harness.hover(&uri, SCHEMA, "u16", 0).contains("2 bytes"));
    assert!(harness.hover(&uri, SCHEMA, "Casing", 0).contains("Default: `Pascal`"));
    assert!(
        harness
            .hover(&uri, SCHEMA, "Call: ManyAsync", 0)
            .contains("`ManyAsync`: any number of listeners")
    );
    assert!(harness.hover(&uri, SCHEMA, "Unreliable", 0).contains("may be lost"));
}

#[test]
fn with_an_error_the_declaration_is_shown_without_sizes() {
    let text = "struct A { b: Nope }\n";
    let temp = folder(&[]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("a.blink"), text);
    let hover = harness.hover(&uri, text, "A", 0);
    assert!(
        hover.contains("struct A { b: Nope }") && hover.contains("once the schema has no errors"),
        "{hover}"
    );
}

#[test]
fn a_quantized_field_shows_its_bytes_and_how_far_a_value_may_move() {
    let schema = "struct Unit {\n    id: u16,\n    position: f32(-2048..2048 step 1/64),\n}\n";
    let temp = folder(&[]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("q.blink"), schema);
    assert!(harness.diagnostics(&uri).is_empty(), "{:?}", harness.diagnostics(&uri));
    let field = harness.hover(&uri, schema, "position:", 0);
    assert!(field.contains("position: f32(-2048..2048 step 1/64)"), "{field}");
    assert!(field.contains("**Wire size:** 3 bytes"), "{field}");
    assert!(
        field.contains("262145 values from -2048 to 2048 in steps of 1/64")
            && field.contains("at most 0.0078125 from what was sent"),
        "{field}"
    );
    let unit = harness.hover(&uri, schema, "struct Unit", 7);
    assert!(unit.contains("**Wire size:** 5 bytes"), "{unit}");
}
