//! A rough timing of `boolean[]`, struct-array and `u8` events through the simulation (not
//! a benchmark: `blinkblox bench` is). Run by hand:
//! `cargo test --release -p blinkblox-codegen --test it tiny_events -- --ignored --nocapture`.
//! It still checks that every event of every frame arrived.

use std::time::Instant;

use crate::support::*;
use blinkblox_luau::Mode;

// A thousand events a frame is a flood the default inbound limits refuse (as a live server
// should): the limits are raised as in benchmark/definitions/Definition.blink, the checks still run.
const SCHEMA: &str = r#"
option ManualReplication = true
option MaxPacketSize = 1073741824
option MaxEventsPerPacket = 1000000
option InboundBytesPerSecond = 1073741824
option InboundBurst = 1073741824
struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }
event Booleans { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[0..1000] }
event Entities { From: Client, Type: Reliable, Call: SingleSync, Data: Entity[0..1000] }
event Tiny { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
"#;

#[test]
#[ignore = "timing; run by hand"]
fn booleans_entities_and_tiny_events() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        for (bench, value) in [
            ("Booleans", "table.create(1000, true)"),
            (
                "Entities",
                "table.create(100, { id = 1, x = 2, y = 3, z = 4, orientation = 5, animation = 6 })",
            ),
            ("Tiny", "7"),
        ] {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec(&format!(
                    "shared.Count = 0 require('Net').{bench}.On(function() shared.Count += 1 end)"
                ))
                .expect("on");
            sim.client(0)
                .expect("client")
                .exec(&format!(
                    "local Net = require('Net') local value = {value} shared.Fire = function() for _ = 1, 1000 do Net.{bench}.Fire(value) end Net.StepReplication() end"
                ))
                .expect("setup");
            let fire = sim
                .client(0)
                .expect("client")
                .lua()
                .globals()
                .get::<mlua::Table>("shared")
                .expect("shared");
            let fire: mlua::Function = fire.get("Fire").expect("fire");
            let frames = 50;
            let (mut fire_total, mut step_total, mut idle_total) = (0.0, 0.0, 0.0);
            for _ in 0..frames {
                let t = Instant::now();
                fire.call::<()>(()).expect("fire");
                fire_total += t.elapsed().as_secs_f64();
                let t = Instant::now();
                sim.step().expect("step");
                step_total += t.elapsed().as_secs_f64();
                let t = Instant::now();
                sim.step().expect("idle step");
                idle_total += t.elapsed().as_secs_f64();
            }
            let count: u32 = sim.server().eval("return shared.Count").expect("count");
            assert_eq!(count, 1000 * frames);
            let ms = |total: f64| total * 1000.0 / frames as f64;
            println!(
                "{bench:9} {:11}: fire+flush {:7.3} ms, decode (step - idle step) {:7.3} ms",
                format!("{mode:?}"),
                ms(fire_total),
                ms(step_total - idle_total)
            );
        }
    }
    let _ = Mode::Native;
}
