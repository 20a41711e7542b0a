//! `blinkblox import-zap`, end to end: the real binary on zap fixtures (the zap crate's) and
//! on the benchmark's zap schemas, in temporary folders. Where the schema goes, what is never
//! overwritten, how refusals look, and that `blinkblox compile` takes the result.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common::{blinkblox, read, stderr, stdout};
use crate::repo_root;

fn zap_fixture(relative: &str) -> PathBuf {
    repo_root().join("crates/blinkblox-zap/tests/fixtures").join(relative)
}

/// A temporary folder holding a copy of `source` under `name`.
fn folder_with(source: &Path, name: &str) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(source, dir.path().join(name)).expect("copy the zap file");
    dir
}

#[test]
fn the_schema_is_written_next_to_the_zap_file_and_compiles() {
    let dir = folder_with(&zap_fixture("vm/game.zap"), "game.zap");
    let assert = blinkblox(dir.path())
        .args(["import-zap", "game.zap"])
        .assert()
        .success();
    assert!(stdout(&assert).contains("wrote game.blink"), "{}", stdout(&assert));
    let warnings = stderr(&assert);
    assert!(
        warnings.contains("warning[Z4004]"),
        "the dropped names are said: {warnings}"
    );
    let schema = read(&dir.path().join("game.blink"));
    let text = read(&dir.path().join("game.zap"));
    let expected = blinkblox_zap::import("game.zap", &text, &blinkblox_zap::Settings::default());
    assert_eq!(
        Some(schema.as_str()),
        expected.blink.as_deref(),
        "the library's translation, as is"
    );

    blinkblox(dir.path()).args(["compile", "game.blink"]).assert().success();
    for module in ["network/server.luau", "network/client.luau"] {
        let written = read(&dir.path().join(module));
        assert!(written.contains("Welcome"), "{module} was written where zap writes it");
    }
}

#[test]
fn an_existing_schema_is_replaced_only_with_force() {
    let dir = folder_with(&zap_fixture("translate/events.zap"), "net.zap");
    let schema = dir.path().join("net.blink");
    std::fs::write(&schema, "-- mine\n").expect("write");
    let assert = blinkblox(dir.path()).args(["import-zap", "net.zap"]).assert().code(1);
    assert!(stderr(&assert).contains("`net.blink` already exists; nothing was written"));
    assert!(stderr(&assert).contains("--force"));
    assert_eq!(read(&schema), "-- mine\n");

    blinkblox(dir.path())
        .args(["import-zap", "net.zap", "--force"])
        .assert()
        .success();
    assert!(read(&schema).starts_with("-- Translated from net.zap"));
}

#[test]
fn a_schema_elsewhere_keeps_the_modules_where_zap_wrote_them() {
    let dir = folder_with(&zap_fixture("vm/game.zap"), "game.zap");
    blinkblox(dir.path())
        .args(["import-zap", "game.zap", "-o", "schemas/net/game.blink"])
        .assert()
        .success();
    let schema = read(&dir.path().join("schemas/net/game.blink"));
    assert!(
        schema.contains("option ServerOutput = \"../../network/server.luau\""),
        "paths are relative to the schema now: {schema}"
    );
    blinkblox(dir.path())
        .args(["compile", "schemas/net/game.blink"])
        .assert()
        .success();
    assert!(dir.path().join("network/server.luau").is_file());
    assert!(dir.path().join("network/client.luau").is_file());
}

#[test]
fn dash_prints_the_schema_and_writes_nothing() {
    let dir = folder_with(&zap_fixture("translate/namespaces.zap"), "net.zap");
    let assert = blinkblox(dir.path())
        .args(["import-zap", "net.zap", "-o", "-"])
        .assert()
        .success();
    let printed = stdout(&assert);
    assert!(printed.starts_with("-- Translated from net.zap"), "{printed}");
    assert!(printed.contains("scope Combat {"));
    assert!(!dir.path().join("net.blink").exists());
}

#[test]
fn constructs_without_an_equivalent_are_all_reported_and_nothing_is_written() {
    let dir = folder_with(&zap_fixture("unsupported/all_at_once.zap"), "net.zap");
    let assert = blinkblox(dir.path()).args(["import-zap", "net.zap"]).assert().code(1);
    let errors = stderr(&assert);
    for expected in [
        "error[Z2001]: BlinkBlox has no OR types",
        " --> net.zap:4:15",
        "4 | type Either = (u8 | string.binary)",
        "  |               ^^^^^^^^^^^^^^^^^^^^ a value of one of several types",
        "error[Z2002]",
        "error[Z2004]",
        "error[Z2005]",
        "error[Z2008]",
        "error: `net.zap` cannot be translated (5 error(s)); nothing was written",
    ] {
        assert!(errors.contains(expected), "`{expected}` missing from:\n{errors}");
    }
    assert!(!dir.path().join("net.blink").exists());
}

#[test]
fn diagnostics_can_be_json_lines() {
    let dir = folder_with(&zap_fixture("unsupported/union.zap"), "net.zap");
    let assert = blinkblox(dir.path())
        .args(["import-zap", "net.zap", "--message-format", "json"])
        .assert()
        .code(1);
    // JSON lines on stdout, as every command prints them, and nothing on stderr.
    assert_eq!(stderr(&assert), "");
    let first = stdout(&assert).lines().next().unwrap_or_default().to_string();
    let value: serde_json::Value = serde_json::from_str(&first).expect("a JSON line");
    assert_eq!(value["code"], "Z2001");
    assert_eq!(
        (value["file"].as_str(), value["line"].as_u64()),
        (Some("net.zap"), Some(5))
    );
}

#[test]
fn a_translation_that_fails_blinkblox_s_checks_is_not_written() {
    // zap allows unreliable events up to 998 bytes; BlinkBlox's default limit is 900.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("big.zap"),
        "event Big = { from: Server, type: Unreliable, call: SingleSync, data: u8[950] }\n",
    )
    .expect("write");
    let assert = blinkblox(dir.path()).args(["import-zap", "big.zap"]).assert().code(1);
    let errors = stderr(&assert);
    assert!(errors.contains("error[E4011]"), "{errors}");
    assert!(errors.contains("--> big.blink (the translation):"), "{errors}");
    assert!(
        errors.contains("does not pass BlinkBlox's checks; nothing was written"),
        "{errors}"
    );
    assert!(!dir.path().join("big.blink").exists());
}

#[test]
fn the_benchmark_zap_schemas_import_and_compile() {
    for name in ["Definition", "Scenarios"] {
        let source = repo_root().join(format!("benchmark/definitions/{name}.zap"));
        let dir = folder_with(&source, &format!("{name}.zap"));
        let assert = blinkblox(dir.path())
            .args(["import-zap", &format!("{name}.zap")])
            .assert()
            .success();
        assert_eq!(stderr(&assert), "", "{name}: no warning");
        blinkblox(dir.path())
            .args(["compile", &format!("{name}.blink")])
            .assert()
            .success();
        assert!(dir.path().join("network/Server.luau").is_file(), "{name}");
    }
}

#[test]
fn usage_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let assert = blinkblox(dir.path())
        .args(["import-zap", "missing.zap"])
        .assert()
        .code(2);
    assert!(stderr(&assert).contains("`missing.zap` is not a file"));

    std::fs::write(dir.path().join("net.blink"), "event E = {}").expect("write");
    let assert = blinkblox(dir.path()).args(["import-zap", "net.blink"]).assert().code(2);
    assert!(
        stderr(&assert).contains("would replace the zap file"),
        "{}",
        stderr(&assert)
    );

    // A file that is not UTF-8 is located, as `check` locates it in a schema.
    std::fs::write(dir.path().join("bad.zap"), b"event E = {\n  ty\xFFpe = Reliable,\n}").expect("write");
    let assert = blinkblox(dir.path()).args(["import-zap", "bad.zap"]).assert().code(1);
    assert!(
        stderr(&assert).contains("`bad.zap`:2:5: not UTF-8 (byte 0xFF at offset 16)"),
        "{}",
        stderr(&assert)
    );
}
