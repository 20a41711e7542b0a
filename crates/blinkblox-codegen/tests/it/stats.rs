//! The Stats and ProfileLabels options: each side counts the records and bytes it writes and
//! reads per declaration, with rates a second over the game's clock and drops by reason; each
//! record's write and read is a microprofiler label, closed again when a packet fails inside
//! it; and with neither option the modules hold none of it.

use blinkblox_luau::{Mode, Simulation};

use crate::support::{assert_no_errors, compile, inject_client_packet, start};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

const EVENTS: &str = r#"
event Hit { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
event Say { From: Client, Type: Unreliable, Call: ManySync, Data: string }
event Level { From: Client, Type: Reliable, Call: ManySync, Data: u8(0..10) }
event Score { From: Server, Type: Reliable, Call: ManySync, Data: u16[] }
event Aim { From: Client, Type: Reliable, Call: ManySync, Data: f32(0..1 step 1/8) }
"#;

const HIT: u8 = 0;
const LEVEL: u8 = 1;

fn schema() -> String {
    format!("option Stats = true\noption ProfileLabels = true\n{EVENTS}")
}

/// One count of `event` in a world's `Stats()`.
fn count(sim: &Simulation, world: Option<usize>, event: &str, field: &str) -> f64 {
    let world = match world {
        Some(client) => sim.client(client).expect("client"),
        None => sim.server(),
    };
    world
        .eval(&format!("return require('Net').Stats().Declarations.{event}.{field}"))
        .expect("stats")
}

/// A simulation of `players` with listeners for every event the server receives.
fn listening(modules: &crate::support::Modules, mode: Mode, players: usize) -> Simulation {
    let sim = start(modules, mode, players);
    sim.server()
        .exec("local Net = require('Net') for _, name in { 'Hit', 'Say', 'Level' } do Net[name].On(function() end) end")
        .expect("listeners");
    sim
}

#[test]
fn each_side_counts_the_records_and_bytes_it_writes_and_reads() {
    let modules = compile(&schema());
    for mode in MODES {
        let mut sim = listening(&modules, mode, 1);
        sim.client(0)
            .expect("client")
            .exec("local Net = require('Net') Net.Score.On(function() end) for i = 1, 3 do Net.Hit.Fire(i) end Net.Say.Fire('hello')")
            .expect("fire");
        sim.server()
            .exec("require('Net').Score.FireAll({ 1, 2, 3 })")
            .expect("fire all");
        sim.steps(3).expect("steps");
        // A u8 event is its index and its byte; a string is its index, a length and its bytes.
        assert_eq!(count(&sim, Some(0), "Hit", "Sent"), 3.0, "{mode:?}");
        assert_eq!(count(&sim, Some(0), "Hit", "SentBytes"), 6.0, "{mode:?}");
        assert_eq!(count(&sim, None, "Hit", "Received"), 3.0, "{mode:?}");
        assert_eq!(count(&sim, None, "Hit", "ReceivedBytes"), 6.0, "{mode:?}");
        assert_eq!(count(&sim, Some(0), "Say", "SentBytes"), 7.0, "{mode:?}");
        assert_eq!(count(&sim, None, "Say", "ReceivedBytes"), 7.0, "{mode:?}");
        // `[index][count][three u16]`, written once for every player.
        assert_eq!(count(&sim, None, "Score", "Sent"), 1.0, "{mode:?}");
        assert_eq!(count(&sim, None, "Score", "SentBytes"), 8.0, "{mode:?}");
        assert_eq!(count(&sim, Some(0), "Score", "ReceivedBytes"), 8.0, "{mode:?}");
        assert_eq!(count(&sim, None, "Level", "Received"), 0.0, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn rates_are_a_second_of_game_time_and_drops_count_by_reason() {
    let modules = compile(&schema());
    for mode in MODES {
        let mut sim = listening(&modules, mode, 1);
        // The first call closes the window the module opened when it loaded.
        sim.server().exec("require('Net').Stats()").expect("stats");
        for _ in 0..60 {
            sim.client(0)
                .expect("client")
                .exec("require('Net').Hit.Fire(1) require('Net').Hit.Fire(2)")
                .expect("fire");
            sim.step().expect("step");
        }
        // `[Level][50]`: past the bound, dropped before any listener.
        inject_client_packet(&mut sim, vec![LEVEL, 50]);
        sim.steps(2).expect("steps");
        let rate = count(&sim, None, "Hit", "ReceivedPerSecond");
        assert!(
            (100.0..=125.0).contains(&rate),
            "{mode:?}: 2 a frame at 60 frames a second, got {rate}"
        );
        let bytes = count(&sim, None, "Hit", "ReceivedBytesPerSecond");
        assert!(
            (bytes - 2.0 * rate).abs() < 1e-9,
            "{mode:?}: 2 bytes a record, got {bytes} for {rate}"
        );
        let (malformed, total): (f64, f64) = sim
            .server()
            .eval("local S = require('Net').Stats() local n = 0 for _, c in S.Drops do n += c end return S.Drops.Malformed, n")
            .expect("drops");
        assert_eq!((malformed, total), (1.0, 1.0), "{mode:?}");
    }
}

#[test]
fn every_label_a_record_opens_is_closed_even_when_its_packet_fails() {
    let modules = compile(&schema());
    for mode in MODES {
        let mut sim = listening(&modules, mode, 1);
        sim.client(0)
            .expect("client")
            .exec("require('Net').Hit.Fire(1) require('Net').Level.Fire(5)")
            .expect("fire");
        sim.step().expect("step");
        // A Hit, then a Level past its bound: the packet fails inside the second record.
        inject_client_packet(&mut sim, vec![HIT, 7, LEVEL, 50]);
        sim.step().expect("step");
        let (client_labels, client_open) = sim.client(0).expect("client").profile_labels().expect("labels");
        assert_eq!(client_labels, ["Hit write", "Level write"], "{mode:?}");
        assert_eq!(client_open, 0, "{mode:?}");
        let (server_labels, server_open) = sim.server().profile_labels().expect("labels");
        assert_eq!(
            server_labels,
            ["Hit read", "Level read", "Hit read", "Level read"],
            "{mode:?}"
        );
        assert_eq!(server_open, 0, "{mode:?}: the failed record's label is closed");
        assert_no_errors(&sim);
    }
}

#[test]
fn without_the_options_the_modules_count_and_label_nothing() {
    let modules = compile(EVENTS);
    for module in [&modules.server, &modules.client] {
        for absent in ["StatsCounts", "GetStats", "STATS_NAMES", "profilebegin", "RecordStart"] {
            assert!(!module.contains(absent), "{absent} in a module without the options");
        }
    }
    let mut sim = start(&modules, Mode::Interpreted, 1);
    let stats: bool = sim.server().eval("return require('Net').Stats == nil").expect("member");
    assert!(stats, "no Stats member without the option");
    sim.step().expect("step");
}

#[test]
fn a_write_that_raises_leaves_no_label_open_past_the_next_write_or_flush() {
    let modules = compile(&schema());
    for mode in MODES {
        let mut sim = listening(&modules, mode, 1);
        let client = sim.client(0).expect("client");
        // NaN has no step to round to: the write raises with its label open.
        let raised: bool = client
            .eval("return not pcall(require('Net').Aim.Fire, 0 / 0)")
            .expect("fire NaN");
        assert!(raised, "{mode:?}");
        assert_eq!(
            client.profile_labels().expect("labels").1,
            1,
            "{mode:?}: open until the next"
        );
        client.exec("require('Net').Hit.Fire(1)").expect("fire");
        let (labels, open) = client.profile_labels().expect("labels");
        assert_eq!(labels, ["Aim write", "Hit write"], "{mode:?}");
        assert_eq!(open, 0, "{mode:?}: the next write closed the stuck label");
        client.exec("pcall(require('Net').Aim.Fire, 0 / 0)").expect("fire NaN");
        sim.step().expect("step");
        let open = sim.client(0).expect("client").profile_labels().expect("labels").1;
        assert_eq!(open, 0, "{mode:?}: the flush closed it");
        assert_no_errors(&sim);
    }
}
