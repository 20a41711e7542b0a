//! The package's root module, run: a package built from small stand-in modules is laid out
//! in the Roblox mock as Rojo and Wally would lay it out (a ModuleScript from `init.luau`,
//! a Folder per schema folder, a ModuleScript per module, the link module beside
//! `_Index`), then required through the link on a server and a client.

use blinkblox_luau::{Mode, Simulation, World};
use blinkblox_package::{self as package, SchemaModules};
use blinkblox_project::manifest::Manifest;
use std::path::Path;

fn module(side: &str, folder: &str) -> Vec<u8> {
    format!(
        "local RunService = game:GetService(\"RunService\")\nshared.loads = (shared.loads or 0) + 1\nreturn {{ side = \"{side}\", folder = \"{folder}\", onServer = RunService:IsServer() }}\n"
    )
    .into_bytes()
}

fn schema(folder: &str) -> SchemaModules {
    SchemaModules {
        folder: folder.to_string(),
        files: vec![
            ("Client.luau".into(), module("Client", folder)),
            ("Server.luau".into(), module("Server", folder)),
        ],
    }
}

/// Creates the package's instances in `world` the way `rojo build` makes them from the
/// installed package, and the link module Wally writes.
fn install(world: &World, built: &package::BuiltPackage) {
    let make: mlua::Function = world
        .eval(
            r#"return function(path, class, source)
                local parent = game:GetService("ReplicatedStorage")
                for index, name in path do
                    local child = parent:FindFirstChild(name)
                    if child == nil then
                        child = Instance.new(if index == #path then class else "Folder")
                        child.Name = name
                        if index == #path and source ~= nil then child.Source = source end
                        child.Parent = parent
                    end
                    parent = child
                end
            end"#,
        )
        .expect("maker");
    let index = built.folder_name();
    let name = built.spec.name.clone();
    let root = ["Packages", "_Index", index.as_str(), name.as_str()];
    let text = |path: &str| String::from_utf8(built.files[path].clone()).expect("utf8");
    let link = format!("return require(script.Parent._Index[\"{index}\"][\"{name}\"])\n");
    world
        .call::<()>(&make, (vec!["Packages", "Net"], "ModuleScript", link))
        .expect("link");
    world
        .call::<()>(&make, (root.to_vec(), "ModuleScript", text("src/init.luau")))
        .expect("root module");
    for path in built.files.keys() {
        let Some(rel) = path.strip_prefix("src/") else {
            continue;
        };
        let Some(stem) = rel.strip_suffix(".luau") else {
            continue;
        };
        if stem == "init" {
            continue;
        }
        let mut instance_path: Vec<&str> = root.to_vec();
        instance_path.extend(stem.split('/'));
        world
            .call::<()>(&make, (instance_path, "ModuleScript", text(path)))
            .expect("module");
    }
}

#[test]
fn the_root_module_requires_each_side_lazily_through_the_link() {
    let text = "[schemas]\ninclude = [\"*.blink\"]\n[output]\npath = \"o\"\n[package]\nname = \"studio/net\"\nversion = \"2.0.0\"\n";
    let manifest =
        Manifest::parse(Path::new("/p/blinkblox.toml"), Path::new("/p"), text.to_string()).expect("manifest");
    let spec = blinkblox_project::wally::spec_of(&manifest).expect("spec");
    let built = package::build(&spec, &[schema("combat"), schema("sub/my-chat"), schema("Parent")]).expect("build");

    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    install(sim.server(), &built);
    let index = sim.add_player().expect("player");
    sim.steps(2).expect("replicate");
    let client = sim.client(index).expect("client");
    install(client, &built);

    let require_net = "local Net = require(game:GetService('ReplicatedStorage').Packages.Net)\n";
    let (side, folder, on_server, loads): (String, String, bool, u32) = sim
        .server()
        .eval(&format!(
            "{require_net}local m = Net.combat.Server\nreturn m.side, m.folder, m.onServer, shared.loads"
        ))
        .expect("server require");
    assert_eq!(
        (side.as_str(), folder.as_str(), on_server, loads),
        ("Server", "combat", true, 1)
    );

    // Nested folders, names that are not identifiers, and names of Instance members.
    let (nested, member, loads): (String, String, u32) = client
        .eval(&format!(
            "{require_net}return Net.sub[\"my-chat\"].Client.folder, Net.Parent.Client.folder, shared.loads"
        ))
        .expect("client require");
    assert_eq!((nested.as_str(), member.as_str(), loads), ("sub/my-chat", "Parent", 2));

    // Required once, cached, and a client never loads a Server module it did not index.
    let (same, loads, server_loaded): (bool, u32, bool) = client
        .eval(&format!(
            "{require_net}return Net.combat.Client == Net.combat.Client, shared.loads, rawget(Net.combat, 'Server') ~= nil"
        ))
        .expect("cache");
    assert!(same && !server_loaded);
    assert_eq!(loads, 3, "combat.Client loaded once, nothing else");

    for (expression, needle) in [
        ("Net.combt", "studio/net has no \"combt\" (it has: Parent, combat, sub)"),
        (
            "Net.combat.Sever",
            "studio/net.combat has no \"Sever\" (it has: Client, Server)",
        ),
        ("Net.sub.chat", "studio/net.sub has no \"chat\" (it has: my-chat)"),
    ] {
        let err = client
            .exec(&format!("{require_net}local _ = {expression}"))
            .expect_err(expression)
            .to_string();
        assert!(err.contains(needle), "{expression}: {err}");
    }
}
