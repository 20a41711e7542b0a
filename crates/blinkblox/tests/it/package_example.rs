//! `blinkblox package` on the example place: the folder and zip it writes, laid out as
//! `wally package` lays them out, with the manifest's `[package]` fields, and the same
//! bytes every time.

use std::path::Path;

use sha2::Digest;

use crate::package_support::*;

const EXPECTED_ENTRIES: [&str; 10] = [
    "default.project.json",
    "src/",
    "src/chat/",
    "src/chat/Client.luau",
    "src/chat/Server.luau",
    "src/combat/",
    "src/combat/Client.luau",
    "src/combat/Server.luau",
    "src/init.luau",
    "wally.toml",
];

fn zip_path(dir: &Path) -> std::path::PathBuf {
    dir.join("dist").join(format!("{INDEX_FOLDER}.zip"))
}

#[test]
fn packages_the_example_as_wally_lays_out_a_package() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let run = package(&dir, &[]).success();
    let out = stdout(&run);
    assert!(
        out.contains("packaged blinkblox/arena-net 0.1.0 (shared realm, 2 schemas)"),
        "{out}"
    );
    assert!(out.contains(&format!("dist/{INDEX_FOLDER}.zip")), "{out}");

    // It synced first: the modules are in the Rojo tree and the lockfile is written.
    assert!(dir.join("blinkblox.lock").is_file());
    // The example keeps its Server modules on the server; the package holds each schema's
    // modules in one folder.
    let synced = |schema: &str, side: &str| {
        let folder = if side == "Server" {
            "src/server/Net"
        } else {
            "src/shared/Net"
        };
        read_bytes(&dir.join(format!("{folder}/{schema}/{side}.luau")))
    };

    let zip_bytes = read_bytes(&zip_path(&dir));
    let sha: String = sha2::Sha256::digest(&zip_bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        out.contains(&format!("sha256 {sha}")),
        "the printed hash is the zip's: {out}"
    );
    let lock = blinkblox_project::lockfile::Lockfile::read(&dir.join("blinkblox.lock"))
        .expect("lockfile")
        .expect("written by the sync");
    let recorded = lock.package.expect("the lockfile records the package");
    assert_eq!(
        (
            recorded.name.as_str(),
            recorded.version.as_str(),
            recorded.sha256.as_str()
        ),
        ("blinkblox/arena-net", VERSION, sha.as_str()),
        "blinkblox.lock records the zip's inputs by its hash"
    );
    let entries = zip_entries(&zip_bytes);
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names, EXPECTED_ENTRIES,
        "zip root is the package root, wally.toml at the top level"
    );
    for entry in &entries {
        assert_eq!(entry.modified, "1980-01-01 00:00:00", "{}: fixed timestamp", entry.name);
        if entry.is_dir {
            assert!(entry.contents.is_empty());
            assert_eq!(entry.unix_mode.map(|m| m & 0o777), Some(0o755), "{}", entry.name);
        } else {
            assert!(entry.deflated, "{} is deflated like Wally's", entry.name);
            assert_eq!(entry.unix_mode.map(|m| m & 0o777), Some(0o644), "{}", entry.name);
        }
    }
    let entry = |name: &str| {
        &entries
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no entry {name}"))
            .contents
    };
    for schema in ["chat", "combat"] {
        for side in ["Server", "Client"] {
            assert_eq!(
                *entry(&format!("src/{schema}/{side}.luau")),
                synced(schema, side),
                "{schema}/{side} is the synced module"
            );
        }
    }

    let wally: toml::Table = toml::from_str(std::str::from_utf8(entry("wally.toml")).expect("utf8")).expect("toml");
    let fields = wally["package"].as_table().expect("[package]");
    assert_eq!(fields["name"].as_str(), Some("blinkblox/arena-net"));
    assert_eq!(fields["version"].as_str(), Some("0.1.0"));
    assert_eq!(fields["realm"].as_str(), Some("shared"));
    assert_eq!(fields["license"].as_str(), Some("MIT"));
    assert_eq!(
        fields["registry"].as_str(),
        Some("https://github.com/UpliftGames/wally-index")
    );
    assert_eq!(
        fields["description"].as_str(),
        Some("The arena example's network modules")
    );
    assert!(fields["authors"].as_array().is_some_and(|a| !a.is_empty()));
    assert!(
        !fields.contains_key("homepage") && !fields.contains_key("private"),
        "unset fields are left out"
    );
    assert!(wally["dependencies"].as_table().is_some_and(|deps| deps.is_empty()));

    let project: serde_json::Value = serde_json::from_slice(entry("default.project.json")).expect("json");
    assert_eq!(project["name"], "arena-net", "the project is named after the package");
    assert_eq!(project["tree"]["$path"], "src");

    let init = String::from_utf8(entry("src/init.luau").clone()).expect("utf8");
    assert!(init.starts_with("--!strict\n"), "{init}");
    for schema in ["chat", "combat"] {
        assert!(
            init.contains(&format!(
                "{schema} = lazy(\"blinkblox/arena-net.{schema}\", {{ \"{schema}\" }}"
            )),
            "{init}"
        );
    }

    // The package folder holds the same files as the zip.
    let folder = dir.join("dist").join(INDEX_FOLDER);
    let files: Vec<String> = files_under(&folder);
    let zipped: Vec<&str> = EXPECTED_ENTRIES.iter().copied().filter(|n| !n.ends_with('/')).collect();
    assert_eq!(files, zipped);
    for name in zipped {
        assert_eq!(
            read_bytes(&folder.join(name)),
            *entry(name),
            "{name}: folder and zip agree"
        );
    }
}

#[test]
fn the_same_sources_give_a_byte_identical_zip() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    package(&dir, &[]).success();
    let first = read_bytes(&zip_path(&dir));

    // Again in place (the sync has nothing to do), then from scratch in another folder.
    let again = package(&dir, &[]).success();
    assert!(stdout(&again).contains("packaged"), "{}", stdout(&again));
    assert_eq!(read_bytes(&zip_path(&dir)), first, "rebuilt in place");

    let other = tempfile::tempdir().expect("tempdir");
    let elsewhere = example_copy(&other.path().join("somewhere/else"));
    package(&elsewhere, &[]).success();
    assert_eq!(
        read_bytes(&zip_path(&elsewhere)),
        first,
        "rebuilt from scratch elsewhere"
    );

    // A real change to a schema changes the zip.
    let schema = elsewhere.join("net/chat.blink");
    let edited = read(&schema)
        + "\nevent Typing {\n    From: Client,\n    Type: Unreliable,\n    Call: SingleSync,\n    Data: boolean,\n}\n";
    std::fs::write(&schema, edited).expect("edit schema");
    package(&elsewhere, &[]).success();
    assert_ne!(
        read_bytes(&zip_path(&elsewhere)),
        first,
        "a schema edit shows in the package"
    );
}

#[test]
fn output_and_manifest_path_flags() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let out_dir = temp.path().join("out");
    let run = package(
        temp.path(),
        &["--manifest-path", "arena/blinkblox.toml", "--output", "out"],
    )
    .success();
    assert!(
        out_dir.join(format!("{INDEX_FOLDER}.zip")).is_file(),
        "{}",
        stdout(&run)
    );
    assert!(out_dir.join(INDEX_FOLDER).join("wally.toml").is_file());
    assert!(!dir.join("dist").exists(), "nothing in the default folder");

    // --locked passes on an up-to-date project and fails when a schema changed.
    package(&dir, &["--locked"]).success();
    let schema = dir.join("net/chat.blink");
    std::fs::write(&schema, read(&schema) + "\n-- a comment\n").expect("edit");
    let locked = package(&dir, &["--locked"]).failure().code(1);
    assert!(stderr(&locked).contains("--locked"), "{}", stderr(&locked));
}

#[test]
fn an_existing_folder_that_is_not_a_package_is_left_alone() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let folder = dir.join("dist").join(INDEX_FOLDER);
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(folder.join("notes.txt"), "mine").expect("write");
    let run = package(&dir, &[]).failure().code(1);
    assert!(stderr(&run).contains("not a package folder"), "{}", stderr(&run));
    assert_eq!(read(&folder.join("notes.txt")), "mine");

    // A folder this command wrote is replaced whole: the modules of a schema that is gone
    // go with it, even when `[package] exclude` kept them out of the zip.
    std::fs::remove_dir_all(&folder).expect("clear");
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    let at = text.find("[package]\n").expect("a [package] table") + "[package]\n".len();
    std::fs::write(
        &manifest,
        format!("{}exclude = [\"src/chat\"]\n{}", &text[..at], &text[at..]),
    )
    .expect("edit");
    package(&dir, &[]).success();
    assert!(folder.join("src/chat/Server.luau").is_file());
    std::fs::remove_file(dir.join("net/chat.blink")).expect("remove a schema");
    package(&dir, &[]).success();
    assert!(!folder.join("src/chat").exists(), "the removed schema's modules go");
    assert!(folder.join("src/combat/Server.luau").is_file());

    // A file this command never wrote stops the replacement and is kept.
    std::fs::write(folder.join("src/notes.txt"), "mine").expect("write");
    let run = package(&dir, &[]).failure().code(1);
    assert!(
        stderr(&run).contains("it holds `src/notes.txt`, which blinkblox package did not write"),
        "{}",
        stderr(&run)
    );
    assert_eq!(read(&folder.join("src/notes.txt")), "mine");
    assert!(
        folder.join("src/combat/Server.luau").is_file(),
        "the folder is untouched"
    );
    std::fs::remove_file(folder.join("src/notes.txt")).expect("remove");

    // A file named like a module is only the package's when it carries the generated
    // banner: somebody's own `Server.luau` is kept, beside the modules or in their place.
    let own = "-- my own server code\nreturn {}\n";
    std::fs::create_dir_all(folder.join("src/tools")).expect("mkdir");
    std::fs::write(folder.join("src/tools/Server.luau"), own).expect("write");
    let run = package(&dir, &[]).failure().code(1);
    assert!(
        stderr(&run).contains("it holds `src/tools/Server.luau`, which blinkblox package did not write"),
        "{}",
        stderr(&run)
    );
    assert_eq!(read(&folder.join("src/tools/Server.luau")), own);
    std::fs::remove_dir_all(folder.join("src/tools")).expect("remove");
    std::fs::write(folder.join("src/combat/Client.luau"), own).expect("write");
    let run = package(&dir, &[]).failure().code(1);
    assert!(
        stderr(&run).contains("it holds `src/combat/Client.luau`, which blinkblox package did not write"),
        "{}",
        stderr(&run)
    );
    assert_eq!(read(&folder.join("src/combat/Client.luau")), own);

    // The generated modules themselves are replaced, as before.
    std::fs::remove_file(folder.join("src/combat/Client.luau")).expect("remove");
    package(&dir, &[]).success();
    assert!(read(&folder.join("src/combat/Client.luau")).contains("generated by BlinkBlox"));
}

#[test]
fn types_modules_are_packaged_and_exposed() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest).replace(
        "instance = \"ReplicatedStorage.Shared.Net\"",
        "instance = \"ReplicatedStorage.Shared.Net\"\ntypes = true",
    );
    std::fs::write(&manifest, text).expect("write manifest");
    package(&dir, &[]).success();
    let entries = zip_entries(&read_bytes(&zip_path(&dir)));
    for schema in ["chat", "combat"] {
        let name = format!("src/{schema}/Types.luau");
        let entry = entries
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(
            entry.contents,
            read_bytes(&dir.join(format!("src/shared/Net/{schema}/Types.luau")))
        );
    }
    let init = entries.iter().find(|e| e.name == "src/init.luau").expect("init");
    let init = String::from_utf8_lossy(&init.contents);
    assert!(
        init.contains("lazy(\"blinkblox/arena-net.chat\", { \"chat\" }, { \"Server\", \"Client\", \"Types\" }, {})"),
        "{init}"
    );
    assert!(init.contains("Types: typeof(require(script.chat.Types)),"), "{init}");
}
