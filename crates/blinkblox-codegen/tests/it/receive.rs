//! The receiving side's checks on packets a client crafted (the full attack suite is
//! `security_attacks.rs`): malformed packets end without an error escaping, no
//! listener sees data outside the schema, and another player's packet is untouched.

use crate::support::*;
use blinkblox_luau::RemoteValue;

const SCHEMA: &str = r#"
event A { From: Client, Type: Reliable, Call: ManySync, Data: string(..10) }
event B { From: Client, Type: Reliable, Call: ManySync, Data: u8(0..5) }
event C { From: Client, Type: Reliable, Call: ManySync, Data: boolean }
event D { From: Client, Type: Reliable, Call: ManySync, Data: u8[..4] }
"#;

/// A("abc"), B(4), C(true), D({1, 2}).
const VALID: &[u8] = &[0, 3, b'a', b'b', b'c', 1, 4, 2, 1, 3, 2, 1, 2];

fn bad_packets() -> Vec<Vec<u8>> {
    let mut packets: Vec<Vec<u8>> = (0..VALID.len()).map(|n| VALID[..n].to_vec()).collect();
    packets.extend([
        vec![1, 9],                                   // out of range
        vec![2, 2],                                   // a boolean byte of 2
        vec![0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // longer than string(..10)
        vec![0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],        // a 2^32 - 1 length
        vec![0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],  // a 6-byte varint
        vec![3, 0x80, 0x80, 0x80, 0x80, 0x08],        // 2^31 items
        vec![3, 3, 1],                                // 3 items, 1 byte left
        vec![7],                                      // unknown index
        vec![1, 4, 200, 1, 4],                        // a good event, then an unknown index
    ]);
    let mut state: u32 = 12345;
    for length in [1usize, 7, 64, 1000] {
        let bytes = (0..length)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (state >> 16) as u8
            })
            .collect();
        packets.push(bytes);
    }
    packets
}

#[test]
fn malformed_packets_are_dropped_and_never_reach_a_listener_with_bad_data() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Bad = {}
                shared.Good = {}
                local function record(name, ok, value)
                    table.insert(if ok then shared.Good else shared.Bad, name .. " " .. tostring(value))
                end
                Net.A.On(function(p, v) record(p.Name .. " A", type(v) == "string" and #v <= 10, v) end)
                Net.B.On(function(p, v) record(p.Name .. " B", v >= 0 and v <= 5 and v // 1 == v, v) end)
                Net.C.On(function(p, v) record(p.Name .. " C", type(v) == "boolean", v) end)
                Net.D.On(function(p, v) record(p.Name .. " D", type(v) == "table" and #v <= 4, #v) end)
                "#,
            )
            .expect("listeners");
        for packet in bad_packets() {
            inject_client_packet(&mut sim, packet);
            sim.inject_fire_server(1, "BLINK_RELIABLE_REMOTE", vec![RemoteValue::buffer(VALID.to_vec())])
                .expect("inject");
        }
        for not_a_packet in [RemoteValue::String("hello".into()), RemoteValue::Number(3.0)] {
            sim.inject_fire_server(0, "BLINK_RELIABLE_REMOTE", vec![not_a_packet])
                .expect("inject");
        }
        sim.steps(2).expect("steps");
        let (bad, good): (Vec<String>, Vec<String>) =
            sim.server().eval("return shared.Bad, shared.Good").expect("eval");
        assert!(bad.is_empty(), "{mode:?}: listeners saw bad data: {bad:?}");
        let from_second = good.iter().filter(|g| g.starts_with("Player2")).count();
        assert_eq!(
            from_second,
            4 * bad_packets().len(),
            "{mode:?}: the other player's packets are intact"
        );
        assert!(
            good.iter().any(|g| g == "Player1 B 4"),
            "{mode:?}: events before a bad one are delivered"
        );
        assert_no_errors(&sim);
        let warnings = sim.server().warnings();
        assert_eq!(
            warnings.len(),
            1,
            "{mode:?}: one warning, later drops counted: {warnings:?}"
        );
    }
}
