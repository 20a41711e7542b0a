//! A test client for `blinkblox lsp`: runs the real binary, speaks LSP's framing over its
//! stdin/stdout, and waits (with a generous bound, never timed) for answers and
//! notifications.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long to wait for the server before failing the test: a hang, not a slow answer.
const HANG: Duration = Duration::from_secs(180);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications received while waiting for something else.
    pub notifications: Vec<Value>,
    next_id: i64,
}

impl Client {
    pub fn start(dir: &Path) -> Client {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("blinkblox"))
            .arg("lsp")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start blinkblox lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let message: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            notifications: Vec::new(),
            next_id: 1,
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.response(&json!(id))
    }

    /// The result of a request that must succeed.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    pub fn response(&mut self, id: &Value) -> Value {
        self.wait_for(|message| message.get("method").is_none() && &message["id"] == id)
    }

    fn next(&mut self, deadline: Instant) -> Value {
        match self
            .messages
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("the server did not answer (hung?)"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server stopped"),
        }
    }

    /// The first message matching `wanted`; notifications met on the way are kept.
    pub fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(position) = self.notifications.iter().position(&wanted) {
            return self.notifications.remove(position);
        }
        let deadline = Instant::now() + HANG;
        loop {
            let message = self.next(deadline);
            if wanted(&message) {
                return message;
            }
            if message.get("method").is_some() {
                self.notifications.push(message);
            }
        }
    }

    /// The next diagnostics published for `uri` that satisfy `wanted`.
    pub fn diagnostics(&mut self, uri: &str, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let message = self.wait_for(|message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
                && wanted(message["params"]["diagnostics"].as_array().map_or(&[], Vec::as_slice))
        });
        message["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    pub fn initialize(&mut self, root: &Path) -> Value {
        let result = self.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": { "general": { "positionEncodings": ["utf-16"] } },
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "blink", "version": 1, "text": text } }),
        );
    }

    /// `shutdown` then `exit`; the server's exit code.
    pub fn stop(mut self) -> Option<i32> {
        let result = self.call("shutdown", Value::Null);
        assert_eq!(result, Value::Null);
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    /// The exit code, once the server has stopped.
    pub fn wait_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + HANG;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                return status.code();
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The LSP position (UTF-16 columns) of byte `offset` of `text`.
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column = before.rsplit('\n').next().unwrap_or("").encode_utf16().count();
    json!({ "line": line, "character": column })
}

/// The position of the `nth` (0-based) occurrence of `needle`, plus `shift` bytes.
pub fn position_of(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} is not in the text"))
        .0;
    position(text, offset + shift)
}

pub fn range_of(text: &str, needle: &str, nth: usize) -> Value {
    json!({ "start": position_of(text, needle, nth, 0), "end": position_of(text, needle, nth, needle.len()) })
}
