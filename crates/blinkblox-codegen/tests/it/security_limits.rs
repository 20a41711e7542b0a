//! The server's limits on what one client may send: packet size,
//! events per packet, the per-player byte budget on both remotes, pending function
//! invocations; the drop hook's reasons and the per-player counts; one warning at
//! most; `MaxUnreliableSize` on send. Native and interpreted.

use crate::security_support::*;
use crate::support::{MODES, assert_no_errors, compile};
use blinkblox_luau::RemoteValue;
use blinkblox_schema::check_source;

/// `Player1`'s drop counts as "Reason=count" sorted.
fn drop_counts(arena: &Arena, player: usize) -> Vec<String> {
    arena
        .sim
        .server()
        .eval(&format!(
            r#"
            local counts = require("Net").GetDropCounts(game:GetService("Players"):GetPlayers()[{player}])
            local out = {{}}
            for reason, count in counts do table.insert(out, `{{reason}}={{count}}`) end
            table.sort(out)
            return out
            "#
        ))
        .expect("counts")
}

fn count_good(arena: &Arena, prefix: &str) -> usize {
    let (_, good, _) = arena.lists();
    good.iter().filter(|g| g.starts_with(prefix)).count()
}

#[test]
fn packets_over_max_packet_size_are_dropped_before_reading() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        // A Blob and a Num of exactly MaxPacketSize bytes in all are read; a byte more is not.
        let packet = |total: usize| {
            let data = total - 5;
            let mut packet = vec![BLOB, (data % 128) as u8 | 0x80, (data / 128) as u8];
            packet.extend(std::iter::repeat_n(7u8, data));
            packet.extend([NUM, 2]);
            assert_eq!(packet.len(), total);
            packet
        };
        run_case(
            &mut arena,
            "exactly MaxPacketSize",
            RELIABLE,
            &packet(16384),
            vec![],
            Expect::Nothing,
        );
        assert_eq!(count_good(&arena, "Player1 "), 2, "{mode:?}");
        run_case(
            &mut arena,
            "MaxPacketSize + 1",
            RELIABLE,
            &packet(16385),
            vec![],
            Expect::Reason("PacketTooLarge"),
        );
        assert_eq!(count_good(&arena, "Player1 "), 0, "{mode:?}: nothing of it is read");
        // Side-array slots count 4 bytes each.
        let slots = vec![RemoteValue::Number(1.0); 4096];
        run_case(
            &mut arena,
            "a huge side array",
            RELIABLE,
            &[NUM, 1],
            slots,
            Expect::Reason("PacketTooLarge"),
        );
        run_case(
            &mut arena,
            "unreliable too large",
            UNRELIABLE,
            &[0; 20000],
            vec![],
            Expect::Reason("PacketTooLarge"),
        );
        assert_eq!(drop_counts(&arena, 1), ["PacketTooLarge=3"], "{mode:?}");
        assert_eq!(drop_counts(&arena, 2), Vec::<String>::new(), "{mode:?}");
    }
}

#[test]
fn the_event_past_max_events_per_packet_ends_the_packet() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let events = |count: usize| -> Vec<u8> { (0..count).flat_map(|_| [NUM, 3]).collect() };
        run_case(
            &mut arena,
            "256 events",
            RELIABLE,
            &events(256),
            vec![],
            Expect::Nothing,
        );
        assert_eq!(count_good(&arena, "Player1 "), 256, "{mode:?}");
        run_case(
            &mut arena,
            "257 events",
            RELIABLE,
            &events(257),
            vec![],
            Expect::Reason("TooManyEvents"),
        );
        assert_eq!(
            count_good(&arena, "Player1 "),
            256,
            "{mode:?}: the first 256 are delivered"
        );
        let mut unreliable = Vec::new();
        for _ in 0..300 {
            unreliable.extend([MOVE, 1, 0, 0, 0, 0, 5]);
        }
        run_case(
            &mut arena,
            "300 unreliable events",
            UNRELIABLE,
            &unreliable,
            vec![],
            Expect::Reason("TooManyEvents"),
        );
        assert_eq!(count_good(&arena, "Player1 Move"), 256, "{mode:?}");
    }
}

/// With the default budget (65536 bytes of burst, 32768 a second), 1000 packets of
/// 203 bytes in one frame: the first 322 fit, the rest are dropped; the other player
/// is untouched; the budget refills with time, on both remotes.
#[test]
fn a_thousand_packets_in_one_frame_exhaust_the_byte_budget() {
    let modules = compile(DECLARATIONS);
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let mut packet = vec![BLOB, 200, 1];
        packet.extend([5u8; 200]);
        assert_eq!(packet.len(), 203);
        let before = arena.settled_heap();
        for _ in 0..1000 {
            arena.inject(RELIABLE, &packet, vec![]);
        }
        arena.inject_valid();
        arena.sim.step().expect("step");
        // Measured after a full collection: what the server keeps, whatever point of its
        // cycle the collector had reached when the frame ended.
        let growth = arena.settled_heap() - before;
        let fits = 65536 / 203;
        assert_eq!(count_good(&arena, "Player1 Blob"), fits, "{mode:?}");
        assert_eq!(
            count_good(&arena, "Player2 "),
            valid_records("Player2").len(),
            "{mode:?}"
        );
        assert_eq!(
            drop_counts(&arena, 1),
            [format!("BudgetExceeded={}", 1000 - fits)],
            "{mode:?}"
        );
        assert_eq!(drop_counts(&arena, 2), Vec::<String>::new(), "{mode:?}");
        // 1000 packets arrive as 203 KB of buffers; what the server keeps of them (the
        // delivered Blobs, the hook's reports) stays under half that (about 25 KB here).
        assert!(growth < 0.5 * 203_000.0, "{mode:?}: heap grew {growth}");
        let (bad, _, drops) = arena.lists();
        assert!(bad.is_empty());
        assert_eq!(drops.len(), 1000 - fits, "{mode:?}: one hook call a drop");

        // The next frame: 170 bytes were left, one frame refills 32768 / 60 = 546, so
        // 102 of 200 unreliable packets of 7 bytes fit (the remotes share the budget).
        arena.reset();
        for _ in 0..200 {
            arena.inject(UNRELIABLE, &[MOVE, 1, 0, 0, 0, 0, 5], vec![]);
        }
        arena.sim.step().expect("step");
        assert_eq!(count_good(&arena, "Player1 Move"), 102, "{mode:?}");
        let (_, _, drops) = arena.lists();
        assert_eq!(drops.len(), 98, "{mode:?}");
        // Two seconds later the bucket is full again.
        arena.sim.steps(120).expect("steps");
        arena.reset();
        for _ in 0..400 {
            arena.inject(RELIABLE, &packet, vec![]);
        }
        arena.sim.step().expect("step");
        assert_eq!(
            count_good(&arena, "Player1 Blob"),
            fits,
            "{mode:?}: refilled to the burst"
        );
        assert_no_errors(&arena.sim);
        let warnings = arena.sim.server().warnings();
        assert_eq!(warnings.len(), 1, "{mode:?}: one warning in all: {warnings:?}");
        assert!(warnings[0].contains("BudgetExceeded"), "{warnings:?}");
    }
}

fn invocation(call_id: u16, value: u8) -> Vec<u8> {
    let mut record = vec![ASK];
    record.extend(call_id.to_le_bytes());
    record.push(value);
    record
}

#[test]
fn malformed_invocations_are_dropped_like_events() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let cases: [(&str, Vec<u8>); 4] = [
            ("no call id", vec![ASK]),
            ("half a call id", vec![ASK, 1]),
            ("no argument", vec![ASK, 1, 0]),
            ("argument out of range", invocation(1, 10)),
        ];
        for (name, packet) in cases {
            run_case(&mut arena, name, RELIABLE, &packet, vec![], Expect::Reason("Malformed"));
        }
        run_case(
            &mut arena,
            "valid",
            RELIABLE,
            &invocation(2, 3),
            vec![],
            Expect::Nothing,
        );
        let asked: u32 = arena.sim.server().eval("return shared.Asked").expect("asked");
        assert_eq!(asked, 1, "{mode:?}: the handler ran for the valid invocation only");
    }
}

/// Handlers that never return: 64 invocations wait at most; the rest are answered
/// "failed" at once and reported, and another player's calls still work.
#[test]
fn a_flood_of_invocations_is_capped_per_player() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let flood: Vec<u8> = (0..200u16).flat_map(|id| invocation(id, 9)).collect();
        arena.reset();
        arena.inject(RELIABLE, &flood, vec![]);
        arena.sim.step().expect("step");
        let flood2: Vec<u8> = (200..300u16).flat_map(|id| invocation(id, 9)).collect();
        arena.inject(RELIABLE, &flood2, vec![]);
        arena.sim.step().expect("step");
        let asked: u32 = arena.sim.server().eval("return shared.Asked").expect("asked");
        assert_eq!(asked, 64, "{mode:?}: handlers running at once for one player");
        assert_eq!(drop_counts(&arena, 1), ["TooManyInvocations=236"], "{mode:?}");
        // The honest player's client calls and gets its answer.
        arena
            .sim
            .client(1)
            .expect("client")
            .exec("task.spawn(function() shared.Answer = require('Net').Ask.Invoke(4) end)")
            .expect("invoke");
        arena.sim.steps(4).expect("steps");
        let answer: u32 = arena
            .sim
            .client(1)
            .expect("client")
            .eval("return shared.Answer")
            .expect("answer");
        assert_eq!(answer, 5, "{mode:?}");
        // The flooding player's own client module: its Invoke fails at once instead of
        // waiting (the failure answers of the injected calls reach it harmlessly).
        arena
            .sim
            .client(0)
            .expect("client")
            .exec("task.spawn(function() shared.Result = { pcall(require('Net').Ask.Invoke, 4) } end)")
            .expect("invoke");
        arena.sim.steps(4).expect("steps");
        let (ok, problem): (bool, String) = arena
            .sim
            .client(0)
            .expect("client")
            .eval("return shared.Result[1], tostring(shared.Result[2])")
            .expect("result");
        assert!(!ok, "{mode:?}: the 65th call fails");
        assert!(problem.contains("handler failed"), "{mode:?}: {problem}");
        assert_no_errors(&arena.sim);
    }
}

#[test]
fn drop_hook_and_counts_follow_the_casing() {
    let modules = compile(&format!("option Casing = Snake\n{DECLARATIONS}"));
    for mode in MODES {
        let mut sim = crate::support::start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Seen = {}
                local disconnect = Net.on_drop(function(player, reason, detail)
                    table.insert(shared.Seen, `{player.Name}|{reason}|{detail}`)
                end)
                shared.Disconnect = disconnect
                "#,
            )
            .expect("hook");
        sim.inject_fire_server(0, RELIABLE, vec![RemoteValue::buffer(vec![200])])
            .expect("inject");
        sim.step().expect("step");
        sim.server().exec("shared.Disconnect()").expect("disconnect");
        sim.inject_fire_server(0, RELIABLE, vec![RemoteValue::buffer(vec![201])])
            .expect("inject");
        sim.step().expect("step");
        let (seen, count): (Vec<String>, u32) = sim
            .server()
            .eval(
                r#"
                local counts = require("Net").get_drop_counts(game:GetService("Players"):GetPlayers()[1])
                return shared.Seen, counts.UnknownEvent
                "#,
            )
            .expect("eval");
        assert_eq!(seen, ["Player1|UnknownEvent|unknown event index 200"], "{mode:?}");
        assert_eq!(count, 2, "{mode:?}: counted after the hook is gone");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_hook_that_errors_disturbs_nothing() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        arena
            .sim
            .server()
            .exec("require('Net').OnDrop(function() error('the game hook failed') end)")
            .expect("hook");
        arena.reset();
        arena.inject(RELIABLE, &[NUM, 9], vec![]);
        arena.inject_valid();
        arena.sim.step().expect("step");
        assert_eq!(
            count_good(&arena, "Player2 "),
            valid_records("Player2").len(),
            "{mode:?}"
        );
        let errors = arena.sim.server().errors();
        assert_eq!(errors.len(), 1, "{mode:?}: the hook's own error, reported: {errors:?}");
        assert!(errors[0].contains("the game hook failed"), "{errors:?}");
    }
}

#[test]
fn counts_are_forgotten_when_the_player_leaves() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        arena.inject(RELIABLE, &[NUM, 9], vec![]);
        arena.sim.step().expect("step");
        assert_eq!(drop_counts(&arena, 1), ["Malformed=1"], "{mode:?}");
        arena
            .sim
            .server()
            .exec("shared.Leaving = game:GetService('Players'):GetPlayers()[1]")
            .expect("keep");
        arena.sim.remove_player(0).expect("remove");
        arena.sim.step().expect("step");
        let left: u32 = arena
            .sim
            .server()
            .eval("local n = 0 for _ in require('Net').GetDropCounts(shared.Leaving) do n += 1 end return n")
            .expect("eval");
        assert_eq!(left, 0, "{mode:?}");
    }
}

#[test]
fn unreliable_sends_over_max_unreliable_size_are_dropped_with_one_warning() {
    let modules = compile(
        r#"
        event Shout { From: Client, Type: Unreliable, Call: ManySync, Data: string(..2000) }
        event Echo { From: Server, Type: Unreliable, Call: ManySync, Data: string(..2000) }
        "#,
    );
    for mode in MODES {
        let mut sim = crate::support::start(&modules, mode, 1);
        sim.server()
            .exec("shared.Heard = 0 require('Net').Shout.On(function() shared.Heard += 1 end)")
            .expect("on");
        let client = sim.client(0).expect("client");
        client
            .exec("shared.Heard = 0 require('Net').Echo.On(function() shared.Heard += 1 end)")
            .expect("on");
        client
            .exec("local Net = require('Net') Net.Shout.Fire(string.rep('x', 1000)) Net.Shout.Fire(string.rep('x', 950)) Net.Shout.Fire('ok')")
            .expect("fire");
        sim.server()
            .exec("local Net = require('Net') Net.Echo.FireAll(string.rep('x', 1000)) Net.Echo.FireAll(string.rep('x', 990)) Net.Echo.FireAll('ok')")
            .expect("fire");
        sim.steps(3).expect("steps");
        let heard: u32 = sim.server().eval("return shared.Heard").expect("heard");
        assert_eq!(heard, 1, "{mode:?}");
        let heard: u32 = sim
            .client(0)
            .expect("client")
            .eval("return shared.Heard")
            .expect("heard");
        assert_eq!(heard, 1, "{mode:?}");
        for world in sim.worlds() {
            let warnings = world.warnings();
            assert_eq!(warnings.len(), 1, "{mode:?}: {warnings:?}");
            assert!(warnings[0].contains("MaxUnreliableSize"), "{warnings:?}");
        }
    }
}

fn error_codes(text: &str) -> Vec<String> {
    check_source("limits.blink", text)
        .diagnostics
        .iter()
        .map(|d| format!("{:?}", d))
        .collect()
}

#[test]
fn an_unreliable_event_larger_than_max_unreliable_size_does_not_compile() {
    let diagnostics = error_codes(
        "option MaxUnreliableSize = 100\nevent Big { From: Server, Type: Unreliable, Call: ManySync, Data: u8[200] }\n",
    );
    assert!(
        diagnostics.iter().any(|d| d.contains("MaxUnreliableSize")),
        "{diagnostics:#?}"
    );
}

#[test]
fn a_client_event_larger_than_max_packet_size_does_not_compile() {
    let diagnostics = error_codes(
        "option MaxPacketSize = 100\nevent Big { From: Client, Type: Reliable, Call: ManySync, Data: u8[200] }\n",
    );
    assert!(
        diagnostics.iter().any(|d| d.contains("MaxPacketSize")),
        "{diagnostics:#?}"
    );
}

/// `BatchUnreliable` packets hold several events: the same entry, limits and checks.
#[test]
fn batched_unreliable_packets_get_the_same_treatment() {
    let modules = compile(&format!("option BatchUnreliable = true\n{}", attack_schema()));
    let moves = |count: usize| -> Vec<u8> { (0..count).flat_map(|_| [MOVE, 1, 0, 0, 0, 0, 5]).collect() };
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        run_case(
            &mut arena,
            "a valid batch",
            UNRELIABLE,
            &moves(10),
            vec![],
            Expect::Nothing,
        );
        assert_eq!(count_good(&arena, "Player1 Move"), 10, "{mode:?}");
        let mut bad = moves(3);
        bad.extend([MOVE, 1, 0, 0, 0xC0, 0x7F, 5]);
        bad.extend(moves(2));
        run_case(
            &mut arena,
            "NaN in the 4th",
            UNRELIABLE,
            &bad,
            vec![],
            Expect::Reason("Malformed"),
        );
        assert_eq!(count_good(&arena, "Player1 Move"), 3, "{mode:?}: the three before it");
        run_case(
            &mut arena,
            "257 in a batch",
            UNRELIABLE,
            &moves(257),
            vec![],
            Expect::Reason("TooManyEvents"),
        );
        run_case(
            &mut arena,
            "too large",
            UNRELIABLE,
            &moves(2341),
            vec![],
            Expect::Reason("PacketTooLarge"),
        );
        // An honest client's batch of many events arrives whole (it splits at the limits).
        arena.reset();
        arena
            .sim
            .client(0)
            .expect("client")
            .exec("local Net = require('Net') for i = 1, 300 do Net.Move.Fire({ id = i % 256, x = i, hp = 7 }) end")
            .expect("fire");
        arena.sim.steps(2).expect("steps");
        assert_eq!(count_good(&arena, "Player1 Move"), 300, "{mode:?}");
        let (bad, _, drops) = arena.lists();
        assert!(bad.is_empty() && drops.is_empty(), "{mode:?}: {bad:?} {drops:?}");
        assert_no_errors(&arena.sim);
    }
}

#[test]
fn an_invocation_larger_than_max_packet_size_does_not_compile() {
    // 1 byte of index, 2 of call id, 98 of data: 101 bytes.
    let diagnostics =
        error_codes("option MaxPacketSize = 100\nfunction Big { Yield: Coroutine, Data: u8[98], Return: u8 }\n");
    assert!(
        diagnostics
            .iter()
            .any(|d| d.contains("E4012") && d.contains("101 bytes")),
        "{diagnostics:#?}"
    );
    let fits = error_codes("option MaxPacketSize = 101\nfunction Big { Yield: Coroutine, Data: u8[98], Return: u8 }\n");
    assert!(fits.is_empty(), "{fits:#?}");
}

#[test]
fn a_burst_smaller_than_max_packet_size_does_not_compile() {
    for text in [
        "option MaxPacketSize = 100\noption InboundBurst = 50\nevent E { From: Client, Type: Reliable, Call: ManySync, Data: u8 }\n",
        "option InboundBurst = 1000\nevent E { From: Client, Type: Reliable, Call: ManySync, Data: u8 }\n",
    ] {
        let diagnostics = error_codes(text);
        assert!(
            diagnostics
                .iter()
                .any(|d| d.contains("E4015") && d.contains("InboundBurst")),
            "{text}: {diagnostics:#?}"
        );
    }
    let fits = error_codes(
        "option MaxPacketSize = 100\noption InboundBurst = 100\nevent E { From: Client, Type: Reliable, Call: ManySync, Data: u8 }\n",
    );
    assert!(fits.is_empty(), "{fits:#?}");
}
