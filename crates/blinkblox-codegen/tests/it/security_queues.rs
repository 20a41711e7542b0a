//! Queues of events waiting for a listener (events before their first `On`, every `Polling`
//! event, invocations before their handler): one player filling them never drops another
//! player's, every drop is reported, and a dropped invocation is answered.

use crate::support::*;

/// The limits are raised so the flood reaches the queues: the byte budget and the event
/// count have their own tests.
const SCHEMA: &str = r#"
option MaxPacketSize = 100000000
option MaxEventsPerPacket = 1000000
option InboundBytesPerSecond = 1000000000
option InboundBurst = 1000000000
event Early { From: Client, Type: Reliable, Call: ManyAsync, Data: u16 }
event Poll { From: Client, Type: Reliable, Call: Polling, Data: u16 }
function Ask { Yield: Coroutine, Data: u16, Return: u16 }
"#;

/// Client `index` fires `count` of each event a frame, numbered from `from`.
fn fire(sim: &blinkblox_luau::Simulation, index: usize, from: u32, count: u32) {
    sim.client(index)
        .expect("client")
        .exec(&format!(
            "local Net = require('Net') for i = {from}, {from} + {count} - 1 do Net.Early.Fire(i % 65536) Net.Poll.Fire(i % 65536) end"
        ))
        .expect("fire");
}

#[test]
fn a_flooding_player_fills_only_its_own_share_of_each_queue() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        sim.step().expect("step");
        for frame in 0..10 {
            fire(&sim, 0, frame * 1000, 1000);
            fire(&sim, 1, frame * 3, 3);
            sim.step().expect("step");
        }
        // The last frame's packets reach the server.
        sim.step().expect("step");
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.early, shared.polled = {}, {}
                Net.Early.On(function(player, value) table.insert(shared.early, `{player.Name} {value}`) end)
                for _, player, value in Net.Poll.Iter() do table.insert(shared.polled, `{player.Name} {value}`) end
                "#,
            )
            .expect("drain");
        sim.step().expect("step");
        let (early, polled, counts): (Vec<String>, Vec<String>, u32) = sim
            .server()
            .eval(
                r#"
                local flooder = game:GetService("Players"):FindFirstChild("Player1")
                return shared.early, shared.polled, require("Net").GetDropCounts(flooder).QueueFull or 0
                "#,
            )
            .expect("results");
        let honest: Vec<String> = (0..30).map(|i| format!("Player2 {i}")).collect();
        for (what, got) in [("early", &early), ("polled", &polled)] {
            let from_honest: Vec<String> = got.iter().filter(|e| e.starts_with("Player2 ")).cloned().collect();
            assert_eq!(
                from_honest, honest,
                "{mode:?} {what}: every event of the other player, in order"
            );
            let from_flooder = got.iter().filter(|e| e.starts_with("Player1 ")).count();
            assert_eq!(from_flooder, 256, "{mode:?} {what}: the flooder's share");
        }
        assert_eq!(
            counts,
            2 * (10_000 - 256),
            "{mode:?}: each dropped event is counted as QueueFull"
        );
        assert_no_errors(&sim);
    }
}

#[test]
fn an_invocation_the_queue_cannot_take_is_answered_failed() {
    // A queue of invocations holds at most 64 a player (the pending-invocation cap), below
    // the queue's share: the cap answers them. The share is what protects the other players.
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        sim.step().expect("step");
        sim.client(0)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                shared.failed, shared.answered = 0, 0
                for i = 1, 100 do
                    task.spawn(function()
                        local ok = pcall(Net.Ask.Invoke, i)
                        if ok then shared.answered += 1 else shared.failed += 1 end
                    end)
                end
                "#,
            )
            .expect("invoke");
        sim.client(1)
            .expect("client")
            .exec("local Net = require('Net') task.spawn(function() shared.got = Net.Ask.Invoke(7) end)")
            .expect("invoke");
        for _ in 0..3 {
            sim.step().expect("step");
        }
        let failed: u32 = sim
            .client(0)
            .expect("client")
            .eval("return shared.failed")
            .expect("failed");
        assert_eq!(
            failed, 36,
            "{mode:?}: every invocation over the cap is answered at once"
        );
        sim.server()
            .exec("require('Net').Ask.On(function(_, value) return value + 1 end)")
            .expect("handler");
        for _ in 0..3 {
            sim.step().expect("step");
        }
        let answered: u32 = sim
            .client(0)
            .expect("client")
            .eval("return shared.answered")
            .expect("answered");
        assert_eq!(answered, 64, "{mode:?}: the queued ones run once there is a handler");
        let got: u32 = sim.client(1).expect("client").eval("return shared.got").expect("got");
        assert_eq!(got, 8, "{mode:?}: the other player's call");
        assert_no_errors(&sim);
    }
}
