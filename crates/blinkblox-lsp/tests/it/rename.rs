//! Rename: every place a declaration is written, and refusals where the new name would
//! not mean the same declaration.

use serde_json::{Value, json};

use crate::harness::{Harness, folder, position_of, root};

const SCHEMA: &str = "type Id = u16\nscope Inner {\n    type Name = string\n    struct Uses { id: Id, [\"display name\"]: Name }\n}\nstruct Top { a: Inner.Name, b: Id }\n";

fn rename(harness: &mut Harness, uri: &str, needle: &str, shift: usize, name: &str) -> Value {
    harness.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri }, "position": position_of(SCHEMA, needle, shift), "newName": name }),
    )
}

fn open() -> (tempfile::TempDir, Harness, String) {
    let temp = folder(&[]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("a.blink"), SCHEMA);
    (temp, harness, uri)
}

#[test]
fn a_type_is_renamed_where_declared_and_used() {
    let (_temp, mut harness, uri) = open();
    let edit = rename(&mut harness, &uri, "b: Id", 3, "Key");
    let edits = edit["result"]["changes"][&uri].as_array().expect("edits").clone();
    assert_eq!(edits.len(), 3, "{edit}");
    assert!(edits.iter().all(|e| e["newText"] == "Key"));
    let scoped = rename(&mut harness, &uri, "Inner.Name", 6, "Label");
    assert_eq!(
        scoped["result"]["changes"][&uri].as_array().unwrap().len(),
        3,
        "{scoped}"
    );
    let scope = rename(&mut harness, &uri, "Inner.Name", 0, "Deep");
    assert_eq!(scope["result"]["changes"][&uri].as_array().unwrap().len(), 2, "{scope}");
}

#[test]
fn a_quoted_field_keeps_its_quotes() {
    let (_temp, mut harness, uri) = open();
    let edit = rename(&mut harness, &uri, "\"display name\"", 1, "shown name");
    assert_eq!(
        edit["result"]["changes"][&uri][0]["newText"], "[\"shown name\"]",
        "{edit}"
    );
}

#[test]
fn names_that_would_mean_something_else_are_refused() {
    let (_temp, mut harness, uri) = open();
    let cases = [
        ("type Id", 5, "u8", "primitive"),
        ("type Id", 5, "Top", "already declared"),
        // `Uses` refers to `Id` from inside `Inner`, which has its own `Name`.
        ("type Id", 5, "Name", "closer to one of the uses"),
        ("struct Uses { id", 14, "display name", "not a name"),
        ("struct Top { a", 13, "b", "already a field"),
    ];
    for (needle, shift, name, reason) in cases {
        let refused = rename(&mut harness, &uri, needle, shift, name);
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(reason), "renaming to `{name}`: {refused}");
    }
    let primitive = harness.request(
        "textDocument/prepareRename",
        json!({ "textDocument": { "uri": uri }, "position": position_of(SCHEMA, "u16", 0) }),
    );
    assert!(primitive["error"]["message"].as_str().unwrap().contains("primitive"));
}
