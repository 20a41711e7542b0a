//! Worlds: isolation, modules and require, logs, memory, modes, edit mode.

use blinkblox_luau::{Mode, Simulation, SimulationOptions, enable_roblox_fflags};

const COUNTER_MODULE: &str = r#"--!strict
--!native
--!optimize 2
local count = 0
local Counter = {}
function Counter.bump(): number
    count += 1
    return count
end
Counter.isServer = game:GetService("RunService"):IsServer()
Counter.scriptName = script.Name
return Counter
"#;

#[test]
fn module_level_state_is_separate_per_world() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let sim = Simulation::new(mode, 2).expect("simulation");
        for world in sim.worlds() {
            let module = world.load_module("Counter", COUNTER_MODULE).expect("load");
            assert_eq!(module.get::<bool>("isServer").expect("isServer"), world.is_server());
            assert_eq!(module.get::<String>("scriptName").expect("scriptName"), "Counter");
        }
        sim.server()
            .exec("local c = require('Counter') c.bump() c.bump() c.bump()")
            .expect("server bumps");
        sim.client(0)
            .expect("client")
            .exec("require('Counter').bump()")
            .expect("client bumps");
        let server: u32 = sim.server().eval("return require('Counter').bump()").expect("server");
        let first: u32 = sim
            .client(0)
            .expect("client")
            .eval("return require('Counter').bump()")
            .expect("client 0");
        let second: u32 = sim
            .client(1)
            .expect("client")
            .eval("return require('Counter').bump()")
            .expect("client 1");
        assert_eq!((server, first, second), (4, 2, 1), "{mode:?}");
        // globals written by one world's scripts are not seen by another
        sim.server().exec("leaked = 1 shared.leaked = 1").expect("write");
        let seen: bool = sim
            .client(0)
            .expect("client")
            .eval("return leaked == nil and shared.leaked == nil")
            .expect("read");
        assert!(seen);
    }
}

#[test]
fn require_accepts_a_module_script_and_a_name() {
    let sim = Simulation::new(Mode::Native, 1).expect("simulation");
    let server = sim.server();
    server.load_module("Shared", "return { value = 42 }").expect("Shared");
    server
        .load_module(
            "User",
            "local Shared = require(script.Parent.Shared) return { doubled = Shared.value * 2 }",
        )
        .expect("User");
    let (by_name, by_instance, class): (u32, u32, String) = server
        .eval(
            r#"
            local module = game:GetService("ServerScriptService").User
            return require("User").doubled, require(module).doubled, module.ClassName
            "#,
        )
        .expect("require");
    assert_eq!((by_name, by_instance, class.as_str()), (84, 84, "ModuleScript"));
    let client = sim.client(0).expect("client");
    client
        .load_module("Shared", "return { side = 'client' }")
        .expect("client module");
    let parent: String = client
        .eval("return require('Shared') and game.Players.LocalPlayer.PlayerScripts.Shared.Parent.Name")
        .expect("eval");
    assert_eq!(parent, "PlayerScripts");
    let error = server.exec("require('Missing')").expect_err("missing module");
    assert!(error.to_string().contains("no module named \"Missing\""), "{error}");
    let error = server
        .load_module("Broken", "error('boom')")
        .expect_err("broken module");
    assert!(
        error.to_string().contains("Broken") && error.to_string().contains("boom"),
        "{error}"
    );
    let error = server.load_module("Syntax", "return {").expect_err("syntax error");
    assert!(error.to_string().contains("Syntax"), "{error}");
}

#[test]
fn module_script_trees_require_each_other_and_replicate() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    let server = sim.server();
    server
        .create_module_script(
            "ReplicatedStorage.Packages.Net",
            "local Util = require(script.Util) return { answer = Util.value }",
        )
        .expect("Net");
    server
        .create_module_script(
            "ReplicatedStorage.Packages.Net.Util",
            "return { value = if game:GetService('RunService'):IsServer() then 's' else 'c' }",
        )
        .expect("Util");
    let error = server
        .create_module_script("Workspace", "return {}")
        .expect_err("not a ModuleScript");
    assert!(
        error.to_string().contains("is a Workspace, not a ModuleScript"),
        "{error}"
    );
    let answer: String = server
        .eval("return require(game.ReplicatedStorage.Packages.Net).answer")
        .expect("server require");
    assert_eq!(answer, "s");
    sim.step().expect("step");
    let answer: String = sim
        .client(0)
        .expect("client")
        .eval("return require(game.ReplicatedStorage:WaitForChild('Packages').Net).answer")
        .expect("client require");
    assert_eq!(answer, "c", "the client runs its own copy of the replicated module");
}

#[test]
fn string_requires_resolve_relative_to_the_calling_module() {
    let sim = Simulation::new(Mode::Interpreted, 0).expect("simulation");
    let server = sim.server();
    for (path, source) in [
        (
            "ReplicatedStorage.Pkg.Main",
            "return { a = require('./Sibling').v, b = require('@self/Child').v, c = require('../Top').v }",
        ),
        ("ReplicatedStorage.Pkg.Main.Child", "return { v = 'child' }"),
        ("ReplicatedStorage.Pkg.Sibling", "return { v = 'sibling' }"),
        ("ReplicatedStorage.Top", "return { v = 'top' }"),
        ("ReplicatedStorage.Pkg.Bad", "return require('./Missing')"),
    ] {
        server.create_module_script(path, source).expect(path);
    }
    let values: Vec<String> = server
        .eval("local m = require(game.ReplicatedStorage.Pkg.Main) return { m.a, m.b, m.c }")
        .expect("require");
    assert_eq!(values, ["sibling", "child", "top"]);
    let error = server
        .exec("require(game.ReplicatedStorage.Pkg.Bad)")
        .expect_err("missing");
    assert!(
        error
            .to_string()
            .contains("require(\"./Missing\") from ReplicatedStorage.Pkg.Bad: no such module"),
        "{error}"
    );
    let error = server.exec("require('./Anything')").expect_err("outside a module");
    assert!(error.to_string().contains("only inside a module"), "{error}");
}

#[test]
fn script_local_keeps_hot_comments_and_line_numbers() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let error = sim
        .server()
        .load_module(
            "Lines",
            "--!strict\n-- a comment\nlocal x = 1\nerror('line four')\nreturn {}",
        )
        .expect_err("error");
    assert!(error.to_string().contains("Lines:4"), "{error}");
}

#[test]
fn warn_print_and_listener_errors_are_captured() {
    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let server = sim.server();
    server
        .exec(
            r#"
            warn("careful", 1)
            print("hello", nil, true)
            game:GetService("RunService").Heartbeat:Connect(function() error("heartbeat broke") end)
            task.delay(0, function() error("task broke") end)
            "#,
        )
        .expect("exec");
    sim.step().expect("step");
    sim.step().expect("step");
    let log = sim.server().take_log();
    assert_eq!(log.warnings, ["careful 1"]);
    assert_eq!(log.prints, ["hello nil true"]);
    assert_eq!(
        log.errors.iter().filter(|e| e.contains("heartbeat broke")).count(),
        2,
        "{:?}",
        log.errors
    );
    assert_eq!(
        log.errors.iter().filter(|e| e.contains("task broke")).count(),
        1,
        "{:?}",
        log.errors
    );
    assert!(sim.server().log().errors.is_empty(), "take_log empties the log");
}

#[test]
fn spawn_reports_early_errors_and_logs_later_ones() {
    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let error = sim.server().spawn("error('at once')").expect_err("early error");
    assert!(error.to_string().contains("at once"), "{error}");
    sim.server().spawn("task.wait(0) error('later')").expect("spawn");
    sim.step().expect("step");
    assert!(sim.server().errors().iter().any(|e| e.contains("later")));
}

#[test]
fn memory_is_readable_from_rust() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let before = sim.server().memory_kib().expect("count");
    sim.server()
        .exec("shared.big = table.create(100000, 1)")
        .expect("allocate");
    let after = sim.server().memory_kib().expect("count");
    assert!(after - before > 300.0, "{before} → {after} KiB");
    assert!(sim.server().used_memory() > 0);
}

#[test]
fn edit_mode_answers_is_running_false() {
    let options = SimulationOptions {
        running: false,
        ..SimulationOptions::new(Mode::Interpreted, 1)
    };
    let sim = Simulation::with_options(options).expect("simulation");
    for world in sim.worlds() {
        let running: bool = world
            .eval("return game:GetService('RunService'):IsRunning()")
            .expect("eval");
        assert!(!running);
    }
    sim.server().set_running(true).expect("set");
    assert!(
        sim.server()
            .eval::<bool>("return game:GetService('RunService'):IsRunning()")
            .expect("eval")
    );
    sim.server().set_studio(true).expect("set");
    assert!(
        sim.server()
            .eval::<bool>("return game:GetService('RunService'):IsStudio()")
            .expect("eval")
    );
}

#[test]
fn both_modes_run_and_report_their_mode() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let sim = Simulation::new(mode, 1).expect("simulation");
        assert_eq!(sim.mode(), mode);
        for world in sim.worlds() {
            assert_eq!(world.mode(), mode);
            let sum: f64 = world
                .eval("local s = 0 for i = 1, 1000 do s += i end return s")
                .expect("eval");
            assert_eq!(sum, 500500.0);
        }
    }
}

#[test]
fn globals_match_roblox() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let missing: Vec<String> = sim
        .server()
        .eval(
            r#"
            local out = {}
            for _, name in { "game", "workspace", "script", "task", "wait", "delay", "spawn", "warn", "print", "tick",
                "time", "typeof", "require", "shared", "_G", "Instance", "Vector3", "CFrame", "Color3", "BrickColor",
                "DateTime", "Random", "Enum", "buffer", "bit32", "vector", "newproxy", "os", "utf8" } do
                local present = name == "script" or getfenv()[name] ~= nil
                if not present then table.insert(out, name) end
            end
            return out
            "#,
        )
        .expect("eval");
    assert!(missing.is_empty(), "missing globals: {missing:?}");
    let integer_absent: bool = sim.server().eval("return integer == nil").expect("eval");
    assert!(integer_absent, "Roblox has no integer library");
}

#[test]
fn roblox_fast_flags_are_known_to_the_linked_luau() {
    assert_eq!(enable_roblox_fflags(), &[] as &[&str]);
}

#[test]
fn mutable_globals_are_not_frozen_by_imports() {
    // `shared.a.b` must see later writes: Roblox lists shared/game/workspace as
    // mutable globals so the compiler does not resolve these chains at load.
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    sim.server().exec("shared.a = { b = 1 }").expect("exec");
    let value: u32 = sim.server().eval("shared.a.b = 2 return shared.a.b").expect("eval");
    assert_eq!(value, 2);
}
