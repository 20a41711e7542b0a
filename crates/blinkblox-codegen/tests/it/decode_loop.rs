//! The server's decode loop keeps its cursor in a local and marks a Sync listener's
//! resume point instead of a flag: these pin down what that must not change. A
//! listener's error costs only its event, while a malformed record after it still ends
//! the packet as malformed; a listener that disconnects mid-packet leaves the rest of
//! the packet to the queue, in order; long length prefixes (read outside the loop) and
//! packed booleans decode alike natively and interpreted; and every read is checked
//! before it is made, so a truncated record after a listener is a drop.

use crate::support::*;

const SCHEMA: &str = r#"
export struct Named { name: string, after: u8 }
event A { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
event B { From: Client, Type: Reliable, Call: ManySync, Data: u8(0..5) }
event Text { From: Client, Type: Reliable, Call: SingleSync, Data: Named }
event Flags { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[..2000] }
"#;

#[test]
fn a_listener_error_then_a_malformed_record_is_still_malformed() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                Net.A.On(function(_, v)
                    if v == 2 then
                        -- A failed TryRead inside the listener leaves it the one the error is taken for.
                        assert(not Net.Named.TryRead(buffer.create(1)))
                        error("boom")
                    end
                    table.insert(shared.Got, "A" .. v)
                end)
                Net.B.On(function(_, v) table.insert(shared.Got, "B" .. v) end)
                "#,
            )
            .expect("listeners");
        // A(1) A(2: the listener raises) A(3) B(4) B(9: out of range) A(5).
        inject_client_packet(&mut sim, vec![0, 1, 0, 2, 0, 3, 1, 4, 1, 9, 0, 5]);
        sim.steps(2).expect("steps");
        let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, ["A1", "A3", "B4"], "{mode:?}");
        let errors = sim.server().errors();
        assert!(errors.iter().any(|e| e.contains("boom")), "{mode:?}: {errors:?}");
        assert!(
            !errors.iter().any(|e| e.contains("out of range")),
            "{mode:?}: the malformed record is a drop, not a listener error: {errors:?}"
        );
        let (malformed, total) = drop_counts(&sim);
        assert_eq!((malformed, total), (1, 1), "{mode:?}");
    }
}

/// A Sync listener that yields leaves its packet mid-listener; the next packet's
/// malformed record must still be a drop (counted, its hooks told), not taken for that
/// listener's error and resumed at an offset of the earlier packet.
#[test]
fn a_malformed_packet_after_a_yielding_listener_is_still_a_drop() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                Net.A.On(function(_, v) table.insert(shared.Got, "A" .. v) if v == 1 then task.wait(10) end end)
                "#,
            )
            .expect("listeners");
        // A(1) yields in its listener; A(2) after it is left undelivered.
        inject_client_packet(&mut sim, vec![0, 1, 0, 2]);
        sim.steps(2).expect("steps");
        // B(9) is out of range: a malformed packet.
        inject_client_packet(&mut sim, vec![1, 9]);
        sim.steps(2).expect("steps");
        let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, ["A1"], "{mode:?}");
        let (malformed, _) = drop_counts(&sim);
        assert_eq!(malformed, 1, "{mode:?}: {:?}", sim.server().errors());
    }
}

#[test]
fn a_listener_that_disconnects_leaves_the_rest_of_the_packet_queued_in_order() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                local Disconnect
                Disconnect = Net.A.On(function(_, v) table.insert(shared.Got, "first" .. v) Disconnect() end)
                "#,
            )
            .expect("listener");
        inject_client_packet(&mut sim, vec![0, 1, 0, 2, 0, 3]);
        sim.steps(2).expect("steps");
        sim.server()
            .exec(r#"require("Net").A.On(function(_, v) table.insert(shared.Got, "second" .. v) end)"#)
            .expect("second listener");
        let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, ["first1", "second2", "second3"], "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn long_length_prefixes_and_packed_booleans_decode_in_both_modes() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                Net.Text.On(function(_, v) table.insert(shared.Got, #v.name .. ":" .. v.after) end)
                Net.Flags.On(function(_, v)
                    local Bits = {}
                    for Index, Flag in v do Bits[Index] = if Flag then "1" else "0" end
                    table.insert(shared.Got, #v .. ":" .. table.concat(Bits))
                end)
                "#,
            )
            .expect("listeners");
        // Names of 127, 128 and 300 bytes: one- and two-byte length prefixes.
        let mut packet = Vec::new();
        let mut expected = Vec::new();
        for (length, after) in [(127usize, 7u8), (128, 8), (300, 9)] {
            // The struct's fixed block (`after`) comes before its variable fields.
            packet.push(2);
            packet.push(after);
            let mut rest = length;
            while rest >= 0x80 {
                packet.push((rest & 0x7F) as u8 | 0x80);
                rest >>= 7;
            }
            packet.push(rest as u8);
            packet.extend(std::iter::repeat_n(b'x', length));
            expected.push(format!("{length}:{after}"));
        }
        // Packed booleans: every length from 0 to 20 and 1000, bit i of a pattern.
        for length in (0usize..=20).chain([1000]) {
            let bits: Vec<bool> = (0..length).map(|i| (i * 7 + length) % 3 == 0).collect();
            packet.push(3);
            let mut rest = length;
            while rest >= 0x80 {
                packet.push((rest & 0x7F) as u8 | 0x80);
                rest >>= 7;
            }
            packet.push(rest as u8);
            let mut bytes = vec![0u8; length.div_ceil(8)];
            for (index, bit) in bits.iter().enumerate() {
                if *bit {
                    bytes[index / 8] |= 1 << (index % 8);
                }
            }
            packet.extend(bytes);
            let text: String = bits.iter().map(|b| if *b { '1' } else { '0' }).collect();
            expected.push(format!("{length}:{text}"));
        }
        inject_client_packet(&mut sim, packet);
        sim.steps(2).expect("steps");
        let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, expected, "{mode:?}");
        assert_no_errors(&sim);
    }
}

/// Channels of more than 32 declarations read through reader functions, which take the
/// loop's cursor and return where they ended: values and order must come through.
#[test]
fn reader_functions_of_large_channels_hand_back_the_cursor() {
    let mut text = String::from("struct Pair { a: u16, name: string }\n");
    for i in 0..40 {
        text.push_str(&format!(
            "event E{i} {{ From: Client, Type: Reliable, Call: SingleSync, Data: (u8, Pair, string) }}\n"
        ));
    }
    let modules = compile(&text);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                for i = 0, 39 do
                    Net["E" .. i].On(function(_, n, pair, s)
                        table.insert(shared.Got, `{i}:{n}:{pair.a}:{pair.name}:{s}`)
                    end)
                end
                "#,
            )
            .expect("listeners");
        sim.client(0)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                for _, i in { 0, 39, 17, 17, 5 } do
                    Net["E" .. i].Fire(i, { a = 1000 + i, name = string.rep("n", i * 5) }, "s" .. i)
                end
                "#,
            )
            .expect("fire");
        sim.steps(2).expect("steps");
        let got: Vec<String> = sim.server().eval("return shared.Got").expect("eval");
        let expected: Vec<String> = [0, 39, 17, 17, 5]
            .iter()
            .map(|i| format!("{i}:{i}:{}:{}:s{i}", 1000 + i, "n".repeat(i * 5)))
            .collect();
        assert_eq!(got, expected, "{mode:?}");
        assert_no_errors(&sim);
    }
}

/// A Sync listener's resume point stays set after it returns: a record after it that
/// fails must be a drop, never that listener's error. So no read may raise on its own:
/// every truncation of records holding each kind of read at the cursor (a tagged enum's
/// tag, an optional's flag, a length prefix, a string's bytes, a map, a struct's fixed
/// block) is a drop with nothing reported as an error.
#[test]
fn every_truncation_after_a_sync_listener_is_a_drop_not_its_error() {
    let modules = compile(
        r#"
        enum Action = "kind" { Move { to: u16 }, Say { text: string(..20) } }
        map Scores = { [u8]: u16 }(..4)
        export struct Payload { action: Action, note: string(..10)?, scores: Scores, tail: u8 }
        event P { From: Client, Type: Reliable, Call: SingleSync, Data: Payload }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec("shared.Got = {} require('Net').P.On(function(_, v) table.insert(shared.Got, v.tail) end)")
            .expect("listener");
        // Three records ([index 0][payload]), written by the module's own Write.
        let (packet, ends): (Vec<u8>, Vec<usize>) = {
            let bytes: Vec<Vec<u8>> = sim
                .server()
                .eval(
                    r#"
                    local Net = require("Net")
                    local Records = {}
                    for _, Value in {
                        { action = { kind = "Move", to = 700 }, note = nil, scores = { [1] = 2, [3] = 400 }, tail = 1 },
                        { action = { kind = "Say", text = "hello" }, note = "n", scores = {}, tail = 2 },
                        { action = { kind = "Move", to = 9 }, note = "note", scores = { [5] = 6 }, tail = 3 },
                    } do
                        local Bytes = Net.Payload.Write(Value)
                        local Record = { 0 }
                        for At = 0, buffer.len(Bytes) - 1 do table.insert(Record, buffer.readu8(Bytes, At)) end
                        table.insert(Records, Record)
                    end
                    return Records
                    "#,
                )
                .expect("write");
            let mut packet = Vec::new();
            let mut ends = vec![0];
            for record in bytes {
                packet.extend(record);
                ends.push(packet.len());
            }
            (packet, ends)
        };
        for cut in 1..packet.len() {
            sim.server().exec("table.clear(shared.Got)").expect("clear");
            let errors_before = sim.server().errors().len();
            let (_, drops_before) = drop_counts(&sim);
            inject_client_packet(&mut sim, packet[..cut].to_vec());
            sim.steps(2).expect("steps");
            let got: Vec<u8> = sim.server().eval("return shared.Got").expect("eval");
            let complete = ends.iter().filter(|&&end| end > 0 && end <= cut).count();
            assert_eq!(got.len(), complete, "{mode:?} cut at {cut}: the records before the cut");
            let errors = sim.server().errors();
            assert_eq!(
                errors.len(),
                errors_before,
                "{mode:?} cut at {cut}: {:?}",
                &errors[errors_before..]
            );
            let (_, drops) = drop_counts(&sim);
            let dropped = if ends.contains(&cut) { 0 } else { 1 };
            assert_eq!(drops - drops_before, dropped, "{mode:?} cut at {cut}");
        }
    }
}
