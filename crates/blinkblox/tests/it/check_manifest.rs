//! `blinkblox check` without arguments reads `blinkblox.toml` when there is one: it checks
//! the schemas the manifest lists, with the manifest's option defaults.

use crate::sync_support::{blinkblox, project, read, stderr, stdout};

#[test]
fn check_without_arguments_checks_the_manifest_schemas() {
    let (_temp, dir) = project("basic");
    // net/shared/common.blink is excluded by the manifest (it is only imported).
    let assert = blinkblox(&dir.join("net/ui")).arg("check").assert().success();
    assert!(stdout(&assert).contains("checked 3 schemas"), "{}", stdout(&assert));
    assert!(!dir.join("blinkblox.lock").exists(), "check writes nothing");

    // Without the manifest, every .blink file under the folder is checked.
    std::fs::remove_file(dir.join("blinkblox.toml")).expect("remove manifest");
    let assert = blinkblox(&dir).arg("check").assert().success();
    assert!(stdout(&assert).contains("checked 4 schemas"), "{}", stdout(&assert));
}

#[test]
fn check_reports_a_bad_manifest() {
    let (_temp, dir) = project("basic");
    let manifest = dir.join("blinkblox.toml");
    std::fs::write(
        &manifest,
        read(&manifest).replace("[output]\n", "[output]\nfolder = 1\n"),
    )
    .expect("edit");
    let assert = blinkblox(&dir).arg("check").assert().failure().code(1);
    assert!(
        stderr(&assert).contains("unknown key `folder` in [output]"),
        "{}",
        stderr(&assert)
    );
}

#[test]
fn check_applies_the_manifest_option_defaults() {
    let (_temp, dir) = project("basic");
    let manifest = dir.join("blinkblox.toml");
    std::fs::write(&manifest, read(&manifest) + "Casing = \"Camle\"\n").expect("edit");
    let assert = blinkblox(&dir).arg("check").assert().failure().code(1);
    let out = stdout(&assert) + &stderr(&assert);
    assert!(out.contains("Camle"), "{out}");
}

/// A bad `[options]` value is an error at its line of the manifest, as sync reports it, and
/// is said once, not once a schema in a made-up `<project defaults>` file.
#[test]
fn check_reports_a_bad_option_default_at_its_manifest_line() {
    let (_temp, dir) = project("basic");
    let manifest = dir.join("blinkblox.toml");
    std::fs::write(&manifest, read(&manifest) + "Casing = 5\n").expect("edit");
    let line = read(&manifest).lines().count();
    let assert = blinkblox(&dir).arg("check").assert().failure().code(1);
    let err = stderr(&assert);
    let expected = format!("error: blinkblox.toml:{line}: `[options] Casing`: option `Casing` takes");
    assert!(err.contains(&expected), "{err}");
    assert_eq!(err.matches("[options] Casing").count(), 1, "{err}");
    assert!(!err.contains("<project defaults>"), "{err}");
    let synced = blinkblox(&dir).arg("sync").assert().failure().code(1);
    assert!(stderr(&synced).contains(&expected), "{}", stderr(&synced));
}

/// Limits that contradict each other, both set in the manifest, are reported at the
/// manifest's line, not at the first byte of every schema.
#[test]
fn contradicting_limits_from_the_manifest_are_reported_there() {
    let (_temp, dir) = project("basic");
    let manifest = dir.join("blinkblox.toml");
    std::fs::write(
        &manifest,
        read(&manifest) + "MaxPacketSize = 4000\nInboundBurst = 1000\n",
    )
    .expect("edit");
    let line = read(&manifest)
        .lines()
        .position(|text| text.starts_with("InboundBurst"))
        .expect("the line")
        + 1;
    for command in ["check", "sync"] {
        let assert = blinkblox(&dir).arg(command).assert().failure().code(1);
        let err = stderr(&assert);
        assert!(
            err.contains(&format!(
                "blinkblox.toml:{line}: `[options] InboundBurst`: `InboundBurst` (1000) is smaller than `MaxPacketSize` (4000)"
            )),
            "{command}: {err}"
        );
        assert!(!err.contains(".blink:1:1"), "{command}: {err}");
    }
}
