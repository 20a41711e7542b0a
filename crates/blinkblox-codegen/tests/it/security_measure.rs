//! The price of the server's checks: decode time of packets of 1000 `boolean[]` or
//! struct-array events (the limits raised as the benchmark schema raises them) with the
//! checks, against the same modules generated with the checks compiled out
//! (`without_decode_checks`, a switch only this measurement uses).
//! A measurement, not a timed test:
//! `cargo test --release -p blinkblox-codegen --test it price_of_the_checks -- --ignored --nocapture`.

use std::time::Instant;

use crate::support::*;
use blinkblox_codegen::luau::decode_checks::without_decode_checks;
use blinkblox_luau::{Mode, RemoteValue, Simulation};

const SCHEMA: &str = r#"
option MaxPacketSize = 4000000000
option MaxEventsPerPacket = 4000000000
option InboundBytesPerSecond = 4000000000
option InboundBurst = 4000000000
struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }
event Booleans { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[0..1000] }
event Entities { From: Client, Type: Reliable, Call: SingleSync, Data: Entity[0..1000] }
"#;

/// 1000 `Booleans` events of 1000 values each.
fn booleans_packet() -> Vec<u8> {
    let mut packet = Vec::new();
    for _ in 0..1000 {
        packet.extend([0, 0xE8, 0x07]);
        packet.extend([0xFFu8; 125]);
    }
    packet
}

/// 1000 `Entities` events of 100 entities each.
fn entities_packet() -> Vec<u8> {
    let mut packet = Vec::new();
    for _ in 0..1000 {
        packet.extend([1, 100]);
        for _ in 0..100 {
            packet.extend([1, 2, 3, 4, 5, 6]);
        }
    }
    packet
}

/// A server with a counting listener on `bench`.
fn server_for(modules: &Modules, mode: Mode, bench: &str) -> Simulation {
    let sim = start(modules, mode, 1);
    sim.server()
        .exec(&format!(
            "shared.Count = 0 require('Net').{bench}.On(function() shared.Count += 1 end)"
        ))
        .expect("on");
    sim
}

/// Milliseconds to deliver one packet to the server's reliable remote (from a
/// collected heap: each packet makes up to 100 000 tables, and the collector's timing
/// must not decide the comparison).
fn decode_ms(sim: &mut Simulation, args: &[RemoteValue]) -> f64 {
    sim.server().lua().gc_collect().expect("gc");
    let started = Instant::now();
    sim.deliver_to_server_now(0, "BLINK_RELIABLE_REMOTE", args)
        .expect("deliver");
    started.elapsed().as_secs_f64() * 1000.0
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[test]
#[ignore = "measurement; run by hand in release"]
fn price_of_the_checks() {
    let checked = compile(SCHEMA);
    let unchecked = without_decode_checks(|| compile(SCHEMA));
    assert!(checked.server.contains("ReceiveFromClient(DecodeReliable"));
    assert!(!unchecked.server.contains("ReceiveFromClient(DecodeReliable"));
    let runs = 101;
    for (bench, packet) in [("Booleans", booleans_packet()), ("Entities", entities_packet())] {
        let args = [RemoteValue::buffer(packet), RemoteValue::array([])];
        for mode in MODES {
            let mut with_checks = server_for(&checked, mode, bench);
            let mut without_checks = server_for(&unchecked, mode, bench);
            let (mut with, mut without) = (Vec::new(), Vec::new());
            // Alternated run by run, so load from elsewhere on the machine falls on both.
            for run in 0..runs + 5 {
                let a = decode_ms(&mut with_checks, &args);
                let b = decode_ms(&mut without_checks, &args);
                if run >= 5 {
                    with.push(a);
                    without.push(b);
                }
            }
            for sim in [&with_checks, &without_checks] {
                let count: u32 = sim.server().eval("return shared.Count").expect("count");
                assert_eq!(count as usize, 1000 * (runs + 5), "every event arrived");
                assert_no_errors(sim);
            }
            let fastest = |times: &[f64]| times.iter().copied().fold(f64::INFINITY, f64::min);
            let (with_min, without_min) = (fastest(&with), fastest(&without));
            let (with, without) = (median(with), median(without));
            println!(
                "{bench:9} {:11}: checked {with:8.3} ms, unchecked {without:8.3} ms, overhead {:+.1}% (medians of {runs}); fastest {with_min:.3} vs {without_min:.3} ms ({:+.1}%)",
                format!("{mode:?}"),
                (with / without - 1.0) * 100.0,
                (with_min / without_min - 1.0) * 100.0
            );
        }
    }
}
