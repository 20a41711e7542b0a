//! Schemas of a `blinkblox.toml` project: its `[options]` apply, its errors are reported on
//! the manifest, and what an open schema imports is checked and published too.

use serde_json::json;

use crate::harness::{Harness, folder, root};

const MANIFEST: &str =
    "[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\npath = \"out\"\n\n[options]\nCasing = \"Snake\"\n";
const SCHEMA: &str = "event PlayerHit { From: Server, Type: Reliable, Call: SingleSync, Data: u8 }\n";

#[test]
fn the_manifests_options_are_the_defaults() {
    let temp = folder(&[("blinkblox.toml", MANIFEST), ("net/game.blink", SCHEMA)]);
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("net/game.blink"), SCHEMA);
    let hover = harness.hover(&uri, SCHEMA, "PlayerHit", 0);
    assert!(
        hover.contains("PlayerHit.fire_all(value)") && hover.contains("(Snake casing)"),
        "{hover}"
    );
    let manifest = lsp_types::Url::from_file_path(root(&temp).join("blinkblox.toml"))
        .unwrap()
        .to_string();
    assert!(harness.diagnostics(&manifest).is_empty());
}

#[test]
fn a_bad_default_is_reported_on_its_line_of_the_manifest() {
    let manifest = MANIFEST.replace("Casing = \"Snake\"", "MaxPacketSize = \"big\"");
    let temp = folder(&[("blinkblox.toml", &manifest), ("net/game.blink", SCHEMA)]);
    let mut harness = Harness::new();
    harness.open(&root(&temp).join("net/game.blink"), SCHEMA);
    let uri = lsp_types::Url::from_file_path(root(&temp).join("blinkblox.toml"))
        .unwrap()
        .to_string();
    let diagnostics = harness.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "E4004");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 7);
}

#[test]
fn a_manifest_that_does_not_load_is_reported_on_itself() {
    let manifest = MANIFEST.replace("[output]", "[outptu]");
    let temp = folder(&[("blinkblox.toml", &manifest), ("net/game.blink", SCHEMA)]);
    let mut harness = Harness::new();
    let schema = harness.open(&root(&temp).join("net/game.blink"), SCHEMA);
    assert!(harness.diagnostics(&schema).is_empty(), "the schema is still checked");
    let uri = lsp_types::Url::from_file_path(root(&temp).join("blinkblox.toml"))
        .unwrap()
        .to_string();
    let diagnostics = harness.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let message = diagnostics[0]["message"].as_str().unwrap();
    assert!(
        message.contains("unknown key `outptu`") && message.contains("help: valid keys"),
        "{message}"
    );
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 3);
}

#[test]
fn an_imported_files_problems_clear_when_the_importer_closes() {
    let temp = folder(&[("shared.blink", "type Bad = Nope\n")]);
    let text = "import \"shared\" as Shared\ntype A = u8\n";
    let mut harness = Harness::new();
    let uri = harness.open(&root(&temp).join("main.blink"), text);
    let shared = lsp_types::Url::from_file_path(root(&temp).join("shared.blink"))
        .unwrap()
        .to_string();
    assert_eq!(harness.diagnostics(&shared)[0]["code"], "E3001");
    harness.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    assert!(harness.diagnostics(&shared).is_empty());
}
