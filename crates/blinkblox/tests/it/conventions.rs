//! The command line's conventions, as the tools it sits beside have them: which stream gets
//! what, `--color`, `-q`/`-v`, `--message-format json` for every error, `--deny-warnings`,
//! positional project paths, and what someone coming from Blink expects of `compile`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::blinkblox;

const EVENT: &str = "event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }\n";
/// A schema that checks with one warning (W3001: a range that changes nothing).
const WARNS: &str =
    "type Flag = boolean(0..1)\nevent Hit { From: Client, Type: Reliable, Call: SingleSync, Data: Flag }\n";
const MANIFEST: &str = "[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\npath = \"out\"\n";

fn project(schema: &str) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join("game");
    std::fs::create_dir_all(dir.join("net")).expect("mkdir");
    std::fs::write(dir.join("net/a.blink"), schema).expect("write");
    std::fs::write(dir.join("blinkblox.toml"), MANIFEST).expect("write");
    (temp, dir)
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = blinkblox(dir);
    command.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.args(args).output().expect("run blinkblox");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|err| panic!("not JSON ({err}): {line}")))
        .collect()
}

#[test]
fn colour_follows_the_flag_then_no_color_then_clicolor_force() {
    let (_temp, dir) = project("type A = Missing\n");
    let ansi = |run: &Run| run.stderr.contains("\u{1b}[");
    assert!(ansi(&run(&dir, &["check", "--color", "always"], &[])));
    assert!(!ansi(&run(
        &dir,
        &["check", "--color", "never"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    // Not a terminal: no colour unless forced, and NO_COLOR wins over the force.
    assert!(!ansi(&run(&dir, &["check"], &[])));
    assert!(ansi(&run(&dir, &["check"], &[("CLICOLOR_FORCE", "1")])));
    assert!(!ansi(&run(
        &dir,
        &["check"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
    assert!(!ansi(&run(
        &dir,
        &["check", "--color", "always", "--message-format", "json"],
        &[]
    )));
}

#[test]
fn quiet_and_verbose_decide_what_reaches_stdout() {
    let (_temp, dir) = project(EVENT);
    let quiet = run(&dir, &["sync", "-q"], &[]);
    assert_eq!((quiet.code, quiet.stdout.as_str(), quiet.stderr.as_str()), (0, "", ""));
    std::fs::write(dir.join("net/b.blink"), EVENT).expect("write");
    let verbose = run(&dir, &["sync", "-v"], &[]);
    assert_eq!(verbose.code, 0, "{}", verbose.stderr);
    for line in [
        "  wrote out/b/Client.luau",
        "  wrote out/b/Server.luau",
        "  left out/a/Server.luau",
        "  wrote blinkblox.lock",
    ] {
        assert!(verbose.stdout.contains(line), "{line}:\n{}", verbose.stdout);
    }
    assert!(
        verbose.stdout.contains("synced 2 schemas: 2 written, 2 unchanged"),
        "{}",
        verbose.stdout
    );
    let up_to_date = run(&dir, &["sync", "--verbose"], &[]);
    assert!(
        up_to_date.stdout.contains("  left out/b/Client.luau"),
        "{}",
        up_to_date.stdout
    );
    let conflict = run(&dir, &["sync", "-q", "-v"], &[]);
    assert_eq!(conflict.code, 2, "{}", conflict.stderr);
}

#[test]
fn json_reports_manifest_errors_and_diagnostics_on_stdout_only() {
    let (_temp, dir) = project(EVENT);
    std::fs::write(
        dir.join("blinkblox.toml"),
        "[schemas]\ninclude = [\"net/*.blink\"]\n[output]\npath = \"out\"\ntype = true\n",
    )
    .expect("write");
    for command in ["sync", "check", "package"] {
        let result = run(&dir, &[command, "--message-format", "json"], &[]);
        assert_eq!(result.code, 1, "{command}");
        assert_eq!(result.stderr, "", "{command}: nothing but JSON, and only on stdout");
        let lines = json_lines(&result.stdout);
        assert_eq!(lines.len(), 1, "{command}: {}", result.stdout);
        let error = &lines[0];
        assert_eq!(error["severity"], "error");
        assert_eq!(error["file"], "blinkblox.toml");
        assert_eq!(error["line"], 5);
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains("unknown key `type`")),
            "{error}"
        );
        assert!(error["code"].is_null() && error["labels"].as_array().is_some_and(Vec::is_empty));
        assert!(
            error["notes"][0].as_str().is_some_and(|n| n.contains("`types`")),
            "{error}"
        );
    }
    std::fs::write(dir.join("blinkblox.toml"), MANIFEST).expect("write");
    std::fs::write(dir.join("net/a.blink"), "type A = Missing\n").expect("write");
    for command in ["sync", "check"] {
        let result = run(&dir, &[command, "--message-format", "json"], &[]);
        assert_eq!(result.code, 1, "{command}");
        let lines = json_lines(&result.stdout);
        let diagnostic = lines
            .iter()
            .find(|line| line["code"] == "E3001")
            .unwrap_or_else(|| panic!("{command}: {lines:?}"));
        assert_eq!(
            (diagnostic["file"].as_str(), diagnostic["line"].as_u64()),
            (Some("net/a.blink"), Some(1))
        );
        assert!(lines.iter().all(|line| line["severity"] == "error"), "{lines:?}");
    }
    let compile = run(&dir, &["compile", "net/a.blink", "--message-format", "json"], &[]);
    assert_eq!(compile.code, 1);
    assert!(
        json_lines(&compile.stdout).iter().any(|line| line["code"] == "E3001"),
        "{}",
        compile.stdout
    );
}

#[test]
fn warnings_are_shown_again_when_up_to_date_and_can_be_denied() {
    let (_temp, dir) = project(WARNS);
    let first = run(&dir, &["sync"], &[]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stderr.contains("warning[W3001]"), "{}", first.stderr);
    let again = run(&dir, &["sync"], &[]);
    assert!(again.stdout.contains("up to date"), "{}", again.stdout);
    assert!(
        again.stderr.contains("warning[W3001]"),
        "an up-to-date project repeats its warnings:\n{}",
        again.stderr
    );
    for args in [
        &["sync", "--deny-warnings"][..],
        &["check", "--deny-warnings"],
        &["sync", "--locked", "--deny-warnings"],
    ] {
        let denied = run(&dir, args, &[]);
        assert_eq!(denied.code, 1, "{args:?}: {}", denied.stderr);
    }
    let clean = project(EVENT);
    assert_eq!(run(&clean.1, &["sync", "--deny-warnings"], &[]).code, 0);
}

#[test]
fn sync_and_package_take_the_project_as_rojo_does() {
    let (temp, dir) = project(EVENT);
    let by_folder = run(temp.path(), &["sync", "game"], &[]);
    assert_eq!(by_folder.code, 0, "{}", by_folder.stderr);
    assert!(dir.join("out/a/Server.luau").is_file());
    let by_file = run(temp.path(), &["sync", "game/blinkblox.toml", "--locked"], &[]);
    assert_eq!(by_file.code, 0, "{}", by_file.stderr);
    let both = run(temp.path(), &["sync", "game", "--manifest-path", "game"], &[]);
    assert_eq!(both.code, 2, "a usage error: {}", both.stderr);
    let package = run(temp.path(), &["package", "game"], &[]);
    assert_eq!(package.code, 1);
    assert!(
        package.stderr.contains("there is no `[package]` table"),
        "{}",
        package.stderr
    );
}

#[test]
fn sync_says_when_it_ignores_a_schemas_own_outputs() {
    let (_temp, dir) = project(&format!(
        "option ServerOutput = \"x/Server\"\noption ClientOutput = \"x/Client\"\n{EVENT}"
    ));
    let result = run(&dir, &["sync"], &[]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    for option in ["ServerOutput", "ClientOutput"] {
        assert!(
            result.stderr.contains(&format!(
                "`net/a.blink` sets `{option}`, which sync ignores: it writes the schema's modules into `out/a/`"
            )),
            "{option}: {}",
            result.stderr
        );
    }
    assert!(!dir.join("net/x").exists());
    assert!(
        run(&dir, &["sync"], &[]).stderr.contains("sets `ServerOutput`"),
        "said again when up to date"
    );
}

#[test]
fn compile_takes_a_schema_by_its_stem_and_a_byte_order_mark() {
    let temp = tempfile::tempdir().expect("tempdir");
    let schema = format!("\u{feff}option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\n{EVENT}");
    std::fs::write(temp.path().join("net.blink"), &schema).expect("write");
    let result = run(temp.path(), &["compile", "net"], &[]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(temp.path().join("out/Server.luau").is_file());
    std::fs::remove_file(temp.path().join("net.blink")).expect("remove");
    std::fs::write(temp.path().join("net.txt"), &schema).expect("write");
    let txt = run(temp.path(), &["compile", "net"], &[]);
    assert_eq!(txt.code, 0, "{}", txt.stderr);
    assert!(txt.stdout.contains("unchanged"), "{}", txt.stdout);
    let missing = run(temp.path(), &["compile", "nothing"], &[]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("`nothing` is not a file"), "{}", missing.stderr);
}

#[test]
fn compile_refuses_to_write_when_warnings_are_denied() {
    let temp = tempfile::tempdir().expect("tempdir");
    let schema = format!("option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\n{WARNS}");
    std::fs::write(temp.path().join("net.blink"), schema).expect("write");
    let denied = run(temp.path(), &["compile", "net.blink", "--deny-warnings"], &[]);
    assert_eq!(denied.code, 1, "{}", denied.stderr);
    assert!(!temp.path().join("out").exists());
}

#[test]
fn compile_watch_compiles_again_when_the_schema_changes() {
    let temp = tempfile::tempdir().expect("tempdir");
    let schema = |event: &str| {
        format!(
            "option ServerOutput = \"out/Server\"\noption ClientOutput = \"out/Client\"\nevent {event} {{ From: Client, Type: Reliable, Call: SingleSync, Data: u8 }}\n"
        )
    };
    std::fs::write(temp.path().join("net.blink"), schema("First")).expect("write");
    let binary = assert_cmd::cargo::cargo_bin("blinkblox");
    let mut child = std::process::Command::new(binary)
        .args(["compile", "net.blink", "--watch"])
        .current_dir(temp.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start compile --watch");
    let server = temp.path().join("out/Server.luau");
    let until = |want: &str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::time::Instant::now() < deadline {
            if std::fs::read_to_string(&server).is_ok_and(|text| text.contains(want)) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        false
    };
    let first = until("First");
    std::fs::write(temp.path().join("net.blink"), schema("Second")).expect("edit");
    let second = until("Second");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first && second,
        "compile --watch wrote the first and then the edited schema's modules"
    );
}

#[test]
fn a_typo_where_a_closed_set_is_expected_gets_a_suggestion() {
    let (_temp, dir) = project("event Hit { From: Client, Type: Reliabel, Call: SingleSync, Data: u8 }\n");
    let schema = run(&dir, &["check"], &[]);
    assert!(schema.stderr.contains("did you mean `Reliable`?"), "{}", schema.stderr);

    let manifest_says = |manifest: &str| {
        std::fs::write(dir.join("blinkblox.toml"), manifest).expect("write");
        std::fs::write(dir.join("net/a.blink"), EVENT).expect("write");
        let result = run(&dir, &["sync"], &[]);
        assert_eq!(result.code, 1, "{manifest}");
        result.stderr
    };
    let key = manifest_says(&format!("{MANIFEST}type = true\n"));
    assert!(
        key.contains("unknown key `type` in [output]: did you mean `types`?"),
        "{key}"
    );
    let boolean = manifest_says(&format!("{MANIFEST}types = yes\n"));
    assert!(
        boolean.contains("`types` takes a boolean, `true` or `false`, not `yes`"),
        "{boolean}"
    );
    let option = manifest_says(&format!("{MANIFEST}\n[options]\nMaxPacketSize = \"big\"\n"));
    assert!(
        option.contains("`MaxPacketSize = 1024` under `[options]`"),
        "TOML, not schema syntax: {option}"
    );
    assert!(!option.contains("option MaxPacketSize"), "{option}");

    std::fs::write(
        dir.join("default.project.json"),
        r#"{ "name": "g", "tree": { "$className": "DataModel",
            "ReplicatedStorage": { "Shared": { "$path": "src/shared" } },
            "ServerScriptService": { "$path": "src/server" } } }"#,
    )
    .expect("write");
    std::fs::create_dir_all(dir.join("src/shared")).expect("mkdir");
    std::fs::create_dir_all(dir.join("src/server")).expect("mkdir");
    let instance = |path: &str| format!("[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\ninstance = \"{path}\"\n");
    let rojo = manifest_says(&instance("ReplicatedStorge.Shared.Net"));
    assert!(rojo.contains("did you mean `ReplicatedStorage.Shared.Net`?"), "{rojo}");

    std::fs::write(dir.join("blinkblox.toml"), instance("ServerScriptService.Net")).expect("write");
    let server_only = run(&dir, &["sync"], &[]);
    assert_eq!(server_only.code, 0, "{}", server_only.stderr);
    assert!(
        server_only.stderr.contains("clients cannot see ServerScriptService"),
        "{}",
        server_only.stderr
    );
}

#[test]
fn json_carries_the_fixes_a_tool_can_apply() {
    let (_temp, dir) =
        project("type Health = u8\nevent Hit { From: Client Type: Reliable, Call: SingleSync, Data: Helth }\n");
    let result = run(&dir, &["check", "--message-format", "json"], &[]);
    assert_eq!(result.code, 1);
    let lines = json_lines(&result.stdout);
    let fix = |code: &str| {
        let line = lines
            .iter()
            .find(|line| line["code"] == code)
            .unwrap_or_else(|| panic!("{code}: {lines:?}"));
        line["suggestions"][0].clone()
    };
    let comma = fix("E2008");
    assert_eq!(comma["replacement"], ",");
    assert_eq!((comma["line"].as_u64(), comma["column"].as_u64()), (Some(2), Some(25)));
    assert_eq!(comma["column"], comma["end_column"], "an insertion");
    let name = fix("E3001");
    assert_eq!(name["replacement"], "Health");
    assert_eq!(
        (name["column"].as_u64(), name["end_column"].as_u64()),
        (Some(66), Some(71))
    );
}

/// What a Blink user types first: `blink net.blink` becomes `blinkblox net.blink`, and
/// `version` is a word where BlinkBlox has `--version`. Both are usage errors with a tip.
#[test]
fn blinks_habits_get_a_tip() {
    let (_temp, dir) = project(EVENT);
    let schema = run(&dir, &["net/a.blink"], &[]);
    assert_eq!(schema.code, 2);
    assert!(
        schema
            .stderr
            .contains("tip: to compile a schema as `blink net/a.blink` does, run `blinkblox compile net/a.blink`"),
        "{}",
        schema.stderr
    );
    let version = run(&dir, &["version"], &[]);
    assert_eq!(version.code, 2);
    assert!(
        version
            .stderr
            .contains("tip: to see the version, run `blinkblox --version` (or `-V`)"),
        "{}",
        version.stderr
    );
    // Other words keep clap's own suggestion.
    let typo = run(&dir, &["synk"], &[]);
    assert!(
        typo.stderr.contains("a similar subcommand exists: 'sync'"),
        "{}",
        typo.stderr
    );
}

/// `Casing = "camel"` works, but Blink rejects it: a warning with the spelling, in the
/// manifest as in a schema.
#[test]
fn a_casing_in_lower_case_is_a_warning_naming_the_spelling() {
    let (_temp, dir) = project(EVENT);
    let manifest = dir.join("blinkblox.toml");
    let text = std::fs::read_to_string(&manifest).expect("read") + "\n[options]\nCasing = \"camel\"\n";
    std::fs::write(&manifest, text).expect("write");
    let check = run(&dir, &["check"], &[]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        check.stderr.contains("warning[W4005]: `camel` is spelt `Camel`"),
        "{}",
        check.stderr
    );
    assert!(check.stderr.contains("blinkblox.toml:"), "{}", check.stderr);
}
