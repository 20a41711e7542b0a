//! Broadcasts and batching in the embedded VM: how many remote calls FireAll,
//! FireList and FireExcept cost, that they reach exactly the right players in fire
//! order, BatchUnreliable (one call a frame, split under MaxUnreliableSize), and
//! client packets split under MaxEventsPerPacket / MaxPacketSize.

use crate::support::*;
use blinkblox_luau::{CallKind, Mode, Simulation, Traffic};

fn server_exec(sim: &Simulation, source: &str) {
    sim.server().exec(source).unwrap_or_else(|e| panic!("server: {e}"))
}

fn client_exec(sim: &Simulation, index: usize, source: &str) {
    sim.client(index)
        .expect("client")
        .exec(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"))
}

fn client_got(sim: &Simulation, index: usize) -> Vec<u32> {
    sim.client(index)
        .expect("client")
        .eval("return shared.Got")
        .unwrap_or_else(|e| panic!("client {index}: {e}"))
}

fn record_on_every_client(sim: &Simulation, events: &[&str]) {
    let connects: String = events
        .iter()
        .map(|e| format!("Net.{e}.On(function(n) table.insert(shared.Got, n) end) "))
        .collect();
    for (index, _) in sim.clients().collect::<Vec<_>>() {
        client_exec(
            sim,
            index,
            &format!("local Net = require('Net') shared.Got = {{}} {connects}"),
        );
    }
}

/// (FireClient, FireAllClients) calls in a traffic sample.
/// Every player's `shared.Got` equals what the server recorded for it in
/// `shared.Expected[name]` (and is not empty, with `nonempty`), and nothing raised.
fn assert_each_player_got_expected(sim: &Simulation, context: &str, nonempty: bool) {
    for (index, _) in sim.clients() {
        let name = format!("Player{}", index + 1);
        let expected: Vec<u32> = sim
            .server()
            .eval(&format!("return shared.Expected['{name}']"))
            .expect("expected");
        if nonempty {
            assert!(!expected.is_empty());
        }
        assert_eq!(client_got(sim, index), expected, "{context}: {name}");
    }
    assert_no_errors(sim);
}

fn calls(traffic: &Traffic) -> (u64, u64) {
    (
        traffic.kind(CallKind::FireClient).calls,
        traffic.kind(CallKind::FireAllClients).calls,
    )
}

const RELIABLE: &str = "event E { From: Server, Type: Reliable, Call: ManySync, Data: u16 }";

#[test]
fn fire_except_is_one_broadcast_and_one_marker_packet_whatever_the_player_count() {
    let modules = compile(RELIABLE);
    for mode in MODES {
        let mut sim = start(&modules, mode, 50);
        record_on_every_client(&sim, &["E"]);
        sim.take_traffic();
        server_exec(
            &sim,
            "local Net = require('Net') local p = game:GetService('Players'):GetPlayers() Net.E.FireExcept(p[7], 1) Net.E.FireExcept(p[9], 2) Net.E.FireAll(3)",
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        assert_eq!(calls(&traffic), (2, 1), "{mode:?}: two skipping players, one broadcast");
        sim.step().expect("step");
        for index in 0..50 {
            let expected: Vec<u32> = match index {
                6 => vec![2, 3],
                8 => vec![1, 3],
                _ => vec![1, 2, 3],
            };
            assert_eq!(client_got(&sim, index), expected, "{mode:?}: client {index}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn fire_list_copies_for_few_players_and_broadcasts_for_many() {
    let modules = compile(RELIABLE);
    for mode in MODES {
        let mut sim = start(&modules, mode, 50);
        record_on_every_client(&sim, &["E"]);
        sim.take_traffic();
        // 10 of 50: a copy in each listed player's batch.
        server_exec(
            &sim,
            "local p = game:GetService('Players'):GetPlayers() require('Net').E.FireList({ table.unpack(p, 1, 10) }, 1)",
        );
        sim.step().expect("step");
        assert_eq!(calls(&sim.take_traffic()), (10, 0), "{mode:?}: 10 listed of 50");
        // 45 of 50: one broadcast record, skipped by the other 5.
        server_exec(
            &sim,
            "local p = game:GetService('Players'):GetPlayers() require('Net').E.FireList({ table.unpack(p, 6, 50) }, 2)",
        );
        sim.step().expect("step");
        assert_eq!(calls(&sim.take_traffic()), (5, 1), "{mode:?}: 45 listed of 50");
        sim.step().expect("step");
        for index in 0..50 {
            let mut expected = Vec::new();
            if index < 10 {
                expected.push(1);
            }
            if index >= 5 {
                expected.push(2);
            }
            assert_eq!(client_got(&sim, index), expected, "{mode:?}: client {index}");
        }
        assert_no_errors(&sim);
    }
}

/// 200 sends over 5 players in one frame, FireList with random subsets (so both the
/// copying and the skipping paths), Instances in some payloads, over three frames.
#[test]
fn randomized_interleavings_with_any_list_arrive_in_fire_order() {
    let modules = compile(
        r#"
        event A { From: Server, Type: Reliable, Call: ManySync, Data: u16 }
        event B { From: Server, Type: Reliable, Call: ManySync, Data: (u16, Instance?) }
        "#,
    );
    for mode in MODES {
        for seed in [11, 12, 13, 14] {
            let mut sim = start_with(
                &modules,
                mode,
                5,
                "local p = Instance.new('Part') p.Name = 'P' p.Parent = workspace",
            );
            for (index, _) in sim.clients().collect::<Vec<_>>() {
                client_exec(
                    &sim,
                    index,
                    r#"
                    local Net = require("Net")
                    shared.Got = {}
                    Net.A.On(function(n) table.insert(shared.Got, n) end)
                    Net.B.On(function(n, part)
                        assert(part == (if n % 3 == 0 then workspace.P else nil), "instance out of step")
                        table.insert(shared.Got, n)
                    end)
                    "#,
                );
            }
            server_exec(
                &sim,
                &format!(
                    r#"
                    local Net = require("Net")
                    local players = game:GetService("Players"):GetPlayers()
                    shared.Random = Random.new({seed})
                    shared.Expected = {{}}
                    for _, p in players do shared.Expected[p.Name] = {{}} end
                    shared.N = 0
                    "#
                ),
            );
            for _frame in 0..3 {
                server_exec(
                    &sim,
                    r#"
                    local Net = require("Net")
                    local players = game:GetService("Players"):GetPlayers()
                    local random = shared.Random
                    local function expect(list, n) for _, p in list do table.insert(shared.Expected[p.Name], n) end end
                    for _ = 1, 200 do
                        shared.N += 1
                        local n = shared.N
                        local event = if random:NextInteger(0, 1) == 1 then Net.B else Net.A
                        local part = if n % 3 == 0 then workspace.P else nil
                        local function send(method, first)
                            if event == Net.B then
                                if first ~= nil then event[method](first, n, part) else event[method](n, part) end
                            elseif first ~= nil then event[method](first, n) else event[method](n) end
                        end
                        local kind = random:NextInteger(1, 4)
                        local target = players[random:NextInteger(1, #players)]
                        if kind == 1 then
                            send("FireAll") expect(players, n)
                        elseif kind == 2 then
                            send("Fire", target) expect({ target }, n)
                        elseif kind == 3 then
                            local list = {}
                            for _, p in players do if random:NextInteger(0, 1) == 1 then table.insert(list, p) end end
                            send("FireList", list) expect(list, n)
                        else
                            send("FireExcept", target)
                            local rest = {}
                            for _, p in players do if p ~= target then table.insert(rest, p) end end
                            expect(rest, n)
                        end
                    end
                    "#,
                );
                sim.step().expect("step");
            }
            sim.steps(2).expect("steps");
            assert_each_player_got_expected(&sim, &format!("{mode:?} seed {seed}"), true);
        }
    }
}

const UNRELIABLE_BATCHED: &str = r#"
option BatchUnreliable = true
option MaxUnreliableSize = 100
event Input { From: Client, Type: Unreliable, Call: ManySync, Data: (u8, string(..64)) }
event Hit { From: Server, Type: Unreliable, Call: ManySync, Data: (u8, string(..64)) }
"#;

#[test]
fn batch_unreliable_sends_a_frames_inputs_in_one_call() {
    let modules = compile(UNRELIABLE_BATCHED);
    for mode in MODES {
        let mut sim = start(&modules, mode, 3);
        server_exec(
            &sim,
            "shared.Got = {} require('Net').Input.On(function(p, n, s) table.insert(shared.Got, n) end)",
        );
        for index in 0..3 {
            client_exec(
                &sim,
                index,
                "shared.Got = {} require('Net').Hit.On(function(n, s) table.insert(shared.Got, n) end)",
            );
        }
        sim.take_traffic();
        client_exec(
            &sim,
            0,
            "local Net = require('Net') for n = 1, 8 do Net.Input.Fire(n, 'aim') end",
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        assert_eq!(
            traffic.kind(CallKind::FireServer).calls,
            1,
            "{mode:?}: 8 inputs, 1 call"
        );
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            local p = game:GetService("Players"):GetPlayers()
            for n = 1, 8 do Net.Hit.Fire(p[1], n, "x") end
            for n = 11, 18 do Net.Hit.FireAll(n, "y") end
            Net.Hit.FireExcept(p[2], 21, "z")
            "#,
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        // p1's batch, p3's batch (FireExcept) and one FireAllClients.
        assert_eq!(calls(&traffic), (2, 1), "{mode:?}: {:?}", traffic.calls());
        sim.step().expect("step");
        let got: Vec<u32> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, (1..=8).collect::<Vec<u32>>(), "{mode:?}");
        let mut first = client_got(&sim, 0);
        first.sort();
        let mut expected: Vec<u32> = (1..=8).chain(11..=18).collect();
        expected.push(21);
        assert_eq!(first, expected, "{mode:?}");
        assert_eq!(client_got(&sim, 1), (11..=18).collect::<Vec<u32>>(), "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn batch_unreliable_splits_where_a_call_would_exceed_max_unreliable_size() {
    let modules = compile(UNRELIABLE_BATCHED);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "shared.Got = {} require('Net').Input.On(function(p, n, s) table.insert(shared.Got, n) end)",
        );
        sim.take_traffic();
        // Each record: index 1 + u8 1 + length 1 + 30 = 33 bytes; three fit in 100.
        client_exec(
            &sim,
            0,
            "local Net = require('Net') for n = 1, 10 do Net.Input.Fire(n, string.rep('a', 30)) end",
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        let sizes: Vec<usize> = traffic
            .calls()
            .iter()
            .filter(|c| c.kind == CallKind::FireServer)
            .map(|c| c.buffer_bytes)
            .collect();
        assert_eq!(sizes, vec![99, 99, 99, 33], "{mode:?}");
        assert!(sizes.iter().all(|&s| s <= 100));
        sim.step().expect("step");
        let got: Vec<u32> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, (1..=10).collect::<Vec<u32>>(), "{mode:?}: nothing lost, in order");
        assert_no_errors(&sim);
    }
}

#[test]
fn without_batch_unreliable_each_event_is_one_call() {
    let modules = compile("event Input { From: Client, Type: Unreliable, Call: ManySync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.take_traffic();
    client_exec(
        &sim,
        0,
        "local Net = require('Net') for n = 1, 8 do Net.Input.Fire(n) end",
    );
    sim.step().expect("step");
    assert_eq!(sim.take_traffic().kind(CallKind::FireServer).calls, 8);
}

#[test]
fn a_busy_client_frame_is_split_under_max_events_per_packet_and_max_packet_size() {
    let modules = compile(
        r#"
        option MaxEventsPerPacket = 100
        option MaxPacketSize = 1000
        event Small { From: Client, Type: Reliable, Call: ManySync, Data: u16 }
        event Big { From: Client, Type: Reliable, Call: ManySync, Data: string }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "local Net = require('Net') shared.Got = {} Net.Small.On(function(_, n) table.insert(shared.Got, n) end) Net.Big.On(function(_, s) table.insert(shared.Got, #s) end)",
        );
        sim.take_traffic();
        client_exec(
            &sim,
            0,
            "local Net = require('Net') for n = 1, 250 do Net.Small.Fire(n) end for n = 1, 3 do Net.Big.Fire(string.rep('b', 400 + n)) end",
        );
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        let sizes: Vec<usize> = traffic.calls().iter().map(|c| c.buffer_bytes).collect();
        assert!(sizes.iter().all(|&s| s <= 1000), "{mode:?}: {sizes:?}");
        // 100 + 100 + 50 small records (3 bytes), then the big ones (1 + 2 + length): 150 + 404 + 405
        // fit in 1000, 406 more does not.
        assert_eq!(sizes, vec![300, 300, 959, 406], "{mode:?}");
        sim.step().expect("step");
        let got: Vec<u32> = sim.server().eval("return shared.Got").expect("eval");
        let expected: Vec<u32> = (1..=250).chain([401, 402, 403]).collect();
        assert_eq!(got, expected, "{mode:?}: nothing dropped, in order");
        assert!(
            sim.server().warnings().is_empty(),
            "{mode:?}: {:?}",
            sim.server().warnings()
        );
        assert_no_errors(&sim);
    }
}

#[test]
fn fixed_records_between_every_other_kind_of_write_keep_both_packet_limits() {
    // Fixed-size records are written under a grant of records, checked once a run; the
    // others settle the grant. Mixed with strings, side-array values, unreliable (scratch)
    // fires and writes that raise half-way, every packet must still fit both limits: where
    // the count binds first, where the bytes do, and where both do.
    let pick = |i: u32| (i * 7) % 12;
    let mut expected = Vec::new();
    for i in 1..=900u32 {
        match pick(i) {
            0..=2 => expected.push(format!("Small:{i}")),
            3..=6 => expected.push(format!("Pair:{}:{i}", i % 256)),
            7 => expected.push(format!("Text:{}", i % 90)),
            8 => expected.push(format!("Tagged:P:{}", i % 256)),
            9 if i % 5 == 0 => {
                expected.push(format!("Small:{i}"));
                expected.push(format!("Tagged:P:{}", i % 256));
            }
            _ => {}
        }
    }
    for (events, bytes) in [(37, 300), (37, 4000), (1000, 300)] {
        let modules = compile(&format!(
            r#"
            option MaxEventsPerPacket = {events}
            option MaxPacketSize = {bytes}
            event Small {{ From: Client, Type: Reliable, Call: ManySync, Data: u16 }}
            event Pair {{ From: Client, Type: Reliable, Call: ManySync, Data: (u8, u32) }}
            event Text {{ From: Client, Type: Reliable, Call: ManySync, Data: string }}
            event Tagged {{ From: Client, Type: Reliable, Call: ManySync, Data: struct {{ part: Instance, n: u8 }} }}
            event Loose {{ From: Client, Type: Unreliable, Call: ManySync, Data: u8 }}
            "#
        ));
        for mode in MODES {
            let context = format!("{mode:?}, {events} events, {bytes} bytes");
            let mut sim = start_with(
                &modules,
                mode,
                1,
                "for _, name in { 'P', 'Q' } do local p = Instance.new('Part') p.Name = name p.Parent = workspace end",
            );
            server_exec(
                &sim,
                r#"
                local Net = require('Net')
                shared.Got = {}
                shared.Most = 0
                Net.Small.On(function(_, n) table.insert(shared.Got, `Small:{n}`) end)
                Net.Pair.On(function(_, a, b) table.insert(shared.Got, `Pair:{a}:{b}`) end)
                Net.Text.On(function(_, s) table.insert(shared.Got, `Text:{#s}`) end)
                Net.Tagged.On(function(_, v) table.insert(shared.Got, `Tagged:{v.part.Name}:{v.n}`) end)
                "#,
            );
            sim.take_traffic();
            for frame in 0..3u32 {
                client_exec(
                    &sim,
                    0,
                    &format!(
                        r#"
                        local Net = require('Net')
                        for i = {frame} * 300 + 1, {frame} * 300 + 300 do
                            local pick = (i * 7) % 12
                            if pick <= 2 then Net.Small.Fire(i)
                            elseif pick <= 6 then Net.Pair.Fire(i % 256, i)
                            elseif pick == 7 then Net.Text.Fire(string.rep('t', i % 90))
                            elseif pick == 8 then Net.Tagged.Fire({{ part = workspace.P, n = i % 256 }})
                            elseif pick == 9 then
                                -- Raises after its side-array value (Q, never delivered) is
                                -- written. Such a write ends its packet at the next record (its
                                -- batch's remaining grant is counted), so only now and then.
                                if i % 5 == 0 then
                                    assert(not pcall(Net.Tagged.Fire, {{ part = workspace.Q, n = "x" }}))
                                    -- A fixed record over it, then side-array values again.
                                    Net.Small.Fire(i)
                                    Net.Tagged.Fire({{ part = workspace.P, n = i % 256 }})
                                end
                                assert(not pcall(Net.Small.Fire, "x"))
                            elseif pick == 10 then Net.Loose.Fire(i % 256)
                            else assert(not pcall(Net.Loose.Fire, nil)) end
                        end
                        "#
                    ),
                );
                sim.step().expect("step");
            }
            sim.steps(2).expect("steps");
            let traffic = sim.take_traffic();
            let packets: Vec<_> = traffic
                .calls()
                .iter()
                .filter(|c| c.kind == CallKind::FireServer)
                .collect();
            assert!(
                packets.len() > 6,
                "{context}: {} packets, so the limits split frames",
                packets.len()
            );
            for call in packets {
                assert!(
                    call.buffer_bytes + call.instances * 4 <= bytes,
                    "{context}: a packet of {} bytes and {} values",
                    call.buffer_bytes,
                    call.instances
                );
            }
            let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
            assert_eq!(got, expected, "{context}: nothing dropped, in order");
            // A packet over MaxEventsPerPacket would be cut short and counted.
            assert_eq!(drop_counts(&sim), (0, 0), "{context}");
            assert!(
                sim.server().warnings().is_empty(),
                "{context}: {:?}",
                sim.server().warnings()
            );
            assert_no_errors(&sim);
        }
    }
}

#[test]
fn a_client_event_larger_than_max_packet_size_is_dropped_on_the_client_with_one_warning() {
    let modules =
        compile("option MaxPacketSize = 200\nevent Big { From: Client, Type: Reliable, Call: ManySync, Data: string }");
    let mut sim = start(&modules, Mode::Native, 1);
    server_exec(
        &sim,
        "shared.Got = {} require('Net').Big.On(function(_, s) table.insert(shared.Got, #s) end)",
    );
    client_exec(
        &sim,
        0,
        "local Net = require('Net') Net.Big.Fire('a') Net.Big.Fire(string.rep('x', 300)) Net.Big.Fire(string.rep('y', 301)) Net.Big.Fire('bb')",
    );
    sim.steps(2).expect("steps");
    let got: Vec<u32> = sim.server().eval("return shared.Got").expect("eval");
    assert_eq!(got, vec![1, 2], "the events around the oversized ones still arrive");
    let warnings = sim.client(0).expect("client").warnings();
    assert_eq!(
        warnings.iter().filter(|w| w.contains("MaxPacketSize")).count(),
        1,
        "{warnings:?}"
    );
    assert!(sim.server().warnings().is_empty(), "{:?}", sim.server().warnings());
}

#[test]
fn client_flush_rate_thirty_halves_stream_and_batched_sends_and_loses_nothing() {
    let modules = compile(
        r#"
        option ClientFlushRate = 30
        option BatchUnreliable = true
        event Shot { From: Client, Type: Unreliable, Call: ManySync, Data: u16 }
        event Chat { From: Client, Type: Reliable, Call: ManySync, Data: u16 }
        stream Aim { From: Client, Type: Reliable, Data: u16 }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            shared.Shots, shared.Chats, shared.Aims = {}, {}, {}
            Net.Shot.On(function(_, n) table.insert(shared.Shots, n) end)
            Net.Chat.On(function(_, n) table.insert(shared.Chats, n) end)
            Net.Aim.On(function(_, n) table.insert(shared.Aims, n) end)
            "#,
        );
        sim.take_traffic();
        for frame in 0..60u16 {
            client_exec(
                &sim,
                0,
                &format!(
                    "local Net = require('Net') Net.Shot.Fire({frame}) Net.Chat.Fire({frame}) Net.Aim.Set({frame})"
                ),
            );
            sim.step().expect("step");
        }
        sim.steps(3).expect("steps");
        let traffic = sim.take_traffic();
        let reliable = traffic.remote("BLINK_RELIABLE_REMOTE").calls;
        let unreliable = traffic.remote("BLINK_UNRELIABLE_REMOTE").calls;
        assert!(
            (29..=32).contains(&reliable),
            "{mode:?}: {reliable} reliable sends for 60 frames"
        );
        assert!(
            (29..=32).contains(&unreliable),
            "{mode:?}: {unreliable} unreliable sends for 60 frames"
        );
        let (shots, chats, aims): (Vec<u16>, Vec<u16>, Vec<u16>) = sim
            .server()
            .eval("return shared.Shots, shared.Chats, shared.Aims")
            .expect("eval");
        assert_eq!(shots, (0..60).collect::<Vec<u16>>(), "{mode:?}");
        assert_eq!(chats, (0..60).collect::<Vec<u16>>(), "{mode:?}");
        assert_eq!(aims.last(), Some(&59), "{mode:?}: the latest value wins");
        assert!(aims.len() <= 32, "{mode:?}: one stream value per send, {aims:?}");
        assert_no_errors(&sim);
    }
}

/// The frame's broadcast reaches whoever is connected when it is sent, so a player who
/// joins after a FireList (sent as a broadcast) in the same frame must skip it.
#[test]
fn a_player_who_joins_mid_frame_does_not_receive_a_list_they_are_not_on() {
    let modules = compile(RELIABLE);
    for mode in MODES {
        let mut sim = start(&modules, mode, 4);
        record_on_every_client(&sim, &["E"]);
        server_exec(
            &sim,
            "local Net = require('Net') local p = game:GetService('Players'):GetPlayers() Net.E.FireList({ p[1], p[2], p[3] }, 1)",
        );
        let joiner = sim.add_player().expect("join");
        sim.client(joiner).expect("client").exec(HELPERS).expect("helpers");
        sim.client(joiner)
            .expect("client")
            .load_module("Net", &modules.client)
            .expect("client module");
        client_exec(
            &sim,
            joiner,
            "local Net = require('Net') shared.Got = {} Net.E.On(function(n) table.insert(shared.Got, n) end)",
        );
        server_exec(&sim, "require('Net').E.FireAll(2)");
        sim.steps(2).expect("steps");
        assert_eq!(client_got(&sim, joiner), vec![2], "{mode:?}: the joiner skips the list");
        for index in 0..3 {
            assert_eq!(client_got(&sim, index), vec![1, 2], "{mode:?}: client {index}");
        }
        assert_eq!(client_got(&sim, 3), vec![2], "{mode:?}: client 3 was not listed");
        assert_no_errors(&sim);
    }
}

#[test]
fn fire_all_list_and_except_reach_the_right_players() {
    let modules = compile(
        r#"
        event R { From: Server, Type: Reliable, Call: ManySync, Data: string }
        event U { From: Server, Type: Unreliable, Call: ManySync, Data: string }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 3);
        for (index, _) in sim.clients().collect::<Vec<_>>() {
            client_exec(
                &sim,
                index,
                "local Net = require('Net') shared.Got = {} Net.R.On(function(v) table.insert(shared.Got, v) end) Net.U.On(function(v) table.insert(shared.Got, 'u' .. v) end)",
            );
        }
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local p = game:GetService("Players"):GetPlayers()
                Net.R.FireAll("all")
                Net.R.FireList({ p[1], p[3] }, "list")
                Net.R.FireExcept(p[2], "except")
                Net.R.Fire(p[2], "one")
                Net.U.FireAll("all")
                Net.U.FireList({ p[2] }, "list")
                Net.U.FireExcept(p[1], "except")
                "#,
            )
            .expect("fires");
        sim.steps(2).expect("steps");
        let got = |index: usize| -> Vec<String> {
            sim.client(index)
                .expect("client")
                .eval("return shared.Got")
                .expect("eval")
        };
        // Unreliable calls go out as fired, before the frame's reliable batch.
        assert_eq!(got(0), ["uall", "all", "list", "except"], "{mode:?}");
        assert_eq!(got(1), ["uall", "ulist", "uexcept", "all", "one"], "{mode:?}");
        assert_eq!(got(2), ["uall", "uexcept", "all", "list", "except"], "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn fire_all_to_fifty_players_is_one_remote_call() {
    let modules = compile(
        "struct Unit { id: u16, hp: u8 }\nevent World { From: Server, Type: Reliable, Call: ManySync, Data: Unit[..100] }",
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 50);
        for (index, _) in sim.clients().collect::<Vec<_>>() {
            client_exec(
                &sim,
                index,
                "shared.Got = {} require('Net').World.On(function(v) table.insert(shared.Got, #v) end)",
            );
        }
        sim.take_traffic();
        sim.server()
            .exec("local Net = require('Net') for n = 1, 3 do Net.World.FireAll(table.create(n * 10, { id = 1, hp = 2 })) end")
            .expect("fire all");
        sim.step().expect("step");
        let traffic = sim.take_traffic();
        assert_eq!(traffic.total().calls, 1, "{mode:?}: {:?}", traffic.calls());
        assert_eq!(traffic.kind(CallKind::FireAllClients).calls, 1, "{mode:?}");
        sim.step().expect("step");
        for (index, client) in sim.clients() {
            let got: Vec<u32> = client.eval("return shared.Got").expect("eval");
            assert_eq!(got, vec![10, 20, 30], "{mode:?}: client {index}");
        }
        assert_no_errors(&sim);
    }
}

/// 200 sends of every kind over 5 players in one frame, in a seeded random order:
/// each player receives exactly its sends, in fire order.
#[test]
fn interleaved_broadcasts_and_personal_sends_arrive_in_fire_order() {
    let modules = compile(
        r#"
        event A { From: Server, Type: Reliable, Call: ManySync, Data: u16 }
        event B { From: Server, Type: Reliable, Call: ManySync, Data: (string, Instance?) }
        "#,
    );
    for mode in MODES {
        for seed in [1, 2, 3] {
            let mut sim = start_with(
                &modules,
                mode,
                5,
                "local p = Instance.new('Part') p.Name = 'P' p.Parent = workspace",
            );
            for (index, _) in sim.clients().collect::<Vec<_>>() {
                client_exec(
                    &sim,
                    index,
                    r#"
                    local Net = require("Net")
                    shared.Got = {}
                    Net.A.On(function(n) table.insert(shared.Got, n) end)
                    Net.B.On(function(s, part) assert(part == nil or part == workspace.P) table.insert(shared.Got, tonumber(s)) end)
                    "#,
                );
            }
            server_exec(
                &sim,
                &format!(
                    r#"
                    local Net = require("Net")
                    local players = game:GetService("Players"):GetPlayers()
                    local random = Random.new({seed})
                    shared.Expected = {{}}
                    for _, p in players do shared.Expected[p.Name] = {{}} end
                    local function expect(list, n) for _, p in list do table.insert(shared.Expected[p.Name], n) end end
                    for n = 1, 200 do
                        local kind = random:NextInteger(1, 4)
                        local useB = random:NextInteger(0, 1) == 1
                        local target = players[random:NextInteger(1, #players)]
                        local function send(method, first)
                            if useB then
                                local part = if n % 3 == 0 then workspace.P else nil
                                if first ~= nil then Net.B[method](first, tostring(n), part) else Net.B[method](tostring(n), part) end
                            else
                                if first ~= nil then Net.A[method](first, n) else Net.A[method](n) end
                            end
                        end
                        if kind == 1 then
                            send("FireAll") expect(players, n)
                        elseif kind == 2 then
                            send("Fire", target) expect({{ target }}, n)
                        elseif kind == 3 then
                            local list = {{ target, players[1] }}
                            if target == players[1] then list = {{ target }} end
                            send("FireList", list) expect(list, n)
                        else
                            send("FireExcept", target)
                            local rest = {{}}
                            for _, p in players do if p ~= target then table.insert(rest, p) end end
                            expect(rest, n)
                        end
                    end
                    "#
                ),
            );
            sim.steps(2).expect("steps");
            assert_each_player_got_expected(&sim, &format!("{mode:?} seed {seed}"), false);
        }
    }
}
