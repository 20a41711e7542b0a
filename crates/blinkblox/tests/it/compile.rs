//! `blinkblox compile FILE`: writes the schema's outputs relative to it; a bad schema
//! prints diagnostics, writes nothing and exits 1.

use assert_cmd::Command;
use predicates::prelude::*;

fn blinkblox() -> Command {
    Command::cargo_bin("blinkblox").expect("binary")
}

/// Writes `source` as `file_name` in a fresh temp folder and runs `blinkblox compile` on it,
/// asserting exit code 1; the folder lives as long as the returned TempDir.
fn compile_failing(file_name: &str, source: &str) -> (tempfile::TempDir, assert_cmd::assert::Assert) {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join(file_name);
    std::fs::write(&schema, source).expect("write");
    let failed = blinkblox().arg("compile").arg(&schema).assert().code(1);
    (dir, failed)
}

#[test]
fn compile_writes_the_outputs_the_schema_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("net").join("game.blink");
    std::fs::create_dir_all(schema.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &schema,
        r#"
option ServerOutput = "../out/server/Net"
option ClientOutput = "../out/client/Net.luau"
option TypesOutput = "types"
export struct Item { id: u16 }
event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
"#,
    )
    .expect("write schema");
    blinkblox()
        .arg("compile")
        .arg(&schema)
        .assert()
        .success()
        .stdout(predicate::str::contains("Net.luau"));
    let server = std::fs::read_to_string(dir.path().join("out/server/Net.luau")).expect("server written");
    let client = std::fs::read_to_string(dir.path().join("out/client/Net.luau")).expect("client written");
    let types = std::fs::read_to_string(dir.path().join("net/types.luau")).expect("types written");
    for text in [&server, &client, &types] {
        assert!(text.starts_with("--!strict\n--!optimize 2\n"));
    }
    assert!(server.contains("Server module") && client.contains("Client module") && types.contains("Types module"));
    // Same schema, same bytes.
    blinkblox()
        .arg("compile")
        .arg("--quiet")
        .arg(&schema)
        .assert()
        .success()
        .stdout("");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/server/Net.luau")).expect("again"),
        server
    );
}

#[test]
fn a_bad_schema_prints_diagnostics_and_writes_nothing() {
    let (dir, failed) = compile_failing(
        "bad.blink",
        "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nevent Hit { From: Client, Type: Reliable, Call: SingleSync, Data: NoSuchType }\n",
    );
    failed.stderr(predicate::str::contains("NoSuchType").and(predicate::str::contains("nothing was written")));
    assert!(!dir.path().join("out").exists());
}

/// Structs nested 48 deep need more locals in one function than Luau allows: the module
/// would not load, so compile names the event and writes nothing. Wide structs and long
/// tuples, which once hit the same limit, now compile (`tests/codegen_roundtrip.rs` runs them).
#[test]
fn data_too_deep_for_luau_is_reported_on_its_event_and_nothing_is_written() {
    let mut source = String::from(
        "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nstruct D0 { a: string, b: u8? }\n",
    );
    for level in 1..48 {
        source.push_str(&format!(
            "struct D{level} {{ a: string, b: u8?, c: D{}, d: vector }}\n",
            level - 1
        ));
    }
    source.push_str("event Deep { From: Client, Type: Reliable, Call: SingleSync, Data: D47 }\n");
    let (dir, failed) = compile_failing("deep.blink", &source);
    failed.stderr(
        predicate::str::contains(
            "error[E4018]: the generated Server.luau would not load: Luau rejects the code for `Deep`",
        )
        .and(predicate::str::contains("Out of local registers"))
        .and(predicate::str::contains("deep.blink:51:7"))
        .and(predicate::str::contains("nothing was written")),
    );
    assert!(!dir.path().join("out").exists());
    // `check` says what `compile` and `sync` would refuse.
    blinkblox()
        .arg("check")
        .arg(dir.path().join("deep.blink"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[E4018]"))
        .stdout(predicate::str::contains("1 error"));

    // Small but deep: 31 maps nested (63 types) need more than Luau's 255 registers. The
    // error names the declaration inside its scope, and a stream by its own name.
    let maps = (0..31).fold("string".to_string(), |inner, _| format!("map {{ [string]: {inner} }}"));
    let (_dir, failed) = compile_failing(
        "maps.blink",
        &format!(
            "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nevent Small {{ From: Client, Type: Reliable, Call: ManySync, Data: u8 }}\nscope B {{\n  event Big {{ From: Client, Type: Reliable, Call: ManySync, Data: {maps} }}\n}}\n"
        ),
    );
    failed.stderr(
        predicate::str::contains("Luau rejects the code for `B.Big`")
            .and(predicate::str::contains("maps.blink:5:9"))
            .and(predicate::str::contains("exceeded limit 255")),
    );
    let (_dir, failed) = compile_failing(
        "stream.blink",
        &format!(
            "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nevent Small {{ From: Server, Type: Reliable, Call: ManySync, Data: u8 }}\nstream Flow {{ From: Server, Type: Reliable, Data: {maps} }}\n"
        ),
    );
    failed.stderr(
        predicate::str::contains("Luau rejects the code for `Flow`").and(predicate::str::contains("stream.blink:4:8")),
    );

    // An exported type has a reader and writer of its own, checked the same way.
    let exported = source.replace("struct D47", "export struct D47").replace(
        "event Deep { From: Client, Type: Reliable, Call: SingleSync, Data: D47 }\n",
        "",
    );
    let (_dir, failed) = compile_failing("exported.blink", &exported);
    failed.stderr(
        predicate::str::contains("Luau rejects the reader and writer of the exported type `D47`")
            .and(predicate::str::contains("exported.blink:50:15")),
    );

    let wide: String = (0..100).map(|i| format!("f{i}: string, ")).collect();
    let tuple = vec!["Wide?"; 32].join(", ");
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("wide.blink");
    std::fs::write(
        &schema,
        format!(
            "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nstruct Wide {{ {wide} }}\nevent Many {{ From: Client, Type: Reliable, Call: SingleSync, Data: ({tuple}) }}\nevent Back {{ From: Server, Type: Reliable, Call: SingleSync, Data: ({tuple}) }}\n"
        ),
    )
    .expect("write");
    blinkblox().arg("compile").arg(&schema).assert().success();
    assert!(dir.path().join("out/Server.luau").is_file());
}

#[test]
fn a_schema_without_outputs_says_which_option_to_add() {
    let (_dir, failed) = compile_failing(
        "plain.blink",
        "event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }\n",
    );
    failed.stderr(predicate::str::contains("ServerOutput"));
}

#[test]
fn a_missing_file_is_a_usage_error() {
    blinkblox()
        .args(["compile", "does/not/exist.blink"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a file"));
}

/// Output options that name no file, or two outputs at one path, are refused before
/// anything is written: the second module would silently replace the first.
#[test]
fn outputs_that_name_no_file_or_collide_are_refused() {
    for (server, client, expected) in [
        (
            "out",
            "out",
            "the Server and the Client module would both be written to `",
        ),
        ("net/s.luau", "net/s", "would both be written to `"),
        ("S", "sub/../S", "would both be written to `"),
        ("Net/Server", "net/server", "one file on Windows and macOS"),
        ("S", "../SCHEMA_DIR/S", "would both be written to `"),
        ("", "c", "`option ServerOutput = \"\"` in `"),
        ("net/", "c", "names no file"),
        ("s", "/", "`option ClientOutput = \"/\"`"),
        ("s", "x/..", "names no file"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let folder = dir.path().file_name().expect("name").to_string_lossy().into_owned();
        let client = client.replace("SCHEMA_DIR", &folder);
        std::fs::write(
            dir.path().join("o.blink"),
            format!(
                "option ServerOutput = \"{server}\"\noption ClientOutput = \"{client}\"\nevent E {{ From: Client, Type: Reliable, Call: SingleSync, Data: u8 }}\n"
            ),
        )
        .expect("write");
        // Run from the schema's folder, so the paths stay relative as a user writes them.
        let failed = blinkblox()
            .current_dir(dir.path())
            .arg("compile")
            .arg("o.blink")
            .assert()
            .code(1);
        failed.stderr(predicate::str::contains(expected).and(predicate::str::contains("help: ")));
        let written: Vec<_> = std::fs::read_dir(dir.path())
            .expect("read dir")
            .filter_map(Result::ok)
            .map(|entry| entry.file_name())
            .collect();
        assert_eq!(
            written,
            vec![std::ffi::OsString::from("o.blink")],
            "{server} / {client}"
        );
    }
}

#[test]
fn compile_writes_a_declaration_next_to_each_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("net.blink");
    std::fs::write(
        &schema,
        r#"
option ServerOutput = "out/server/Net"
option ClientOutput = "out/shared/init"
option TypesOutput = "out/Types.luau"
option Typescript = true
export struct Item { id: u16 }
event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
"#,
    )
    .expect("write schema");
    let assert = assert_cmd::Command::cargo_bin("blinkblox")
        .expect("binary")
        .arg("compile")
        .arg(&schema)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(!stderr.contains("warning"), "{stderr}");
    let read =
        |rel: &str| std::fs::read_to_string(dir.path().join(rel)).unwrap_or_else(|e| panic!("{rel} not written: {e}"));
    let server = read("out/server/Net.d.ts");
    let client = read("out/shared/index.d.ts");
    let types = read("out/Types.d.ts");
    assert!(server.contains("readonly On: (listener: (player: Player, value: number) => void) => () => void;"));
    assert!(client.contains("readonly Fire: (value: number) => void;"));
    assert!(types.contains("export declare const Item: {") && !types.contains("StepReplication"));
    assert!(!dir.path().join("out/shared/init.d.ts").exists());
}
