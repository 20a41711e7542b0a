//! `blinkblox fmt` from the outside: rewriting, `--check` for CI, schemas that do not
//! parse; and over a copy of every valid fixture, formatting is idempotent and the
//! generated modules are the same before and after.

use std::path::Path;

use blinkblox_codegen::{Outputs, Source, Targets, compile};
use blinkblox_schema::CheckSettings;

use crate::common::{blinkblox, copy_dir, files_under, read, stderr, stdout};

const UNFORMATTED: &str =
    "event Hit{From:Client,Type:Reliable,Call:SingleSync,Data:u8} -- hits\n\n\n\nstruct P{a:u8}\n";
const FORMATTED: &str = "event Hit {\n    From: Client,\n    Type: Reliable,\n    Call: SingleSync,\n    Data: u8,\n} -- hits\n\nstruct P {\n    a: u8,\n}\n";

/// A bare `fmt` outside a project formats what version control would see: not Wally's or
/// npm's packages, not what `.gitignore` ignores; inside a project, the manifest's schemas
/// and what they import, and nothing else.
#[test]
fn a_bare_fmt_leaves_dependencies_and_ignored_files_alone() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("game");
    for (file, text) in [
        ("net/a.blink", UNFORMATTED),
        ("Packages/_Index/dep/net.blink", UNFORMATTED),
        ("node_modules/pkg/net.blink", UNFORMATTED),
        ("build/out.blink", UNFORMATTED),
        ("src/Packages.blink", UNFORMATTED),
    ] {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "/build/\n").unwrap();
    let run = blinkblox(&dir).args(["fmt", "-v"]).assert().code(0);
    assert!(
        stdout(&run).contains("formatted 2 schemas: 2 schemas rewritten"),
        "{}",
        stdout(&run)
    );
    assert_eq!(read(&dir.join("net/a.blink")), FORMATTED);
    assert_eq!(
        read(&dir.join("src/Packages.blink")),
        FORMATTED,
        "a file named like a folder is a schema"
    );
    for untouched in [
        "Packages/_Index/dep/net.blink",
        "node_modules/pkg/net.blink",
        "build/out.blink",
    ] {
        assert_eq!(read(&dir.join(untouched)), UNFORMATTED, "{untouched}");
    }
    // Named, a dependency folder is formatted like any other.
    blinkblox(&dir).args(["fmt", "--check", "build"]).assert().code(1);

    // In a project: the listed schemas and their imports; an unlisted schema is left.
    std::fs::write(
        dir.join("blinkblox.toml"),
        "[schemas]\ninclude = [\"net/*.blink\"]\n[output]\npath = \"out\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("net/a.blink"),
        format!("import \"../shared/types\"\n{UNFORMATTED}"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("shared")).unwrap();
    std::fs::write(dir.join("shared/types.blink"), "struct T{x:u8}\n").unwrap();
    std::fs::write(dir.join("src/Packages.blink"), UNFORMATTED).unwrap();
    let check = blinkblox(&dir.join("net")).args(["fmt", "--check"]).assert().code(1);
    let diff = stdout(&check);
    let names: Vec<&str> = diff.lines().filter(|line| line.starts_with("--- ")).collect();
    assert_eq!(names, ["--- a.blink", "--- ../shared/types.blink"]);
    blinkblox(&dir).arg("fmt").assert().code(0);
    assert_eq!(read(&dir.join("shared/types.blink")), "struct T {\n    x: u8,\n}\n");
    assert_eq!(
        read(&dir.join("src/Packages.blink")),
        UNFORMATTED,
        "not the project's schema"
    );
}

#[test]
fn check_lists_what_it_would_change_and_fmt_rewrites_it() {
    let temp = tempfile::tempdir().expect("temp dir");
    std::fs::write(temp.path().join("a.blink"), UNFORMATTED).unwrap();
    std::fs::write(temp.path().join("b.blink"), FORMATTED).unwrap();
    let check = blinkblox(temp.path()).args(["fmt", "--check"]).assert().code(1);
    // What would change, as a unified diff of the file against its formatted text.
    let diff = stdout(&check);
    assert!(
        diff.starts_with("--- a.blink\n+++ a.blink (formatted)\n@@ -1,5 +1,10 @@\n-event Hit{From:Client"),
        "{diff}"
    );
    assert!(
        diff.contains("\n+    Data: u8,\n+} -- hits\n \n-struct P{a:u8}\n+struct P {\n"),
        "{diff}"
    );
    assert!(!diff.contains("b.blink"), "{diff}");
    assert!(
        stderr(&check).contains("checked 2 schemas: 1 schema not formatted"),
        "{}",
        stderr(&check)
    );
    assert_eq!(read(&temp.path().join("a.blink")), UNFORMATTED, "--check wrote");

    let run = blinkblox(temp.path()).arg("fmt").assert().code(0);
    assert!(
        stdout(&run).contains("formatted 2 schemas: 1 schema rewritten"),
        "{}",
        stdout(&run)
    );
    assert_eq!(read(&temp.path().join("a.blink")), FORMATTED);
    blinkblox(temp.path())
        .args(["fmt", "--check", "a.blink", "b.blink"])
        .assert()
        .code(0);
}

#[test]
fn a_schema_that_does_not_parse_is_reported_and_left_alone() {
    let temp = tempfile::tempdir().expect("temp dir");
    let broken = "struct P { a: }\n";
    std::fs::write(temp.path().join("bad.blink"), broken).unwrap();
    std::fs::write(temp.path().join("latin1.blink"), b"type Caf\xe9 = u8\n").unwrap();
    let run = blinkblox(temp.path()).env("NO_COLOR", "1").arg("fmt").assert().code(1);
    let err = stderr(&run);
    assert!(err.contains("error[E2001]") && err.contains("bad.blink:1:15"), "{err}");
    assert!(
        err.contains("`latin1.blink`:1:9: not UTF-8 (byte 0xE9 at offset 8)"),
        "{err}"
    );
    assert_eq!(read(&temp.path().join("bad.blink")), broken);
    blinkblox(temp.path()).args(["fmt", "nowhere.blink"]).assert().code(2);
}

/// `fmt` replaces a schema the way an editor saves it: the file keeps its mode, a link stays
/// a link and its target is formatted, and what it must not replace (a read-only file, one
/// with other hard links, a pipe) is refused by name and left as it was.
#[cfg(unix)]
#[test]
fn fmt_keeps_what_it_does_not_own() {
    use std::os::unix::fs::PermissionsExt as _;
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path();
    let mode_of = |name: &str| std::fs::metadata(dir.join(name)).unwrap().permissions().mode() & 0o777;
    for (name, mode) in [("private.blink", 0o600), ("script.blink", 0o755)] {
        std::fs::write(dir.join(name), UNFORMATTED).unwrap();
        std::fs::set_permissions(dir.join(name), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    std::fs::write(dir.join("target.blink"), UNFORMATTED).unwrap();
    std::os::unix::fs::symlink("target.blink", dir.join("link.blink")).unwrap();
    blinkblox(dir)
        .args(["fmt", "private.blink", "script.blink", "link.blink"])
        .assert()
        .code(0);
    assert_eq!((mode_of("private.blink"), mode_of("script.blink")), (0o600, 0o755));
    assert_eq!(read(&dir.join("private.blink")), FORMATTED);
    assert!(
        std::fs::symlink_metadata(dir.join("link.blink"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        read(&dir.join("target.blink")),
        FORMATTED,
        "the link's target is formatted"
    );

    std::fs::write(dir.join("locked.blink"), UNFORMATTED).unwrap();
    std::fs::set_permissions(dir.join("locked.blink"), std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::write(dir.join("shared.blink"), UNFORMATTED).unwrap();
    std::fs::hard_link(dir.join("shared.blink"), dir.join("other.blink")).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.blink"))
        .status()
        .unwrap();
    assert!(status.success());
    let run = blinkblox(dir)
        .args(["fmt", "locked.blink", "shared.blink", "pipe.blink"])
        .assert()
        .code(1);
    let err = stderr(&run);
    assert!(err.contains("cannot write `locked.blink`: it is read-only"), "{err}");
    assert!(
        err.contains("cannot write `shared.blink`: it has 1 other hard link"),
        "{err}"
    );
    assert!(
        err.contains("cannot read `pipe.blink`: it is a pipe, not a regular file"),
        "{err}"
    );
    assert_eq!(mode_of("locked.blink"), 0o444);
    for name in ["locked.blink", "shared.blink", "other.blink"] {
        assert_eq!(read(&dir.join(name)), UNFORMATTED, "{name} is left as it was");
    }
}

/// A `*.blink` link inside the folder is a schema like any other for `fmt --check .` and
/// `check .`; one leading out of the folder is named, never skipped in silence.
#[cfg(unix)]
#[test]
fn linked_schemas_are_followed_inside_the_folder_and_named_outside_it() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path().join("game");
    std::fs::create_dir_all(dir.join("shared")).unwrap();
    std::fs::write(dir.join("shared/real.blink"), UNFORMATTED).unwrap();
    std::os::unix::fs::symlink("shared/real.blink", dir.join("link.blink")).unwrap();
    std::fs::write(temp.path().join("outside.blink"), FORMATTED).unwrap();
    std::os::unix::fs::symlink(temp.path().join("outside.blink"), dir.join("away.blink")).unwrap();
    let run = blinkblox(&dir).args(["fmt", "--check", "."]).assert().code(1);
    assert_eq!(
        stdout(&run)
            .lines()
            .filter(|line| line.starts_with("--- "))
            .collect::<Vec<_>>(),
        ["--- link.blink", "--- shared/real.blink"]
    );
    let err = stderr(&run);
    assert!(
        err.contains("skipped `./away.blink`: a symbolic link leading out of `.`"),
        "{err}"
    );

    std::fs::write(dir.join("shared/real.blink"), "event Broken {").unwrap();
    let run = blinkblox(&dir).args(["check", "."]).assert().code(1);
    let err = stderr(&run);
    assert!(err.contains("link.blink"), "the linked schema is checked: {err}");
}

/// A `fmt` stopped between writing its temporary file and renaming it leaves the file
/// behind; the next `fmt` of that folder removes it (its process is gone) and leaves the
/// temporary file of a process still running.
#[cfg(target_os = "linux")]
#[test]
fn fmt_removes_the_temporary_files_a_stopped_fmt_left() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = temp.path();
    std::fs::write(dir.join("a.blink"), UNFORMATTED).unwrap();
    // No process has this id (above Linux's pid_max); this test's process does run.
    let stale = dir.join(".a.blink.blinkblox-99999999.tmp");
    let live = dir.join(format!(".a.blink.blinkblox-{}.tmp", std::process::id()));
    // A lockfile a stopped sync left staged is sync's to read, not fmt's to remove.
    let staged_lock = dir.join(".blinkblox.lock.blinkblox-99999999.tmp");
    std::fs::write(&stale, "half").unwrap();
    std::fs::write(&live, "being written").unwrap();
    std::fs::write(&staged_lock, "lock").unwrap();
    blinkblox(dir).args(["fmt", "-v", "a.blink"]).assert().code(0);
    assert!(!stale.exists(), "the stopped run's file is removed");
    assert!(live.exists(), "a running process's file is left");
    assert!(staged_lock.exists(), "another writer's file is left");
    assert_eq!(read(&dir.join("a.blink")), FORMATTED);
}

fn modules(path: &Path) -> Vec<(String, String)> {
    let outputs = Outputs::Modules(Targets::outputs(true, true));
    let compiled = compile(Source::File(path), &CheckSettings::default(), outputs);
    let mut found: Vec<(String, String)> = compiled
        .diagnostics
        .iter()
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect();
    found.extend(
        compiled
            .files
            .iter()
            .map(|f| (format!("{:?}", f.kind), f.contents.clone())),
    );
    found
}

#[test]
fn every_valid_fixture_formats_idempotently_to_the_same_modules() {
    let fixtures = crate::repo_root().join("crates/blinkblox-schema/tests/fixtures/schema/valid");
    let temp = tempfile::tempdir().expect("temp dir");
    let (before, after) = (temp.path().join("before"), temp.path().join("after"));
    copy_dir(&fixtures, &before);
    copy_dir(&fixtures, &after);
    blinkblox(&after).arg("fmt").assert().code(0);
    blinkblox(&after).args(["fmt", "--check"]).assert().code(0);
    let mut compared = 0;
    for rel in files_under(&before)
        .iter()
        .filter(|rel| rel.ends_with(".blink") && !rel.contains('/'))
    {
        let (original, formatted) = (modules(&before.join(rel)), modules(&after.join(rel)));
        assert!(
            original == formatted,
            "{rel}: the modules changed after `blinkblox fmt`"
        );
        compared += usize::from(original.iter().any(|(kind, _)| kind == "Server"));
    }
    assert!(compared > 10, "only {compared} fixtures compiled");
}
