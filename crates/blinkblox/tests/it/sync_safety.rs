//! Where `blinkblox sync` may write and what it refuses: outputs and schemas outside the
//! project, Wally's folders however they are reached, globs that match nothing, shared remote
//! scopes, a lockfile edited by hand, files a killed sync left, and files that are not what
//! the manifest says.

use std::path::{Path, PathBuf};

use crate::sync_support::{files_under, read, stderr, sync};

const EVENT: &str = "event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }\n";

/// A project in a temp folder: `files` are (path, contents) below `<temp>/game`.
fn game(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join("game");
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    (temp, dir)
}

fn manifest(output: &str) -> String {
    format!("[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\n{output}\n")
}

fn failed(dir: &Path, args: &[&str]) -> String {
    let assert = sync(dir, args).code(1);
    stderr(&assert)
}

#[test]
fn outputs_outside_the_project_are_refused_unless_allowed() {
    for output in [
        "path = \"../elsewhere\"",
        "path = \"src/shared/Net/../../../../..\"",
        "path = \"/tmp/blinkblox-outside-the-project\"",
    ] {
        let (temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest(output))]);
        let err = failed(&dir, &[]);
        assert!(err.contains("is outside the project"), "{output}: {err}");
        assert!(err.contains("allow_outside_project"), "{output}: {err}");
        assert!(!temp.path().join("elsewhere").exists(), "{output}");
        assert!(
            !temp.path().join("a").exists() && !dir.join("blinkblox.lock").exists(),
            "{output}"
        );
    }
    assert!(!Path::new("/tmp/blinkblox-outside-the-project").exists());

    let allowed = manifest("path = \"../elsewhere\"\nallow_outside_project = true");
    let (temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &allowed)]);
    sync(&dir, &[]).success();
    assert_eq!(
        files_under(&temp.path().join("elsewhere")),
        ["a/Client.luau", "a/Server.luau"]
    );
}

#[test]
fn a_rojo_path_leading_out_of_the_project_is_refused() {
    let project = r#"{ "name": "g", "tree": { "$className": "DataModel",
        "ReplicatedStorage": { "Net": { "$path": "../outside" } } } }"#;
    let (temp, dir) = game(&[
        ("net/a.blink", EVENT),
        ("default.project.json", project),
        ("blinkblox.toml", &manifest("instance = \"ReplicatedStorage.Net\"")),
    ]);
    std::fs::create_dir_all(temp.path().join("outside")).expect("mkdir");
    let err = failed(&dir, &[]);
    assert!(err.contains("is outside the project"), "{err}");
    assert!(files_under(&temp.path().join("outside")).is_empty());
}

#[cfg(unix)]
#[test]
fn links_out_of_the_project_or_into_wally_folders_are_followed_and_refused() {
    let (temp, dir) = game(&[
        ("net/a.blink", EVENT),
        ("blinkblox.toml", &manifest("path = \"src/Net\"")),
    ]);
    std::fs::create_dir_all(temp.path().join("outside")).expect("mkdir");
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::os::unix::fs::symlink(temp.path().join("outside"), dir.join("src/Net")).expect("link");
    let err = failed(&dir, &[]);
    assert!(err.contains("a symbolic link on the way leads to"), "{err}");
    assert!(files_under(&temp.path().join("outside")).is_empty());

    std::fs::remove_file(dir.join("src/Net")).expect("unlink");
    std::fs::create_dir_all(dir.join("Packages")).expect("mkdir");
    std::os::unix::fs::symlink(dir.join("Packages"), dir.join("src/Net")).expect("link");
    let err = failed(&dir, &[]);
    assert!(err.contains("inside `Packages/` (through a symbolic link)"), "{err}");
    assert!(files_under(&dir.join("Packages")).is_empty());

    // A schema folder linked out of the output folder is caught at the write.
    std::fs::remove_file(dir.join("src/Net")).expect("unlink");
    std::fs::create_dir_all(dir.join("src/Net")).expect("mkdir");
    std::os::unix::fs::symlink(temp.path().join("outside"), dir.join("src/Net/a")).expect("link");
    let err = failed(&dir, &[]);
    assert!(err.contains("is outside the project"), "{err}");
    assert!(files_under(&temp.path().join("outside")).is_empty());
}

/// A module sync wrote, then moved out of the project with a link left in its place: the
/// lockfile still names it and its hash still matches, but sync removes nothing through a
/// link that leads out of the output folder.
#[test]
fn a_link_out_of_the_output_folder_never_leads_a_removal_out() {
    let (temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest("path = \"out\""))]);
    sync(&dir, &[]).success();
    let outside = temp.path().join("outside");
    std::fs::rename(dir.join("out/a"), &outside).expect("move out");
    std::os::unix::fs::symlink(&outside, dir.join("out/a")).expect("link");
    std::fs::rename(dir.join("net/a.blink"), dir.join("net/b.blink")).expect("rename schema");
    let assert = sync(&dir, &[]).success();
    let err = stderr(&assert);
    assert!(
        err.contains("left `out/a/Server.luau` where it is: a symbolic link leads its folder out of the output folder"),
        "{err}"
    );
    assert_eq!(
        files_under(&outside),
        ["Client.luau", "Server.luau"],
        "nothing outside is removed"
    );
    assert_eq!(files_under(&dir.join("out/b")), ["Client.luau", "Server.luau"]);
}

/// `blinkblox.lock` is written in place: one that is a link leading out of the project is
/// refused by name, and what it leads to is left as it was.
#[test]
fn a_lockfile_linked_out_of_the_project_is_refused() {
    let (temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest("path = \"out\""))]);
    // A link to a file that does not exist yet: writing through it would create it there.
    let elsewhere = temp.path().join("elsewhere/blinkblox.lock");
    std::os::unix::fs::symlink(&elsewhere, dir.join("blinkblox.lock")).expect("link");
    let err = failed(&dir, &[]);
    assert!(
        err.contains("refusing to write `blinkblox.lock`: it is a symbolic link leading out of the project"),
        "{err}"
    );
    assert!(!temp.path().join("elsewhere").exists(), "nothing is created outside");
}

/// A schema's file name becomes a folder of the output: one that would be `.` or `..` is
/// refused, and nothing is written.
#[test]
fn schema_names_that_would_lead_out_of_the_output_folder_are_refused() {
    for (schema, folder) in [("net/...blink", ".."), ("net/..blink", ".")] {
        let (temp, dir) = game(&[
            (schema, EVENT),
            (
                "blinkblox.toml",
                "[schemas]\ninclude = [\"net/*.blink\"]\n\n[output]\npath = \"src/shared/Net\"\n",
            ),
        ]);
        let err = failed(&dir, &[]);
        assert!(
            err.contains(&format!(
                "schema `{schema}` would write its modules into a folder named `{folder}`"
            )),
            "{schema}: {err}"
        );
        assert!(
            files_under(temp.path()).iter().all(|file| !file.ends_with(".luau")),
            "{schema}: nothing written"
        );
    }
}

#[test]
fn a_folder_named_packages_inside_the_code_is_not_wallys() {
    let (_temp, dir) = game(&[
        ("net/a.blink", EVENT),
        ("blinkblox.toml", &manifest("path = \"src/Packages/Net\"")),
    ]);
    sync(&dir, &[]).success();
    assert_eq!(
        files_under(&dir.join("src/Packages/Net")),
        ["a/Client.luau", "a/Server.luau"]
    );
    // Wally's own folders: at the project root, and next to a wally.toml.
    for (output, folder) in [("Packages/Net", "Packages"), ("lib/DevPackages/Net", "lib/DevPackages")] {
        let (_temp, dir) = game(&[
            ("net/a.blink", EVENT),
            ("lib/wally.toml", ""),
            ("blinkblox.toml", &manifest(&format!("path = \"{output}\""))),
        ]);
        let err = failed(&dir, &[]);
        assert!(err.contains(&format!("inside `{folder}/`")), "{output}: {err}");
    }
}

#[test]
fn globs_that_match_nothing_are_an_error_and_keep_every_module() {
    let (_temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest("path = \"out\""))]);
    sync(&dir, &[]).success();
    let written = files_under(&dir.join("out"));
    let with = |schemas: &str| format!("{schemas}\n\n[output]\npath = \"out\"\n");
    for (schemas, expected) in [
        (
            "[schemas]\ninclude = [\"net/*.blnk\"]",
            "no schema matches `[schemas] include` (net/*.blnk)",
        ),
        ("[schemas]\ninclude = [\"schemas/**/*.blink\"]", "no schema matches"),
        (
            "[schemas]\ninclude = [\"net/*.blink\"]\nexclude = [\"net/*\"]",
            "`[schemas] exclude` (net/*) removes every schema `include` matches (1 file)",
        ),
    ] {
        std::fs::write(dir.join("blinkblox.toml"), with(schemas)).expect("write");
        let err = failed(&dir, &[]);
        assert!(err.contains(expected), "{schemas}: {err}");
        assert!(err.contains("allow_empty = true"), "{err}");
        assert_eq!(files_under(&dir.join("out")), written, "nothing is removed");
        let check = crate::common::blinkblox(&dir).arg("check").assert().code(1);
        assert!(stderr(&check).contains(expected), "check: {}", stderr(&check));
    }
    // Each pattern that matches nothing is named, beside one that matches.
    let two =
        "[schemas]\ninclude = [\"net/*.blink\", \"more/*.blink\", \"other/*.blink\"]\nexclude = [\"net/old.blink\"]";
    std::fs::write(dir.join("blinkblox.toml"), with(two)).expect("write");
    let assert = sync(&dir, &[]).success();
    let err = stderr(&assert);
    for pattern in [
        "include` pattern `more/*.blink`",
        "include` pattern `other/*.blink`",
        "exclude` pattern `net/old.blink`",
    ] {
        assert!(err.contains(pattern), "{pattern}: {err}");
    }
    // An empty project asked for explicitly removes the modules.
    let empty = "[schemas]\ninclude = [\"nothing/*.blink\"]\nallow_empty = true";
    std::fs::write(dir.join("blinkblox.toml"), with(empty)).expect("write");
    sync(&dir, &[]).success();
    assert!(files_under(&dir.join("out")).is_empty());
}

#[test]
fn schemas_and_imports_from_outside_the_project_are_refused() {
    let (temp, dir) = game(&[
        (
            "net/a.blink",
            "import \"../../shared/common\" as Common\nevent Hit { From: Client, Type: Reliable, Call: SingleSync, Data: Common.Id }\n",
        ),
        ("blinkblox.toml", &manifest("path = \"out\"")),
    ]);
    std::fs::create_dir_all(temp.path().join("shared")).expect("mkdir");
    std::fs::write(temp.path().join("shared/common.blink"), "type Id = u16\n").expect("write");
    let err = failed(&dir, &[]);
    assert!(
        err.contains("imports") && err.contains("which is outside the project"),
        "{err}"
    );
    let outside = "[schemas]\ninclude = [\"../shared/*.blink\"]\n\n[output]\npath = \"out\"\n";
    std::fs::write(dir.join("blinkblox.toml"), outside).expect("write");
    let err = failed(&dir, &[]);
    assert!(err.contains("reaches") && err.contains("outside the project"), "{err}");
    assert!(!dir.join("out").exists());
}

#[test]
fn two_schemas_with_one_remote_scope_are_refused_naming_both() {
    let (_temp, dir) = game(&[
        ("net/my shop.blink", EVENT),
        ("net/my_shop.blink", EVENT),
        ("blinkblox.toml", &manifest("path = \"out\"")),
    ]);
    let err = failed(&dir, &[]);
    assert!(
        err.contains("schemas `net/my shop.blink` and `net/my_shop.blink` both use the remote scope `my_shop`"),
        "{err}"
    );
    assert!(!dir.join("out").exists());
}

#[test]
fn a_lockfile_edited_by_hand_is_reported_and_repaired() {
    let package = "\n[package]\nname = \"studio/net\"\nversion = \"1.0.0\"\n";
    let (_temp, dir) = game(&[
        ("net/a.blink", EVENT),
        ("blinkblox.toml", &format!("{}{package}", manifest("path = \"out\""))),
    ]);
    sync(&dir, &[]).success();
    let lock_path = dir.join("blinkblox.lock");
    let good = read(&lock_path);
    let recorded = good
        .lines()
        .find(|line| line.starts_with("package = "))
        .and_then(|line| line.rsplit("sha256 = \"").next())
        .map(|rest| rest.trim_end_matches(['"', ' ', '}']).to_string())
        .expect("the package's sha256");
    let edited = good
        .replace(&recorded, &"0".repeat(64))
        .replace("MaxPacketSize = 16384", "MaxPacketSize = 1");
    std::fs::write(&lock_path, &edited).expect("edit");

    let err = failed(&dir, &["--locked"]);
    assert!(err.contains("was edited by hand"), "{err}");
    assert!(
        err.contains("the Wally package's zip sha256 is recorded as `0000"),
        "{err}"
    );
    assert!(
        err.contains("option `MaxPacketSize` is recorded as `1` but is `16384`"),
        "{err}"
    );
    sync(&dir, &[]).success();
    assert_eq!(read(&lock_path), good, "sync rewrites every field it owns");
    sync(&dir, &["--locked"]).success();
    crate::common::blinkblox(&dir).arg("package").assert().success();
}

#[test]
fn temporary_files_of_a_killed_sync_are_reported_then_removed() {
    let (_temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest("path = \"out\""))]);
    sync(&dir, &[]).success();
    // What a sync killed between writing and renaming leaves (no process has this id).
    let leftover = dir.join("out/a/.Server.luau.blinkblox-99999999.tmp");
    std::fs::write(&leftover, "half a module").expect("write");
    let lock_leftover = dir.join(".blinkblox.lock.blinkblox-99999999.tmp");
    std::fs::write(&lock_leftover, "half a lockfile").expect("write");
    if cfg!(target_os = "linux") {
        let err = failed(&dir, &["--locked"]);
        assert!(
            err.contains("`out/a/.Server.luau.blinkblox-99999999.tmp` is a temporary file"),
            "{err}"
        );
        assert!(
            err.contains("`.blinkblox.lock.blinkblox-99999999.tmp` is a temporary file"),
            "{err}"
        );
        let assert = sync(&dir, &[]).success();
        assert!(
            stderr(&assert).contains("removed `out/a/.Server.luau.blinkblox-99999999.tmp`"),
            "{}",
            stderr(&assert)
        );
        assert!(!leftover.exists() && !lock_leftover.exists());
        sync(&dir, &["--locked"]).success();
    }
}

#[test]
fn files_that_are_not_what_the_manifest_says_get_clear_messages() {
    let (_temp, dir) = game(&[("net/a.blink", EVENT), ("blinkblox.toml", &manifest("path = \"out\""))]);
    std::fs::write(
        dir.join("blinkblox.toml"),
        b"[schemas]\ninclude = [\"net/*.blink\"]\n# caf\xe9\n",
    )
    .expect("write");
    let err = failed(&dir, &[]);
    assert!(
        err.contains("blinkblox.toml`:3:6: not UTF-8 (byte 0xE9 at offset 41)"),
        "{err}"
    );

    std::fs::write(dir.join("blinkblox.toml"), manifest("path = \"blinkblox.lock\"")).expect("write");
    let err = failed(&dir, &[]);
    assert!(err.contains("names `blinkblox.lock`, the lockfile"), "{err}");
    assert!(!dir.join("blinkblox.lock").exists());

    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    let rojo = format!(
        "{}\n[rojo]\nproject = \"src\"\n",
        manifest("instance = \"ReplicatedStorage.Net\"")
    );
    std::fs::write(dir.join("blinkblox.toml"), rojo).expect("write");
    let err = failed(&dir, &[]);
    assert!(
        err.contains("`[rojo] project = \"src\"` is a folder with no `default.project.json`"),
        "{err}"
    );

    std::fs::write(
        dir.join("default.project.json"),
        r#"{ "name": "g", "tree": { "ReplicatedStorage": { "$path": "." } } }"#,
    )
    .expect("write");
    std::fs::write(
        dir.join("blinkblox.toml"),
        manifest("instance = \"ReplicatedStorage.Net\""),
    )
    .expect("write");
    let err = failed(&dir, &[]);
    assert!(
        err.contains("`tree.ReplicatedStorage.$path` is `.`, which leads back to this project file"),
        "{err}"
    );
}
