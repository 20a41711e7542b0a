//! Functions in the embedded VM: return values, errors, timeouts, invocations before a
//! listener connects, Future and Promise. Under load, and on channels past 256
//! declarations: 300 concurrent invocations from one client, 10 clients invoking at once,
//! a timeout that frees its call slot (a late answer is ignored), and 300 events plus a
//! stream and a function on one channel (two-byte indices) round-tripping in one frame.

use crate::support::*;
use blinkblox_luau::{CallKind, Mode, Simulation};

fn server_exec(sim: &Simulation, source: &str) {
    sim.server().exec(source).unwrap_or_else(|e| panic!("server: {e}"))
}

const ADD: &str = r#"
function Add { Yield: Coroutine, Data: (u16, u16), Return: (u32, string) }
function Slow { Yield: Coroutine, Data: u8, Return: u8, Timeout: 0.3 }
"#;

#[test]
fn three_hundred_concurrent_invocations_from_one_client() {
    let modules = compile(ADD);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "require('Net').Add.On(function(player, a, b) return a + b, player.Name end)",
        );
        sim.take_traffic();
        sim.client(0)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                shared.Results = {}
                shared.Done = 0
                for i = 1, 300 do
                    task.spawn(function()
                        local sum, name = Net.Add.Invoke(i, 1000)
                        shared.Results[i] = if name == "Player1" then sum else -1
                        shared.Done += 1
                    end)
                end
                assert(shared.Done == 0, "all 300 are waiting at once")
                "#,
            )
            .expect("invoke");
        sim.steps(4).expect("steps");
        let (results, done): (Vec<i64>, u32) = sim
            .client(0)
            .expect("client")
            .eval("return shared.Results, shared.Done")
            .expect("eval");
        assert_eq!(done, 300, "{mode:?}");
        assert_eq!(results, (1001..=1300).collect::<Vec<i64>>(), "{mode:?}");
        let traffic = sim.take_traffic();
        // 300 invocations leave in one frame, split under MaxEventsPerPacket (256).
        assert_eq!(traffic.kind(CallKind::FireServer).calls, 2, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn ten_clients_invoke_at_once_and_each_gets_its_own_answers() {
    let modules = compile(ADD);
    for mode in MODES {
        let mut sim = start(&modules, mode, 10);
        server_exec(
            &sim,
            "require('Net').Add.On(function(player, a, b) return a + b, player.Name end)",
        );
        for index in 0..10usize {
            sim.client(index)
                .expect("client")
                .exec(&format!(
                    r#"
                    local Net = require("Net")
                    shared.Results = {{}}
                    for i = 1, 30 do
                        task.spawn(function()
                            local sum, name = Net.Add.Invoke(i, {index} * 100)
                            assert(name == "Player{}", "answer for another player: " .. name)
                            shared.Results[i] = sum
                        end)
                    end
                    "#,
                    index + 1
                ))
                .expect("invoke");
        }
        sim.steps(4).expect("steps");
        for index in 0..10u32 {
            let results: Vec<u32> = sim
                .client(index as usize)
                .expect("client")
                .eval("return shared.Results")
                .expect("eval");
            let expected: Vec<u32> = (1..=30).map(|i| i + index * 100).collect();
            assert_eq!(results, expected, "{mode:?}: client {index}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn a_timeout_raises_on_the_caller_frees_the_slot_and_the_late_answer_is_ignored() {
    let modules = compile(ADD);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        server_exec(
            &sim,
            "require('Net').Slow.On(function(_, n) if n == 1 then task.wait(1) end return n * 2 end)",
        );
        sim.client(0)
            .expect("client")
            .spawn(
                r#"
                local Net = require("Net")
                local started = os.clock()
                local ok, problem = pcall(Net.Slow.Invoke, 1)
                shared.First = (not ok) and string.find(tostring(problem), "0.3 seconds", 1, true) ~= nil
                shared.Second = Net.Slow.Invoke(2)
                shared.Third = Net.Slow.Invoke(3)
                "#,
            )
            .expect("spawn");
        // 0.3 s timeout, then the server's late answer to call 1 arrives at ~1 s.
        sim.steps(90).expect("steps");
        let (first, second, third): (bool, u8, u8) = sim
            .client(0)
            .expect("client")
            .eval("return shared.First, shared.Second, shared.Third")
            .expect("eval");
        assert!(first, "{mode:?}: the timeout raises a clear error on the caller");
        assert_eq!((second, third), (4, 6), "{mode:?}: later calls are answered normally");
        assert_no_errors(&sim);
    }
}

/// 300 events from each side plus a stream and a function, all on the reliable
/// channel (603 declarations, two-byte indices), each used once in one frame.
#[test]
fn three_hundred_events_on_one_channel_round_trip() {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!(
            "event Up{i} {{ From: Client, Type: Reliable, Call: ManySync, Data: u16 }}\n"
        ));
        text.push_str(&format!(
            "event Down{i} {{ From: Server, Type: Reliable, Call: ManySync, Data: u16 }}\n"
        ));
    }
    text.push_str("stream Score { From: Server, Type: Reliable, Data: u16 }\n");
    text.push_str("function Echo { Yield: Coroutine, Data: u16, Return: u16 }\n");
    let schema = schema(&text);
    assert_eq!(schema.reliable.index_bytes, 2);
    let modules = modules_of(&schema);
    for mode in [Mode::Native, Mode::Interpreted] {
        let mut sim = start(&modules, mode, 2);
        server_exec(
            &sim,
            r#"
            local Net = require("Net")
            shared.Got = {}
            for i = 0, 299 do
                Net["Up" .. i].On(function(player, v)
                    shared.Got[player.Name] = shared.Got[player.Name] or {}
                    table.insert(shared.Got[player.Name], v)
                end)
            end
            Net.Echo.On(function(_, v) return v + 1 end)
            "#,
        );
        for index in 0..2 {
            sim.client(index)
                .expect("client")
                .exec(
                    r#"
                    local Net = require("Net")
                    shared.Got = {}
                    for i = 0, 299 do Net["Down" .. i].On(function(v) table.insert(shared.Got, v) end) end
                    Net.Score.On(function(v) shared.Score = v end)
                    for i = 0, 299 do Net["Up" .. i].Fire(i * 2) end
                    task.spawn(function() shared.Echo = Net.Echo.Invoke(599) end)
                    "#,
                )
                .expect("client fires");
        }
        server_exec(
            &sim,
            "local Net = require('Net') for i = 0, 299 do Net['Down' .. i].FireAll(i * 3) end Net.Score.Set(65535)",
        );
        sim.steps(4).expect("steps");
        for name in ["Player1", "Player2"] {
            let up: Vec<u32> = sim.server().eval(&format!("return shared.Got.{name}")).expect("eval");
            let expected_up: Vec<u32> = (0..300).map(|i| i * 2).collect();
            assert_eq!(up, expected_up, "{mode:?}: {name}'s 300 events, in order");
        }
        for index in 0..2 {
            let (down, score, echo): (Vec<u32>, u16, u16) = sim
                .client(index)
                .expect("client")
                .eval("return shared.Got, shared.Score, shared.Echo")
                .expect("eval");
            assert_eq!(down, (0..300).map(|i| i * 3).collect::<Vec<u32>>(), "{mode:?}");
            assert_eq!((score, echo), (65535, 600), "{mode:?}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn functions_return_values_errors_and_timeouts() {
    let modules = compile(
        r#"
        function Add { Yield: Coroutine, Data: (u8, u8), Return: u16 }
        function Pair { Yield: Coroutine, Data: string, Return: (string, boolean) }
        function Fails { Yield: Coroutine, Data: u8, Return: u8 }
        function Never { Yield: Coroutine, Data: u8, Return: u8, Timeout: 0.5 }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                Net.Add.On(function(player, a, b) return a + b end)
                Net.Pair.On(function(player, s) return s .. player.Name, true end)
                Net.Fails.On(function(player, n) error("no " .. n) end)
                "#,
            )
            .expect("on");
        for index in 0..2 {
            sim.client(index)
                .expect("client")
                .spawn(
                    r#"
                    local Net = require("Net")
                    shared.Results = {}
                    for i = 1, 20 do
                        task.spawn(function() shared.Results[i] = Net.Add.Invoke(i, 100) end)
                    end
                    local s, b = Net.Pair.Invoke("hi ")
                    shared.Pair = s .. tostring(b)
                    local ok, problem = pcall(Net.Fails.Invoke, 3)
                    shared.Failed = (not ok) and string.find(tostring(problem), "Fails", 1, true) ~= nil
                    local ok2, problem2 = pcall(Net.Never.Invoke, 1)
                    shared.TimedOut = (not ok2) and string.find(tostring(problem2), "0.5 seconds", 1, true) ~= nil
                    "#,
                )
                .expect("spawn");
        }
        sim.steps(60).expect("steps");
        for index in 0..2 {
            let (results, pair, failed, timed_out): (Vec<u16>, String, bool, bool) = sim
                .client(index)
                .expect("client")
                .eval("return shared.Results, shared.Pair, shared.Failed, shared.TimedOut")
                .expect("eval");
            assert_eq!(results, (101..=120).collect::<Vec<u16>>(), "{mode:?}");
            assert_eq!(pair, format!("hi Player{}true", index + 1), "{mode:?}");
            assert!(failed, "{mode:?}: the server's error reaches the caller");
            assert!(timed_out, "{mode:?}: Timeout raises on the caller");
        }
        let warnings = sim.server().warnings();
        assert!(
            warnings.iter().any(|w| w.contains("Fails") && w.contains("no 3")),
            "{warnings:?}"
        );
    }
}

#[test]
fn invocations_before_on_are_answered_once_it_connects() {
    let modules = compile("function Echo { Yield: Coroutine, Data: string, Return: string }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.client(0)
        .expect("client")
        .spawn("shared.Answer = require('Net').Echo.Invoke('early')")
        .expect("spawn");
    sim.steps(3).expect("steps");
    sim.server()
        .exec("require('Net').Echo.On(function(_, s) return s .. '!' end)")
        .expect("on");
    sim.steps(3).expect("steps");
    let answer: String = sim
        .client(0)
        .expect("client")
        .eval("return shared.Answer")
        .expect("eval");
    assert_eq!(answer, "early!");
}

#[test]
fn future_and_promise_invocations() {
    let modules = compile(
        r#"
        option FutureLibrary = "ReplicatedStorage.Packages.Future"
        option PromiseLibrary = "ReplicatedStorage.Packages.Promise"
        function Fetch { Yield: Future, Data: string(..64), Return: (string, u8) }
        function Buy { Yield: Promise, Data: (u16, u8), Return: boolean }
        "#,
    );
    for mode in MODES {
        let mut sim = start_with(&modules, mode, 1, LIBRARIES);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                Net.Fetch.On(function(_, key) return key .. "!", #key end)
                Net.Buy.On(function(_, id, count) if count == 0 then error("none") end return id > count end)
                "#,
            )
            .expect("on");
        sim.client(0)
            .expect("client")
            .spawn(
                r#"
                local Net = require("Net")
                local ok, text, length = Net.Fetch.Invoke("key"):Await()
                shared.Fetch = `{ok} {text} {length}`
                local bought, result = Net.Buy.Invoke(5, 2):await()
                local failed, problem = Net.Buy.Invoke(5, 0):await()
                shared.Buy = `{bought} {result} {failed} {string.find(tostring(problem), "Buy", 1, true) ~= nil}`
                "#,
            )
            .expect("spawn");
        sim.steps(10).expect("steps");
        let (fetch, buy): (String, String) = sim
            .client(0)
            .expect("client")
            .eval("return shared.Fetch, shared.Buy")
            .expect("eval");
        assert_eq!(fetch, "true key! 3", "{mode:?}");
        assert_eq!(buy, "true true false true", "{mode:?}");
    }
}
