//! Input that must never stop `blinkblox lsp`: malformed JSON-RPC, unknown methods, bad
//! parameters, requests before `initialize`, a 10 MB document, files that are not UTF-8.
//! After each, the server still answers.

use serde_json::{Value, json};

use crate::lsp_client::{Client, position_of, uri};

#[test]
fn malformed_messages_unknown_methods_and_bad_parameters_are_answered() {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().canonicalize().expect("canonical");
    let mut client = Client::start(&root);
    // Before `initialize`: refused, not fatal.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    client.initialize(&root);

    // Not JSON: a parse error with a null id, as JSON-RPC asks.
    client.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    let parse_error = client.wait_for(|m| m["error"]["code"] == -32700);
    assert_eq!(parse_error["id"], Value::Null);
    // JSON that is not a message, a broken header, a body that is not UTF-8.
    client.send_raw(b"Content-Length: 2\r\n\r\n[]");
    client.send_raw(b"Content-Length: nope\r\n\r\n");
    client.send_raw(b"Content-Length: 2\r\n\r\n\xff\xfe");
    for _ in 0..3 {
        client.wait_for(|m| m["error"]["code"] == -32700);
    }

    let unknown = client.request("blinkblox/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad = client.request("textDocument/hover", json!({ "textDocument": 7 }));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let not_open = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&root.join("closed.blink")) }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(not_open.get("error").is_some(), "{not_open}");
    // Notifications with bad parameters are ignored.
    client.notify("textDocument/didChange", json!({ "nonsense": true }));
    client.notify("textDocument/didOpen", Value::Null);

    // Still serving.
    let text = "struct P { a: u8 }\n";
    let schema = uri(&root.join("p.blink"));
    client.open(&schema, text);
    let hover = client.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": schema }, "position": position_of(text, "P", 0, 0) }),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("**Wire size:** 1 byte")
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn a_ten_megabyte_document_and_files_that_are_not_utf8() {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().canonicalize().expect("canonical");
    let mut client = Client::start(&root);
    client.initialize(&root);

    // 10 MB: declarations, then garbage; the front end stops after its error cap.
    let declaration = "event E { From: Server, Type: Reliable, Call: SingleSync, Data: u8 }\n";
    let mut big = String::new();
    while big.len() < 5_000_000 {
        big.push_str(declaration);
    }
    while big.len() < 10_000_000 {
        big.push_str("@@ ??? ~~ ");
    }
    let big_uri = uri(&root.join("big.blink"));
    client.open(&big_uri, &big);
    let diagnostics = client.diagnostics(&big_uri, |d| !d.is_empty());
    assert!(diagnostics.iter().any(|d| d["code"] == "E3002" || d["code"] == "E1001"));
    // Typing in it stays possible, and the latest text is the one analysed.
    for version in 2..6 {
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": big_uri, "version": version },
                "contentChanges": [{ "range": { "start": { "line": 0, "character": 6 }, "end": { "line": 0, "character": 6 } }, "text": "x" }],
            }),
        );
    }
    let hover = client.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": big_uri }, "position": { "line": 0, "character": 7 } }),
    );
    assert!(
        hover["contents"]["value"].as_str().unwrap().contains("event xxxxE"),
        "{hover}"
    );
    client.call(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": big_uri } }),
    );
    client.call(
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": big_uri } }),
    );
    let completion = client.call(
        "textDocument/completion",
        json!({ "textDocument": { "uri": big_uri }, "position": { "line": 1, "character": 10 } }),
    );
    assert!(completion.is_array());

    // A file that is not UTF-8, imported, and opened.
    std::fs::write(root.join("latin1.blink"), b"type Caf\xe9 = u8\n").unwrap();
    let importer = "import \"latin1\" as L\ntype A = u8\n";
    let importer_uri = uri(&root.join("main.blink"));
    client.open(&importer_uri, importer);
    let in_file = client.diagnostics(&uri(&root.join("latin1.blink")), |d| !d.is_empty());
    assert_eq!(in_file[0]["code"], "E1005");
    client.open(&uri(&root.join("latin1.blink")), "type Caf\u{fffd} = u8\n");
    client.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri(&root.join("latin1.blink")) }, "position": { "line": 0, "character": 6 } }),
    );
    assert_eq!(client.stop(), Some(0));
}

#[test]
fn exit_without_shutdown_exits_one() {
    let temp = tempfile::tempdir().expect("temp dir");
    let mut client = Client::start(temp.path());
    client.initialize(temp.path());
    client.notify("exit", Value::Null);
    let status = client.wait_exit();
    assert_eq!(status, Some(1));
}
