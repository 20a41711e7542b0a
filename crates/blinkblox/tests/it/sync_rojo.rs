//! A real Rojo build of the example place: sync `examples/arena`, `rojo build` it, read the
//! place back with rbx_binary and find the generated ModuleScripts with their source.
//!
//! Needs `rojo` 7.7.1 on PATH. Skipped (and says so) only when rojo is missing and `CI` is
//! unset; in CI a missing rojo fails the test.

use rbx_dom_weak::types::{Ref, Variant};
use rbx_dom_weak::{WeakDom, ustr};

use crate::sync_support::{copy_dir, read, rojo_build, sync};

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

#[test]
#[ignore = "needs rojo 7.7.1 on PATH: .ci/run installs it and runs the ignored tests"]
fn rojo_builds_the_synced_example_with_the_generated_modules() {
    let rojo = crate::common::rojo_binary()
        .expect("rojo 7.7.1 is not on PATH: `cargo install rojo --version 7.7.1 --locked` (.ci/run does)");
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join("arena");
    let example = crate::repo_root().join("examples/arena");
    copy_dir(&example, &dir);
    for generated in ["src/shared/Net", "blinkblox.lock"] {
        let path = dir.join(generated);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).expect("clear old output");
        } else if path.exists() {
            std::fs::remove_file(&path).expect("clear old lockfile");
        }
    }
    sync(&dir, &[]).success();

    let place = temp.path().join("place.rbxl");
    let dom = rojo_build(&rojo, &dir, &place);

    for schema in ["combat", "chat"] {
        for side in ["Server", "Client"] {
            let path = ["ReplicatedStorage", "Shared", "Net", schema, side];
            let (class, source) = source_of(&dom, &path);
            assert_eq!(class, "ModuleScript", "{}", path.join("."));
            let on_disk = read(&dir.join(format!("src/shared/Net/{schema}/{side}.luau")));
            assert_eq!(source, on_disk, "{} holds the generated source", path.join("."));
            assert!(!source.is_empty());
        }
    }
    let (class, source) = source_of(&dom, &["ServerScriptService", "Server", "main"]);
    assert_eq!(class, "Script");
    assert!(source.contains("ReplicatedStorage.Shared.Net.combat.Server"));
    let (class, _) = source_of(&dom, &["StarterPlayer", "StarterPlayerScripts", "Client", "main"]);
    assert_eq!(class, "LocalScript");
}
