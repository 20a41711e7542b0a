//! The attack suite of the server's checks: a client crafts packets and
//! sends them straight to the server's remotes, in the same frame as an honest
//! player. For every case: no error escapes, no listener sees data outside the
//! schema, the honest player's events all arrive intact, the heap stays bounded, and
//! the drop hook names the right reason. Native and interpreted.

use crate::security_support::*;
use crate::support::MODES;
use blinkblox_luau::RemoteValue;

fn part_slot(arena: &Arena) -> Vec<RemoteValue> {
    vec![RemoteValue::instance(arena.target)]
}

#[test]
fn a_valid_packet_is_delivered_whole() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let slots = part_slot(&arena);
        run_case(&mut arena, "valid", RELIABLE, &valid_reliable(), slots, Expect::Nothing);
        let (_, good, _) = arena.lists();
        let mine: Vec<String> = good.into_iter().filter(|g| g.starts_with("Player1 ")).collect();
        assert_eq!(mine, valid_records("Player1"), "{mode:?}");
    }
}

#[test]
fn random_bytes_from_one_byte_to_a_mebibyte() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for (seed, length) in [1usize, 2, 7, 64, 1000, 4096, 16384, 16385, 65536, 1 << 20]
            .into_iter()
            .enumerate()
        {
            let packet = noise(length, 7 + seed as u32);
            let expect = if length > 16384 {
                Expect::Reason("PacketTooLarge")
            } else {
                Expect::OneOf(DECODE_REASONS)
            };
            run_case(
                &mut arena,
                &format!("{length} random bytes"),
                RELIABLE,
                &packet,
                vec![],
                expect.clone(),
            );
            run_case(
                &mut arena,
                &format!("{length} random bytes (unreliable)"),
                UNRELIABLE,
                &packet,
                vec![],
                expect,
            );
        }
    }
}

/// Events before the cut are delivered (each passed every check; see the docs), the
/// cut record is dropped.
#[test]
fn every_truncation_of_a_valid_multi_event_packet() {
    let modules = modules();
    let valid = valid_reliable();
    let ends = valid_record_ends();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for cut in 0..valid.len() {
            let expect = if ends.contains(&cut) {
                Expect::Nothing
            } else {
                Expect::Reason("Malformed")
            };
            let slots = part_slot(&arena);
            run_case(
                &mut arena,
                &format!("cut at {cut}"),
                RELIABLE,
                &valid[..cut],
                slots,
                expect,
            );
            let (_, good, _) = arena.lists();
            let delivered = good.iter().filter(|g| g.starts_with("Player1 ")).count();
            let complete = ends.iter().filter(|&&end| end > 0 && end <= cut).count();
            assert_eq!(delivered, complete, "{mode:?} cut at {cut}: the records before the cut");
        }
    }
}

#[test]
fn huge_length_prefixes() {
    let modules = modules();
    let prefixes: [(&str, &[u8]); 4] = [
        ("2^16", &[0x80, 0x80, 0x04]),
        ("2^31", &[0x80, 0x80, 0x80, 0x80, 0x08]),
        ("2^32 - 1", &[0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        (
            "a 10-byte varint",
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        ),
    ];
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for (what, prefix) in prefixes {
            for (event, index) in [("Str", STR), ("List", LIST), ("Blob", BLOB)] {
                let mut packet = vec![index];
                packet.extend_from_slice(prefix);
                packet.extend([1, 2, 3, 4]);
                run_case(
                    &mut arena,
                    &format!("{event} length {what}"),
                    RELIABLE,
                    &packet,
                    vec![],
                    Expect::Reason("Malformed"),
                );
            }
        }
    }
}

#[test]
fn unknown_event_indices() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for packet in [vec![LINES + 1], vec![200], vec![255, 1, 2], vec![NUM, 4, 200, NUM, 4]] {
            run_case(
                &mut arena,
                &format!("{packet:?}"),
                RELIABLE,
                &packet,
                vec![],
                Expect::Reason("UnknownEvent"),
            );
        }
        for packet in [vec![1], vec![77, 0, 0]] {
            run_case(
                &mut arena,
                &format!("unreliable {packet:?}"),
                UNRELIABLE,
                &packet,
                vec![],
                Expect::Reason("UnknownEvent"),
            );
        }
    }
}

/// An array of strings is every length, then the bytes of all of them: each length is
/// checked against its bound, and their sum against the bytes left, before a string is made.
#[test]
fn string_arrays_whose_lengths_lie() {
    let modules = modules();
    let cases: [(&str, Vec<u8>); 7] = [
        (
            "the bytes stop short of the lengths' sum",
            vec![NAMES, 2, 3, 3, b'a', b'b', b'c', b'd'],
        ),
        (
            "a length over the string's bound",
            vec![NAMES, 1, 4, b'a', b'b', b'c', b'd'],
        ),
        ("a two-byte length over the bound", vec![NAMES, 1, 0x80, 0x01, b'a']),
        ("a length of 2^32 - 1", vec![NAMES, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]),
        ("more strings than the array's bound", vec![NAMES, 5, 0, 0, 0, 0, 0]),
        ("more strings than bytes for their lengths", vec![NAMES, 4, 1, b'a']),
        ("the lengths cut off", vec![NAMES, 3, 1, 1]),
    ];
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for (name, packet) in &cases {
            run_case(&mut arena, name, RELIABLE, packet, vec![], Expect::Reason("Malformed"));
        }
        // A two-byte length leaves fewer bytes than the lengths still to come need.
        for (name, packet) in [
            ("a long length, then lengths cut off", vec![LINES, 3, 0x80, 0x01, 1]),
            ("a long length, then no bytes", vec![LINES, 2, 0x80, 0x01]),
            (
                "a long length whose bytes are missing",
                vec![LINES, 1, 0x80, 0x01, b'a'],
            ),
        ] {
            run_case(&mut arena, name, RELIABLE, &packet, vec![], Expect::Reason("Malformed"));
        }
        let valid = [NAMES, 3, 1, 3, 0, b'x', b'y', b'z', b'w'];
        run_case(&mut arena, "valid names", RELIABLE, &valid, vec![], Expect::Nothing);
        let (_, good, _) = arena.lists();
        assert!(
            good.contains(&"Player1 Names x,yzw,".to_string()),
            "{mode:?}: the valid array's strings, in order: {good:?}"
        );
    }
}

#[test]
fn values_outside_the_schema() {
    let modules = modules();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for (what, value) in [("NaN", f32::NAN), ("+inf", f32::INFINITY), ("-inf", f32::NEG_INFINITY)] {
        let mut packet = vec![FLOAT];
        packet.extend(value.to_le_bytes());
        cases.push((format!("{what} in a float"), packet));
    }
    for value in [6u8, 7, 200, 255] {
        cases.push((format!("u8(0..5) = {value}"), vec![NUM, value]));
    }
    for value in [3u8, 4, 255] {
        cases.push((format!("enum index {value}"), vec![PICK, value]));
    }
    for byte in 2..=255u8 {
        cases.push((format!("boolean byte {byte}"), vec![FLAG, byte]));
    }
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for (name, packet) in &cases {
            run_case(&mut arena, name, RELIABLE, packet, vec![], Expect::Reason("Malformed"));
        }
    }
}

#[test]
fn unreliable_values_outside_the_schema() {
    let modules = modules();
    let entity = |id: u8, x: f32, hp: u8| {
        let mut packet = vec![MOVE, id];
        packet.extend(x.to_le_bytes());
        packet.push(hp);
        packet
    };
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        run_case(
            &mut arena,
            "valid move",
            UNRELIABLE,
            &entity(3, 1.0, 50),
            vec![],
            Expect::Nothing,
        );
        run_case(
            &mut arena,
            "NaN x",
            UNRELIABLE,
            &entity(3, f32::NAN, 50),
            vec![],
            Expect::Reason("Malformed"),
        );
        run_case(
            &mut arena,
            "hp 101",
            UNRELIABLE,
            &entity(3, 1.0, 101),
            vec![],
            Expect::Reason("Malformed"),
        );
        run_case(
            &mut arena,
            "short",
            UNRELIABLE,
            &entity(3, 1.0, 1)[..4],
            vec![],
            Expect::Reason("Malformed"),
        );
    }
}

#[test]
fn instances_of_the_wrong_kind() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        let wrong = RemoteValue::instance(arena.wrong_class);
        let cases: [(&str, Vec<RemoteValue>); 5] = [
            ("a string", vec![RemoteValue::String(b"Target".to_vec())]),
            ("a number", vec![RemoteValue::Number(5.0)]),
            ("a table", vec![RemoteValue::array([RemoteValue::Number(1.0)])]),
            ("no slot", vec![]),
            ("a Folder for Instance(BasePart)", vec![wrong]),
        ];
        for (name, slots) in cases {
            run_case(&mut arena, name, RELIABLE, &[PART], slots, Expect::Reason("Malformed"));
        }
        // A side array that is not a table at all.
        arena.reset();
        arena
            .sim
            .inject_fire_server(
                0,
                RELIABLE,
                vec![RemoteValue::buffer(vec![PART]), RemoteValue::Number(1.0)],
            )
            .expect("inject");
        arena.inject_valid();
        arena.sim.step().expect("step");
        let (bad, _, drops) = arena.lists();
        assert!(bad.is_empty(), "{mode:?}: {bad:?}");
        assert_eq!(drops, ["Player1 Malformed"], "{mode:?}");
    }
}

#[test]
fn things_that_are_not_packets() {
    let modules = modules();
    for mode in MODES {
        let mut arena = Arena::new(&modules, mode);
        for value in [
            RemoteValue::Nil,
            RemoteValue::String(b"hello".to_vec()),
            RemoteValue::Number(3.0),
            RemoteValue::array([RemoteValue::Number(1.0)]),
        ] {
            arena.reset();
            arena.sim.inject_fire_server(0, RELIABLE, vec![value]).expect("inject");
            arena.inject_valid();
            arena.sim.step().expect("step");
            let (bad, good, drops) = arena.lists();
            assert!(bad.is_empty(), "{mode:?}: {bad:?}");
            assert_eq!(good, valid_records("Player2"), "{mode:?}");
            assert_eq!(drops, ["Player1 Malformed"], "{mode:?}");
        }
        crate::support::assert_no_errors(&arena.sim);
    }
}
