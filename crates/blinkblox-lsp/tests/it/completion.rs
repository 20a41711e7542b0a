//! Completion in each context, and the words it offers agreeing with the checker's.

use crate::harness::{Harness, folder, root};

const SCHEMA: &str = "option Casing = Camel\n\nimport \"./common\" as Common\n\nstruct Other { x: u8 }\nstruct Player {\n    id: u32,\n    team: ,\n    ref: Common.,\n}\n\nevent Hit {\n    From: ,\n    Type: Reliable,\n    Data: \n}\n\nfunction Ask {\n    Yield: \n}\n-- a comment: \n\noption \n";

fn setup() -> (tempfile::TempDir, Harness, String) {
    let temp = folder(&[("common.blink", "struct Ref { id: u8 }\nenum Team = { Red, Blue }\n")]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("main.blink"), SCHEMA);
    (temp, harness, uri)
}

#[test]
fn keywords_at_the_start_of_a_declaration() {
    let (_temp, mut harness, uri) = setup();
    let labels = harness.completions(&uri, SCHEMA, "struct Player", 0);
    assert!(
        labels.iter().any(|l| l == "event") && labels.iter().any(|l| l == "struct"),
        "{labels:?}"
    );
}

#[test]
fn option_names_and_values() {
    let (_temp, mut harness, uri) = setup();
    let names = harness.completions(&uri, SCHEMA, "option \n", 7);
    assert!(names.contains(&"MaxPacketSize".to_string()) && names.contains(&"Casing".to_string()));
    let values = harness.completions(&uri, SCHEMA, "Casing = Camel", 9);
    assert_eq!(values, ["Pascal", "Camel", "Snake"]);
}

#[test]
fn types_in_a_struct_and_through_an_import() {
    let (_temp, mut harness, uri) = setup();
    let types = harness.completions(&uri, SCHEMA, "team: ,", 6);
    // `Player` is not complete, so it does not parse yet; the others are there.
    for expected in ["u8", "string", "Other", "Common", "struct"] {
        assert!(types.iter().any(|t| t == expected), "{expected} missing from {types:?}");
    }
    assert!(
        !types.iter().any(|t| t == "Ref"),
        "an imported type is offered unqualified"
    );
    let qualified = harness.completions(&uri, SCHEMA, "Common.,", 7);
    assert_eq!(qualified, ["Ref", "Team"]);
}

#[test]
fn fields_and_their_values_in_event_and_function_blocks() {
    let (_temp, mut harness, uri) = setup();
    assert_eq!(harness.completions(&uri, SCHEMA, "From: ,", 6), ["Server", "Client"]);
    let data = harness.completions(&uri, SCHEMA, "Data: \n", 6);
    assert!(data.iter().any(|t| t == "Other"), "{data:?}");
    let keys = harness.completions(&uri, SCHEMA, "    Type: Reliable", 0);
    assert_eq!(keys, ["Call", "Poll"]);
    assert_eq!(
        harness.completions(&uri, SCHEMA, "Yield: \n", 7),
        ["Coroutine", "Future", "Promise"]
    );
}

#[test]
fn nothing_inside_a_comment() {
    let (_temp, mut harness, uri) = setup();
    assert!(harness.completions(&uri, SCHEMA, "a comment: ", 11).is_empty());
}

/// The checker lists every option and every field in its messages: completion offers
/// exactly those.
#[test]
fn the_words_offered_are_the_checkers() {
    let checked = blinkblox_schema::check_source(
        "a.blink",
        "option Nope = 1\nevent E { Nope: 1, From: Server, Type: Reliable, Call: SingleSync }\nfunction F { Nope: 1, Yield: Coroutine }\nstream S { Nope: 1, From: Server, Type: Reliable, Data: u8 }",
    );
    let notes: Vec<&str> = checked
        .diagnostics
        .iter()
        .flat_map(|d| d.notes.iter().map(String::as_str))
        .collect();
    let listed = |prefix: &str| -> Vec<String> {
        let note = notes
            .iter()
            .find(|n| n.starts_with(prefix))
            .unwrap_or_else(|| panic!("no note `{prefix}`"));
        note[prefix.len()..]
            .split(", ")
            .map(|w| w.trim_matches('`').to_string())
            .collect()
    };
    let mut options = listed("the options are ");
    options.sort();
    let mut harness = Harness::new();
    let temp = folder(&[]);
    let text = "option \nevent E {\n    \n}\nfunction F {\n    \n}\nstream S {\n    \n}\n";
    let uri = harness.open(&root(&temp).join("a.blink"), text);
    let mut offered = harness.completions(&uri, text, "option \n", 7);
    offered.sort();
    assert_eq!(offered, options);
    for (keyword, prefix) in [
        ("event E", "an event has the fields "),
        ("function F", "a function has the fields "),
        ("stream S", "a stream has the fields "),
    ] {
        let fields = listed(prefix);
        let at = text.find(keyword).unwrap() + keyword.len() + 7;
        let needle = &text[..at];
        let offered = harness.completions(&uri, text, needle, at);
        assert_eq!(offered, fields, "{keyword}");
    }
}
