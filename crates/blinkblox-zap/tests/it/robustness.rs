//! Input that must not make the importer crash, run away, or say too much: nesting far past
//! any real file, long chains and cycles of types, garbage, and many errors.

use blinkblox_zap::parser::{MAX_DEPTH, MAX_ERRORS};
use blinkblox_zap::{Settings, import};

fn codes(text: &str) -> Vec<&'static str> {
    import("deep.zap", text, &Settings::default())
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

fn event_with(data: &str) -> String {
    format!("event E = {{ from: Server, type: Reliable, call: SingleSync, data: {data} }}\n")
}

#[test]
fn nesting_far_past_the_limit_is_one_error() {
    let depth = 10_000;
    let structs = format!("{}u8{}", "struct { a: ".repeat(depth), " }".repeat(depth));
    let arrays = format!("u8{}", "[]".repeat(depth));
    let optionals = format!("u8{}", "[]?".repeat(depth));
    let unions = format!("{}u8{}", "(u8 | ".repeat(depth), ")".repeat(depth));
    let maps = format!("{}u8{}", "map { [u8]: ".repeat(depth), " }".repeat(depth));
    for data in [structs, arrays, optionals, unions, maps] {
        let found = codes(&event_with(&data));
        assert!(
            found.first() == Some(&blinkblox_zap::codes::NESTING_TOO_DEEP),
            "{found:?} for {}…",
            &data[..40]
        );
    }
    let namespaces = format!("{}type T = u8{}", "namespace N = { ".repeat(depth), " }".repeat(depth));
    assert!(codes(&namespaces).contains(&blinkblox_zap::codes::NESTING_TOO_DEEP));
}

#[test]
fn nesting_up_to_the_limit_translates() {
    let depth = MAX_DEPTH - 2;
    let text = event_with(&format!("{}u8{}", "struct { a: ".repeat(depth), " }".repeat(depth)));
    let imported = import("deep.zap", &text, &Settings::default());
    assert!(imported.blink.is_some(), "{:?}", imported.diagnostics);
}

#[test]
fn long_chains_and_cycles_of_types_are_walked_without_recursion() {
    let count = 20_000;
    let mut chain: String = (0..count).map(|i| format!("type T{i} = T{}?\n", i + 1)).collect();
    chain.push_str(&format!("type T{count} = u8\n"));
    chain.push_str(&event_with("T0"));
    let imported = import("chain.zap", &chain, &Settings::default());
    assert!(imported.blink.is_some(), "{:?}", imported.diagnostics.first());

    let mut cycle: String = (0..count)
        .map(|i| format!("type T{i} = T{}?\n", (i + 1) % count))
        .collect();
    cycle.push_str(&event_with("T0"));
    let found = codes(&cycle);
    assert_eq!(
        found,
        [blinkblox_zap::codes::RECURSIVE_TYPE],
        "one cycle, reported once"
    );
}

#[test]
fn garbage_gives_a_bounded_number_of_errors() {
    let stray = "@".repeat(1_000_000);
    assert_eq!(
        codes(&stray),
        [blinkblox_zap::codes::STRAY_CHARACTER],
        "a run is reported once"
    );

    let broken = "type = \n".repeat(100_000);
    let found = codes(&broken);
    assert_eq!(found.len(), MAX_ERRORS + 1, "capped, with a summary");
    assert_eq!(found.last(), Some(&blinkblox_zap::codes::TOO_MANY_ERRORS));

    let unclosed = format!("--[[ {}", "x".repeat(100_000));
    assert_eq!(codes(&unclosed), [blinkblox_zap::codes::UNTERMINATED_COMMENT]);
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/vm/game.zap"))
        .expect("the game fixture");
    let first = import("game.zap", &text, &Settings::default());
    let second = import("game.zap", &text, &Settings::default());
    assert_eq!(first.blink, second.blink);
    assert!(first.blink.is_some());
}

#[test]
fn output_paths_are_rebased_for_the_schema_s_folder() {
    let text = "opt server_output = \"net/server.luau\"\nopt types_output = 'net/types.luau'\n";
    let text = format!("{text}{}", event_with("u8"));
    let rebase = |path: &str| format!("../zap/{path}");
    let imported = import("net.zap", &text, &Settings { rebase_output: &rebase });
    let blink = imported.blink.expect("translated");
    assert!(
        blink.contains("option ServerOutput = \"../zap/net/server.luau\""),
        "{blink}"
    );
    assert!(
        blink.contains("option TypesOutput = '../zap/net/types.luau'"),
        "{blink}"
    );
    assert!(
        blink.contains("option ClientOutput = \"../zap/network/client.lua\""),
        "{blink}"
    );
}
