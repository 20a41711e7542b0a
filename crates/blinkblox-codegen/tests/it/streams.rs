//! Streams in the embedded VM: latest value wins, broadcast streams cost
//! one call a frame whatever the player count, per-player values reach only their
//! player and go when the player does, client→server streams, reliable streams send
//! nothing while unchanged, late joiners get the current value.

use crate::support::*;
use blinkblox_luau::{CallKind, Mode, RemoteValue, Simulation};

fn server_eval<T: mlua::FromLuaMulti>(sim: &Simulation, source: &str) -> T {
    sim.server().eval(source).unwrap_or_else(|e| panic!("server: {e}"))
}

fn client_eval<T: mlua::FromLuaMulti>(sim: &Simulation, index: usize, source: &str) -> T {
    sim.client(index)
        .expect("client")
        .eval(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"))
}

fn client_exec(sim: &Simulation, index: usize, source: &str) {
    sim.client(index)
        .expect("client")
        .exec(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"))
}

fn server_exec(sim: &Simulation, source: &str) {
    sim.server().exec(source).unwrap_or_else(|e| panic!("server: {e}"))
}

const BROADCAST: &str = r#"
struct Unit { id: u16, hp: u8 }
stream World { From: Server, Type: Unreliable, Data: Unit[..16] }
stream Round { From: Server, Type: Reliable, Data: string(..32) }
"#;

/// Every client records what `On` hands it.
const RECORD_BROADCAST: &str = r#"
local Net = require("Net")
shared.World = {}
shared.Round = {}
Net.World.On(function(units) table.insert(shared.World, #units) end)
Net.Round.On(function(text) table.insert(shared.Round, text) end)
"#;

#[test]
fn broadcast_streams_cost_one_call_a_frame_for_fifty_players_and_the_latest_value_wins() {
    let modules = compile(BROADCAST);
    for mode in MODES {
        let mut sim = start(&modules, mode, 50);
        for (index, _) in sim.clients().collect::<Vec<_>>() {
            client_exec(&sim, index, RECORD_BROADCAST);
        }
        sim.take_traffic();
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            for n = 1, 3 do Net.World.Set(table.create(n, { id = n, hp = 1 })) end
            Net.Round.Set("warmup")
            Net.Round.Set("fight")
            assert(Net.Round.Get() == "fight")
            "#,
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        // One reliable FireAllClients (Round) and one unreliable FireAllClients (World).
        assert_eq!(traffic.total().calls, 2, "{mode:?}: {:?}", traffic.calls());
        assert_eq!(traffic.kind(CallKind::FireAllClients).calls, 2, "{mode:?}");
        sim.step().expect("step");
        for (index, _) in sim.clients() {
            let (world, round, got): (Vec<u32>, Vec<String>, String) = client_eval(
                &sim,
                index,
                "return shared.World, shared.Round, require('Net').Round.Get()",
            );
            assert_eq!(
                round,
                ["fight"],
                "{mode:?}: client {index}: only the latest value is sent"
            );
            assert_eq!(got, "fight");
            assert_eq!(world.first(), Some(&3), "{mode:?}: client {index}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn reliable_streams_send_nothing_while_unchanged_and_unreliable_ones_resend_each_flush() {
    let modules = compile(BROADCAST);
    for mode in MODES {
        let mut sim = start(&modules, mode, 3);
        for (index, _) in sim.clients().collect::<Vec<_>>() {
            client_exec(&sim, index, RECORD_BROADCAST);
        }
        server_exec(&sim, "require('Net').Round.Set('one')");
        sim.steps(2).expect("steps");
        sim.take_traffic();
        sim.steps(5).expect("steps");
        assert_eq!(
            sim.take_traffic().total().calls,
            0,
            "{mode:?}: an unchanged reliable stream sends nothing"
        );
        server_exec(&sim, "require('Net').Round.Set('one')");
        sim.step().expect("step");
        assert_eq!(sim.take_traffic().total().calls, 1, "{mode:?}: a Set sends again");

        server_exec(&sim, "require('Net').World.Set({ { id = 7, hp = 9 } })");
        sim.take_traffic();
        sim.steps(5).expect("steps");
        let traffic = sim.take_traffic();
        assert_eq!(
            traffic.kind(CallKind::FireAllClients).calls,
            5,
            "{mode:?}: an unreliable stream sends its latest value every flush"
        );
        for (index, _) in sim.clients() {
            let round: Vec<String> = client_eval(&sim, index, "return shared.Round");
            assert_eq!(round, ["one", "one"], "{mode:?}");
            let world: Vec<u32> = client_eval(&sim, index, "return shared.World");
            assert!(world.len() >= 4, "{mode:?}: {world:?}");
        }
        assert_no_errors(&sim);
    }
}

const PER_PLAYER: &str = r#"
stream Self { From: Server, Type: Reliable, Per: Player, Data: string }
stream Aim { From: Server, Type: Unreliable, Per: Player, Data: vector }
"#;

#[test]
fn per_player_values_reach_only_their_player_and_go_when_the_player_leaves() {
    let modules = compile(PER_PLAYER);
    for mode in MODES {
        let mut sim = start(&modules, mode, 3);
        for (index, _) in sim.clients().collect::<Vec<_>>() {
            client_exec(
                &sim,
                index,
                "local Net = require('Net') shared.Got = {} Net.Self.On(function(v) table.insert(shared.Got, v) end)",
            );
        }
        sim.take_traffic();
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            local p = game:GetService("Players"):GetPlayers()
            shared.P = p
            Net.Self.Set(p[1], "first")
            Net.Self.Set(p[1], "one")
            Net.Self.Set(p[2], "two")
            Net.Aim.Set(p[2], vector.create(1, 2, 3))
            "#,
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        // Players 1 and 2 get one reliable FireClient each; player 2 one unreliable.
        assert_eq!(
            traffic.kind(CallKind::FireClient).calls,
            3,
            "{mode:?}: {:?}",
            traffic.calls()
        );
        assert_eq!(traffic.total().calls, 3, "{mode:?}");
        sim.step().expect("step");
        let got = |index: usize| -> (Vec<String>, Option<String>, Option<f64>) {
            client_eval(
                &sim,
                index,
                "local Net = require('Net') local aim = Net.Aim.Get() return shared.Got, Net.Self.Get(), if aim then aim.Z else nil",
            )
        };
        assert_eq!(
            got(0),
            (vec!["one".to_string()], Some("one".to_string()), None),
            "{mode:?}"
        );
        assert_eq!(
            got(1),
            (vec!["two".to_string()], Some("two".to_string()), Some(3.0)),
            "{mode:?}"
        );
        assert_eq!(got(2), (vec![], None, None), "{mode:?}: nothing for player 3");
        let kept: bool = server_eval(&sim, "return require('Net').Self.Get(shared.P[2]) == 'two'");
        assert!(kept);
        sim.remove_player(1).expect("remove");
        sim.step().expect("step");
        let (self_value, aim_value): (Option<String>, Option<f64>) = server_eval(
            &sim,
            "local Net = require('Net') local aim = Net.Aim.Get(shared.P[2]) return Net.Self.Get(shared.P[2]), if aim then aim.X else nil",
        );
        assert_eq!(
            (self_value, aim_value),
            (None, None),
            "{mode:?}: the leaver's values are dropped"
        );
        sim.take_traffic();
        sim.steps(3).expect("steps");
        assert_eq!(
            sim.take_traffic().total().calls,
            0,
            "{mode:?}: nothing is sent for the player who left"
        );
        assert_no_errors(&sim);
    }
}

const FROM_CLIENT: &str = r#"
stream Aim { From: Client, Type: Unreliable, Data: vector }
stream Loadout { From: Client, Type: Reliable, Data: struct { weapon: string(..16), ammo: u8 } }
"#;

#[test]
fn client_streams_reach_the_server_per_player() {
    let modules = compile(FROM_CLIENT);
    for mode in MODES {
        let mut sim = start(&modules, mode, 3);
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            shared.Loadouts = {}
            Net.Loadout.On(function(player, loadout) table.insert(shared.Loadouts, player.Name .. ":" .. loadout.weapon) end)
            "#,
        );
        for index in 0..3usize {
            client_exec(
                &sim,
                index,
                &format!(
                    r#"
                    local Net = require("Net")
                    Net.Aim.Set(vector.create({index}, 0, 0))
                    Net.Aim.Set(vector.create({index} + 10, 0, 0))
                    Net.Loadout.Set({{ weapon = "old", ammo = 1 }})
                    Net.Loadout.Set({{ weapon = "gun{index}", ammo = {index} }})
                    assert(Net.Loadout.Get().weapon == "gun{index}")
                    "#
                ),
            );
        }
        sim.take_traffic();
        sim.step().expect("step");
        let sends = sim.take_traffic().kind(CallKind::FireServer).calls;
        assert_eq!(sends, 6, "{mode:?}: one reliable and one unreliable call per client");
        sim.step().expect("step");
        let mut loadouts: Vec<String> = server_eval(&sim, "return shared.Loadouts");
        loadouts.sort();
        assert_eq!(loadouts, ["Player1:gun0", "Player2:gun1", "Player3:gun2"], "{mode:?}");
        let aims: Vec<f64> = server_eval(
            &sim,
            "local Net = require('Net') local out = {} for i, p in game:GetService('Players'):GetPlayers() do out[i] = Net.Aim.Get(p).X end return out",
        );
        assert_eq!(aims, vec![10.0, 11.0, 12.0], "{mode:?}: the latest value wins");
        // Unchanged: the reliable stream is quiet, the unreliable one keeps sending.
        sim.take_traffic();
        sim.steps(4).expect("steps");
        let traffic = sim.take_traffic();
        assert_eq!(
            traffic.kind(CallKind::FireServer).calls,
            12,
            "{mode:?}: 3 clients x 4 unreliable flushes"
        );
        let first_player: bool = server_eval(
            &sim,
            "shared.First = game:GetService('Players'):GetPlayers()[1] return require('Net').Loadout.Get(shared.First) ~= nil",
        );
        assert!(first_player);
        sim.remove_player(0).expect("remove");
        sim.step().expect("step");
        let gone: bool = server_eval(
            &sim,
            "local Net = require('Net') return Net.Loadout.Get(shared.First) == nil and Net.Aim.Get(shared.First) == nil",
        );
        assert!(gone, "{mode:?}: a leaver's received values are dropped");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_late_joiner_gets_the_current_value_of_reliable_broadcast_streams() {
    let modules = compile(BROADCAST);
    let mut sim = start(&modules, Mode::Native, 2);
    for old in 0..2 {
        client_exec(&sim, old, RECORD_BROADCAST);
    }
    server_exec(&sim, "require('Net').Round.Set('round 3')");
    sim.steps(3).expect("steps");
    let index = sim.add_player().expect("join");
    sim.client(index).expect("client").exec(HELPERS).expect("helpers");
    sim.client(index)
        .expect("client")
        .load_module("Net", &modules.client)
        .expect("client module");
    client_exec(&sim, index, RECORD_BROADCAST);
    sim.take_traffic();
    sim.steps(2).expect("steps");
    let traffic = sim.take_traffic();
    assert_eq!(traffic.kind(CallKind::FireClient).calls, 1, "{:?}", traffic.calls());
    let (round, got): (Vec<String>, String) =
        client_eval(&sim, index, "return shared.Round, require('Net').Round.Get()");
    assert_eq!(round, ["round 3"]);
    assert_eq!(got, "round 3");
    for old in 0..2 {
        let round: Vec<String> = client_eval(&sim, old, "return shared.Round");
        assert_eq!(
            round,
            ["round 3"],
            "client {old}: the joiner's copy is not sent again to the others"
        );
    }
    assert_no_errors(&sim);
}

#[test]
fn set_checks_its_value_and_streams_keep_the_schemas_casing() {
    let modules = compile(
        "option Casing = Camel\noption WriteValidations = true\nstream Score { From: Server, Type: Reliable, Data: u8 }",
    );
    let mut sim = start(&modules, Mode::Native, 1);
    client_exec(
        &sim,
        0,
        "shared.Got = {} require('Net').Score.on(function(v) table.insert(shared.Got, v) end)",
    );
    let problem: String = server_eval(
        &sim,
        "local ok, problem = pcall(require('Net').Score.set, 300) assert(not ok) return tostring(problem)",
    );
    assert!(problem.contains("Score.set"), "{problem}");
    server_exec(
        &sim,
        "require('Net').Score.set(7) assert(require('Net').Score.get() == 7)",
    );
    sim.steps(2).expect("steps");
    let got: Vec<u8> = client_eval(&sim, 0, "return shared.Got");
    assert_eq!(got, vec![7]);
    assert_no_errors(&sim);
}

#[test]
fn edit_mode_stream_members_are_no_ops() {
    let modules = compile(&format!("{BROADCAST}\n{FROM_CLIENT}"));
    let mut sim = start_edit_mode(&modules, Mode::Native);
    server_exec(
        &sim,
        r#"
        local Net = require("Net")
        Net.Round.Set("x")
        assert(Net.Round.Get() == nil)
        assert(type(Net.Aim.On(function() end)) == "function", "On returns a disconnect")
        "#,
    );
    client_exec(
        &sim,
        0,
        "local Net = require('Net') Net.Aim.Set(vector.zero) assert(type(Net.Round.On(function() end)) == 'function')",
    );
    sim.steps(2).expect("steps");
    assert_eq!(sim.take_traffic().total().calls, 0, "nothing is sent in edit mode");
}

#[test]
fn stream_values_with_instances_keep_their_side_array() {
    let modules = compile(
        r#"
        option BatchUnreliable = true
        stream Focus { From: Server, Type: Reliable, Data: struct { part: Instance, n: u8 } }
        stream Mine { From: Server, Type: Unreliable, Per: Player, Data: Instance? }
        stream Pick { From: Client, Type: Reliable, Data: Instance }
        event Ping { From: Server, Type: Unreliable, Call: ManySync, Data: Instance }
        "#,
    );
    let setup = "for _, name in { 'A', 'B' } do local p = Instance.new('Part') p.Name = name p.Parent = workspace end";
    for mode in MODES {
        let mut sim = start_with(&modules, mode, 2, setup);
        for index in 0..2 {
            client_exec(
                &sim,
                index,
                "local Net = require('Net') shared.Pings = {} Net.Ping.On(function(p) table.insert(shared.Pings, p.Name) end) Net.Pick.Set(workspace.B)",
            );
        }
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            local p = game:GetService("Players"):GetPlayers()
            Net.Focus.Set({ part = workspace.A, n = 4 })
            Net.Mine.Set(p[1], workspace.B)
            Net.Mine.Set(p[2], nil)
            Net.Ping.FireAll(workspace.A)
            Net.Ping.Fire(p[2], workspace.B)
            "#,
        );
        sim.steps(3).expect("steps");
        for index in 0..2 {
            let (focus, n, mine, pings): (String, u8, Option<String>, Vec<String>) = client_eval(
                &sim,
                index,
                "local Net = require('Net') local f = Net.Focus.Get() local m = Net.Mine.Get() return f.part.Name, f.n, if m then m.Name else nil, shared.Pings",
            );
            assert_eq!((focus.as_str(), n), ("A", 4), "{mode:?}");
            let expected_mine = if index == 0 { Some("B".to_string()) } else { None };
            assert_eq!(mine, expected_mine, "{mode:?}: client {index}");
            let mut pings = pings;
            pings.sort();
            let expected_pings: Vec<&str> = if index == 0 { vec!["A"] } else { vec!["A", "B"] };
            assert_eq!(pings, expected_pings, "{mode:?}: client {index}");
        }
        let picks: Vec<String> = server_eval(
            &sim,
            "local Net = require('Net') local out = {} for _, p in game:GetService('Players'):GetPlayers() do table.insert(out, Net.Pick.Get(p).Name) end return out",
        );
        assert_eq!(picks, ["B", "B"], "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_set_that_raises_half_way_leaves_the_batches_intact() {
    // No WriteValidations: the bad value fails inside the serializer, half-way.
    let modules = compile(
        r#"
        stream Pos { From: Client, Type: Reliable, Data: struct { name: string, n: u8 } }
        event Shot { From: Client, Type: Unreliable, Call: ManySync, Data: struct { name: string, n: u8 } }
        event Chat { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
        stream Score { From: Server, Type: Reliable, Data: struct { name: string, n: u8 } }
        event Note { From: Server, Type: Reliable, Call: ManySync, Data: u8 }
        export struct Card { name: string, n: u8 }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "local Net = require('Net') shared.Got = {} Net.Chat.On(function(_, n) table.insert(shared.Got, n) end) Net.Shot.On(function(_, v) table.insert(shared.Got, v.name) end)",
        );
        client_exec(
            &sim,
            0,
            r#"
            local Net = require("Net")
            shared.Got = {}
            Net.Note.On(function(n) table.insert(shared.Got, n) end)
            Net.Chat.Fire(1)
            assert(not pcall(Net.Pos.Set, { name = "p", n = "bad" }))
            Net.Chat.Fire(2)
            assert(not pcall(Net.Shot.Fire, { name = "s", n = "bad" }))
            Net.Chat.Fire(3)
            assert(not pcall(Net.Card.Write, { name = "c", n = "bad" }))
            Net.Chat.Fire(4)
            Net.Shot.Fire({ name = "ok", n = 1 })
            "#,
        );
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            local p = game:GetService("Players"):GetPlayers()[1]
            Net.Note.Fire(p, 1)
            assert(not pcall(Net.Score.Set, { name = "p", n = "bad" }))
            Net.Note.Fire(p, 2)
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(
            &sim,
            "local out = {} for _, v in shared.Got do table.insert(out, tostring(v)) end return out",
        );
        assert_eq!(got, ["ok", "1", "2", "3", "4"], "{mode:?}");
        let notes: Vec<u8> = client_eval(&sim, 0, "return shared.Got");
        assert_eq!(notes, vec![1, 2], "{mode:?}");
        assert!(
            sim.server().warnings().is_empty(),
            "{mode:?}: {:?}",
            sim.server().warnings()
        );
        assert_no_errors(&sim);
    }
}

/// Roblox may deliver unreliable calls out of order: a stream value sent before the
/// one kept is ignored (records carry the sender's flush number).
#[test]
fn a_late_unreliable_stream_packet_does_not_replace_a_newer_value() {
    let modules = compile("stream Aim { From: Client, Type: Unreliable, Data: f32 }");
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "shared.Seen = {} require('Net').Aim.On(function(_, x) table.insert(shared.Seen, x) end)",
        );
        let packet = |flush: u8, x: f32| {
            let mut bytes = vec![0u8, flush];
            bytes.extend_from_slice(&x.to_le_bytes());
            vec![RemoteValue::buffer(bytes), RemoteValue::array([])]
        };
        for (flush, x) in [(10, 1.0), (9, 2.0), (10, 5.0), (11, 3.0), (200, 4.0)] {
            sim.inject_fire_server(0, "ReplicatedStorage.BLINK_UNRELIABLE_REMOTE", packet(flush, x))
                .expect("inject");
            sim.step().expect("step");
        }
        let seen: Vec<f32> = server_eval(&sim, "return shared.Seen");
        assert_eq!(
            seen,
            vec![1.0, 3.0, 4.0],
            "{mode:?}: late and repeated flushes are ignored"
        );
        let latest: f32 = server_eval(
            &sim,
            "return require('Net').Aim.Get(game:GetService('Players'):GetPlayers()[1])",
        );
        assert_eq!(latest, 4.0, "{mode:?}");
        assert_no_errors(&sim);
    }
}
