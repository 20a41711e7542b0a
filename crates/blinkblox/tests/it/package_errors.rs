//! `blinkblox package` rejects what Wally would reject — bad names, versions, realms,
//! oversize packages — with an error naming the field and its manifest line, and writes
//! nothing when it does.

use std::path::Path;

use crate::package_support::*;
use blinkblox_package::{self as package, SchemaModules, archive};
use blinkblox_project::manifest::Manifest;

/// The example with its `[package]` table replaced by `table`.
fn example_with(parent: &Path, table: &str) -> std::path::PathBuf {
    let dir = example_copy(parent);
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    let start = text.find("\n[package]").expect("the copy has a [package] table");
    let rest = &text[start + 1..];
    // The table runs to the next header or the end of the file.
    let end = rest[1..].find("\n[").map(|i| start + i + 3).unwrap_or(text.len());
    let new_text = format!("{}{}{}", &text[..start + 1], table, &text[end..]);
    std::fs::write(&manifest, new_text).expect("write manifest");
    dir
}

/// Runs `blinkblox package`, expects exit 1, and returns stderr.
fn rejected(dir: &Path) -> String {
    let run = package(dir, &[]).failure().code(1);
    let err = stderr(&run);
    assert!(!dir.join("dist").exists(), "nothing packaged:\n{err}");
    assert!(!dir.join("blinkblox.lock").exists(), "checked before syncing:\n{err}");
    err
}

fn line_of(dir: &Path, key_start: &str) -> usize {
    read(&dir.join("blinkblox.toml"))
        .lines()
        .position(|line| line.starts_with(key_start))
        .map(|index| index + 1)
        .expect("key in manifest")
}

#[test]
fn bad_names_are_rejected_naming_the_field_and_line() {
    let temp = tempfile::tempdir().expect("tempdir");
    for (name, needle) in [
        ("Studio/net", "the scope \"Studio\" contains 'S'"),
        ("studio/Net", "the name \"Net\" contains 'N'"),
        ("studio/my_net", "contains '_'"),
        ("studio", "exactly one `/`"),
        ("studio/net/extra", "exactly one `/`"),
        ("/net", "the scope is empty"),
    ] {
        let dir = example_with(
            &temp.path().join(name.replace('/', "-")),
            &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nrealm = \"shared\"\n"),
        );
        let err = rejected(&dir);
        let line = line_of(&dir, "name = ");
        assert!(
            err.contains(&format!("blinkblox.toml:{line}: [package] name = \"{name}\"")),
            "{name}: {err}"
        );
        assert!(err.contains(needle), "{name}: {err}");
        assert!(err.contains("help:"), "{name}: {err}");
    }
    let long = "x".repeat(65);
    let dir = example_with(
        &temp.path().join("long"),
        &format!("[package]\nname = \"studio/{long}\"\nversion = \"0.1.0\"\n"),
    );
    assert!(rejected(&dir).contains("is 65 characters long; Wally allows at most 64"));
}

#[test]
fn bad_versions_and_realms_are_rejected() {
    let temp = tempfile::tempdir().expect("tempdir");
    for (index, version) in ["1.0", "v1.0.0", "1.0.0.0", "latest"].iter().enumerate() {
        let dir = example_with(
            &temp.path().join(format!("v{index}")),
            &format!("[package]\nname = \"studio/net\"\nversion = \"{version}\"\n"),
        );
        let err = rejected(&dir);
        let line = line_of(&dir, "version = ");
        assert!(
            err.contains(&format!(
                "blinkblox.toml:{line}: [package] version = \"{version}\" is not a semantic version"
            )),
            "{version}: {err}"
        );
    }
    let dir = example_with(
        &temp.path().join("realm"),
        "[package]\nname = \"studio/net\"\nversion = \"0.1.0\"\nrealm = \"client\"\n",
    );
    let err = rejected(&dir);
    let line = line_of(&dir, "realm = ");
    assert!(
        err.contains(&format!(
            "blinkblox.toml:{line}: [package] realm = \"client\" is not a Wally realm"
        )),
        "{err}"
    );
    assert!(
        err.contains("`shared`") && err.contains("`server`") && err.contains("`dev`"),
        "{err}"
    );

    let dir = example_with(&temp.path().join("missing"), "[package]\nname = \"studio/net\"\n");
    assert!(rejected(&dir).contains("[package] is missing `version`"));
    let dir = example_with(
        &temp.path().join("unknown"),
        "[package]\nname = \"studio/net\"\nversion = \"0.1.0\"\nflavour = \"x\"\n",
    );
    let err = rejected(&dir);
    assert!(err.contains("unknown key `flavour` in [package]"), "{err}");
}

/// Excluding a file every installed package needs is a mistake in the manifest: the error
/// names `exclude`'s line, before anything is synced or written.
#[test]
fn excluding_a_file_the_package_needs_names_the_exclude_line() {
    let temp = tempfile::tempdir().expect("tempdir");
    for (index, (globs, left_out)) in [
        ("[\"src\"]", "src/init.luau"),
        ("[\"*.toml\"]", "wally.toml"),
        ("[\"**/*.json\"]", "default.project.json"),
    ]
    .iter()
    .enumerate()
    {
        let dir = example_with(
            &temp.path().join(format!("e{index}")),
            &format!("[package]\nname = \"studio/net\"\nversion = \"0.1.0\"\nexclude = {globs}\n"),
        );
        let err = rejected(&dir);
        let line = line_of(&dir, "exclude = ");
        assert!(
            err.contains(&format!(
                "blinkblox.toml:{line}: [package] exclude leaves `{left_out}` out of the package"
            )),
            "{globs}: {err}"
        );
    }
    // `include` keeps a file an exclusion would take.
    let dir = example_with(
        &temp.path().join("kept"),
        "[package]\nname = \"studio/net\"\nversion = \"0.1.0\"\nexclude = [\"*.toml\"]\ninclude = [\"wally.toml\"]\n",
    );
    package(&dir, &[]).success();
}

#[test]
fn a_manifest_without_a_package_table_says_how_to_add_one() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    let start = text.find("\n[package]").expect("table");
    std::fs::write(&manifest, &text[..start + 1]).expect("write");
    let err = rejected(&dir);
    assert!(err.contains("there is no `[package]` table"), "{err}");
    assert!(err.contains("name = \"your-scope/net\""), "{err}");
}

/// xorshift bytes: incompressible, so the zip is as large as the input.
fn noise(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

#[test]
fn packages_over_two_mebibytes_are_rejected() {
    let text = "[schemas]\ninclude = [\"*.blink\"]\n[output]\npath = \"out\"\n[package]\nname = \"studio/net\"\nversion = \"1.0.0\"\n";
    let manifest =
        Manifest::parse(Path::new("/p/blinkblox.toml"), Path::new("/p"), text.to_string()).expect("manifest");
    let spec = blinkblox_project::wally::spec_of(&manifest).expect("spec");
    let schema = |len: usize| SchemaModules {
        folder: "big".into(),
        files: vec![
            ("Server.luau".into(), noise(len)),
            ("Client.luau".into(), b"return {}".to_vec()),
        ],
    };

    let fits = package::build(&spec, &[schema(1024 * 1024)]).expect("build");
    assert!(archive::check_size(fits.zip.len(), &fits.files).is_ok());

    let big = package::build(&spec, &[schema(archive::MAX_PACKAGE_BYTES)]).expect("build");
    assert!(big.zip.len() > archive::MAX_PACKAGE_BYTES);
    let err = archive::check_size(big.zip.len(), &big.files).unwrap_err();
    assert!(err.contains("over Wally's limit of 2 MiB (2097152 bytes)"), "{err}");
    assert!(err.contains("src/big/Server.luau (2.00 MiB)"), "{err}");
}
