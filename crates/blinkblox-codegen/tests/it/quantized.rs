//! Quantized numbers (`f32(-2048..2048 step 1/64)`) in the generated modules: a value arrives
//! at the nearest step, never further than half a step from what was sent; a value outside
//! the range is an error at `Fire` in Studio and the nearest bound in a live game; NaN is an
//! error everywhere; and a count of steps past the last one drops the packet on the server.

use blinkblox_luau::Mode;

use crate::support::{assert_no_errors, compile, drop_counts, inject_client_packet, start};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

const SCHEMA: &str = r#"
struct Unit { id: u16, position: f32(-2048..2048 step 1/64), health: u8 }
event Units { From: Client, Type: Reliable, Call: ManySync, Data: Unit[..64] }
event Angle { From: Client, Type: Reliable, Call: ManySync, Data: f32(0..360 step 0.5) }
event Level { From: Client, Type: Reliable, Call: ManySync, Data: f64(0..1 step 0.1) }
event Aim { From: Client, Type: Reliable, Call: ManySync, Data: vector<f32(-1..1 step 1/100)> }
event Place { From: Client, Type: Reliable, Call: ManySync, Data: vector<f32(-2048..2048 step 1/64)> }
"#;

const UNITS: u8 = 0;
const ANGLE: u8 = 1;
const AIM: u8 = 3;
const PLACE: u8 = 4;

const LISTENERS: &str = r#"
local Net = require("Net")
shared.got = {}
Net.Units.On(function(_player, units)
    for _, unit in units do table.insert(shared.got, unit.position) end
end)
Net.Angle.On(function(_player, angle) table.insert(shared.got, angle) end)
Net.Level.On(function(_player, level) table.insert(shared.got, level) end)
Net.Aim.On(function(_player, aim) table.insert(shared.got, aim.X) table.insert(shared.got, aim.Z) end)
Net.Place.On(function(_player, place) table.insert(shared.got, place.X) table.insert(shared.got, place.Y) end)
"#;

/// Fires `fire` on the client, steps, and returns what the server's listeners got.
fn received(sim: &mut blinkblox_luau::Simulation, fire: &str) -> Vec<f64> {
    sim.server().exec("shared.got = {}").expect("reset");
    sim.client(0).expect("client").exec(fire).expect("fire");
    sim.step().expect("step");
    sim.step().expect("step");
    sim.server().eval("return shared.got").expect("got")
}

#[test]
fn values_between_steps_arrive_at_the_nearest_step() {
    let modules = compile(SCHEMA);
    let positions: Vec<f64> = (0..64)
        .map(|i| -2047.3 + f64::from(i) * 63.97 + 0.001 * f64::from(i))
        .collect();
    let units: Vec<String> = positions
        .iter()
        .enumerate()
        .map(|(i, position)| format!("{{ id = {i}, position = {position:?}, health = 100 }}"))
        .collect();
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server().exec(LISTENERS).expect("listeners");
        let got = received(
            &mut sim,
            &format!("require('Net').Units.Fire({{ {} }})", units.join(", ")),
        );
        assert_eq!(got.len(), positions.len(), "{mode:?}");
        for (sent, arrived) in positions.iter().zip(&got) {
            assert!(
                (sent - arrived).abs() <= 1.0 / 128.0,
                "{mode:?}: {sent} arrived as {arrived}, more than half a step away"
            );
            assert_eq!((arrived * 64.0).fract(), 0.0, "{mode:?}: {arrived} is not on a step");
        }
        // Round to nearest: 10.24 is nearer 10 than 10.5; 10.25 is halfway and goes up.
        let angles = received(
            &mut sim,
            "local Angle = require('Net').Angle for _, a in { 10.24, 10.25, 10.26, 359.9, 0.2 } do Angle.Fire(a) end",
        );
        assert_eq!(angles, vec![10.0, 10.5, 10.5, 360.0, 0.0], "{mode:?}");
        // A decimal step: every tenth arrives as the same double as its literal.
        let levels = received(
            &mut sim,
            "local Level = require('Net').Level for i = 0, 10 do Level.Fire(i / 10) end Level.Fire(0.333)",
        );
        let tenths: Vec<f64> = (0..=10).map(|i| f64::from(i) / 10.0).chain([0.3]).collect();
        assert_eq!(levels, tenths, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn out_of_range_is_an_error_in_studio_and_the_nearest_bound_in_a_game() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server().exec(LISTENERS).expect("listeners");
        let got = received(
            &mut sim,
            "local Angle = require('Net').Angle Angle.Fire(400) Angle.Fire(-1) Angle.Fire(math.huge)",
        );
        assert_eq!(got, vec![360.0, 0.0, 360.0], "{mode:?}: a live game clamps");
        let client = sim.client(0).expect("client");
        let nan: String = client
            .eval("local ok, err = pcall(require('Net').Angle.Fire, 0 / 0) return if ok then 'sent' else err")
            .expect("nan");
        assert!(
            nan.contains("nan: it is outside f32(0..360 step 0.5)"),
            "{mode:?}: NaN is refused in a live game: {nan}"
        );
        client.set_studio(true).expect("studio");
        let outside: String = client
            .eval("local ok, err = pcall(require('Net').Angle.Fire, 400) return if ok then 'sent' else err")
            .expect("outside");
        assert!(
            outside.contains("cannot send 400: it is outside f32(0..360 step 0.5)"),
            "{mode:?}: Studio raises at Fire: {outside}"
        );
        let inside = received(&mut sim, "require('Net').Angle.Fire(90)");
        assert_eq!(inside, vec![90.0], "{mode:?}: a refused value leaves the batch usable");
    }
}

#[test]
fn a_step_count_past_the_last_drops_the_packet() {
    let modules = compile(SCHEMA);
    // `[Units][count 1][id u16][position: 3 bytes][health]`.
    let unit = |q: u32| {
        let mut bytes = vec![UNITS, 1, 7, 0];
        bytes.extend(&q.to_le_bytes()[..3]);
        bytes.push(50);
        bytes
    };
    let angle = |q: u16| {
        let mut bytes = vec![ANGLE];
        bytes.extend(q.to_le_bytes());
        bytes
    };
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server().exec(LISTENERS).expect("listeners");
        // `[Aim][x][y][z]`, a byte an axis: 201 is past the last step.
        let aim = |axes: [u8; 3]| vec![AIM, axes[0], axes[1], axes[2]];
        // `[Place][x][y][z]`, three bytes an axis (X and Y are read four bytes at a time).
        let place = |axes: [u32; 3]| {
            let mut bytes = vec![PLACE];
            for axis in axes {
                bytes.extend(&axis.to_le_bytes()[..3]);
            }
            bytes
        };
        let hostile = [
            unit(262_145),
            unit(0xFF_FFFF),
            angle(721),
            angle(u16::MAX),
            aim([100, 100, 201]),
            aim([255, 0, 0]),
            place([262_145, 0, 0]),
            place([0, 0xFF_FFFF, 0]),
            place([0, 0, 262_145]),
        ];
        for (index, bytes) in hostile.into_iter().enumerate() {
            inject_client_packet(&mut sim, bytes.clone());
            sim.step().expect("step");
            let got: Vec<f64> = sim.server().eval("return shared.got").expect("got");
            assert!(got.is_empty(), "{mode:?}: {bytes:?} reached a listener: {got:?}");
            assert_eq!(
                drop_counts(&sim).0 as usize,
                index + 1,
                "{mode:?}: {bytes:?} was not dropped"
            );
        }
        let mut last = unit(262_144);
        last.extend(angle(720));
        last.extend(unit(0));
        last.extend(aim([200, 100, 100]));
        last.extend(place([262_144, 131_072, 0]));
        inject_client_packet(&mut sim, last);
        sim.step().expect("step");
        let got: Vec<f64> = sim.server().eval("return shared.got").expect("got");
        assert_eq!(
            got,
            vec![2048.0, 360.0, -2048.0, 1.0, 0.0, 2048.0, 0.0],
            "{mode:?}: the last step is a value"
        );
    }
}
