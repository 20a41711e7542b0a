//! `blinkblox bench --run`: the Luau harness runs end to end on BlinkBlox and the
//! hand-written floor, and writes a well-formed Benchmarks.md; bad filters and a tool
//! that decodes wrongly are reported, not timed.

mod common;

use std::process::Output;

use common::{bench, bench_copy};

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

    // Medians and p99s: every bench, both tools, both modes, numbers; bytes as on the seed page.
    for heading in ["### Medians", "### 99th percentiles"] {
        let rows = table_after(&report, heading);
        assert_eq!(rows.len(), 10, "{heading}: 5 benches × 2 tools:\n{report}");
        let mut bench = String::new();
        for row in &rows {
            assert_eq!(row.len(), 7, "{heading}: {row:?}");
            if !row[0].is_empty() {
                bench = row[0].clone();
            }
            assert!(["BlinkBlox", "Hand-written"].contains(&row[1].as_str()), "{row:?}");
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
            ["Booleans", "Entities", "BooleansRandom", "EntitiesRandom", "Tiny"],
            "{heading}"
        );
    }

    // One remote call a frame for both tools (a frame's events in one packet).
    for row in table_after(&report, "### Fire and flush separately") {
        assert_eq!(row[6], "1", "{row:?}");
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
    // What the seed page lists but this run did not do is said, not left out silently.
    assert!(report.contains("## Not run"), "{report}");
    assert!(report.contains("- Rivals: "), "{report}");
    assert!(
        !report.contains("- Scenarios (the rest)"),
        "every Scenario of the seed page runs:\n{report}"
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
        err.contains("unknown tool `nothing`") && err.contains("handwritten"),
        "{err}"
    );
    assert!(
        !bench_dir.join("Benchmarks.md").exists(),
        "nothing written for a run that could not start"
    );
}
