//! A server in this process, fed LSP messages, its output collected.

use std::path::Path;

use blinkblox_lsp::Server;
use blinkblox_lsp::transport::Outgoing;
use crossbeam_channel::{Receiver, unbounded};
use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{Value, json};

pub struct Harness {
    pub server: Server,
    out: Receiver<Outgoing>,
    next_id: i32,
    /// Everything the server sent but responses, in order.
    pub notifications: Vec<Value>,
}

impl Harness {
    pub fn new() -> Harness {
        let (sender, out) = unbounded();
        let mut harness = Harness {
            server: Server::new(sender),
            out,
            next_id: 1,
            notifications: Vec::new(),
        };
        harness.request("initialize", json!({ "capabilities": {}, "processId": null }));
        harness.notify("initialized", json!({}));
        harness
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.server
            .handle(Message::Notification(Notification::new(method.to_string(), params)));
    }

    /// The response to a request: `{"result": …}` or `{"error": …}`.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.server
            .handle(Message::Request(Request::new(id.clone(), method.to_string(), params)));
        let mut answer = None;
        while let Ok(outgoing) = self.out.try_recv() {
            let Outgoing::Message(message) = outgoing else {
                continue;
            };
            let value = serde_json::to_value(&message).expect("messages serialize");
            match message {
                Message::Response(response) if response.id == id => answer = Some(value),
                _ => self.notifications.push(value),
            }
        }
        answer.expect("the server answered")
    }

    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// Opens a document and analyses it at once; returns its URI.
    pub fn open(&mut self, path: &Path, text: &str) -> String {
        let uri = lsp_types::Url::from_file_path(path).expect("absolute path");
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "blink", "version": 1, "text": text } }),
        );
        assert!(self.server.diagnose_now(&uri));
        self.drain();
        uri.to_string()
    }

    pub fn drain(&mut self) {
        while let Ok(outgoing) = self.out.try_recv() {
            if let Outgoing::Message(message) = outgoing {
                self.notifications
                    .push(serde_json::to_value(&message).expect("serializes"));
            }
        }
    }

    /// The diagnostics last published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.drain();
        self.notifications
            .iter()
            .rev()
            .find(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri)
            .and_then(|n| n["params"]["diagnostics"].as_array().cloned())
            .unwrap_or_default()
    }

    pub fn at(&mut self, method: &str, uri: &str, text: &str, needle: &str, shift: usize) -> Value {
        self.call(
            method,
            json!({ "textDocument": { "uri": uri }, "position": position_of(text, needle, shift) }),
        )
    }

    pub fn hover(&mut self, uri: &str, text: &str, needle: &str, shift: usize) -> String {
        let result = self.at("textDocument/hover", uri, text, needle, shift);
        result["contents"]["value"].as_str().unwrap_or_default().to_string()
    }

    pub fn completions(&mut self, uri: &str, text: &str, needle: &str, shift: usize) -> Vec<String> {
        let result = self.at("textDocument/completion", uri, text, needle, shift);
        result
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|i| i["label"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The position of the first `needle` in `text`, `shift` bytes in (UTF-16 columns).
pub fn position_of(text: &str, needle: &str, shift: usize) -> Value {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is not in the text"))
        + shift;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let character = before.rsplit('\n').next().unwrap_or("").encode_utf16().count();
    json!({ "line": line, "character": character })
}

/// A temp folder (canonical, so URIs compare equal) with `files` written into it.
pub fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        let path = temp.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
        std::fs::write(path, text).expect("write");
    }
    temp
}

pub fn root(temp: &tempfile::TempDir) -> std::path::PathBuf {
    temp.path().canonicalize().expect("canonical")
}
