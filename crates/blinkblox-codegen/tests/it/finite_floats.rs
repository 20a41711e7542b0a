//! The floats of arrays and maps are checked together, once after their loop: a NaN or an
//! infinity anywhere in one (an f64, a vector's component, a struct field in an array, a
//! map's value) drops the packet as malformed before any listener sees it, a finite payload
//! arrives as sent, and a map's float key is still checked one by one.

use blinkblox_luau::Mode;

use crate::support::{compile, drop_counts, inject_client_packet, start};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

const SCHEMA: &str = r#"
struct Body { x: f32, y: f64 }
event Numbers { From: Client, Type: Reliable, Call: ManySync, Data: f64[..8] }
event Points { From: Client, Type: Reliable, Call: ManySync, Data: vector[..4] }
event Scores { From: Client, Type: Reliable, Call: ManySync, Data: map { [string]: f64 } }
event Bodies { From: Client, Type: Reliable, Call: ManySync, Data: Body[..4] }
event Keys { From: Client, Type: Reliable, Call: ManySync, Data: map { [f64]: u8 } }
"#;

const NUMBERS: u8 = 0;
const POINTS: u8 = 1;
const SCORES: u8 = 2;
const BODIES: u8 = 3;
const KEYS: u8 = 4;

/// `[event, count, items…]` with each item's bytes from `item`.
fn packet(event: u8, items: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = vec![event, items.len() as u8];
    for item in items {
        bytes.extend(item);
    }
    bytes
}

fn f64s(values: &[f64]) -> Vec<Vec<u8>> {
    values.iter().map(|value| value.to_le_bytes().to_vec()).collect()
}

fn vectors(values: &[[f32; 3]]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|vector| vector.iter().flat_map(|c| c.to_le_bytes()).collect())
        .collect()
}

fn scores(values: &[(&str, f64)]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|(key, value)| {
            let mut bytes = vec![key.len() as u8];
            bytes.extend(key.as_bytes());
            bytes.extend(value.to_le_bytes());
            bytes
        })
        .collect()
}

fn bodies(values: &[(f32, f64)]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|(x, y)| x.to_le_bytes().into_iter().chain(y.to_le_bytes()).collect())
        .collect()
}

fn keys(values: &[(f64, u8)]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|(key, value)| key.to_le_bytes().into_iter().chain([*value]).collect())
        .collect()
}

/// Every packet that carries a non-finite float somewhere, by what it tries.
fn hostile() -> Vec<(String, Vec<u8>)> {
    let mut cases = Vec::new();
    for (what, bad) in [("NaN", f64::NAN), ("+inf", f64::INFINITY), ("-inf", f64::NEG_INFINITY)] {
        cases.push((
            format!("{what} last of f64[]"),
            packet(NUMBERS, &f64s(&[1.5, -2.0, bad])),
        ));
        cases.push((format!("{what} first of f64[]"), packet(NUMBERS, &f64s(&[bad, 1.0]))));
        let small = bad as f32;
        cases.push((
            format!("{what} as a vector's z"),
            packet(POINTS, &vectors(&[[1.0, 2.0, 3.0], [4.0, 5.0, small]])),
        ));
        cases.push((
            format!("{what} as a map value"),
            packet(SCORES, &scores(&[("a", 1.0), ("b", bad)])),
        ));
        cases.push((
            format!("{what} as a struct's f32 in an array"),
            packet(BODIES, &bodies(&[(1.0, 2.0), (small, 3.0)])),
        ));
        cases.push((
            format!("{what} as a struct's f64 in an array"),
            packet(BODIES, &bodies(&[(1.0, bad)])),
        ));
        cases.push((
            format!("{what} as a map key"),
            packet(KEYS, &keys(&[(1.0, 1), (bad, 2)])),
        ));
    }
    // Narrower floats add themselves to the sum: infinities of both signs make it NaN.
    cases.push((
        "+inf and -inf in one vector".to_string(),
        packet(POINTS, &vectors(&[[f32::INFINITY, f32::NEG_INFINITY, 0.0]])),
    ));
    cases
}

const LISTENERS: &str = r#"
local Net = require("Net")
shared.got = {}
for _, name in { "Numbers", "Points", "Scores", "Bodies", "Keys" } do
    Net[name].On(function(_player, value)
        table.insert(shared.got, name)
        shared[name] = value
    end)
end
"#;

#[test]
fn a_non_finite_float_anywhere_in_an_array_or_a_map_drops_the_packet() {
    let modules = compile(SCHEMA);
    assert!(
        modules.server.contains("Finite1 += "),
        "the floats of a loop add to one sum"
    );
    let cases = hostile();
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server().exec(LISTENERS).expect("listeners");
        for (index, (what, bytes)) in cases.iter().enumerate() {
            inject_client_packet(&mut sim, bytes.clone());
            sim.step().expect("step");
            let got: Vec<String> = sim.server().eval("return shared.got").expect("got");
            assert!(got.is_empty(), "{mode:?}: {what} reached a listener: {got:?}");
            let (malformed, _) = drop_counts(&sim);
            assert_eq!(
                malformed as usize,
                index + 1,
                "{mode:?}: {what} was not dropped as malformed"
            );
        }
    }
}

#[test]
fn finite_floats_in_arrays_and_maps_arrive_as_sent() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server().exec(LISTENERS).expect("listeners");
        let mut all = packet(NUMBERS, &f64s(&[1.5, -0.0, 1e300, -2.5e-300]));
        // The largest f32s sum to a finite double, whatever their count.
        all.extend(packet(
            POINTS,
            &vectors(&[[f32::MAX, f32::MAX, f32::MAX], [f32::MAX, -f32::MAX, f32::MAX]]),
        ));
        all.extend(packet(POINTS, &vectors(&[[1.0, -8192.0, 0.015625]])));
        all.extend(packet(SCORES, &scores(&[("a", 0.1), ("b", -3.0)])));
        all.extend(packet(BODIES, &bodies(&[(0.5, 1e-3), (-1.0, 7.0)])));
        all.extend(packet(KEYS, &keys(&[(-0.5, 9)])));
        inject_client_packet(&mut sim, all);
        sim.step().expect("step");
        let (malformed, dropped) = drop_counts(&sim);
        assert_eq!((malformed, dropped), (0, 0), "{mode:?}");
        let summary: String = sim
            .server()
            .eval(
                r#"
                local n, p, s, b = shared.Numbers, shared.Points, shared.Scores, shared.Bodies
                return table.concat(shared.got, ",") .. ` {n[1]} {n[3]} {n[4]} {p[1].Y} {p[1].Z} {s.a} {s.b} {b[1].y} {b[2].x} {shared.Keys[-0.5]}`
                "#,
            )
            .expect("summary");
        assert_eq!(
            summary, "Numbers,Points,Points,Scores,Bodies,Keys 1.5 1e+300 -2.5e-300 -8192 0.015625 0.1 -3 0.001 -1 9",
            "{mode:?}"
        );
    }
}
