//! The language server's own time and memory, in this process (no editor, no pipes):
//! - diagnostics of the 128-declaration schema after an edit (the change applied, the
//!   schema checked as `check` checks it, the diagnostics converted and serialized);
//! - hover and completion in that schema;
//! - the heap held with a 100-schema project open, every schema analysed.
//!
//! `cargo bench -p blinkblox-lsp --bench server` prints the medians (and the slowest run)
//! and the memory figures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use blinkblox_lsp::Server;
use blinkblox_lsp::transport::Outgoing;
use crossbeam_channel::{Receiver, unbounded};
use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::Url;
use serde_json::{Value, json};

/// Counts the bytes allocated and not yet freed, and the most there ever were.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            if new_size >= layout.size() {
                let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size();
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The 128-declaration schema of the compiler benchmark (`blinkblox bench`): one struct
/// and events over four payload shapes.
fn many_declarations_schema(count: usize) -> String {
    let mut text = String::from("option ManualReplication = true\noption RemoteScope = \"MANY\"\n\n");
    text.push_str("struct Unit {\n    id: u16,\n    position: vector,\n    health: u8,\n    alive: boolean,\n}\n\n");
    for index in 0..count {
        let data = match index % 4 {
            0 => "u8",
            1 => "Unit",
            2 => "(u16, string(0..32))",
            _ => "Unit[0..16]",
        };
        text.push_str(&format!(
            "event Event{index} {{\n    From: Client,\n    Type: Reliable,\n    Call: SingleSync,\n    Data: {data},\n}}\n\n"
        ));
    }
    text
}

struct Driver {
    server: Server,
    out: Receiver<Outgoing>,
    next_id: i32,
}

impl Driver {
    fn new() -> Driver {
        let (sender, out) = unbounded();
        let mut driver = Driver {
            server: Server::new(sender),
            out,
            next_id: 1,
        };
        driver.request("initialize", json!({ "capabilities": {}, "processId": null }));
        driver.notify("initialized", json!({}));
        driver
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.server
            .handle(Message::Notification(Notification::new(method.to_string(), params)));
    }

    fn request(&mut self, method: &str, params: Value) {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.server
            .handle(Message::Request(Request::new(id, method.to_string(), params)));
        self.flush();
    }

    /// The result of a request, to check that what is timed answers something.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.server
            .handle(Message::Request(Request::new(id.clone(), method.to_string(), params)));
        let mut result = Value::Null;
        while let Ok(outgoing) = self.out.try_recv() {
            if let Outgoing::Message(Message::Response(response)) = outgoing
                && response.id == id
            {
                result = response.response_result.unwrap_or_default();
            }
        }
        result
    }

    /// Writes what the server sent as the stdio writer would, to nowhere.
    fn flush(&mut self) {
        let mut sink = Vec::new();
        while let Ok(outgoing) = self.out.try_recv() {
            if let Outgoing::Message(message) = outgoing {
                let _ = message.write(&mut sink);
            }
        }
        black_box(sink);
    }

    fn open(&mut self, uri: &Url, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "blink", "version": 1, "text": text } }),
        );
        self.server.diagnose_now(uri);
        self.flush();
    }
}

fn position(text: &str, needle: &str, shift: usize) -> Value {
    let offset = text.find(needle).expect("in the text") + shift;
    let before = &text[..offset];
    json!({ "line": before.matches('\n').count(), "character": before.rsplit('\n').next().unwrap_or("").len() })
}

/// Milliseconds of each run of `run`.
fn timed(runs: usize, mut run: impl FnMut(usize)) -> Vec<f64> {
    (0..runs)
        .map(|index| {
            let started = Instant::now();
            run(index);
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

fn report(what: &str, mut samples: Vec<f64>) {
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    let p90 = samples[samples.len() * 9 / 10];
    let slowest = samples[samples.len() - 1];
    println!(
        "{what:<58} median {median:>8.3} ms   p90 {p90:>8.3} ms   slowest {slowest:>8.3} ms   ({} runs)",
        samples.len()
    );
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// `VmRSS`/`VmHWM` of this process, in kB, where /proc has them.
fn process_memory(key: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let temp = tempfile::tempdir().expect("temp dir");
    let root = temp.path().canonicalize().expect("canonical");

    // The 128-declaration schema, edited: each run changes one payload and analyses.
    let text = many_declarations_schema(128);
    let uri = Url::from_file_path(root.join("many.blink")).expect("uri");
    let mut driver = Driver::new();
    driver.open(&uri, &text);
    let edited_at = position(&text, "Data: u8,", 6);
    let edit_end = position(&text, "Data: u8,", 8);
    let diagnostics = timed(200, |run| {
        let payload = if run % 2 == 0 { "u16" } else { "u8" };
        let (start, end) = if run % 2 == 0 {
            (edited_at.clone(), edit_end.clone())
        } else {
            (edited_at.clone(), position(&text, "Data: u8,", 9))
        };
        driver.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": run + 2 },
                "contentChanges": [{ "range": { "start": start, "end": end }, "text": payload }],
            }),
        );
        driver.server.diagnose_now(&uri);
        driver.flush();
    });
    report("diagnostics after an edit, 128 declarations", diagnostics);

    let hovers = [
        (
            "hover: an event (record size, generated API)",
            position(&text, "event Event1 ", 6),
        ),
        ("hover: a struct (fields and sizes)", position(&text, "struct Unit", 7)),
        ("hover: a type used as data", position(&text, "Data: Unit[", 6)),
    ];
    for (what, at) in hovers {
        let answer = driver.result(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": at }),
        );
        assert!(
            answer["contents"]["value"]
                .as_str()
                .is_some_and(|text| text.contains("Wire size")),
            "{answer}"
        );
        let samples = timed(1000, |_| {
            driver.request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": uri }, "position": at }),
            );
        });
        report(what, samples);
    }
    let completions = [
        (
            "completion: a field value in an event block",
            position(&text, "Type: Reliable", 6),
        ),
        (
            "completion: a type, in the last event of the file",
            position(&text, "Event127 {", 81),
        ),
        (
            "completion: a field key in an event block",
            position(&text, "    Call: SingleSync", 4),
        ),
    ];
    for (what, at) in completions {
        let answer = driver.result(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": at }),
        );
        assert!(
            answer.as_array().is_some_and(|items| !items.is_empty()),
            "{what}: {answer}"
        );
        let samples = timed(1000, |_| {
            driver.request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": uri }, "position": at }),
            );
        });
        report(what, samples);
    }
    drop(driver);

    // A project of 100 schemas, each importing a shared file, all open at once.
    let project = root.join("project");
    std::fs::create_dir_all(project.join("net/shared")).expect("folders");
    std::fs::write(
        project.join("blinkblox.toml"),
        "[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\npath = \"out\"\n\n[options]\nCasing = \"Camel\"\n",
    )
    .expect("manifest");
    std::fs::write(
        project.join("net/shared/types.blink"),
        "struct Unit {\n    id: u16,\n    position: vector,\n    health: u8(0..100),\n    name: string(..20),\n}\nenum Team = { Red, Blue }\n",
    )
    .expect("shared types");
    let mut schemas = Vec::new();
    for index in 0..100 {
        let mut schema = format!("-- Schema {index}.\nimport \"./shared/types\" as Types\n\n");
        for event in 0..20 {
            schema.push_str(&format!(
                "event S{index}E{event} {{\n    From: Server,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: (Types.Unit, Types.Team),\n}}\n\n"
            ));
        }
        let path = project.join(format!("net/schema{index}.blink"));
        std::fs::write(&path, &schema).expect("schema");
        schemas.push((Url::from_file_path(&path).expect("uri"), schema));
    }
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let started = Instant::now();
    let mut driver = Driver::new();
    for (uri, schema) in &schemas {
        driver.open(uri, schema);
    }
    let opened_ms = started.elapsed().as_secs_f64() * 1000.0;
    let held = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    println!(
        "100-schema project open (20 events each, one shared import): heap held {}, peak {}, opened and analysed in {opened_ms:.1} ms",
        megabytes(held),
        megabytes(peak)
    );
    if let (Some(rss), Some(hwm)) = (process_memory("VmRSS:"), process_memory("VmHWM:")) {
        println!(
            "this process (the benchmark and the server): resident {}, at most {}",
            megabytes(rss * 1000),
            megabytes(hwm * 1000)
        );
    }
    black_box(driver);
}
