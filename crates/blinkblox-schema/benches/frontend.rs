//! Compiler front-end benchmark: lexing, parsing and the whole check (lex + parse +
//! resolve + layout) of (a) a 128-event schema and (b) a mixed schema of over 500
//! lines; then hostile inputs, each checked whole, with the time it took and (on Linux) the
//! peak memory it reached. Prints the median of several runs of each;
//! `cargo bench -p blinkblox-schema --bench frontend`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use blinkblox_schema::lexer::{Lexer, TokenKind};
use blinkblox_schema::source::FileId;
use blinkblox_schema::{check_source, parser};

/// 128 events over a handful of shared types, as a game's main schema looks.
fn events_schema() -> String {
    let mut text = String::from(
        "option ManualReplication = true\n\
         struct Entity { id: u16, position: vector<i16>, health: u8(0..100), alive: boolean }\n\
         enum Team = { Red, Blue, Green }\n\n",
    );
    let payloads = [
        "u8",
        "(u16, string(..32))",
        "Entity",
        "Entity[..64]",
        "boolean[0..1000]",
        "struct { team: Team, score: u32, name: string? }",
        "map { [u16]: f32 }",
        "(vector, CFrame, Instance(BasePart)?)",
    ];
    for i in 0..128 {
        let from = if i % 2 == 0 { "Server" } else { "Client" };
        let kind = if i % 4 == 3 { "Unreliable" } else { "Reliable" };
        let data = payloads[i % payloads.len()];
        text.push_str(&format!(
            "event Event{i} {{ From: {from}, Type: {kind}, Call: ManyAsync, Data: {data} }}\n"
        ));
    }
    text
}

/// Every construct, repeated across scopes: well over 500 lines.
fn mixed_schema() -> String {
    let mut text = String::from("option Casing = Camel\noption MaxPacketSize = 32768\n\n");
    text.push_str("struct Pair<A, B> {\n    first: A,\n    second: B,\n}\n");
    text.push_str("map Table<K, V> = { [K]: V }\n");
    text.push_str("enum Result<T> = \"status\" {\n    Ok { value: T },\n    Err { message: string(..200) },\n}\n\n");
    for s in 0..15 {
        text.push_str(&format!("scope Area{s} {{\n"));
        text.push_str("    -- Types of this area.\n");
        text.push_str("    type Health = u8(0..100)\n");
        text.push_str("    type Name = string(3..20)\n");
        text.push_str("    enum Team = { Red, Blue, \"Green Team\" }\n");
        text.push_str("    set Perks = { Speed, Jump, Regen, Shield }\n");
        text.push_str("    struct Player {\n");
        text.push_str("        id: u32,\n        hp: Health,\n        name: Name,\n        team: Team,\n");
        text.push_str("        perks: Perks,\n        model: Instance(Model)?,\n        tags: string(..16)[..8],\n");
        text.push_str("        position: vector<f32>(..2048),\n        alive: boolean,\n    }\n");
        text.push_str("    struct Snapshot {\n        ..Pair<u16, f32>,\n        players: Player[..32],\n");
        text.push_str("        scores: Table<u32, u16>,\n        outcome: Result<Player>,\n    }\n");
        text.push_str("    enum Action = \"kind\" {\n        Move { to: vector(0..512) },\n");
        text.push_str("        Say { text: string(..200) },\n        Use { item: u16, target: Instance? },\n    }\n");
        text.push_str(&format!(
            "    event Spawn {{ From: Server, Type: Reliable, Call: ManyAsync, Data: (Player, Team) }}\n\
             \x20   event Act {{ From: Client, Type: Unreliable, Call: SingleSync, Data: Action }}\n\
             \x20   event Sync {{ From: Server, Type: Reliable, Call: Polling, Data: Snapshot }}\n\
             \x20   function Ping{s} {{ Yield: Coroutine, Data: f64, Return: (f64, boolean), Timeout: 5 }}\n\
             \x20   stream State {{ From: Server, Type: Unreliable, Per: Player, Data: Player }}\n"
        ));
        text.push_str("}\n\n");
    }
    text
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Runs `work` until about a second has passed (at least 50 times) and returns the
/// median time of one run.
fn measure(mut work: impl FnMut()) -> Duration {
    for _ in 0..10 {
        work();
    }
    let started = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < 50 || (started.elapsed() < Duration::from_secs(1) && samples.len() < 100_000) {
        let start = Instant::now();
        work();
        samples.push(start.elapsed());
    }
    median(samples)
}

fn lex(text: &str) -> usize {
    let mut lexer = Lexer::new(FileId(0), text);
    let mut diagnostics = Vec::new();
    let mut count = 0;
    while lexer.next_token(&mut diagnostics).kind != TokenKind::Eof {
        count += 1;
    }
    count
}

/// Inputs built to make a front end run away: each must stay bounded in time and memory.
fn hostile_cases() -> Vec<(&'static str, String)> {
    let mut cases = vec![
        ("4 Mi stray `@`", "@ ".repeat(4 * 1024 * 1024)),
        (
            "8000 unknown type references",
            (0..8000).map(|i| format!("type T{i} = Missing{i}\n")).collect(),
        ),
        (
            "8000 near misses of one length",
            (0..8000).map(|i| format!("type Name{i:05} = Namf{i:05}\n")).collect(),
        ),
        (
            "65 537 declarations",
            (0..65_537)
                .map(|i| format!("event E{i} {{ From: Server, Type: Unreliable, Call: SingleSync }}\n"))
                .collect(),
        ),
        (
            "100 000 missing commas",
            format!(
                "enum Many = {{ {} }}\n",
                (0..100_000).map(|i| format!("M{i}")).collect::<Vec<_>>().join(" ")
            ),
        ),
    ];
    if std::path::Path::new("/proc/self/pagemap").exists() {
        cases.push((
            "import of /proc/self/pagemap",
            "import \"/proc/self/pagemap\" as P\ntype A = u8\n".to_string(),
        ));
    }
    cases
}

/// The process's peak resident memory in MiB (Linux only).
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Checks hostile case `index` once, in this process, and prints its time and peak memory.
fn run_hostile_case(index: usize) {
    let (name, text) = hostile_cases().swap_remove(index);
    let start = Instant::now();
    let output = check_source("hostile.blink", &text);
    let took = start.elapsed();
    assert!(
        output.diagnostics.len() <= 201,
        "{name}: {} diagnostics",
        output.diagnostics.len()
    );
    black_box(output);
    println!("{} {}", took.as_secs_f64() * 1e3, peak_mib().unwrap_or(f64::NAN));
}

/// Each hostile case checked in a process of its own (so one's memory is not another's),
/// three times; the median time and the largest peak are shown.
fn hostile() {
    println!();
    println!("{:<32} {:>12} {:>12} {:>10}", "hostile input", "size", "check", "peak");
    let exe = std::env::current_exe().expect("the benchmark's own path");
    for (index, (name, text)) in hostile_cases().into_iter().enumerate() {
        let mut times = Vec::new();
        let mut peak = f64::NAN;
        for _ in 0..3 {
            let output = std::process::Command::new(&exe)
                .args(["--hostile-case", &index.to_string()])
                .output()
                .expect("run a hostile case");
            assert!(
                output.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let line = String::from_utf8_lossy(&output.stdout).into_owned();
            let mut fields = line
                .split_whitespace()
                .map(|field| field.parse::<f64>().unwrap_or(f64::NAN));
            times.push(Duration::from_secs_f64(fields.next().unwrap_or(f64::NAN) / 1e3));
            peak = peak.max(fields.next().unwrap_or(f64::NAN));
        }
        let peak = if peak.is_nan() {
            "n/a".to_string()
        } else {
            format!("{peak:.0} MiB")
        };
        println!(
            "{name:<32} {:>10.1}MB {:>10.1}ms {peak:>10}",
            text.len() as f64 / 1e6,
            median(times).as_secs_f64() * 1e3
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(position) = args.iter().position(|arg| arg == "--hostile-case") {
        run_hostile_case(args[position + 1].parse().expect("a case number"));
        return;
    }
    let cases = [("128 events", events_schema()), ("mixed", mixed_schema())];
    println!(
        "{:<12} {:>6} {:>8} {:>12} {:>12} {:>12}",
        "schema", "lines", "tokens", "lex", "parse", "check"
    );
    for (name, text) in &cases {
        let output = check_source("bench.blink", text);
        assert!(output.schema.is_some(), "{name}: {:?}", output.diagnostics.first());
        let tokens = lex(text);
        let lex_time = measure(|| {
            black_box(lex(black_box(text)));
        });
        let parse_time = measure(|| {
            black_box(parser::parse(FileId(0), black_box(text)));
        });
        let check_time = measure(|| {
            black_box(check_source("bench.blink", black_box(text)));
        });
        println!(
            "{name:<12} {:>6} {tokens:>8} {:>10.1}µs {:>10.1}µs {:>10.1}µs",
            text.lines().count(),
            lex_time.as_secs_f64() * 1e6,
            parse_time.as_secs_f64() * 1e6,
            check_time.as_secs_f64() * 1e6,
        );
    }
    hostile();
}
