//! The release workflow's asset names are ones Rokit and Aftman pick for the right machine.
//! The names are read from `.github/workflows/release.yml` itself (its build matrix and the
//! step that names the zip), so renaming an asset there without keeping to the rules fails
//! here. The rules are restated, with the files they come from, in `release_matching.rs`.

use std::collections::BTreeSet;

use crate::release_matching::{
    Arch, Format, Os, aftman_descriptor, rokit_compatible, rokit_descriptor, rokit_non_tool_words,
    rokit_split_extensions,
};

const TOOL: &str = "blinkblox";

/// One line of the build matrix: `- { os: linux, arch: x86_64, target: …, runner: … }`.
#[derive(Debug)]
struct Platform {
    os: String,
    arch: String,
    target: String,
}

fn workflow() -> String {
    let path = crate::repo_root().join(".github/workflows/release.yml");
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

fn field<'a>(entry: &'a str, key: &str) -> Option<&'a str> {
    entry
        .split(',')
        .filter_map(|part| part.split_once(':'))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, value)| value.trim())
}

fn platforms(workflow: &str) -> Vec<Platform> {
    workflow
        .lines()
        .filter_map(|line| {
            let entry = line.trim().strip_prefix("- {")?.strip_suffix('}')?;
            Some(Platform {
                os: field(entry, "os")?.to_string(),
                arch: field(entry, "arch")?.to_string(),
                target: field(entry, "target")?.to_string(),
            })
        })
        .collect()
}

/// The value assigned to `name=` in the workflow's shell steps, quotes removed.
fn assigned<'a>(workflow: &'a str, name: &str) -> Vec<&'a str> {
    workflow
        .lines()
        .filter_map(|line| line.trim().strip_prefix(&format!("{name}=")))
        .map(|value| value.split(';').next().unwrap_or(value).trim().trim_matches('"'))
        .collect()
}

/// The asset name the zip step writes for `platform` and `version`.
fn asset_name(workflow: &str, platform: &Platform, version: &str) -> String {
    let templates = assigned(workflow, "asset");
    assert_eq!(templates.len(), 1, "one `asset=` line names the zip: {templates:?}");
    let name = templates[0]
        .replace("${version}", version)
        .replace("${ASSET_OS}", &platform.os)
        .replace("${ASSET_ARCH}", &platform.arch);
    assert!(
        !name.contains('$'),
        "the asset name uses a value this test does not know: {name}"
    );
    name
}

fn expected(platform: &Platform) -> (Os, Arch) {
    let os = match platform.os.as_str() {
        "linux" => Os::Linux,
        "macos" => Os::Macos,
        "windows" => Os::Windows,
        other => panic!("unexpected os {other}"),
    };
    let arch = match platform.arch.as_str() {
        "x86_64" => Arch::X64,
        "aarch64" => Arch::Arm64,
        other => panic!("unexpected arch {other}"),
    };
    (os, arch)
}

#[test]
fn the_workflow_builds_the_six_platforms_from_a_version_tag() {
    let workflow = workflow();
    assert!(
        workflow.contains("tags: [\"v*\"]"),
        "the release runs on a pushed v* tag"
    );
    let found: BTreeSet<(String, String)> = platforms(&workflow)
        .iter()
        .map(|p| (p.os.clone(), p.arch.clone()))
        .collect();
    let wanted: BTreeSet<(String, String)> = ["linux", "macos", "windows"]
        .iter()
        .flat_map(|os| ["x86_64", "aarch64"].map(|arch| (os.to_string(), arch.to_string())))
        .collect();
    assert_eq!(found, wanted);
    assert_eq!(platforms(&workflow).len(), 6, "each platform is built once");
    for platform in platforms(&workflow) {
        assert!(
            platform.target.starts_with(&platform.arch),
            "{platform:?}: the Rust target builds another architecture"
        );
        let os_word = match platform.os.as_str() {
            "macos" => "apple-darwin",
            other => other,
        };
        assert!(
            platform.target.contains(os_word),
            "{platform:?}: the Rust target is for another OS"
        );
    }
    // The version in the name is the tag's, without its `v`.
    assert_eq!(assigned(&workflow, "version"), vec!["${GITHUB_REF_NAME#v}"; 2]);
}

#[test]
fn rokit_reads_each_asset_as_its_platform_and_picks_it_on_that_machine() {
    let workflow = workflow();
    let version = env!("CARGO_PKG_VERSION");
    let platforms = platforms(&workflow);
    let assets: Vec<(String, (Os, Arch))> = platforms
        .iter()
        .map(|p| (asset_name(&workflow, p, version), expected(p)))
        .collect();
    for (name, (os, arch)) in &assets {
        assert!(name.starts_with(&format!("{TOOL}-{version}-")), "{name}");
        let descriptor = rokit_descriptor(name).unwrap_or_else(|| panic!("Rokit finds no OS in {name}"));
        assert_eq!(descriptor.os, *os, "{name}");
        assert_eq!(descriptor.arch, Some(*arch), "{name}");
        assert_eq!(descriptor.format, Some(Format::Zip), "{name}");
        let (stem, _) = rokit_split_extensions(name);
        assert_eq!(
            rokit_non_tool_words(stem, TOOL),
            0,
            "{name}: words besides the tool's name, OS, arch and version lower Rokit's preference"
        );
    }
    // On every host, of all six assets Rokit prefers the exact build (it sorts exact OS and
    // arch matches before the ones it runs by emulation, e.g. x64 on an arm64 Mac).
    for (_, host) in &assets {
        let compatible: Vec<&String> = assets
            .iter()
            .filter(|(name, _)| rokit_compatible(*host, &rokit_descriptor(name).expect("descriptor")))
            .map(|(name, _)| name)
            .collect();
        let exact: Vec<&String> = assets.iter().filter(|(_, p)| p == host).map(|(n, _)| n).collect();
        assert_eq!(exact.len(), 1, "{host:?}");
        assert!(compatible.contains(&exact[0]), "{host:?}: {compatible:?}");
        for other in &compatible {
            let d = rokit_descriptor(other).expect("descriptor");
            assert!(
                *other == exact[0] || d.arch != Some(host.1),
                "{host:?}: {other} is read as the same platform as {}",
                exact[0]
            );
        }
    }
}

#[test]
fn aftman_reads_each_asset_as_its_platform() {
    let workflow = workflow();
    for platform in platforms(&workflow) {
        let name = asset_name(&workflow, &platform, "1.2.3");
        let (os, arch) = expected(&platform);
        assert_eq!(aftman_descriptor(&name), Some((Some(os), Some(arch))), "{name}");
    }
}

#[test]
fn each_zip_holds_the_binary_under_the_tool_name() {
    let workflow = workflow();
    // Rokit and Aftman install the zip entry named `<tool>` (`<tool>.exe` on Windows).
    let executables = assigned(&workflow, "exe");
    assert_eq!(executables, vec![TOOL], "the binary is named like the tool");
    assert!(
        workflow.contains("if [ \"$ASSET_OS\" = windows ]; then exe=blinkblox.exe; fi"),
        "the Windows zip holds blinkblox.exe"
    );
    // Zipped from inside dist/, so the entry is the bare file name at the zip's root.
    assert!(
        workflow.contains("zip -9 \"$asset\" \"$exe\""),
        "the Unix zip holds the bare binary"
    );
    assert!(
        workflow.contains("7z a -tzip \"$asset\" \"$exe\""),
        "the Windows zip holds the bare binary"
    );
    assert!(
        workflow.contains("chmod 755 \"$exe\""),
        "the Unix binary is executable in the zip"
    );
}
