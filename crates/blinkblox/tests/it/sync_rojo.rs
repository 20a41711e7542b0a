//! A real Rojo build of the example place: sync `examples/arena`, `rojo build` it, read the
//! place back with rbx_binary and find the generated ModuleScripts with their source.
//!
//! Needs `rojo` 7.7.1 on PATH. Skipped (and says so) only when rojo is missing and `CI` is
//! unset; in CI a missing rojo fails the test.

use rbx_dom_weak::types::{Ref, Variant};
use rbx_dom_weak::{WeakDom, ustr};

use crate::sync_support::{read, rojo_build, sync};

/// The instance at `path` (names from the place's root, which is the DataModel).
fn find(dom: &WeakDom, path: &[&str]) -> Option<Ref> {
    let mut current = dom.root_ref();
    for name in path {
        let instance = dom.get_by_ref(current)?;
        current = *instance
            .children()
            .iter()
            .find(|child| dom.get_by_ref(**child).is_some_and(|c| c.name == *name))?;
    }
    Some(current)
}

fn source_of(dom: &WeakDom, path: &[&str]) -> (String, String) {
    let reference = find(dom, path).unwrap_or_else(|| panic!("no instance at {}", path.join(".")));
    let instance = dom.get_by_ref(reference).expect("instance");
    let source = match instance.properties.get(&ustr("Source")) {
        Some(Variant::String(source)) => source.clone(),
        other => panic!("{} has no string Source: {other:?}", path.join(".")),
    };
    (instance.class.to_string(), source)
}

/// rojo, and a fresh copy of the example (in the temporary folder returned) synced.
fn synced_arena() -> (std::path::PathBuf, tempfile::TempDir, std::path::PathBuf) {
    let rojo = crate::common::rojo_binary()
        .expect("rojo 7.7.1 is not on PATH: `cargo install rojo --version 7.7.1 --locked` (.ci/run does)");
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join("arena");
    crate::common::arena_copy(&dir);
    sync(&dir, &[]).success();
    (rojo, temp, dir)
}

#[test]
#[ignore = "needs rojo 7.7.1 on PATH: .ci/run installs it and runs the ignored tests"]
fn rojo_builds_the_synced_example_with_the_generated_modules() {
    let (rojo, temp, dir) = synced_arena();

    let place = temp.path().join("place.rbxl");
    let dom = rojo_build(&rojo, &dir, &place);

    for schema in ["combat", "chat"] {
        for (side, service) in [
            ("Server", ["ServerScriptService", "Server"]),
            ("Client", ["ReplicatedStorage", "Shared"]),
        ] {
            let path = [service[0], service[1], "Net", schema, side];
            let (class, source) = source_of(&dom, &path);
            assert_eq!(class, "ModuleScript", "{}", path.join("."));
            let on_disk = read(&crate::common::arena_module(&dir, schema, side));
            assert_eq!(source, on_disk, "{} holds the generated source", path.join("."));
            assert!(!source.is_empty());
        }
    }
    let (class, source) = source_of(&dom, &["ServerScriptService", "Server", "main"]);
    assert_eq!(class, "Script");
    assert!(source.contains("ServerScriptService.Server.Net.combat.Server"));
    // The Server modules are nowhere a client receives.
    assert!(
        find(&dom, &["ReplicatedStorage", "Shared", "Net", "combat", "Server"]).is_none(),
        "no Server module under ReplicatedStorage"
    );
    let (class, _) = source_of(&dom, &["StarterPlayer", "StarterPlayerScripts", "Client", "main"]);
    assert_eq!(class, "LocalScript");
}

/// The entry of a Rojo sourcemap at an instance path, `None` when there is none.
fn sourcemap_entry<'a>(map: &'a serde_json::Value, path: &[&str]) -> Option<&'a serde_json::Value> {
    path.iter().try_fold(map, |node, name| {
        node["children"].as_array()?.iter().find(|child| child["name"] == *name)
    })
}

/// luau-lsp reads its types of the generated modules from a Rojo sourcemap: one written
/// after a sync holds every module at its instance path, with its file.
#[test]
#[ignore = "needs rojo 7.7.1 on PATH: .ci/run installs it and runs the ignored tests"]
fn a_sourcemap_written_after_a_sync_holds_the_generated_modules() {
    let (rojo, _temp, dir) = synced_arena();
    let output = std::process::Command::new(rojo)
        .args(["sourcemap", "default.project.json", "--output", "sourcemap.json"])
        .current_dir(&dir)
        .output()
        .expect("run rojo sourcemap");
    assert!(
        output.status.success(),
        "rojo sourcemap failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let map: serde_json::Value = serde_json::from_str(&read(&dir.join("sourcemap.json"))).expect("sourcemap JSON");
    for schema in ["combat", "chat"] {
        for (path, file) in [
            (
                ["ServerScriptService", "Server", "Net", schema, "Server"],
                format!("src/server/Net/{schema}/Server.luau"),
            ),
            (
                ["ReplicatedStorage", "Shared", "Net", schema, "Client"],
                format!("src/shared/Net/{schema}/Client.luau"),
            ),
        ] {
            let entry =
                sourcemap_entry(&map, &path).unwrap_or_else(|| panic!("no {} in the sourcemap", path.join(".")));
            assert_eq!(entry["className"], "ModuleScript");
            let files: Vec<String> = entry["filePaths"]
                .as_array()
                .expect("filePaths")
                .iter()
                .filter_map(|path| path.as_str().map(|path| path.replace('\\', "/")))
                .collect();
            assert_eq!(files, [file]);
        }
    }
}
