//! `blinkblox bench --run`: the Luau harness runs end to end on BlinkBlox and the
//! hand-written floor, and writes a well-formed Benchmarks.md; bad filters and a tool
//! that decodes wrongly are reported, not timed.

use std::process::Output;

use crate::common::{bench, bench_copy};

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

/// The rows of the first Markdown table after `heading`: cells, trimmed, without the
/// header and separator lines.
fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in:\n{text}"));
    text[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

fn number(cell: &str, what: &str) -> f64 {
    let value: f64 = cell
        .parse()
        .unwrap_or_else(|_| panic!("{what}: `{cell}` is not a number"));
    assert!(value.is_finite() && value > 0.0, "{what}: {value}");
    value
}

#[test]
fn the_harness_runs_blinkblox_and_the_floor_and_writes_benchmarks_md() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(temp.path(), &["--run", "--frames", "5", "--tools", "blink,handwritten"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("Benchmarks.md written");

    // The context: command, date, machine, Luau, tools.
    assert!(
        report.contains("- Command: `blinkblox bench --run --frames 5 --tools blink,handwritten`"),
        "{report}"
    );
    for line in [
        "- Date: 20",
        "- Machine: ",
        "- OS: ",
        "- Luau 0.740",
        "BlinkBlox 0.",
        "benchmark/handwritten/",
    ] {
        assert!(report.contains(line), "missing `{line}`:\n{report}");
    }
    assert!(report.contains("## Reading the numbers"), "{report}");
    assert!(!report.contains("| Roblox remotes |"), "--tools left plain remotes out");

    // Medians and p99s: every bench, both tools, both modes, numbers; bytes as the public benchmark measures them.
    for heading in ["### Medians", "### 99th percentiles"] {
        let rows = table_after(&report, heading);
        assert_eq!(rows.len(), 20, "{heading}: 10 benches × 2 tools:\n{report}");
        let mut bench = String::new();
        for row in &rows {
            assert_eq!(row.len(), 7, "{heading}: {row:?}");
            if !row[0].is_empty() {
                bench = row[0].clone();
            }
            assert!(["BlinkBlox", "Hand-written"].contains(&row[1].as_str()), "{row:?}");
            if bench == "CallResponse" && row[1] == "Hand-written" {
                // The floor has no functions: its cells are empty, and "Not run" says why.
                assert!(row[2..].iter().all(|cell| cell == "–"), "{row:?}");
                continue;
            }
            for (index, column) in ["send interpreted", "send native", "decode native", "decode interpreted"]
                .iter()
                .enumerate()
            {
                number(&row[2 + index], &format!("{heading} {bench} {} {column}", row[1]));
            }
            let expected_bytes = match bench.as_str() {
                "Booleans" | "BooleansRandom" => "128",
                "Entities" | "EntitiesRandom" => "602",
                "Tiny" => "2",
                // Each name's one-byte length and its bytes (the seeded names are 4–24 bytes).
                "Strings" => "4588",
                "Numbers" => "8003",
                "Dictionary" => "4631",
                "Vectors" => "1202",
                // Each way: the function's byte, a u16 call id, a u16 count and 500 doubles,
                // over the 200 calls of a frame.
                "CallResponse" => "8011",
                other => panic!("unexpected bench {other}"),
            };
            assert_eq!(row[6], expected_bytes, "{heading} {bench} {}", row[1]);
        }
        let benches: Vec<&str> = rows
            .iter()
            .map(|row| row[0].as_str())
            .filter(|b| !b.is_empty())
            .collect();
        assert_eq!(
            benches,
            [
                "Booleans",
                "Entities",
                "Strings",
                "Numbers",
                "Dictionary",
                "Vectors",
                "BooleansRandom",
                "EntitiesRandom",
                "Tiny",
                "CallResponse"
            ],
            "{heading}"
        );
    }

    // One remote call a frame for both tools (a frame's events in one packet); on
    // CallResponse, one each way.
    for row in table_after(&report, "### Fire and flush separately") {
        match (row[0].as_str(), row[1].as_str()) {
            ("CallResponse", _) => assert_eq!(row[6], "2", "{row:?}"),
            ("", "Hand-written") if row[2] == "–" => {}
            _ => assert_eq!(row[6], "1", "{row:?}"),
        }
    }

    // The round trip of 200 calls a frame and its parts, BlinkBlox's alone; the floor is named
    // as not run, with why.
    let calls = table_after(&report, "### Call-response");
    assert_eq!(calls.len(), 1, "{report}");
    assert_eq!(calls[0][0], "BlinkBlox");
    for (cell, column) in calls[0][1..]
        .iter()
        .zip(["round trip", "round trip", "send", "server", "reply", "reply"])
    {
        number(cell, &format!("call-response {column}"));
    }
    assert!(
        report.contains("- CallResponse on Hand-written: the floor is written for events"),
        "{report}"
    );

    // The work alone on every event bench but Tiny, both modes, beside the rows it bounds;
    // without Blink's rows there is no ratio to it.
    let bounds = table_after(&report, "### What the work itself costs");
    let shape: Vec<(&str, &str, &str)> = bounds
        .iter()
        .map(|row| (row[0].as_str(), row[1].as_str(), row[2].as_str()))
        .collect();
    let mut expected = Vec::new();
    for bench in [
        "Booleans",
        "Entities",
        "Strings",
        "Numbers",
        "Dictionary",
        "Vectors",
        "BooleansRandom",
        "EntitiesRandom",
    ] {
        for mode in ["interpreted", "native"] {
            expected.extend([(bench, "Send", mode), (bench, "Decode", mode)]);
        }
    }
    assert_eq!(shape, expected, "{report}");
    for row in &bounds {
        assert_eq!(row.len(), 10, "{row:?}");
        let what = format!("bound {} {}", row[1], row[2]);
        for (cell, column) in row[4..7].iter().zip(["the bound", "BlinkBlox", "the floor"]) {
            number(cell, &format!("{what}: {column}"));
        }
        assert_eq!(
            (row[7].as_str(), row[8].as_str(), row[9].as_str()),
            ("–", "–", "–"),
            "{row:?}"
        );
    }

    // The compiler, stage by stage, on both schemas.
    let compiler = table_after(&report, "## Performance: the compiler");
    assert_eq!(compiler.len(), 2, "{report}");
    assert_eq!(compiler[1][0], "128 declarations");
    for row in &compiler {
        for cell in &row[2..] {
            number(cell, &format!("compiler {}", row[0]));
        }
    }
    // Module load: both tools' Server and Client modules, compiled and required in both modes.
    let loads = table_after(&report, "## Module load");
    let shape: Vec<(&str, &str)> = loads.iter().map(|row| (row[0].as_str(), row[1].as_str())).collect();
    assert_eq!(
        shape,
        [
            ("Server", "BlinkBlox"),
            ("", "Hand-written"),
            ("Client", "BlinkBlox"),
            ("", "Hand-written")
        ],
        "{report}"
    );
    for row in &loads {
        assert_eq!(row.len(), 9, "{row:?}");
        for (cell, column) in row[2..7]
            .iter()
            .zip(["lines", "KB", "compile", "require interpreted", "require native"])
        {
            number(cell, &format!("module load {} {column}", row[1]));
        }
        // Without Blink's modules there is no ratio to them.
        assert_eq!((row[7].as_str(), row[8].as_str()), ("–", "–"), "{row:?}");
    }
    // What the public benchmark lists but this run did not do is said, not left out silently.
    assert!(report.contains("## Not run"), "{report}");
    assert!(report.contains("- Probe: "), "{report}");
    // The Rivals run now, on the tools selected (here BlinkBlox alone).
    assert!(!report.contains("- Rivals: "), "{report}");
    assert_eq!(
        rivals_table(&report, "### Natively compiled").0,
        ["Scenario", "BlinkBlox"]
    );
    assert!(
        !report.contains("- Scenarios (the rest)"),
        "every Scenario of the public benchmark runs:\n{report}"
    );

    // Scenarios: every row measured, with the players reached and the remote calls a frame the
    // generated modules promise (docs/generated-modules.md): a FireAll or a broadcast stream is
    // one FireAllClients for 50 players, unreliable inputs one FireServer each unless batched,
    // and what is personal one FireClient per player.
    let scenarios = table_after(&report, "## Scenarios (BlinkBlox)");
    let expected = [
        ("Broadcast", "50", "1"),
        ("ManyEvents", "1", "1"),
        ("UnreliableInput", "1", "8"),
        ("UnreliableInputBatched", "1", "1"),
        ("Instances", "1", "1"),
        ("WorldState", "50", "1"),
        ("SelfState", "50", "50"),
        ("BroadcastStream", "50", "1"),
        ("PlayerStream", "50", "50"),
    ];
    assert_eq!(scenarios.len(), expected.len(), "{report}");
    for (row, (name, players, calls)) in scenarios.iter().zip(expected) {
        assert_eq!(
            (row[0].as_str(), row[1].as_str(), row[6].as_str()),
            (name, players, calls),
            "scenario, players, remote calls a frame: {row:?}"
        );
        for cell in &row[2..6] {
            number(cell, &format!("scenario {}", row[0]));
        }
    }
    assert!(!report.contains("## Rows that failed"), "{report}");
}

#[test]
fn filters_pick_benches_modes_and_tools() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(
        temp.path(),
        &["Tiny", "--native", "--frames", "3", "--tools", "handwritten"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let rows = table_after(&report, "### Medians");
    assert_eq!(rows.len(), 1, "{report}");
    assert_eq!(&rows[0][..2], ["Tiny", "Hand-written"]);
    // Native only: the interpreted cells are empty, the native ones measured.
    assert_eq!((rows[0][2].as_str(), rows[0][5].as_str()), ("–", "–"));
    number(&rows[0][3], "send native");
    number(&rows[0][4], "decode native");
    assert!(
        !report.contains("## Performance"),
        "a bench filter leaves the compiler out"
    );
}

#[test]
fn the_rows_of_a_bench_take_turns_in_fresh_simulations_and_every_turn_is_checked() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    // 30 frames: a turn of 25 each, then one of 5, each in a fresh simulation. Every turn's
    // server must count the events of its own frames, warm-up included, or the row fails.
    let output = bench(
        temp.path(),
        &["Tiny", "--native", "--frames", "30", "--tools", "handwritten,blink"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(
        err.contains("Tiny / native: 2 row(s) taking turns of 25 frames"),
        "{err}"
    );
    // Both turns' frames reach the figures.
    for tool in ["handwritten", "blink"] {
        let line = err
            .lines()
            .find(|line| line.contains(&format!("Ran Tiny / {tool} / native")))
            .unwrap_or_else(|| panic!("no line for {tool}: {err}"));
        assert!(line.ends_with("2.0 bytes, 30 frames"), "{line}");
    }
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(!report.contains("## Rows that failed"), "{report}");
    assert!(
        report.contains("each row's frames timed in turns of 25, each turn in a fresh simulation"),
        "{report}"
    );
    let rows = table_after(&report, "### Medians");
    assert_eq!(rows.len(), 2, "{report}");
    for row in &rows {
        number(&row[3], "send native");
        number(&row[4], "decode native");
        assert_eq!(row[6], "2", "Tiny is two bytes an event: {row:?}");
    }
}

#[test]
fn a_tool_that_decodes_wrongly_fails_its_row() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let server = bench_dir.join("handwritten/Server.luau");
    let source = std::fs::read_to_string(&server).expect("read");
    let broken = source.replace(
        "values[base + 1] = bit32.btest(byte, 1)",
        "values[base + 1] = not bit32.btest(byte, 1)",
    );
    assert_ne!(source, broken, "the pattern to break is in the floor's decoder");
    std::fs::write(&server, broken).expect("write");
    let output = bench(
        temp.path(),
        &["Booleans", "--native", "--frames", "2", "--tools", "handwritten,blink"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(report.contains("## Rows that failed"), "{report}");
    assert!(
        report.contains("Booleans / Hand-written / native: ") && report.contains("differ from what was fired"),
        "{report}"
    );
    // The other tool's rows still ran.
    let rows = table_after(&report, "### Medians");
    let blink = rows.iter().find(|row| row[1] == "BlinkBlox").expect("BlinkBlox row");
    number(&blink[4], "BlinkBlox decode native");
}

#[test]
fn call_response_fails_a_row_whose_answers_are_wrong_or_never_come() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let adapter = bench_dir.join("harness/tools/blink.luau");
    let source = std::fs::read_to_string(&adapter).expect("read");
    // A handler that answers with an empty array, then a server that never sends its answers
    // (two warm-up frames and two timed ones, 200 invokes each).
    let wrong = source.replace(
        "Net[event].On(handler)",
        "Net[event].On(function(player, value) handler(player, value) return {} end)",
    );
    assert_ne!(source, wrong, "the handler is set where the test expects");
    std::fs::write(&adapter, wrong).expect("write");
    let output = bench(
        temp.path(),
        &[
            "CallResponse",
            "--native",
            "--frames",
            "2",
            "--tools",
            "blink,handwritten",
        ],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("CallResponse / BlinkBlox / native: ") && report.contains("differ from what was sent"),
        "{report}"
    );

    std::fs::write(
        &adapter,
        source.replace("return Net.StepReplication\nend", "return function() end\nend"),
    )
    .expect("write");
    let output = bench(
        temp.path(),
        &["CallResponse", "--native", "--frames", "2", "--tools", "blink"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("0 of the 800 invokes were answered (the rest never resumed)"),
        "{report}"
    );
}

#[test]
fn a_tool_that_never_returns_fails_its_row_and_the_run_goes_on() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let server = bench_dir.join("handwritten/Server.luau");
    let source = std::fs::read_to_string(&server).expect("read");
    let endless = source.replace(
        "local value = buffer.readu8(packet, at + 1)",
        "while true do end\n\t\t\tlocal value = buffer.readu8(packet, at + 1)",
    );
    assert_ne!(source, endless, "the Tiny decoder is where the test expects");
    std::fs::write(&server, endless).expect("write");
    let output = bench(
        temp.path(),
        &["Tiny", "--native", "--frames", "1", "--tools", "handwritten,blink"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("Tiny / Hand-written / native: ") && report.contains("ran past the simulation's time limit"),
        "{report}"
    );
    let rows = table_after(&report, "### Medians");
    let blink = rows.iter().find(|row| row[1] == "BlinkBlox").expect("BlinkBlox row");
    number(&blink[4], "BlinkBlox decode native");
}

#[test]
fn a_module_that_fails_on_require_fails_its_module_load_row() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let client = bench_dir.join("handwritten/Client.luau");
    let source = std::fs::read_to_string(&client).expect("read");
    std::fs::write(&client, format!("error(\"broken on purpose\")\n{source}")).expect("write");
    let output = bench(temp.path(), &["ModuleLoad", "--native", "--tools", "handwritten,blink"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("- ModuleLoad / Hand-written: requiring the Client module: ")
            && report.contains("broken on purpose"),
        "{report}"
    );
    let loads = table_after(&report, "## Module load");
    let blinkblox = loads.iter().find(|row| row[1] == "BlinkBlox").expect("BlinkBlox row");
    assert_eq!(
        blinkblox.len(),
        7,
        "native only: one require column, one ratio: {blinkblox:?}"
    );
    number(&blinkblox[5], "BlinkBlox require native");
    let floor = loads.iter().find(|row| row[1] == "Hand-written").expect("floor row");
    assert_eq!(floor[2], "failed", "{floor:?}");
    // The large schema: BlinkBlox's modules for 1024 declarations (the floor has none).
    let large = table_after(&report, "### 1024 declarations");
    assert_eq!(large.len(), 2, "a Server and a Client row: {report}");
    for (row, module) in large.iter().zip(["Server", "Client"]) {
        assert_eq!((row[0].as_str(), row[1].as_str()), (module, "BlinkBlox"), "{row:?}");
        let lines: usize = row[2].parse().expect("lines");
        assert!(lines > 10_000, "{row:?}");
        number(&row[5], "large require native");
    }
    assert!(
        !report.contains("### Medians"),
        "ModuleLoad alone runs no runtime bench"
    );
}

#[test]
fn the_work_alone_fails_its_row_when_its_fires_skip_reads() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let bounds = bench_dir.join("harness/bounds.luau");
    let source = std::fs::read_to_string(&bounds).expect("read");
    // Each fire skips one read: an entity's `animation`, the last boolean of a row of 32 in
    // both of the booleans' forms, the strings' lengths, the numbers, a key's length, a
    // vector's z.
    let mut lazy = source.clone();
    for (read, skipped) in [
        (
            "entity.orientation + entity.animation\n\t\tend\n\t\tsum += fields",
            "entity.orientation\n\t\tend\n\t\tsum += fields",
        ),
        ("\t\t\tif value[index + 31] then row += 1 end\n", ""),
        ("\t\t\tif scratch[32] then row += 1 end\n", ""),
        ("total += #payload[index]", "total += 1"),
        ("total += payload[index]", "total += 1"),
        ("total += number + #key", "total += number"),
        ("position.x + position.y + position.z", "position.x + position.y"),
    ] {
        assert_eq!(lazy.matches(read).count(), 1, "`{read}` is where the test expects it");
        lazy = lazy.replace(read, skipped);
    }
    std::fs::write(&bounds, lazy).expect("write");
    let output = bench(
        temp.path(),
        &[
            "Entities",
            "Booleans",
            "Strings",
            "Numbers",
            "Dictionary",
            "Vectors",
            "--native",
            "--frames",
            "2",
            "--tools",
            "handwritten",
        ],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    // The names pick the Random variants too, whose checks add up the payloads fired in turn.
    for (bench, what) in [
        ("Entities", "read fields summing to"),
        ("EntitiesRandom", "read fields summing to"),
        ("Booleans", "true values, not"),
        ("BooleansRandom", "true values, not"),
        ("Strings", "read values summing to"),
        ("Numbers", "read values summing to"),
        ("Dictionary", "read values summing to"),
        ("Vectors", "read values summing to"),
    ] {
        let line = report
            .lines()
            .find(|line| line.starts_with(&format!("- {bench} / the work alone / native: ")))
            .unwrap_or_else(|| panic!("no failure for {bench}:\n{report}"));
        assert!(line.contains(what) && line.contains("they skipped reads"), "{line}");
    }
    let bounds = table_after(&report, "### What the work itself costs");
    assert_eq!(bounds.len(), 16, "{report}");
    for row in &bounds {
        assert_eq!(row[4], "failed", "{row:?}");
    }
    // The tool's rows still ran.
    let rows = table_after(&report, "### Medians");
    number(&rows[0][3], "the floor's send native");
}

#[test]
fn unknown_benches_and_tools_are_named() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(temp.path(), &["Nonesuch"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("no bench is named like `Nonesuch`") && err.contains("Booleans"),
        "{err}"
    );
    let output = bench(temp.path(), &["--tools", "blink,nothing"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unknown tool `nothing`")
            && err.contains("blink (BlinkBlox), upstream (Blink), zap, netray-compile, handwritten (Hand-written)"),
        "{err}"
    );
    // The names the report shows lead to tools.toml's keys.
    let output = bench(temp.path(), &["--tools", "BlinkBlox"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("BlinkBlox is `--tools blink`"), "{err}");
    assert!(
        !bench_dir.join("Benchmarks.md").exists(),
        "nothing written for a run that could not start"
    );
}

/// The header and rows of the Rivals table under `heading` (`### Natively compiled` or
/// `### Interpreted`) in the `## Rivals` section.
fn rivals_table(report: &str, heading: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let section = report
        .find("## Rivals")
        .map(|start| &report[start..])
        .unwrap_or_else(|| panic!("no `## Rivals` in:\n{report}"));
    let start = section
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` under `## Rivals` in:\n{report}"));
    let lines: Vec<Vec<String>> = section[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    assert!(lines.len() >= 2, "{heading}: no table:\n{report}");
    assert!(
        lines[1].iter().all(|cell| cell.starts_with("---")),
        "{heading}: {:?}",
        lines[1]
    );
    (lines[0].clone(), lines[2..].to_vec())
}

/// A measured Rivals cell, `send, decode, N call(s), B B/s`: the two times, the remote calls
/// and the bytes a second each receiver gets.
fn rival_cell(cell: &str, what: &str) -> (f64, f64, String, f64) {
    let parts: Vec<&str> = cell.split(", ").collect();
    assert_eq!(parts.len(), 4, "{what}: `{cell}` is not `send, decode, N calls, B B/s`");
    let rate = parts[3]
        .strip_suffix(" B/s")
        .unwrap_or_else(|| panic!("{what}: `{}` is not `B B/s`", parts[3]));
    let (calls, unit) = parts[2]
        .split_once(' ')
        .unwrap_or_else(|| panic!("{what}: `{}` is not `N calls`", parts[2]));
    assert_eq!(unit, if calls == "1" { "call" } else { "calls" }, "{what}: `{cell}`");
    (
        number(parts[0], &format!("{what} send")),
        number(parts[1], &format!("{what} decode")),
        calls.to_string(),
        number(rate, &format!("{what} bytes a second")),
    )
}

#[test]
fn rivals_run_on_blinkblox_and_write_a_table_per_mode() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    // 30 frames: two turns a row (25, then 5), each in a fresh simulation whose receivers
    // must count every value of its own frames; the calls a frame below are over both. A
    // scenario of fifty players may use its time budget up in its first turn (making fifty
    // worlds is most of it), after at least five frames.
    let output = bench(temp.path(), &["Rivals", "--frames", "30", "--tools", "blink"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(err.contains("Finished Rivals SelfState / native"), "{err}");
    let ran: Vec<&str> = err.lines().filter(|line| line.contains("Ran Rivals")).collect();
    assert_eq!(ran.len(), 18, "{err}");
    for line in &ran {
        let frames: u32 = line
            .rsplit(", ")
            .next()
            .and_then(|last| last.strip_suffix(" frames"))
            .and_then(|count| count.parse().ok())
            .unwrap_or_else(|| panic!("no frame count in `{line}`"));
        assert!((5..=30).contains(&frames), "{line}");
    }
    let single_player_over_both_turns = ran
        .iter()
        .filter(|line| line.contains("Rivals UnreliableInput /") && line.ends_with(", 30 frames"))
        .count();
    assert_eq!(single_player_over_both_turns, 2, "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("Benchmarks.md written");
    assert!(!report.contains("## Rows that failed"), "{report}");
    assert!(
        !report.contains("## Scenarios (BlinkBlox)") && !report.contains("### Medians"),
        "the Rivals group runs alone:\n{report}"
    );
    // The remote calls a frame the generated modules promise (docs/generated-modules.md): a
    // FireAll is one FireAllClients for 50 players, unreliable inputs one FireServer each
    // unless batched, what is personal one FireClient per player.
    let expected = [
        ("Broadcast", "1"),
        ("UnreliableInput", "8"),
        ("UnreliableInputBatched", "1"),
        ("Instances", "1"),
        ("WorldState", "1"),
        ("SelfState", "50"),
        ("ManyEvents", "1"),
        ("Positions", "1"),
        ("PositionsWhole", "1"),
    ];
    let mut rates = Vec::new();
    for heading in ["### Natively compiled", "### Interpreted"] {
        let (header, rows) = rivals_table(&report, heading);
        assert_eq!(header, ["Scenario", "BlinkBlox"], "{heading}");
        assert_eq!(rows.len(), expected.len(), "{heading}:\n{report}");
        for (row, (scenario, calls)) in rows.iter().zip(expected) {
            assert_eq!(row.len(), 2, "{heading}: {row:?}");
            assert_eq!(row[0], scenario, "{heading}");
            let (_, _, measured_calls, rate) = rival_cell(&row[1], &format!("{heading} {scenario}"));
            assert_eq!(measured_calls, calls, "{heading} {scenario}: remote calls a frame");
            rates.push((scenario, rate));
        }
    }
    // What the delta stream of quantized positions saves: the same frames whole are several
    // times the bytes (each frame moves 10 of 64 units and hurts 2).
    let rate = |name: &str| {
        rates
            .iter()
            .find(|(scenario, _)| *scenario == name)
            .map(|(_, rate)| *rate)
    };
    let (Some(delta), Some(whole)) = (rate("Positions"), rate("PositionsWhole")) else {
        panic!("no Positions rows: {rates:?}");
    };
    assert!(
        delta * 5.0 < whole,
        "Positions {delta} B/s against PositionsWhole {whole} B/s"
    );
}

#[test]
fn a_rival_whose_values_come_out_wrong_fails_its_row() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let adapter = bench_dir.join("harness/rivals/blink.luau");
    let source = std::fs::read_to_string(&adapter).expect("read");
    // Every unit BlinkBlox broadcasts loses its health on the way out.
    let broken = source.replace(
        "net.fireAll, net.fireTo, net.on = event.FireAll, event.Fire, event.On",
        "net.fireAll, net.fireTo, net.on = function(value)\n\
         \t\t\tlocal wrong = table.clone(value)\n\
         \t\t\twrong.health = 1\n\
         \t\t\tevent.FireAll(wrong)\n\
         \t\tend, event.Fire, event.On",
    );
    assert_ne!(source, broken, "the pattern to break is in BlinkBlox's Rivals adapter");
    std::fs::write(&adapter, broken).expect("write");
    let output = bench(
        temp.path(),
        &["Rivals", "--native", "--frames", "2", "--tools", "blink"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("- Rivals Broadcast / BlinkBlox / native: the turn timing frames 1–2: player 1 received a wrong value: a unit decoded as"),
        "{report}"
    );
    let (_, rows) = rivals_table(&report, "### Natively compiled");
    assert_eq!(rows[0], ["Broadcast", "failed"]);
    // The other scenarios still ran, and report their figures.
    let world = rows.iter().find(|row| row[0] == "WorldState").expect("WorldState row");
    rival_cell(&world[1], "WorldState");
}

/// A stand-in for zap's binary, written into `dir` as `zap`: it answers `--version` as zap
/// does, and runs `body` on a schema path (`$1`).
#[cfg(unix)]
fn fake_zap(dir: &std::path::Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).expect("mkdir");
    let path = dir.join("zap");
    let script = format!("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'cli 0.6.8'; exit 0; fi\n{body}\n");
    std::fs::write(&path, script).expect("write the fake zap");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// The fake zap's compile: the two outputs the schema's options name, next to the schema.
#[cfg(unix)]
const FAKE_ZAP_WRITES_OUTPUTS: &str = r#"dir=$(dirname "$1")
server=$(sed -n 's/^opt server_output = "\(.*\)"$/\1/p' "$1")
client=$(sed -n 's/^opt client_output = "\(.*\)"$/\1/p' "$1")
mkdir -p "$(dirname "$dir/$server")" "$(dirname "$dir/$client")"
echo 'return {}' > "$dir/$server"
echo 'return {}' > "$dir/$client""#;

#[cfg(unix)]
#[test]
fn performance_compares_whole_processes_with_zaps_binary() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let zap_dir = temp.path().join("zap-release");
    fake_zap(&zap_dir, FAKE_ZAP_WRITES_OUTPUTS);
    let source = format!("zap={}", zap_dir.display());
    let output = bench(temp.path(), &["Performance", "--tools", "zap", "--source", &source]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains(&format!(
            "  - zap: zap 0.6.8 (`{}`), its binary run on benchmark/definitions/Definition.zap",
            zap_dir.join("zap").display()
        )),
        "{report}"
    );
    let rows = table_after(&report, "### Against zap's compiler");
    assert_eq!(rows.len(), 2, "{report}");
    assert_eq!(
        (rows[0][0].as_str(), rows[1][0].as_str()),
        ("Definition.blink", "128 declarations")
    );
    for row in &rows {
        for cell in &row[1..3] {
            // `median (first quartile–third quartile)`
            let (median, spread) = cell.split_once(" (").unwrap_or_else(|| panic!("{cell}"));
            let (low, high) = spread
                .trim_end_matches(')')
                .split_once('–')
                .unwrap_or_else(|| panic!("{cell}"));
            let (median, low, high) = (number(median, cell), number(low, cell), number(high, cell));
            assert!(low <= median && median <= high, "{cell}");
        }
        number(row[3].trim_end_matches('×'), "zap ÷ BlinkBlox");
    }
    assert!(!report.contains("## Rows that failed"), "{report}");
}

/// The benchmark's progress goes through the command's output: on stderr, with the cargo-style
/// verbs, and not at all with `-q`; the report is written either way.
#[test]
fn progress_follows_quiet() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let args = ["Tiny", "--native", "--frames", "1", "--tools", "handwritten"];
    let loud = bench(temp.path(), &args);
    assert_eq!(loud.status.code(), Some(0), "{}", stderr(&loud));
    assert!(
        stderr(&loud).contains("     Running Tiny / native"),
        "{}",
        stderr(&loud)
    );
    assert!(String::from_utf8_lossy(&loud.stdout).is_empty());
    std::fs::remove_file(bench_dir.join("Benchmarks.md")).expect("remove the report");
    let quiet = bench(temp.path(), &[&args[..], &["-q"]].concat());
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    assert!(!stderr(&quiet).contains("Running"), "{}", stderr(&quiet));
    assert!(bench_dir.join("Benchmarks.md").is_file());
}

/// With no tool downloaded and none named, the run says what is missing and fails: a report
/// of BlinkBlox alone compares nothing.
#[test]
fn a_run_with_no_competitor_here_fails_naming_what_to_download() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(temp.path(), &["Tiny", "--native", "--frames", "1"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    for tool in ["upstream", "zap", "bytenet", "quicknet"] {
        assert!(err.contains(&format!("warning: `{tool}` did not run")), "{tool}: {err}");
    }
    assert!(err.contains("= help: run `blinkblox bench --download` first"), "{err}");
    assert!(
        bench_dir.join("Benchmarks.md").is_file(),
        "the report of what ran is written"
    );
}

#[test]
fn zap_without_its_binary_is_not_run_and_the_report_says_how_to_get_it() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(
        temp.path(),
        &["Tiny", "--native", "--frames", "2", "--tools", "handwritten,zap"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("warning: `zap` did not run: zap's binary is not downloaded"),
        "{err}"
    );
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let line = report
        .lines()
        .find(|line| line.starts_with("- zap: "))
        .unwrap_or_else(|| panic!("no Not run line for zap:\n{report}"));
    assert!(line.contains("zap's binary is not downloaded"), "{line}");
    assert!(
        line.contains("blinkblox bench --download --tools zap") && line.contains("--source zap=DIR"),
        "{line}"
    );
    let rows = table_after(&report, "### Medians");
    assert_eq!(rows.len(), 1, "only the floor ran:\n{report}");
}

#[cfg(unix)]
#[test]
fn a_zap_that_fails_fails_its_rows_with_its_stderr() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let zap_dir = temp.path().join("zap-broken");
    fake_zap(&zap_dir, "echo 'error: unexpected token' >&2\nexit 1");
    let source = format!("zap={}", zap_dir.display());
    let output = bench(
        temp.path(),
        &[
            "Tiny", "--native", "--frames", "2", "--tools", "zap", "--source", &source,
        ],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let line = report
        .lines()
        .find(|line| line.starts_with("- Tiny / zap / native: "))
        .unwrap_or_else(|| panic!("no failed zap row:\n{report}"));
    assert!(
        line.contains("failed (exit code 1)") && line.contains("unexpected token"),
        "{line}"
    );
}

/// tools.toml's `blink` as a release: its binary compiles the runtime rows' modules (here the
/// binary under test, given with --source), it is an error with the fix when it is missing,
/// and --local takes this checkout's compiler instead.
#[test]
fn a_blink_release_compiles_the_runtime_rows_unless_local() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let tools = bench_dir.join("tools.toml");
    let text = std::fs::read_to_string(&tools).expect("read tools.toml");
    let released = text.replace(
        "path = \"..\"\nentry = \"Cargo.toml\"",
        "github-release = \"owner/blinkblox@v0.1.0\"\nentry = \"blinkblox{exe}\"",
    ) + "\n[tool.blink.assets]\nlinux-x86_64 = \"blinkblox-*-linux-x86_64.zip\"\n";
    assert!(
        released.contains("github-release = \"owner/blinkblox@v0.1.0\""),
        "{released}"
    );
    std::fs::write(&tools, released).expect("write tools.toml");
    let args = ["Tiny", "--native", "--frames", "2", "--tools", "blink"];

    let output = bench(temp.path(), &args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("tools.toml's `blink` is a release (`github-release:owner/blinkblox@v0.1.0`)")
            && err.contains("--download --tools blink")
            && err.contains("--local"),
        "{err}"
    );

    let binary = env!("CARGO_BIN_EXE_blinkblox");
    let source = format!("blink={binary}");
    let output = bench(temp.path(), &[&args[..], &["--source", &source]].concat());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains(&format!(
            "  - BlinkBlox: blinkblox {} (`{binary}`, the release tools.toml names",
            env!("CARGO_PKG_VERSION")
        )),
        "{report}"
    );
    number(&table_after(&report, "### Medians")[0][4], "decode native");

    let output = bench(temp.path(), &[&args[..], &["--local"]].concat());
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "{err}");
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("this checkout's compiler (--local, rather than the release tools.toml names"),
        "{report}"
    );
}

#[test]
fn row_seconds_sets_each_rows_budget_and_the_report_says_so() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    for bad in ["0", "-1", "NaN", "two", "7200"] {
        let output = bench(temp.path(), &["Tiny", &format!("--row-seconds={bad}")]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--row-seconds") && err.contains(bad), "{bad}: {err}");
    }
    let output = bench(
        temp.path(),
        &[
            "Tiny",
            "--native",
            "--frames",
            "2",
            "--row-seconds",
            "0.5",
            "--tools",
            "handwritten",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    assert!(
        report.contains("- 2 timed frames a row, or as many as fit in 0.5 s of CPU time"),
        "{report}"
    );
}

#[test]
fn plain_remotes_answer_call_response_through_a_remote_function() {
    let (temp, bench_dir) = bench_copy(&["tools", "Benchmarks.md"]);
    let output = bench(
        temp.path(),
        &["CallResponse", "--native", "--frames", "1", "--tools", "roblox"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let report = std::fs::read_to_string(bench_dir.join("Benchmarks.md")).expect("report");
    let calls = table_after(&report, "### Call-response");
    assert_eq!(calls.len(), 1, "{report}");
    assert_eq!(calls[0][0], "Roblox remotes");
    // Native only: the interpreted round trip is "–".
    let measured: Vec<&String> = calls[0][1..].iter().filter(|cell| cell.as_str() != "–").collect();
    assert!(measured.len() >= 4, "{report}");
    for cell in measured {
        number(cell, "plain remotes' call-response");
    }
    assert!(!report.contains("CallResponse on Roblox remotes"), "{report}");
}
