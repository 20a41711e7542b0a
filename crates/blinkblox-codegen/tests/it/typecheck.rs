//! The generated modules under Luau's type checker in strict mode, as Roblox developers open
//! them (luau-lsp in VS Code): every module of every fixture checks clean, and game code
//! written against a module's API checks clean when it uses it right and is reported when
//! it does not.
//!
//! The checker is Luau's own Analysis library, run in process by the `luau-typecheck` tool of
//! this crate (`--features typecheck`), with the Roblox API of `tests/fixtures/luau/roblox.d.luau`.
//! It checks one file at a time: a game script's `require` of a module cannot be followed, so a
//! game script is checked appended to the module it requires (the module's `return Returns`
//! becomes `local Net = Returns`, the script follows in a `do` block, and the module's exported
//! types are in scope by name).

use std::path::{Path, PathBuf};
use std::process::Command;

use blinkblox_codegen::{GeneratedFile, OutputKind, Outputs, Source, Targets, compile};
use blinkblox_schema::CheckSettings;

use crate::support::valid_schema_fixtures;

/// The type checker tool, when this build has it.
const TOOL: Option<&str> = option_env!("CARGO_BIN_EXE_luau-typecheck");

/// Checks each `(name, source)` and returns what the checker reports (errors and lint
/// warnings), one entry each: `name:line: kind: message` and the source line it names.
fn problems(modules: &[(String, String)]) -> Vec<String> {
    let tool = TOOL.expect("built with --features typecheck");
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut paths = Vec::new();
    for (index, (_, source)) in modules.iter().enumerate() {
        let path = dir.path().join(format!("{index}.luau"));
        std::fs::write(&path, source).expect("module written");
        paths.push(path);
    }
    let definitions = crate::fixtures().join("luau/roblox.d.luau");
    let output = Command::new(tool)
        .arg(&definitions)
        .args(&paths)
        .output()
        .expect("the type checker runs");
    assert!(
        output.status.success(),
        "the type checker failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Every line is read: one the harness does not understand, or a module never reported
    // as checked, would otherwise pass as a clean check of nothing.
    let index_of = |path: &str| {
        paths
            .iter()
            .position(|p| p.to_string_lossy() == path)
            .unwrap_or_else(|| panic!("the type checker named a file it was not given: {path}"))
    };
    let mut checked = vec![false; paths.len()];
    let mut found = Vec::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.splitn(4, '\t').collect();
        match fields[..] {
            [path, "checked"] => checked[index_of(path)] = true,
            [path, number, kind, message] => {
                let (name, source) = &modules[index_of(path)];
                let number: usize = number
                    .parse()
                    .unwrap_or_else(|_| panic!("not a line number in the checker's output: {line}"));
                let text = source.lines().nth(number.saturating_sub(1)).unwrap_or("").trim();
                found.push(format!(
                    "{name}:{number}: {kind}: {}\n    {text}",
                    message.replace("\\n", "\n")
                ));
            }
            _ => panic!("a line of the checker's output the harness does not read: {line}"),
        }
    }
    for (index, done) in checked.iter().enumerate() {
        assert!(
            done,
            "the type checker did not report `{}` as checked",
            modules[index].0
        );
    }
    found
}

/// Every schema the project ships or tests: the front end's valid fixtures, the codegen
/// fixtures, the TypeScript fixtures, the arena example's and the benchmark's.
fn every_schema() -> Vec<PathBuf> {
    let root = crate::repo_root();
    let mut paths = valid_schema_fixtures();
    for dir in [
        crate::fixtures().join("codegen"),
        crate::fixtures().join("typescript"),
        root.join("examples/arena/net"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "blink"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths.push(root.join("benchmark/definitions/Definition.blink"));
    paths.push(root.join("benchmark/definitions/Scenarios.blink"));
    paths
}

const WITH_TYPES: Targets = Targets::outputs(true, false);

/// A module as the checker sees it: the checker cannot follow `require` of an Instance path,
/// so the Future and Promise libraries' requires are given the libraries' declared types
/// (`FUTURE_LIBRARY` and `PROMISE_LIBRARY` in the declarations).
fn as_checked(module: &str) -> String {
    module
        .lines()
        .map(|line| {
            for (local, library) in [
                ("FutureLibrary", "FUTURE_LIBRARY"),
                ("PromiseLibrary", "PROMISE_LIBRARY"),
            ] {
                if line.starts_with(&format!("local {local} = require(")) {
                    return format!("local {local} = {library}\n");
                }
            }
            format!("{line}\n")
        })
        .collect()
}

/// The Luau modules compiled from a schema file, or from text named after it.
fn luau_modules(path: &Path, text: Option<&str>) -> Vec<GeneratedFile> {
    let name = path.display().to_string();
    let source = match text {
        Some(text) => Source::Text { name: &name, text },
        None => Source::File(path),
    };
    let compiled = compile(source, &CheckSettings::default(), Outputs::Modules(WITH_TYPES));
    assert!(!compiled.has_errors(), "{name}: {:#?}", compiled.diagnostics);
    compiled
        .files
        .into_iter()
        .filter(|file| matches!(file.kind, OutputKind::Server | OutputKind::Client | OutputKind::Types))
        .collect()
}

/// `folder/schema/Module.luau`: the schema's folder and name (fixtures of two folders share names).
fn module_label(path: &Path, kind: OutputKind) -> String {
    let name = |path: Option<&Path>| {
        path.and_then(Path::file_stem)
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    format!("{}/{}/{}", name(path.parent()), name(Some(path)), kind.file_name())
}

/// Fails with every problem found (the first 40 shown) and their count.
fn assert_clean(found: &[String], what: &str) {
    if found.is_empty() {
        return;
    }
    let shown: Vec<&str> = found.iter().take(40).map(String::as_str).collect();
    panic!("{} problems in {what}:\n{}", found.len(), shown.join("\n"));
}

#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn every_module_of_every_fixture_type_checks_clean() {
    let mut modules = Vec::new();
    for path in every_schema() {
        for file in luau_modules(&path, None) {
            modules.push((module_label(&path, file.kind), as_checked(&file.contents)));
        }
    }
    assert!(
        modules.len() >= 100,
        "expected the fixtures' modules, found {}",
        modules.len()
    );
    assert_clean(&problems(&modules), &format!("{} modules", modules.len()));
}

/// The schemas that name a Future or Promise library, their functions switched to
/// `Yield: Coroutine` and the libraries left out: the modules without them check clean too.
#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn modules_without_the_future_and_promise_libraries_type_check_clean() {
    let mut modules = Vec::new();
    let mut variants = 0;
    for path in every_schema() {
        let text = std::fs::read_to_string(&path).expect("schema");
        if !text.contains("FutureLibrary") && !text.contains("PromiseLibrary") {
            continue;
        }
        let plain: String = text
            .lines()
            .filter(|line| !line.contains("FutureLibrary") && !line.contains("PromiseLibrary"))
            .map(|line| {
                line.replace("Yield: Future", "Yield: Coroutine")
                    .replace("Yield: Promise", "Yield: Coroutine")
            })
            .collect::<Vec<_>>()
            .join("\n");
        variants += 1;
        for file in luau_modules(&path, Some(&plain)) {
            modules.push((module_label(&path, file.kind), as_checked(&file.contents)));
        }
    }
    assert!(variants >= 2, "expected schemas with the libraries, found {variants}");
    assert_clean(&problems(&modules), "the modules without libraries");
}

/// A schema with every kind of member: events each way and in each Call mode, a scoped event,
/// functions in each Yield mode, streams of each kind, exported types.
const GAME_SCHEMA: &str = r#"
option WriteValidations = true
option FutureLibrary = "ReplicatedStorage.Packages.Future"
option PromiseLibrary = "ReplicatedStorage.Packages.Promise"
enum Team = { Red, Blue }
export struct Entity { id: u8, pos: vector, team: Team, tags: string(..8)[..4]?, owner: Instance(Player)? }
export enum Shape = "kind" { Circle { radius: f32 }, Square { side: f32 } }
event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: Entity }
event Spawned { From: Server, Type: Reliable, Call: ManySync, Data: (Entity, u8) }
event Drift { From: Server, Type: Unreliable, Call: SingleAsync, Data: u16 }
event Votes { From: Client, Type: Reliable, Call: Polling, Data: Shape }
event News { From: Server, Type: Reliable, Call: Polling, Data: (string, boolean) }
scope Combat { event Shot { From: Client, Type: Unreliable, Call: ManyAsync, Data: vector } }
function Trade { Yield: Coroutine, Data: (string, u8), Return: (boolean, u8) }
function Fetch { Yield: Future, Data: u8, Return: Entity }
function Buy { Yield: Promise, Data: u16, Return: boolean }
stream World { From: Server, Type: Unreliable, Data: Entity[..8] }
stream Own { From: Server, Type: Reliable, Per: Player, Data: u8 }
stream Aim { From: Client, Type: Unreliable, Data: vector }
"#;

/// A server script using every member of the Server module (`$Member` in Pascal casing).
const GAME_SERVER: &str = r#"
local Someone: Player = game:GetService("Players"):GetPlayers()[1]
local Thing: Entity = { id = 1, pos = Vector3.new(1, 2, 3), team = "Red", tags = { "a" }, owner = Someone }
local Disconnect: () -> () = Net.Hit.$On(function(Player: Player, Value: Entity)
	local Id: number = Value.id
	local Side: Team = Value.team
	local Where: Vector3 = Value.pos
	local Tags: { string }? = Value.tags
	local Owner: Player? = Value.owner
end)
Disconnect()
Net.Spawned.$Fire(Someone, Thing, 3)
Net.Spawned.$FireAll(Thing, 3)
Net.Spawned.$FireList({ Someone }, Thing, 3)
Net.Spawned.$FireExcept(Someone, Thing, 3)
Net.Drift.$Fire(Someone, 7)
Net.Drift.$FireAll(7)
Net.News.$FireAll("open", true)
for Index, Player, Vote in Net.Votes.$Iter() do
	local Count: number = Index
	local Who: Player = Player
	if Vote.kind == "Circle" then
		local Radius: number = Vote.radius
	else
		local Length: number = Vote.side
	end
end
for Index, Player, Vote in Net.Votes.$Next() do
	local Kind: "Circle" | "Square" = Vote.kind
end
Net.Combat.Shot.$On(function(Player: Player, Direction: Vector3) end)
Net.Trade.$On(function(Player: Player, Item: string, Count: number): (boolean, number)
	return #Item > 0, Count
end)
Net.Fetch.$On(function(Player: Player, Id: number): Entity
	return Thing
end)
Net.Buy.$On(function(Player: Player, Price: number): boolean
	return Price < 10
end)
Net.World.$Set({ Thing })
local World: { Entity }? = Net.World.$Get()
Net.Own.$Set(Someone, 5)
local Own: number? = Net.Own.$Get(Someone)
Net.Aim.$On(function(Player: Player, Aim: Vector3) end)
local Aim: Vector3? = Net.Aim.$Get(Someone)
local Bytes: buffer, Instances: { any } = Net.Entity.$Write(Thing)
local Back: Entity = Net.Entity.$Read(Bytes, Instances)
local Ok: boolean, Result: Entity | string = Net.Entity.$TryRead(Bytes, Instances)
local Circle: Shape = { kind = "Circle", radius = 2 }
local ShapeBytes: buffer = Net.Shape.$Write(Circle)
local Stop: () -> () = Net.$OnDrop(function(Player: Player, Reason: string, Detail: string) end)
local Counts: { [string]: number } = Net.$GetDropCounts(Someone)
Net.$StepReplication()
"#;

/// A client script using every member of the Client module.
const GAME_CLIENT: &str = r#"
local Thing: Entity = { id = 1, pos = Vector3.new(1, 2, 3), team = "Blue" }
Net.Hit.$Fire(Thing)
Net.Spawned.$On(function(Value: Entity, Count: number)
	local Side: Team = Value.team
end)
Net.Drift.$On(function(Amount: number) end)
Net.Votes.$Fire({ kind = "Square", side = 2 })
for Index, Text, Loud in Net.News.$Iter() do
	local Count: number = Index
	local Headline: string = Text
	local Shout: boolean = Loud
end
for Index, Text, Loud in Net.News.$Next() do end
Net.Combat.Shot.$Fire(Vector3.new(0, 1, 0))
local Done: boolean, Left: number = Net.Trade.$Invoke("sword", 2)
local Fetched: boolean = Net.Fetch.$Invoke(3):Await()
local Bought = Net.Buy.$Invoke(5)
Net.World.$On(function(World: { Entity })
	local First: Entity? = World[1]
end)
local World: { Entity }? = Net.World.$Get()
Net.Own.$On(function(Own: number) end)
local Own: number? = Net.Own.$Get()
Net.Aim.$Set(Vector3.new(1, 0, 0))
local Aim: Vector3? = Net.Aim.$Get()
local Bytes: buffer, Instances: { any } = Net.Entity.$Write(Thing)
local Back: Entity = Net.Entity.$Read(Bytes, Instances)
local Ok: boolean, Result: Shape | string = Net.Shape.$TryRead(Bytes, Instances)
Net.$StepReplication()
"#;

/// The members of `GAME_SERVER` and `GAME_CLIENT` in a casing: (Pascal, Camel, Snake).
const MEMBERS: [(&str, &str, &str); 16] = [
    ("GetDropCounts", "getDropCounts", "get_drop_counts"),
    ("FireAll", "fireAll", "fire_all"),
    ("FireList", "fireList", "fire_list"),
    ("FireExcept", "fireExcept", "fire_except"),
    ("Fire", "fire", "fire"),
    ("OnDrop", "onDrop", "on_drop"),
    ("On", "on", "on"),
    ("Iter", "iter", "iter"),
    ("Next", "next", "next"),
    ("Invoke", "invoke", "invoke"),
    ("Set", "set", "set"),
    ("Get", "get", "get"),
    ("TryRead", "tryRead", "try_read"),
    ("Read", "read", "read"),
    ("Write", "write", "write"),
    ("StepReplication", "stepReplication", "step_replication"),
];

/// `script` with its `$Member`s in the casing at `casing` (0 Pascal, 1 Camel, 2 Snake).
fn in_casing(script: &str, casing: usize) -> String {
    let mut out = script.to_string();
    // Longer names first: `$GetDropCounts` before `$Get`, `$FireAll` before `$Fire`.
    for names in MEMBERS {
        let name = [names.0, names.1, names.2][casing];
        out = out.replace(&format!("${}", names.0), name);
    }
    out
}

/// `module` with `script` appended as a game script that requires it: `Net` is what the
/// module returns, its exported types are in scope by name.
fn with_game_script(module: &str, script: &str) -> String {
    let module = as_checked(module);
    let body = module
        .strip_suffix("return Returns\n")
        .expect("a module ends by returning its API");
    format!("{body}local Net = Returns\ndo\n{script}\nend\nreturn Returns\n")
}

/// The Server and Client modules of `GAME_SCHEMA` in a casing.
fn game_modules(casing: &str) -> (String, String) {
    let text = format!("option Casing = {casing}\n{GAME_SCHEMA}");
    let files = luau_modules(Path::new("game.blink"), Some(&text));
    let find = |kind: OutputKind| {
        files
            .iter()
            .find(|file| file.kind == kind)
            .map(|file| file.contents.clone())
            .expect("module")
    };
    (find(OutputKind::Server), find(OutputKind::Client))
}

#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn game_scripts_using_every_member_in_each_casing_type_check_clean() {
    let mut checked = Vec::new();
    for (position, casing) in ["Pascal", "Camel", "Snake"].iter().enumerate() {
        let (server, client) = game_modules(casing);
        checked.push((
            format!("{casing}/server script"),
            with_game_script(&server, &in_casing(GAME_SERVER, position)),
        ));
        checked.push((
            format!("{casing}/client script"),
            with_game_script(&client, &in_casing(GAME_CLIENT, position)),
        ));
    }
    assert_clean(&problems(&checked), "the game scripts");
}

#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn game_scripts_that_misuse_the_api_are_reported() {
    let (server, client) = game_modules("Pascal");
    let thing = "local Thing: Entity = { id = 1, pos = Vector3.new(), team = \"Red\" }\n";
    let wrong = [
        // A field of the wrong type, a missing field.
        (&server, format!("{thing}Net.Spawned.Fire(game:GetService(\"Players\"):GetPlayers()[1], {{ id = \"one\", pos = Vector3.new(), team = \"Red\" }}, 3)")),
        (&client, "Net.Hit.Fire({ id = 1, team = \"Red\" })".to_string()),
        // An enum value the schema does not declare, a variant's field on another variant.
        (&client, "Net.Hit.Fire({ id = 1, pos = Vector3.new(), team = \"Green\" })".to_string()),
        (&client, "Net.Votes.Fire({ kind = \"Circle\", side = 2 })".to_string()),
        // What the API hands over, used as what it is not.
        (&server, "Net.Hit.On(function(Player: Player, Value: Entity)\n\tlocal Name: string = Value.id\nend)".to_string()),
        (&client, "local Count: string = Net.Own.Get()".to_string()),
        (&client, "local Left: string, Done: number = Net.Trade.Invoke(\"sword\", 2)".to_string()),
        (&client, "Net.Trade.Invoke(2, \"sword\")".to_string()),
        (&server, "Net.Trade.On(function(Player: Player, Item: string, Count: number): (boolean, number)\n\treturn \"yes\", Count\nend)".to_string()),
        (&server, format!("{thing}local Wrong: Shape = Net.Entity.Read(Net.Entity.Write(Thing))")),
    ];
    for (module, script) in wrong {
        let checked = with_game_script(module, &script);
        // The script starts after the module's own lines: what is reported must be in it.
        let script_start = checked
            .lines()
            .position(|line| line == "local Net = Returns")
            .expect("the game script follows the module")
            + 1;
        let found = problems(&[("misuse".to_string(), checked)]);
        // `misuse:LINE: error: …`: a type error, on a line of the script.
        let in_script = found.iter().any(|problem| {
            let mut fields = problem.splitn(3, ':');
            let line = fields.nth(1).and_then(|line| line.parse::<usize>().ok());
            let is_error = fields.next().is_some_and(|rest| rest.starts_with(" error"));
            is_error && line.is_some_and(|line| line > script_start)
        });
        assert!(in_script, "no type error reported in the script:\n{script}\n{found:#?}");
    }
}
