//! `blinkblox lsp` through a whole editing session on a copy of the arena example (a
//! project with a manifest and an import): diagnostics as the schema is broken and fixed,
//! hover with wire sizes and the generated API, definition and references across the
//! import, rename, completion in an event block, formatting, shutdown and exit.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::lsp_client::{Client, position_of, range_of, uri};

fn arena() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().canonicalize().expect("canonical temp dir").join("arena");
    crate::common::arena_copy(&root);
    (temp, root)
}

fn hover_text(client: &mut Client, uri: &str, position: Value) -> String {
    let result = client.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": position }),
    );
    result["contents"]["value"].as_str().unwrap_or_default().to_string()
}

fn change(client: &mut Client, uri: &str, version: i64, range: Value, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "range": range, "text": text }],
        }),
    );
}

#[test]
fn a_whole_editing_session() {
    let (_temp, root) = arena();
    let combat_path = root.join("net/combat.blink");
    let common_path = root.join("net/types/common.blink");
    let (combat, common, chat) = (uri(&combat_path), uri(&common_path), uri(&root.join("net/chat.blink")));
    let mut client = Client::start(&root);
    let capabilities = client.initialize(&root)["capabilities"].clone();
    for provider in [
        "hoverProvider",
        "definitionProvider",
        "renameProvider",
        "completionProvider",
        "documentFormattingProvider",
    ] {
        assert!(capabilities.get(provider).is_some(), "no {provider}: {capabilities}");
    }

    // A schema with an error: the diagnostic is on the misspelt name, with the code and
    // the fix hint `check` prints.
    let saved = std::fs::read_to_string(&combat_path).expect("read combat.blink");
    let broken = saved.replacen("Common.Health", "Common.Helth", 1);
    client.open(&combat, &broken);
    let diagnostics = client.diagnostics(&combat, |d| !d.is_empty());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "E3001");
    assert_eq!(diagnostics[0]["range"], range_of(&broken, "Common.Helth", 0));
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("help: scope `Common` declares no such type")
    );
    // The manifest applies: its file gets (empty) diagnostics of its own.
    client.diagnostics(&uri(&root.join("blinkblox.toml")), <[Value]>::is_empty);

    // Fixing it clears the diagnostics.
    let helth = range_of(&broken, "Helth", 0);
    change(&mut client, &combat, 2, helth, "Health");
    let text = saved.clone();
    client.diagnostics(&combat, <[Value]>::is_empty);

    // Hover: the event's record size, and its API in the schema's casing.
    let hit = hover_text(&mut client, &combat, position_of(&text, "event Hit", 0, 7));
    assert!(
        hit.contains("**Wire size:** 10 bytes per record (1 byte of index + 9 bytes of data)"),
        "{hit}"
    );
    assert!(hit.contains("`target`: `f64` — 8 bytes"), "{hit}");
    assert!(hit.contains("Client: `Hit.Fire(value)`"), "{hit}");
    assert!(
        hit.contains("Server: `Hit.On(function(player, value)) -> disconnect`"),
        "{hit}"
    );
    // … and a type from the import: its resolved type and its size.
    let health = hover_text(&mut client, &combat, position_of(&text, "Common.Health", 0, 8));
    assert!(
        health.contains("**Type:** `u8(0..100)`") && health.contains("**Wire size:** 1 byte"),
        "{health}"
    );
    let player = hover_text(&mut client, &combat, position_of(&text, "Common.PlayerRef", 0, 8));
    assert!(player.contains("**Wire size:** 9–29 bytes"), "{player}");
    assert!(player.contains("`name`: `string(..20)` — 1–21 bytes"), "{player}");

    // Definition across the import.
    let common_text = std::fs::read_to_string(&common_path).expect("read common.blink");
    let definition = client.call(
        "textDocument/definition",
        json!({ "textDocument": { "uri": combat }, "position": position_of(&text, "Common.PlayerRef", 0, 8) }),
    );
    assert_eq!(definition["uri"], common);
    assert_eq!(definition["range"], range_of(&common_text, "PlayerRef", 0));

    // References: the declaration, and the uses in both of the project's schemas.
    let references = client.call(
        "textDocument/references",
        json!({
            "textDocument": { "uri": combat },
            "position": position_of(&text, "Common.PlayerRef", 0, 8),
            "context": { "includeDeclaration": true },
        }),
    );
    let mut files: Vec<&str> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    files.sort();
    let mut expected = vec![chat.as_str(), combat.as_str(), combat.as_str(), common.as_str()];
    expected.sort();
    assert_eq!(files, expected, "{references}");

    // Rename across the import: the declaration and every use, in every schema.
    let edit = client.call(
        "textDocument/rename",
        json!({
            "textDocument": { "uri": combat },
            "position": position_of(&text, "Common.Health", 0, 8),
            "newName": "Hitpoints",
        }),
    );
    let changes = edit["changes"].as_object().expect("changes");
    assert_eq!(changes[&common].as_array().unwrap().len(), 1, "{edit}");
    assert_eq!(changes[&common][0]["range"], range_of(&common_text, "Health", 0));
    assert_eq!(changes[&combat].as_array().unwrap().len(), 1, "{edit}");
    assert!(
        changes[&combat]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["newText"] == "Hitpoints")
    );
    // A name taken in the same scope is refused, with the reason.
    let refused = client.request(
        "textDocument/rename",
        json!({
            "textDocument": { "uri": combat },
            "position": position_of(&text, "Common.Health", 0, 8),
            "newName": "Team",
        }),
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already declared"),
        "{refused}"
    );

    // Completion inside an event block: the fields it does not have yet.
    let end = text.len();
    let added = "\nevent Ping {\n    From: Server,\n    \n}\n";
    let at_end = crate::lsp_client::position(&text, end);
    change(
        &mut client,
        &combat,
        3,
        json!({ "start": at_end, "end": at_end }),
        added,
    );
    let text = format!("{text}{added}");
    let completion = client.call(
        "textDocument/completion",
        json!({ "textDocument": { "uri": combat }, "position": position_of(&text, "Server,\n    \n", 0, 12) }),
    );
    let labels: Vec<&str> = completion
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Type", "Call", "Data", "Poll"], "{completion}");
    let values = client.call(
        "textDocument/completion",
        json!({ "textDocument": { "uri": combat }, "position": position_of(&text, "From: Client", 0, 6) }),
    );
    let values: Vec<&str> = values
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["Server", "Client"]);

    // Formatting: the whole document in `blinkblox fmt`'s layout.
    let edits = client.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": combat }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    let edits = edits.as_array().expect("edits");
    assert_eq!(edits.len(), 1);
    let formatted = blinkblox_fmt::format_source(&text).expect("formats");
    assert_eq!(edits[0]["newText"], formatted.as_str());
    assert!(formatted.contains("event Ping {\n    From: Server,\n}\n"));

    assert_eq!(client.stop(), Some(0));
}

#[test]
fn an_import_named_by_its_file_refuses_a_rename_and_imports_are_checked_too() {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().canonicalize().expect("canonical");
    std::fs::write(
        root.join("shapes.blink"),
        "struct Circle { radius: f32 }\ntype Bad = Nope\n",
    )
    .unwrap();
    let main_text =
        "import \"shapes\"\nevent Draw { From: Server, Type: Reliable, Call: SingleSync, Data: shapes.Circle }\n";
    std::fs::write(root.join("main.blink"), main_text).unwrap();
    let main = uri(&root.join("main.blink"));
    let shapes = uri(&root.join("shapes.blink"));
    let mut client = Client::start(&root);
    client.initialize(&root);
    client.open(&main, main_text);
    // The imported file's error is published on the imported file.
    let in_import = client.diagnostics(&shapes, |d| !d.is_empty());
    assert_eq!(in_import[0]["code"], "E3001");
    let refused = client.request(
        "textDocument/prepareRename",
        json!({ "textDocument": { "uri": main }, "position": position_of(main_text, "shapes.Circle", 0, 2) }),
    );
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("named after the imported file") && message.contains("as NewName"),
        "{refused}"
    );
    let circle = client.call(
        "textDocument/prepareRename",
        json!({ "textDocument": { "uri": main }, "position": position_of(main_text, "Circle", 0, 1) }),
    );
    assert_eq!(circle, range_of(main_text, "Circle", 0));
    assert_eq!(client.stop(), Some(0));
}
