//! `blinkblox check` from the outside: exit codes, human and JSON output.

use assert_cmd::Command;
use predicates::prelude::*;

const VALID: &str = "tests/fixtures/schema/valid/structs.blink";
const INVALID: &str = "tests/fixtures/schema/invalid/multiple_errors.blink";

fn blinkblox() -> Command {
    let mut command = Command::cargo_bin("blinkblox").expect("binary");
    // The schema fixtures' paths, as the messages name them, are relative to their crate.
    command
        .env("NO_COLOR", "1")
        .current_dir(crate::repo_root().join("crates/blinkblox-schema"));
    command
}

#[test]
fn valid_schema_exits_zero() {
    blinkblox()
        .args(["check", VALID])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("checked 1 schema: no problems"));
}

#[test]
fn invalid_schema_exits_one_with_rendered_errors() {
    blinkblox()
        .args(["check", INVALID])
        .assert()
        .code(1)
        // Diagnostics on stderr, as rustc prints them; the result on stdout.
        .stderr(predicate::str::contains("error[E3001]: unknown type `Unknown`"))
        .stderr(predicate::str::contains(
            " --> tests/fixtures/schema/invalid/multiple_errors.blink:2:10",
        ))
        .stdout(predicate::str::contains("checked 1 schema: 7 errors, 0 warnings"))
        .stdout(predicate::str::contains("error[").not())
        .stderr(predicate::str::contains("\u{1b}[").not());
}

#[test]
fn json_output_is_one_object_per_line() {
    let output = blinkblox()
        .args(["check", INVALID, "--message-format", "json"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    for line in lines {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
        for key in [
            "code",
            "severity",
            "message",
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "labels",
            "notes",
        ] {
            assert!(value.get(key).is_some(), "missing {key} in {line}");
        }
        assert_eq!(value["file"], INVALID);
        assert!(value["labels"].as_array().is_some_and(|labels| !labels.is_empty()));
    }
}

#[test]
fn json_for_a_valid_schema_prints_nothing() {
    blinkblox()
        .args(["check", VALID, "--message-format", "json"])
        .assert()
        .code(0)
        .stdout("");
}

#[test]
fn missing_path_is_a_usage_error() {
    blinkblox()
        .args(["check", "no/such/schema.blink"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`no/such/schema.blink` does not exist"))
        .stderr(predicate::str::contains("help: name .blink files or folders"));
}

#[test]
fn unknown_flag_value_is_a_usage_error() {
    blinkblox()
        .args(["check", VALID, "--message-format", "xml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'xml'"))
        .stderr(predicate::str::contains("human"));
}

#[test]
fn no_paths_checks_every_schema_under_the_current_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("net/sub")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join(".hidden")).expect("mkdir");
    std::fs::write(dir.path().join("net/a.blink"), "type A = u8\n").expect("write");
    std::fs::write(dir.path().join("net/sub/b.blink"), "type B = Nope\n").expect("write");
    std::fs::write(dir.path().join(".hidden/c.blink"), "garbage @@\n").expect("write");
    std::fs::write(dir.path().join("notes.txt"), "not a schema\n").expect("write");
    blinkblox()
        .current_dir(dir.path())
        .arg("check")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(" --> net/sub/b.blink:1:10"))
        .stdout(predicate::str::contains("checked 2 schemas: 1 error, 0 warnings"));
}

#[test]
fn a_folder_with_no_schemas_is_fine() {
    let dir = tempfile::tempdir().expect("temp dir");
    blinkblox()
        .current_dir(dir.path())
        .arg("check")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no .blink schemas found"));
}

#[test]
fn shared_imports_are_reported_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("shared.blink"), "type S = Missing\n").expect("write");
    std::fs::write(dir.path().join("a.blink"), "import \"./shared\"\n").expect("write");
    std::fs::write(dir.path().join("b.blink"), "import \"./shared\"\n").expect("write");
    let output = blinkblox().current_dir(dir.path()).arg("check").output().expect("runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert_eq!(stderr.matches("error[E3001]").count(), 1, "{stderr}");
    assert!(stdout.contains("checked 3 schemas: 1 error, 0 warnings"), "{stdout}");
}

#[test]
fn help_describes_check() {
    blinkblox()
        .args(["check", "--help"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("--message-format"));
}
