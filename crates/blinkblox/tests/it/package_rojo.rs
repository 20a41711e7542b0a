//! The package as a game uses it: `blinkblox package` the example, install the zip the way
//! `wally install` does (`Packages/_Index/<scope>_<name>@<ver>/<name>/` plus the link file
//! `Packages/ArenaNet.lua`) into a Rojo game whose scripts require the package, build the
//! place with the real `rojo`, and read it back with rbx_binary:
//!
//! - the link ModuleScript and the package's ModuleScripts are there with their Source;
//! - every instance path the link file and `init.luau` name resolves in the place;
//! - the place's own scripts, with those instances, run in the embedded Roblox mock and
//!   talk to each other through the package.
//!
//! Needs `rojo` 7.7.1 (on PATH or in ~/.cargo/bin). Skipped, saying so, only when rojo is
//! missing and `CI` is unset.

use std::path::{Path, PathBuf};

use blinkblox_luau::{Mode, Simulation, World};
use rbx_dom_weak::types::{Ref, Variant};
use rbx_dom_weak::{WeakDom, ustr};

use crate::package_support::*;

const GAME_PROJECT: &str = r#"{
  "name": "game",
  "tree": {
    "$className": "DataModel",
    "ReplicatedStorage": {
      "Packages": { "$path": "Packages" }
    },
    "ServerScriptService": {
      "Server": { "$path": "src/server" }
    },
    "StarterPlayer": {
      "StarterPlayerScripts": {
        "Client": { "$path": "src/client" }
      }
    }
  }
}
"#;

const GAME_WALLY_TOML: &str = r#"[package]
name = "studio/game"
version = "0.1.0"
registry = "https://github.com/UpliftGames/wally-index"
realm = "shared"
private = true

[dependencies]
ArenaNet = "blinkblox/arena-net@0.1.0"
"#;

/// A Rojo game with the example's scripts and the package installed as Wally installs it.
fn make_game(parent: &Path, zip: &[u8]) -> PathBuf {
    let example = crate::repo_root().join("examples/arena");
    let game = parent.join("game");
    for script in ["server/main.server.luau", "client/main.client.luau"] {
        let path = game.join("src").join(script);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        let text = using_the_package(
            &read(&example.join("src").join(script)),
            &format!("ReplicatedStorage.Packages.{ALIAS}"),
        );
        std::fs::write(&path, text).expect("write script");
    }
    std::fs::write(game.join("default.project.json"), GAME_PROJECT).expect("write project");
    std::fs::write(game.join("wally.toml"), GAME_WALLY_TOML).expect("write wally.toml");
    install_like_wally(zip, &game);
    game
}

fn child(dom: &WeakDom, parent: Ref, name: &str) -> Option<Ref> {
    let instance = dom.get_by_ref(parent)?;
    instance
        .children()
        .iter()
        .copied()
        .find(|c| dom.get_by_ref(*c).is_some_and(|i| i.name == name))
}

fn find(dom: &WeakDom, path: &[&str]) -> Option<Ref> {
    path.iter().try_fold(dom.root_ref(), |at, name| child(dom, at, name))
}

fn class_of(dom: &WeakDom, at: Ref) -> String {
    dom.get_by_ref(at).map(|i| i.class.to_string()).unwrap_or_default()
}

fn source_of(dom: &WeakDom, at: Ref) -> String {
    let instance = dom.get_by_ref(at).expect("instance");
    match instance.properties.get(&ustr("Source")) {
        Some(Variant::String(source)) => source.clone(),
        other => panic!("{} has no string Source: {other:?}", instance.name),
    }
}

/// Follows a Luau instance expression such as `script.Parent._Index["a@1"]["a"]` or
/// `script.chat.Server` from `script` in the place; `None` when a step does not exist.
fn resolve_expression(dom: &WeakDom, script: Ref, expression: &str) -> Option<Ref> {
    let mut rest = expression.strip_prefix("script")?;
    let mut at = script;
    while !rest.is_empty() {
        let name;
        if let Some(after) = rest.strip_prefix("[\"") {
            let end = after.find("\"]")?;
            name = &after[..end];
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            name = &after[..end];
            rest = &after[end..];
        } else {
            return None;
        }
        at = if name == "Parent" {
            dom.get_by_ref(at)?.parent()
        } else {
            child(dom, at, name)?
        };
        dom.get_by_ref(at)?;
    }
    Some(at)
}

/// Every `lazy("label", { "a", "b" }, { "Server", "Client" }` in init.luau as
/// (folder path, module names): what the root module requires at run time.
fn lazy_entries(init: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let strings = |list: &str| -> Vec<String> {
        list.split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let mut out = Vec::new();
    for piece in init.split("lazy(\"").skip(1) {
        let Some(after_label) = piece.find("\", {").map(|i| &piece[i + 4..]) else {
            continue;
        };
        let Some((path, after_path)) = after_label.split_once('}') else {
            continue;
        };
        let Some(modules) = after_path
            .trim_start_matches([',', ' '])
            .strip_prefix('{')
            .and_then(|m| m.split_once('}'))
            .map(|(m, _)| m)
        else {
            continue;
        };
        out.push((strings(path), strings(modules)));
    }
    out
}

/// Every `require(<instance expression>)` inside `typeof(...)` in init.luau.
fn typed_requires(init: &str) -> Vec<String> {
    init.split("typeof(require(")
        .skip(1)
        .filter_map(|piece| piece.split_once("))").map(|(expr, _)| expr.to_string()))
        .collect()
}

#[test]
#[ignore = "needs rojo 7.7.1 on PATH: .ci/run installs it and runs the ignored tests"]
fn the_installed_package_builds_with_rojo_and_its_requires_resolve() {
    let rojo = crate::common::rojo_binary()
        .expect("rojo 7.7.1 is not on PATH: `cargo install rojo --version 7.7.1 --locked` (.ci/run does)");
    let temp = tempfile::tempdir().expect("tempdir");
    let example = example_copy(temp.path());
    package(&example, &[]).success();
    let zip = read_bytes(&example.join("dist").join(format!("{INDEX_FOLDER}.zip")));
    let game = make_game(temp.path(), &zip);
    let installed = game.join("Packages/_Index").join(INDEX_FOLDER).join(NAME);
    assert!(installed.join("wally.toml").is_file() && installed.join("src/init.luau").is_file());

    let place = temp.path().join("game.rbxl");
    let dom = rojo_build(&rojo, &game, &place);

    // The link file: a ModuleScript whose require path reaches the package's root module.
    let link = find(&dom, &["ReplicatedStorage", "Packages", ALIAS]).expect("the link ModuleScript");
    assert_eq!(class_of(&dom, link), "ModuleScript");
    let link_text = source_of(&dom, link);
    assert_eq!(link_text, link_source(INDEX_FOLDER, NAME));
    let required = link_text
        .trim()
        .strip_prefix("return require(")
        .and_then(|rest| rest.strip_suffix(')'))
        .expect("a `return require(...)` link");
    let root = resolve_expression(&dom, link, required).unwrap_or_else(|| panic!("{required} does not resolve"));
    assert_eq!(
        class_of(&dom, root),
        "ModuleScript",
        "the package folder is its root ModuleScript"
    );
    assert_eq!(
        Some(root),
        find(&dom, &["ReplicatedStorage", "Packages", "_Index", INDEX_FOLDER, NAME])
    );
    let init = read(&installed.join("src/init.luau"));
    assert_eq!(source_of(&dom, root), init);

    // Every module the root module requires lazily, and every typed path, exists with the
    // packaged source.
    let entries = lazy_entries(&init);
    assert_eq!(entries.len(), 2, "{init}");
    for (path, modules) in &entries {
        assert_eq!(modules, &["Server", "Client"]);
        for module in modules {
            let mut names: Vec<&str> = path.iter().map(String::as_str).collect();
            names.push(module);
            let at = names
                .iter()
                .try_fold(root, |at, name| child(&dom, at, name))
                .unwrap_or_else(|| panic!("{} is not in the place", names.join(".")));
            assert_eq!(class_of(&dom, at), "ModuleScript");
            let on_disk = read(&installed.join("src").join(names.join("/") + ".luau"));
            assert_eq!(source_of(&dom, at), on_disk, "{}", names.join("."));
        }
    }
    let typed = typed_requires(&init);
    assert_eq!(typed.len(), 4, "{typed:?}");
    for expression in &typed {
        let at = resolve_expression(&dom, root, expression).unwrap_or_else(|| panic!("{expression} does not resolve"));
        assert_eq!(class_of(&dom, at), "ModuleScript", "{expression}");
    }
    // Only the mapped `src` is in the place: no wally.toml or project file instances.
    let mut children: Vec<String> = dom
        .get_by_ref(root)
        .expect("root")
        .children()
        .iter()
        .filter_map(|c| dom.get_by_ref(*c).map(|i| format!("{} {}", i.class, i.name)))
        .collect();
    children.sort();
    assert_eq!(children, vec!["Folder chat", "Folder combat"]);

    run_the_place(&dom);
}

/// Copies the place's instance at `at` (and everything under it) into `world` under
/// `parent`, with `make(class, name, source, parent)` creating each instance.
fn mirror(world: &World, make: &mlua::Function, dom: &WeakDom, at: Ref, parent: mlua::Value) {
    let instance = dom.get_by_ref(at).expect("instance");
    let source = match instance.properties.get(&ustr("Source")) {
        Some(Variant::String(source)) => Some(source.clone()),
        _ => None,
    };
    let created: mlua::Value = world
        .call(
            make,
            (instance.class.to_string(), instance.name.clone(), source, parent),
        )
        .unwrap_or_else(|err| panic!("create {}: {err}", instance.name));
    for child in instance.children() {
        mirror(world, make, dom, *child, created.clone());
    }
}

/// Runs the place's server script and two clients' scripts in the Roblox mock, with the
/// installed package copied from the place into ReplicatedStorage.
fn run_the_place(dom: &WeakDom) {
    let packages = find(dom, &["ReplicatedStorage", "Packages"]).expect("Packages");
    let server_script = source_of(
        dom,
        find(dom, &["ServerScriptService", "Server", "main"]).expect("server script"),
    );
    let client_script = source_of(
        dom,
        find(dom, &["StarterPlayer", "StarterPlayerScripts", "Client", "main"]).expect("client script"),
    );
    assert!(server_script.contains(&format!("require(ReplicatedStorage.Packages.{ALIAS}).combat.Server")));

    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let server = sim.server();
    let make = instance_maker(server);
    let replicated: mlua::Value = server
        .eval("return game:GetService('ReplicatedStorage')")
        .expect("ReplicatedStorage");
    mirror(server, &make, dom, packages, replicated);
    server.spawn(&server_script).expect("run the server script");
    for _ in 0..2 {
        let index = sim.add_player().expect("a player joins");
        sim.client(index)
            .expect("client")
            .spawn(&client_script)
            .expect("run the client script");
    }
    sim.steps(400).expect("run the game");

    assert_arena_round(&sim, |index, has, prints| {
        assert!(has("Player1 has 90 health"), "client {index}: {prints:?}");
    });
    // The lazy root module: a client never loaded a Server module.
    let loaded_server_on_client: bool = sim
        .client(0)
        .expect("client")
        .eval(&format!(
            "return rawget(require(game:GetService('ReplicatedStorage').Packages.{ALIAS}).combat, 'Server') ~= nil"
        ))
        .expect("inspect");
    assert!(!loaded_server_on_client);
    let unknown: mlua::Result<()> = sim.client(0).expect("client").exec(&format!(
        "local _ = require(game:GetService('ReplicatedStorage').Packages.{ALIAS}).combt"
    ));
    let message = unknown.expect_err("an unknown schema is an error").to_string();
    assert!(message.contains("has no \"combt\" (it has: chat, combat)"), "{message}");
}
