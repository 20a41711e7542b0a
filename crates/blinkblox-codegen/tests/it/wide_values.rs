//! Wide structs (read into a table made first) and tuples whose values scope their locals,
//! against a hostile client: every truncation and a thousand random corruptions of valid
//! records reach the server, and no listener sees a value outside the schema, no error
//! escapes, and the honest records around them arrive. Native and interpreted.

use crate::support::*;

const SCHEMA: &str = r#"
option WriteValidations = true
option InboundBytesPerSecond = 1073741824
option InboundBurst = 1073741824
struct Inner { x: u8(0..9), name: string(..8)? }
export struct Wide {
    a1: string(1..12), a2: u8(0..100)?, a3: vector, a4: boolean, a5: Inner, a6: Inner?, a7: string(..4)?,
    a8: u16, a9: boolean, a10: f32, a11: u8(..3)[..4], a12: boolean, a13: u8, a14: i8(-5..5), a15: string(2),
    a16: Inner[..2], a17: boolean?, a18: f64(0..1),
}
event W { From: Client, Type: Reliable, Call: ManySync, Data: Wide }
event T { From: Client, Type: Reliable, Call: ManySync, Data: (Wide?, string(..6), u8(0..10), Inner) }
"#;

/// Server side: a listener for each event that checks every field against the schema and
/// files the value under `Bad` or `Good`.
const LISTENERS: &str = r#"
local Net = require("Net")
local function isInner(v)
    return type(v) == "table" and type(v.x) == "number" and v.x >= 0 and v.x <= 9 and v.x == v.x // 1
        and (v.name == nil or (type(v.name) == "string" and #v.name <= 8))
end
local function isWide(v)
    if type(v) ~= "table" then return false end
    local ok = type(v.a1) == "string" and #v.a1 >= 1 and #v.a1 <= 12
        and (v.a2 == nil or (type(v.a2) == "number" and v.a2 >= 0 and v.a2 <= 100))
        and typeof(v.a3) == "Vector3" and type(v.a4) == "boolean" and isInner(v.a5)
        and (v.a6 == nil or isInner(v.a6)) and (v.a7 == nil or (type(v.a7) == "string" and #v.a7 <= 4))
        and type(v.a8) == "number" and type(v.a9) == "boolean" and type(v.a10) == "number" and v.a10 == v.a10
        and type(v.a11) == "table" and #v.a11 <= 4 and type(v.a12) == "boolean" and type(v.a13) == "number"
        and type(v.a14) == "number" and v.a14 >= -5 and v.a14 <= 5 and type(v.a15) == "string" and #v.a15 == 2
        and type(v.a16) == "table" and #v.a16 <= 2 and (v.a17 == nil or type(v.a17) == "boolean")
        and type(v.a18) == "number" and v.a18 >= 0 and v.a18 <= 1
    if not ok then return false end
    for _, n in v.a11 do if type(n) ~= "number" or n > 3 then return false end end
    for _, inner in v.a16 do if not isInner(inner) then return false end end
    return true
end
shared.Bad, shared.Good = {}, {}
Net.W.On(function(player, value)
    table.insert(if isWide(value) then shared.Good else shared.Bad, `W {player.Name}`)
end)
Net.T.On(function(player, wide, text, n, inner)
    local ok = (wide == nil or isWide(wide)) and type(text) == "string" and #text <= 6
        and type(n) == "number" and n >= 0 and n <= 10 and isInner(inner)
    table.insert(if ok then shared.Good else shared.Bad, `T {player.Name}`)
end)
shared.Sample = {
    a1 = "wide", a2 = 100, a3 = Vector3.new(1, 2, 3), a4 = true, a5 = { x = 9, name = "in" },
    a6 = { x = 0 }, a7 = "ab", a8 = 65535, a9 = false, a10 = 1.5, a11 = { 0, 3 }, a12 = true,
    a13 = 255, a14 = -5, a15 = "zz", a16 = { { x = 1 }, { x = 2, name = "two" } }, a17 = false, a18 = 0.25,
}
-- A valid record of W, as bytes: its index, then the exported type's encoding.
shared.Record = function()
    local bytes = Net.Wide.Write(shared.Sample)
    local record = { 0 }
    for at = 0, buffer.len(bytes) - 1 do table.insert(record, buffer.readu8(bytes, at)) end
    return record
end
"#;

/// A small deterministic generator (xorshift32) for the corruptions.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

fn lists(sim: &blinkblox_luau::Simulation) -> (Vec<String>, Vec<String>) {
    sim.server().eval("return shared.Bad, shared.Good").expect("lists")
}

#[test]
fn hostile_packets_never_reach_a_listener_outside_the_schema() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start_with(&modules, mode, 2, "");
        sim.server().exec(LISTENERS).expect("listeners");
        // The honest client fires both events; the tuple carries a wide value and none.
        sim.client(1)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                local sample = {
                    a1 = "w", a3 = Vector3.zero, a4 = false, a5 = { x = 1 }, a8 = 0, a9 = true, a10 = 0,
                    a11 = {}, a12 = false, a13 = 0, a14 = 5, a15 = "ab", a16 = {}, a18 = 1,
                }
                Net.W.Fire(sample)
                Net.T.Fire(sample, "six ch", 10, { x = 3, name = "n" })
                Net.T.Fire(nil, "", 0, { x = 0 })
                "#,
            )
            .expect("honest fires");
        sim.steps(2).expect("steps");
        let (bad, good) = lists(&sim);
        assert!(bad.is_empty(), "{mode:?}: {bad:?}");
        assert_eq!(good, ["W Player2", "T Player2", "T Player2"], "{mode:?}");

        let record: Vec<u8> = sim.server().eval("return shared.Record()").expect("a valid record");
        assert!(record.len() > 40, "{mode:?}: the record holds every field");
        let mut packets: Vec<Vec<u8>> = (1..record.len()).map(|cut| record[..cut].to_vec()).collect();
        let mut noise = Noise(0x9e37_79b9);
        for _ in 0..1000 {
            let mut packet = record.clone();
            for _ in 0..1 + noise.next() % 4 {
                let at = 1 + noise.next() as usize % (packet.len() - 1);
                packet[at] = noise.next() as u8;
            }
            packets.push(packet);
        }
        packets.push(record.clone());
        for packet in &packets {
            inject_client_packet(&mut sim, packet.clone());
        }
        sim.step().expect("step");
        assert_no_errors(&sim);
        let (bad, good) = lists(&sim);
        assert!(bad.is_empty(), "{mode:?}: a listener saw {} bad values", bad.len());
        let delivered = good.len() - 3;
        let (malformed, dropped) = drop_counts(&sim);
        // A corrupted length can end the record early and leave the rest to be read as
        // more records: the valid one is delivered and the rest dropped, so a packet may
        // count on both sides, but none may vanish.
        assert!(
            delivered + dropped as usize >= packets.len(),
            "{mode:?}: {delivered} delivered and {dropped} dropped ({malformed} as malformed) of {} packets",
            packets.len()
        );
        assert!(
            delivered >= 1 && malformed > record.len() as u32 / 2,
            "{mode:?}: {delivered} delivered, {malformed} malformed"
        );
    }
}

/// Payloads of up to 64 types are not checked with Luau's compiler before writing, so
/// their code must fit whatever their shape: every field keeps at most one local past its
/// own code, fixed-size fields (a CFrame takes a dozen) included. Ten structs of five
/// CFrames (61 types) and a tagged variant of 40 CFrames load and round-trip.
#[test]
fn fixed_fields_with_many_locals_fit_under_the_unchecked_size() {
    let mut text = String::from("struct In { a: CFrame, b: CFrame, c: CFrame, d: CFrame, e: CFrame }\nstruct Out { ");
    text.push_str(&(1..=10).map(|i| format!("i{i}: In")).collect::<Vec<_>>().join(", "));
    text.push_str(" }\nenum Tg = \"k\" { A { ");
    text.push_str(&(0..40).map(|i| format!("c{i}: CFrame")).collect::<Vec<_>>().join(", "));
    text.push_str(" } }\nevent O { From: Client, Type: Reliable, Call: ManySync, Data: Out }\n");
    text.push_str("event G { From: Client, Type: Reliable, Call: ManySync, Data: Tg }\n");
    let modules = compile(&text);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                Net.O.On(function(_, value) shared.Got.O = value end)
                Net.G.On(function(_, value) shared.Got.G = value end)
                "#,
            )
            .expect("listeners");
        let values = r#"
            local cf = CFrame.new(1, 2, 3) * CFrame.fromOrientation(0.1, 0.2, 0.3)
            local inner = { a = cf, b = cf, c = CFrame.identity, d = cf, e = cf }
            local out = {}
            for i = 1, 10 do out["i" .. i] = inner end
            local tagged = { k = "A" }
            for i = 0, 39 do tagged["c" .. i] = cf end
            shared.Sent = { O = out, G = tagged }
        "#;
        sim.server().exec(values).expect("expected values");
        let client = sim.client(0).expect("client");
        client.exec(values).expect("values");
        client
            .exec("local Net = require('Net') Net.O.Fire(shared.Sent.O) Net.G.Fire(shared.Sent.G)")
            .expect("fires");
        sim.steps(2).expect("steps");
        sim.server()
            .exec("shared.assertEqual(shared.Got, shared.Sent, 'what arrived')")
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
    }
}
