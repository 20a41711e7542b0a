//! Quick fixes: each applied, and the diagnostic it fixes is gone.

use serde_json::{Value, json};

use crate::harness::{Harness, folder, root};

/// The edits of a code action applied to `text`.
fn apply(text: &str, action: &Value, uri: &str) -> String {
    let edits = action["edit"]["changes"][uri].as_array().expect("edits").clone();
    let mut out = text.to_string();
    let offset = |position: &Value| -> usize {
        let line = position["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + position["character"].as_u64().unwrap() as usize
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (start, end, new_text) in edits {
        out.replace_range(start..end, &new_text);
    }
    out
}

fn fix(text: &str, code: &str) -> (String, String) {
    let temp = folder(&[]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("a.blink"), text);
    let diagnostics = harness.diagnostics(&uri);
    let diagnostic = diagnostics
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {diagnostics:?}"))
        .clone();
    let actions = harness.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": diagnostic["range"], "context": { "diagnostics": [diagnostic] } }),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == code)
        .unwrap_or_else(|| panic!("no fix for {code}: {actions}"))
        .clone();
    let fixed = apply(text, &action, &uri);
    let codes: Vec<&'static str> = blinkblox_schema::check_source("a.blink", &fixed)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect();
    assert!(!codes.contains(&code), "{code} still there after the fix: {fixed}");
    (action["title"].as_str().unwrap().to_string(), fixed)
}

#[test]
fn the_missing_comma() {
    let (title, fixed) = fix(
        "event E { From: Server, Type: Reliable, Call: SingleSync, Data: (u8 u16) }\n",
        "E2001",
    );
    assert_eq!(title, "Insert the missing `,`");
    assert!(fixed.contains("(u8, u16)"), "{fixed}");
}

#[test]
fn the_suggested_name() {
    let (title, fixed) = fix("type Health = u8\nstruct P { hp: Helth }\n", "E3001");
    assert_eq!(title, "Replace with `Health`");
    assert!(fixed.contains("hp: Health"), "{fixed}");
    let (_, fixed) = fix("option MaxPaketSize = 100\ntype A = u8\n", "E4001");
    assert!(fixed.starts_with("option MaxPacketSize = 100"), "{fixed}");
    let (_, fixed) = fix("event E { Frm: Server, Type: Reliable, Call: SingleSync }\n", "E4006");
    assert!(fixed.contains("{ From: Server"), "{fixed}");
}

#[test]
fn the_missing_option() {
    let text = "-- Net\noption Casing = Camel\n\nfunction F { Yield: Future, Data: u8 }\n";
    let (title, fixed) = fix(text, "E4019");
    assert_eq!(title, "Add `option FutureLibrary`");
    assert_eq!(
        fixed,
        "-- Net\noption Casing = Camel\noption FutureLibrary = \"ReplicatedStorage.Packages.Future\"\n\nfunction F { Yield: Future, Data: u8 }\n"
    );
}
