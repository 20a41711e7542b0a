//! The outline, folding ranges and semantic tokens of a document.

use serde_json::{Value, json};

use crate::harness::{Harness, folder, root};

const SCHEMA: &str = "-- Types\n-- of the game\nimport \"./a\" as A\nimport \"./b\" as B\n\nscope Combat {\n    struct Hit {\n        damage: u8,\n        crit: boolean,\n    }\n    event Struck {\n        From: Server,\n        Type: Reliable,\n        Call: SingleSync,\n        Data: Hit,\n    }\n}\nenum Team = { Red, Blue }\n";

fn open() -> (tempfile::TempDir, Harness, String) {
    let temp = folder(&[("a.blink", "type X = u8\n"), ("b.blink", "type Y = u8\n")]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("main.blink"), SCHEMA);
    (temp, harness, uri)
}

#[test]
fn the_outline_nests_scopes_structs_and_enums() {
    let (_temp, mut harness, uri) = open();
    let symbols = harness.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["A", "B", "Combat", "Team"]);
    let combat = &symbols[2];
    assert_eq!(combat["kind"], 3, "a namespace");
    let inner: Vec<&str> = combat["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(inner, ["Hit", "Struck"]);
    let fields: Vec<&str> = combat["children"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["damage", "crit"]);
    assert_eq!(symbols[3]["children"].as_array().unwrap().len(), 2);
}

#[test]
fn folding_covers_blocks_comments_and_imports() {
    let (_temp, mut harness, uri) = open();
    let ranges = harness.call("textDocument/foldingRange", json!({ "textDocument": { "uri": uri } }));
    let spans: Vec<(u64, u64, Value)> = ranges
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["startLine"].as_u64().unwrap(),
                r["endLine"].as_u64().unwrap(),
                r.get("kind").cloned().unwrap_or(Value::Null),
            )
        })
        .collect();
    assert!(spans.contains(&(0, 1, json!("comment"))), "{spans:?}");
    assert!(spans.contains(&(2, 3, json!("imports"))), "{spans:?}");
    assert!(spans.contains(&(5, 15, Value::Null)), "the scope: {spans:?}");
    assert!(spans.contains(&(6, 8, Value::Null)), "the struct: {spans:?}");
}

#[test]
fn semantic_tokens_classify_every_word() {
    let (_temp, mut harness, uri) = open();
    let tokens = harness.call(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // Decode the relative positions back into (line, column, length, type, modifiers).
    let (mut line, mut column) = (0, 0);
    let mut decoded = Vec::new();
    for chunk in data.chunks(5) {
        if chunk[0] > 0 {
            column = 0;
        }
        line += chunk[0];
        column += chunk[1];
        decoded.push((line, column, chunk[2], chunk[3], chunk[4]));
    }
    let word = |(line, column, length, ..): (u64, u64, u64, u64, u64)| -> String {
        SCHEMA.lines().nth(line as usize).unwrap()[column as usize..(column + length) as usize].to_string()
    };
    let kind_of = |text: &str| decoded.iter().find(|t| word(**t) == text).map(|t| (t.3, t.4));
    // Indices in the legend: 0 namespace, 2 struct, 3 enum, 5 property, 6 enumMember,
    // 7 event, 9 keyword, 10 string, 12 comment; modifier 1 declaration, 2 defaultLibrary.
    assert_eq!(kind_of("-- Types"), Some((12, 0)));
    assert_eq!(kind_of("import"), Some((9, 0)));
    assert_eq!(kind_of("\"./a\""), Some((10, 0)));
    assert_eq!(kind_of("Combat"), Some((0, 1)));
    assert_eq!(kind_of("Hit"), Some((2, 1)));
    assert_eq!(kind_of("damage"), Some((5, 1)));
    assert_eq!(kind_of("u8"), Some((1, 2)));
    assert_eq!(kind_of("Struck"), Some((7, 1)));
    assert_eq!(kind_of("From"), Some((5, 0)));
    assert_eq!(kind_of("Server"), Some((6, 0)));
    assert_eq!(kind_of("Team"), Some((3, 1)));
    let uses_of_hit: Vec<_> = decoded.iter().filter(|t| word(**t) == "Hit").collect();
    assert_eq!(uses_of_hit.len(), 2);
    assert_eq!(
        (uses_of_hit[1].3, uses_of_hit[1].4),
        (2, 0),
        "a use is not a declaration"
    );
}
