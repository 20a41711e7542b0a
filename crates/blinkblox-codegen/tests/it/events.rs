//! Behaviour of generated modules: Call modes, queues, polling, ordering, batching,
//! wire sizes, edit mode, validations, casing and scopes. (Functions are in
//! `codegen_functions.rs`, sending to players in `codegen_broadcast.rs`.)

use crate::support::*;
use blinkblox_luau::{CallKind, Mode, Simulation};

fn server_eval<T: mlua::FromLuaMulti>(sim: &Simulation, source: &str) -> T {
    sim.server().eval(source).unwrap_or_else(|e| panic!("server: {e}"))
}

fn client_exec(sim: &Simulation, index: usize, source: &str) {
    sim.client(index)
        .expect("client")
        .exec(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"));
}

const MODES_SCHEMA: &str = r#"
event SS { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
event SA { From: Client, Type: Reliable, Call: SingleAsync, Data: u8 }
event MS { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
event MA { From: Client, Type: Reliable, Call: ManyAsync, Data: u8 }
event P { From: Client, Type: Reliable, Call: Polling, Data: (u8, string) }
event U { From: Client, Type: Unreliable, Call: SingleSync, Data: u8 }
event Empty { From: Client, Type: Reliable, Call: SingleSync }
"#;

#[test]
fn single_sync_replaces_disconnects_and_queues_again() {
    let modules = compile(MODES_SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.A, shared.B = {}, {}
                shared.DisconnectA = Net.SS.On(function(p, v) table.insert(shared.A, v) end)
                shared.DisconnectB = Net.SS.On(function(p, v) table.insert(shared.B, p.Name .. ":" .. v) end)
                "#,
            )
            .expect("on");
        client_exec(&sim, 0, "require('Net').SS.Fire(1)");
        sim.steps(2).expect("steps");
        let (a, b): (usize, Vec<String>) = server_eval(&sim, "return #shared.A, shared.B");
        assert_eq!(
            (a, b),
            (0, vec!["Player1:1".to_string()]),
            "{mode:?}: On replaces the listener"
        );
        // The stale disconnect of A must not remove B.
        sim.server().exec("shared.DisconnectA()").expect("disconnect a");
        client_exec(&sim, 0, "require('Net').SS.Fire(2)");
        sim.steps(2).expect("steps");
        let b: Vec<String> = server_eval(&sim, "return shared.B");
        assert_eq!(b.len(), 2, "{mode:?}");
        // Disconnected: reliable events queue until the next On.
        sim.server().exec("shared.DisconnectB()").expect("disconnect b");
        client_exec(&sim, 0, "local Net = require('Net') Net.SS.Fire(3) Net.SS.Fire(4)");
        sim.steps(2).expect("steps");
        let b: usize = server_eval(&sim, "return #shared.B");
        assert_eq!(b, 2, "{mode:?}: nothing delivered while disconnected");
        sim.server()
            .exec("shared.C = {} require('Net').SS.On(function(p, v) table.insert(shared.C, v) end)")
            .expect("on again");
        let c: Vec<u8> = server_eval(&sim, "return shared.C");
        assert_eq!(c, vec![3, 4], "{mode:?}: the queue is handed to the next On in order");
        assert_no_errors(&sim);
    }
}

#[test]
fn many_listeners_async_listeners_and_empty_payloads() {
    let modules = compile(MODES_SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Log = {}
                local function log(x) table.insert(shared.Log, x) end
                local first = Net.MS.On(function(p, v) log("ms1:" .. v) end)
                Net.MS.On(function(p, v) log("ms2:" .. v) first() end) -- disconnects another mid-delivery
                Net.MA.On(function(p, v) task.wait(0.01) log("ma1:" .. v) end)
                Net.MA.On(function(p, v) log("ma2:" .. v) end)
                Net.SA.On(function(p, v) task.wait(0.01) log("sa:" .. v) end)
                Net.Empty.On(function(p, v) log("empty:" .. tostring(v)) end)
                "#,
            )
            .expect("on");
        client_exec(
            &sim,
            0,
            "local Net = require('Net') Net.MS.Fire(1) Net.MA.Fire(2) Net.SA.Fire(3) Net.Empty.Fire() Net.MS.Fire(4)",
        );
        sim.steps(4).expect("steps");
        let log: Vec<String> = server_eval(&sim, "return shared.Log");
        assert_eq!(
            log,
            ["ms1:1", "ms2:1", "ma2:2", "empty:nil", "ms2:4", "ma1:2", "sa:3"],
            "{mode:?}: Sync inline in order, Async spawned (yielding allowed), disconnect mid-delivery"
        );
        assert_no_errors(&sim);
    }
}

#[test]
fn queue_before_first_on_and_unreliable_dropped_without_listener() {
    let modules = compile(MODES_SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        client_exec(
            &sim,
            0,
            "local Net = require('Net') for i = 1, 3 do Net.MS.Fire(i) Net.SA.Fire(i * 10) Net.U.Fire(i) end",
        );
        sim.steps(2).expect("steps");
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.MS, shared.SA, shared.U = {}, {}, {}
                Net.MS.On(function(p, v) table.insert(shared.MS, v) end)
                Net.MS.On(function(p, v) table.insert(shared.MS, -v) end) -- Many drains on the first On only
                Net.SA.On(function(p, v) table.insert(shared.SA, v) end)
                Net.U.On(function(p, v) table.insert(shared.U, v) end)
                "#,
            )
            .expect("on");
        sim.steps(1).expect("steps");
        let (ms, sa, u): (Vec<i32>, Vec<i32>, Vec<i32>) = server_eval(&sim, "return shared.MS, shared.SA, shared.U");
        assert_eq!(ms, vec![1, 2, 3], "{mode:?}");
        assert_eq!(sa, vec![10, 20, 30], "{mode:?}");
        assert!(
            u.is_empty(),
            "{mode:?}: unreliable events without a listener are dropped"
        );
        client_exec(&sim, 0, "require('Net').U.Fire(9)");
        sim.steps(2).expect("steps");
        let u: Vec<i32> = server_eval(&sim, "return shared.U");
        assert_eq!(u, vec![9], "{mode:?}: unreliable delivered once listened to");
        assert_no_errors(&sim);
    }
}

#[test]
fn polling_iter_and_next() {
    let modules = compile(MODES_SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        client_exec(
            &sim,
            0,
            "local Net = require('Net') Net.P.Fire(1, 'a') Net.P.Fire(2, 'b')",
        );
        client_exec(&sim, 1, "require('Net').P.Fire(3, 'c')");
        sim.steps(2).expect("steps");
        let seen: Vec<String> = server_eval(
            &sim,
            r#"
            local Net = require("Net")
            local seen = {}
            for index, player, n, s in Net.P.Iter() do
                table.insert(seen, `{index} {player.Name} {n} {s}`)
            end
            for _ in Net.P.Next() do table.insert(seen, "again") end
            return seen
            "#,
        );
        assert_eq!(seen, ["1 Player1 1 a", "2 Player1 2 b", "3 Player2 3 c"], "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn many_events_in_a_frame_keep_order_in_one_remote_call() {
    let modules = compile(
        r#"
        event A { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
        event B { From: Client, Type: Reliable, Call: ManySync, Data: string }
        event C { From: Server, Type: Reliable, Call: ManySync, Data: u16 }
        event D { From: Server, Type: Reliable, Call: ManySync, Data: struct { s: string, n: u8? } }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Log = {}
                Net.A.On(function(p, v) table.insert(shared.Log, "A" .. v) end)
                Net.B.On(function(p, v) table.insert(shared.Log, "B" .. v) end)
                "#,
            )
            .expect("on");
        sim.take_traffic();
        client_exec(
            &sim,
            0,
            "local Net = require('Net') for i = 1, 200 do if i % 3 == 0 then Net.B.Fire(tostring(i)) else Net.A.Fire(i) end end",
        );
        sim.step().expect("step"); // the client's Heartbeat flushes
        let sent = sim.take_traffic();
        assert_eq!(
            sent.kind(CallKind::FireServer).calls,
            1,
            "{mode:?}: 200 events, one FireServer"
        );
        sim.step().expect("step");
        let log: Vec<String> = server_eval(&sim, "return shared.Log");
        let expected: Vec<String> = (1..=200)
            .map(|i| if i % 3 == 0 { format!("B{i}") } else { format!("A{i}") })
            .collect();
        assert_eq!(log, expected, "{mode:?}");

        client_exec(
            &sim,
            0,
            r#"
            local Net = require("Net")
            shared.Log = {}
            Net.C.On(function(v) table.insert(shared.Log, "C" .. v) end)
            Net.D.On(function(v) table.insert(shared.Log, "D" .. v.s .. tostring(v.n)) end)
            "#,
        );
        sim.take_traffic();
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local player = game:GetService("Players"):GetPlayers()[1]
                for i = 1, 200 do
                    if i % 2 == 0 then Net.C.Fire(player, i) else Net.D.Fire(player, { s = tostring(i), n = if i % 5 == 0 then nil else 1 }) end
                end
                "#,
            )
            .expect("server fires");
        sim.step().expect("step");
        assert_eq!(
            sim.take_traffic().kind(CallKind::FireClient).calls,
            1,
            "{mode:?}: one FireClient for the player"
        );
        sim.step().expect("step");
        let log: Vec<String> = sim.client(0).expect("client").eval("return shared.Log").expect("eval");
        let expected: Vec<String> = (1..=200)
            .map(|i| {
                if i % 2 == 0 {
                    format!("C{i}")
                } else {
                    format!("D{i}{}", if i % 5 == 0 { "nil" } else { "1" })
                }
            })
            .collect();
        assert_eq!(log, expected, "{mode:?}");
        assert_no_errors(&sim);
    }
}

/// Bytes of the single remote call a client makes when it fires one event.
fn one_event_bytes(schema: &str, value: &str) -> usize {
    let modules = compile(schema);
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server().exec("require('Net').E.On(function() end)").expect("on");
    sim.take_traffic();
    client_exec(&sim, 0, &format!("require('Net').E.Fire({value})"));
    sim.step().expect("step");
    let traffic = sim.take_traffic();
    assert_eq!(traffic.total().calls, 1);
    traffic.total().buffer_bytes as usize
}

#[test]
fn wire_sizes_of_boolean_array_struct_array_and_byte() {
    assert_eq!(
        one_event_bytes(
            "event E { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[0..1000] }",
            "table.create(1000, true)"
        ),
        128
    );
    assert_eq!(
        one_event_bytes(
            "struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }\n\
             event E { From: Client, Type: Reliable, Call: SingleSync, Data: Entity[0..1000] }",
            "table.create(100, { id = 1, x = 2, y = 3, z = 4, orientation = 5, animation = 6 })"
        ),
        602
    );
    assert_eq!(
        one_event_bytes(
            "event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }",
            "7"
        ),
        2
    );
    // Booleans and optional flags of one struct share a byte.
    assert_eq!(
        one_event_bytes(
            "event E { From: Client, Type: Reliable, Call: SingleSync, Data: struct { a: boolean, b: boolean, c: u8?, d: u8 } }",
            "{ a = true, b = false, d = 1 }"
        ),
        3
    );
}

#[test]
fn a_client_refills_last_frames_packet() {
    let modules = compile("event E { From: Client, Type: Reliable, Call: ManySync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').E.On(function(_, v) table.insert(shared.Got, v) end)")
        .expect("on");
    for frame in 0..3 {
        client_exec(&sim, 0, &format!("require('Net').E.Fire({frame})"));
        sim.step().expect("step");
    }
    sim.step().expect("step");
    let got: Vec<u8> = server_eval(&sim, "return shared.Got");
    assert_eq!(
        got,
        vec![0, 1, 2],
        "a reused packet still carries each frame's own bytes"
    );
}

#[test]
fn edit_mode_modules_are_no_ops_of_the_same_shape() {
    let modules = compile(
        r#"
        option Casing = Camel
        event A { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
        event B { From: Server, Type: Unreliable, Call: Polling, Data: u8 }
        function F { Yield: Coroutine, Data: u8, Return: u8 }
        scope Inner { event C { From: Server, Type: Reliable, Call: ManyAsync, Data: u8 } }
        "#,
    );
    for mode in MODES {
        let mut sim = start_edit_mode(&modules, mode);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                assert(type(Net.A.on(function() end)) == "function", "On returns a disconnect")
                Net.A.on(function() end)()
                Net.B.fire(nil, 1) Net.B.fireAll(1) Net.B.fireList({}, 1) Net.B.fireExcept(nil, 1)
                assert(type(Net.Inner.C.fireAll) == "function")
                Net.F.on(function() return 1 end)
                Net.stepReplication()
                assert(table.isfrozen(Net))
                "#,
            )
            .expect("server no-op shape");
        client_exec(
            &sim,
            0,
            r#"
            local Net = require("Net")
            Net.A.fire(1)
            assert(type(Net.Inner.C.on(function() end)) == "function")
            for _ in Net.B.iter() do error("nothing to iterate") end
            Net.stepReplication()
            "#,
        );
        sim.steps(2).expect("steps");
        assert_eq!(
            sim.take_traffic().total().calls,
            0,
            "{mode:?}: nothing is sent in edit mode"
        );
        assert!(
            sim.server()
                .instance_id("ReplicatedStorage.BLINK_RELIABLE_REMOTE")
                .expect("lookup")
                .is_none()
        );
    }
}

#[test]
fn write_validations_name_the_event_and_field_and_leave_the_batch_intact() {
    let modules = compile(
        r#"
        option WriteValidations = true
        event Hit { From: Client, Type: Reliable, Call: ManySync, Data: struct { target: u8, damage: u16(0..100), tags: string(..4)[] } }
        "#,
    );
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').Hit.On(function(_, v) table.insert(shared.Got, v.damage) end)")
        .expect("on");
    let error: String = sim
        .client(0)
        .expect("client")
        .eval(
            r#"
            local Net = require("Net")
            Net.Hit.Fire({ target = 1, damage = 5, tags = {} })
            local ok, problem = pcall(Net.Hit.Fire, { target = 1, damage = 500, tags = {} })
            assert(not ok)
            local ok2, problem2 = pcall(Net.Hit.Fire, { target = 1, damage = 5, tags = { "toolong" } })
            assert(not ok2)
            Net.Hit.Fire({ target = 2, damage = 6, tags = { "ok" } })
            return tostring(problem) .. "\n" .. tostring(problem2)
            "#,
        )
        .expect("fires");
    assert!(
        error.contains("Hit.Fire") && error.contains("Value.damage") && error.contains("0..100"),
        "{error}"
    );
    assert!(
        error.contains("Value.tags[1]") && error.contains("at most 4"),
        "{error}"
    );
    sim.steps(2).expect("steps");
    let got: Vec<u16> = server_eval(&sim, "return shared.Got");
    assert_eq!(got, vec![5, 6], "failed fires wrote nothing");
    assert_no_errors(&sim);
}

#[test]
fn a_sync_listener_error_costs_only_its_event() {
    let modules = compile("event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').E.On(function(_, v) if v == 2 then error('boom') end table.insert(shared.Got, v) end)")
        .expect("on");
    client_exec(
        &sim,
        0,
        "local Net = require('Net') Net.E.Fire(1) Net.E.Fire(2) Net.E.Fire(3)",
    );
    sim.steps(2).expect("steps");
    let got: Vec<u8> = server_eval(&sim, "return shared.Got");
    assert_eq!(got, vec![1, 3]);
    let errors = sim.server().errors();
    assert!(
        errors.iter().any(|e| e.contains("boom")),
        "the listener's error is reported: {errors:?}"
    );
}

#[test]
fn casings_scopes_and_remote_scope() {
    let modules = compile(
        r#"
        option Casing = Snake
        option RemoteScope = "Combat"
        scope Weapons { scope Guns { event Shot { From: Client, Type: Reliable, Call: SingleSync, Data: u8 } } }
        event Ping { From: Server, Type: Reliable, Call: SingleSync, Data: u8 }
        "#,
    );
    let mut sim = start(&modules, Mode::Native, 1);
    assert!(
        sim.server()
            .instance_id("ReplicatedStorage.Combat_BLINK_RELIABLE_REMOTE")
            .expect("lookup")
            .is_some()
    );
    assert!(
        sim.server()
            .instance_id("ReplicatedStorage.Combat_BLINK_UNRELIABLE_REMOTE")
            .expect("lookup")
            .is_some()
    );
    sim.server()
        .exec(
            r#"
            local Net = require("Net")
            shared.Got = 0
            Net.Weapons.Guns.Shot.on(function(_, v) shared.Got = v end)
            assert(type(Net.Ping.fire_all) == "function" and type(Net.Ping.fire_except) == "function")
            assert(type(Net.step_replication) == "function")
            "#,
        )
        .expect("snake case");
    client_exec(&sim, 0, "require('Net').Weapons.Guns.Shot.fire(5)");
    sim.steps(2).expect("steps");
    let got: u8 = server_eval(&sim, "return shared.Got");
    assert_eq!(got, 5);
    // A second module with the same RemoteScope in one VM is refused.
    let second = sim.server().load_module("Net2", &modules.server);
    let message = second.expect_err("the scope guard refuses a second module").to_string();
    assert!(
        message.contains("Combat") && message.contains("RemoteScope"),
        "{message}"
    );
}

#[test]
fn manual_replication_waits_for_step_replication() {
    let modules =
        compile("option ManualReplication = true\nevent E { From: Client, Type: Reliable, Call: ManySync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').E.On(function(_, v) table.insert(shared.Got, v) end)")
        .expect("on");
    sim.take_traffic();
    client_exec(&sim, 0, "require('Net').E.Fire(1)");
    sim.steps(3).expect("steps");
    assert_eq!(sim.take_traffic().total().calls, 0, "nothing is flushed on Heartbeat");
    client_exec(&sim, 0, "require('Net').StepReplication()");
    sim.steps(2).expect("steps");
    let got: Vec<u8> = server_eval(&sim, "return shared.Got");
    assert_eq!(got, vec![1]);
}

#[test]
fn exported_types_read_what_they_write() {
    let modules = compile(
        r#"
        export struct Item { id: u16, name: string, tags: boolean[], owner: Instance? }
        scope Shop { export enum Kind = { Weapon, Food } }
        "#,
    );
    let sim = start_with(
        &modules,
        Mode::Native,
        1,
        "local p = Instance.new('Part') p.Name = 'P' p.Parent = workspace",
    );
    sim.server()
        .exec(
            r#"
            local Net = require("Net")
            local item = { id = 513, name = "sword", tags = { true, false, true }, owner = workspace.P }
            local data, instances = Net.Item.Write(item)
            assert(typeof(data) == "buffer")
            shared.assertEqual(Net.Item.Read(data, instances), item, "Item")
            shared.assertEqual(Net.Shop.Kind.Read((Net.Shop.Kind.Write("Food"))), "Food", "Kind")
            local ok = pcall(Net.Item.Read, buffer.create(1))
            assert(not ok, "a truncated buffer is refused")
            -- TryRead never raises: bytes a client sent, or anything else, give false and why.
            local good, read = Net.Item.TryRead(data, instances)
            assert(good == true, "TryRead of valid bytes")
            shared.assertEqual(read, item, "TryRead's value")
            for _, input in { buffer.create(1), buffer.fromstring("\255\255\255\255\255"), "text", nil, 5 } do
                local fine, reason = Net.Item.TryRead(input)
                assert(fine == false and type(reason) == "string", `TryRead({typeof(input)}) gives false, a reason`)
            end
            local extra = buffer.create(buffer.len(data) + 1)
            buffer.copy(extra, 0, data)
            local fine, reason = Net.Item.TryRead(extra, instances)
            assert(not fine and string.find(reason, "more bytes than the value"), reason)
            "#,
        )
        .expect("server exports");
    let types = modules.types.expect("types module");
    sim.server().load_module("Types", &types).expect("types module loads");
    sim.server()
        .exec(
            r#"
            local Types = require("Types")
            local Net = require("Net")
            local value = { id = 1, name = "x", tags = {} }
            shared.assertEqual(Net.Item.Read((Types.Item.Write(value))), value, "Types writes what Net reads")
            "#,
        )
        .expect("types module exports");
}

#[test]
fn a_player_who_left_is_forgotten() {
    let modules = compile("event E { From: Server, Type: Reliable, Call: ManySync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 2);
    sim.server()
        .exec("shared.Second = game:GetService('Players'):GetPlayers()[2]")
        .expect("remember");
    sim.remove_player(1).expect("remove");
    sim.step().expect("step");
    sim.server()
        .exec("require('Net').E.Fire(shared.Second, 1) require('Net').E.FireAll(2)")
        .expect("fire");
    sim.steps(2).expect("steps");
    assert_no_errors(&sim);
}

#[test]
fn a_sync_listener_that_yields_is_reported_and_closed() {
    let modules = compile("event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').E.On(function(_, v) if v == 1 then task.wait(10) end table.insert(shared.Got, v) end)")
        .expect("on");
    client_exec(&sim, 0, "require('Net').E.Fire(1)");
    sim.steps(2).expect("steps");
    client_exec(&sim, 0, "require('Net').E.Fire(2)");
    sim.steps(2).expect("steps");
    let got: Vec<u8> = server_eval(&sim, "return shared.Got");
    assert_eq!(got, vec![2], "the next packet decodes normally");
    let warnings = sim.server().warnings();
    assert!(
        warnings.iter().any(|w| w.contains("Yielded in a Sync call")),
        "{warnings:?}"
    );
    sim.steps(700).expect("steps");
    let got: Vec<u8> = server_eval(&sim, "return shared.Got");
    assert_eq!(got, vec![2], "the stuck listener never resumes");
}

#[test]
fn a_fire_that_raises_half_way_does_not_corrupt_the_frame() {
    // No WriteValidations: the bad value fails inside the serializer.
    let modules = compile(
        "event E { From: Client, Type: Reliable, Call: ManySync, Data: struct { name: string, part: Instance, n: u8 } }",
    );
    for mode in MODES {
        let mut sim = start_with(
            &modules,
            mode,
            1,
            "local p = Instance.new('Part') p.Name = 'P' p.Parent = workspace",
        );
        sim.server()
            .exec("shared.Got = {} require('Net').E.On(function(_, v) table.insert(shared.Got, v.name .. v.n) end)")
            .expect("on");
        client_exec(
            &sim,
            0,
            r#"
            local Net = require("Net")
            Net.E.Fire({ name = "a", part = workspace.P, n = 1 })
            assert(not pcall(Net.E.Fire, { name = "bad", part = workspace.P, n = "not a number" }))
            Net.E.Fire({ name = "b", part = workspace.P, n = 2 })
            assert(not pcall(Net.E.Fire, { name = "bad", part = workspace.P }))
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(&sim, "return shared.Got");
        assert_eq!(got, ["a1", "b2"], "{mode:?}");
        assert!(sim.server().warnings().is_empty(), "{mode:?}: no packet was dropped");
    }
}

#[test]
fn client_flush_rate_thirty_halves_the_sends_and_loses_nothing() {
    let modules =
        compile("option ClientFlushRate = 30\nevent E { From: Client, Type: Reliable, Call: ManySync, Data: u16 }");
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec("shared.Got = {} require('Net').E.On(function(_, v) table.insert(shared.Got, v) end)")
            .expect("on");
        sim.take_traffic();
        for frame in 0..60u16 {
            client_exec(&sim, 0, &format!("require('Net').E.Fire({frame})"));
            sim.step().expect("step");
        }
        sim.steps(3).expect("steps");
        let sends = sim.take_traffic().kind(CallKind::FireServer).calls;
        assert!((29..=32).contains(&sends), "{mode:?}: {sends} sends for 60 frames");
        let got: Vec<u16> = server_eval(&sim, "return shared.Got");
        assert_eq!(got, (0..60).collect::<Vec<u16>>(), "{mode:?}");
    }
}

#[test]
fn unreliable_events_over_max_unreliable_size_are_dropped_with_one_warning() {
    let modules = compile(
        r#"
        option MaxUnreliableSize = 100
        event Up { From: Client, Type: Unreliable, Call: ManySync, Data: string }
        event Down { From: Server, Type: Unreliable, Call: ManySync, Data: string }
        "#,
    );
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec("shared.Got = {} require('Net').Up.On(function(_, v) table.insert(shared.Got, #v) end)")
        .expect("on");
    client_exec(
        &sim,
        0,
        "shared.Got = {} require('Net').Down.On(function(v) table.insert(shared.Got, #v) end)",
    );
    sim.take_traffic();
    client_exec(
        &sim,
        0,
        "local Net = require('Net') Net.Up.Fire(string.rep('x', 98)) Net.Up.Fire(string.rep('x', 99)) Net.Up.Fire(string.rep('x', 500))",
    );
    sim.server()
        .exec("local Net = require('Net') Net.Down.FireAll(string.rep('y', 200)) Net.Down.FireAll('ok')")
        .expect("fire");
    sim.steps(2).expect("steps");
    let up: Vec<u32> = server_eval(&sim, "return shared.Got");
    assert_eq!(up, vec![98], "1 index + 1 length + 98 bytes fit in 100; 99 does not");
    let down: Vec<u32> = sim.client(0).expect("client").eval("return shared.Got").expect("eval");
    assert_eq!(down, vec![2]);
    for world in sim.worlds() {
        let warnings: Vec<String> = world
            .warnings()
            .into_iter()
            .filter(|w| w.contains("MaxUnreliableSize"))
            .collect();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }
}

#[test]
fn a_queue_nobody_drains_stops_at_its_limit() {
    let modules = compile(
        "event E { From: Client, Type: Reliable, Call: ManySync, Data: u16 }\nevent S { From: Server, Type: Reliable, Call: ManySync, Data: u16 }",
    );
    let mut sim = start(&modules, Mode::Native, 1);
    client_exec(
        &sim,
        0,
        "local Net = require('Net') for i = 1, 5000 do Net.E.Fire(i) end",
    );
    sim.server()
        .exec("local Net = require('Net') for i = 1, 5000 do Net.S.FireAll(i) end")
        .expect("fire");
    sim.steps(2).expect("steps");
    sim.server()
        .exec("shared.Got = {} require('Net').E.On(function(_, v) table.insert(shared.Got, v) end)")
        .expect("on");
    let got: Vec<u16> = server_eval(&sim, "return shared.Got");
    assert_eq!(
        got,
        (1..=256).collect::<Vec<u16>>(),
        "the server keeps a player's oldest 256, in order"
    );
    let warnings = sim.server().warnings();
    assert_eq!(
        warnings.iter().filter(|w| w.contains("QueueFull")).count(),
        1,
        "the first drop is printed, the rest counted: {warnings:?}"
    );
    let dropped: u32 = server_eval(
        &sim,
        "return require('Net').GetDropCounts(game:GetService('Players'):GetPlayers()[1]).QueueFull",
    );
    assert_eq!(dropped, 5000 - 256);

    client_exec(
        &sim,
        0,
        "shared.Got = {} require('Net').S.On(function(v) table.insert(shared.Got, v) end)",
    );
    let got: Vec<u16> = sim.client(0).expect("client").eval("return shared.Got").expect("got");
    assert_eq!(
        got,
        (1..=4096).collect::<Vec<u16>>(),
        "a client keeps the server's oldest 4096"
    );
    let warnings = sim.client(0).expect("client").warnings();
    assert_eq!(
        warnings.iter().filter(|w| w.contains("waiting for a listener")).count(),
        1,
        "{warnings:?}"
    );
}

#[test]
fn a_declaration_named_like_a_runtime_function_gets_its_own_name() {
    // `Length`'s shared writer would be `WriteLength`, the runtime's length writer, which the
    // event's own array length also needs: the declaration's takes `WriteLength2`.
    let modules = compile(
        "event Length { From: Server, Type: Reliable, Call: SingleSync, Data: u8[] }\n\
         event Grow { From: Server, Type: Reliable, Call: SingleSync, Data: u16 }\n",
    );
    assert!(
        modules.server.contains("local function WriteLength2("),
        "{}",
        modules.server
    );
    assert_eq!(modules.server.matches("\n@native function WriteLength(").count(), 1);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        client_exec(
            &sim,
            0,
            "local Net = require('Net') shared.Got = {}\n\
             Net.Length.On(function(v) table.insert(shared.Got, #v) end)\n\
             Net.Grow.On(function(v) table.insert(shared.Got, v) end)",
        );
        sim.server()
            .exec(
                "local Net = require('Net') local t = table.create(300, 7)\n\
                 Net.Length.FireAll(t) Net.Grow.FireAll(65535) Net.Length.FireAll({})",
            )
            .expect("fire");
        sim.steps(2).expect("steps");
        let got: Vec<u32> = sim.client(0).expect("client").eval("return shared.Got").expect("got");
        assert_eq!(got, [300, 65535, 0], "{mode:?}");
        assert_no_errors(&sim);
    }
}
