//! Readers and writers with two forms, picked by the module's timed `Interpreted`: arrays
//! of structs holding runs of u8 fields (read with `buffer.readu8`, or with `string.byte`
//! on a copy of the packet), and boolean[] (bits tested in place, or prepared rows and
//! words moved with `table.move`). Both choices are forced here, in both modes, and must
//! deliver the same values and bytes, run the same checks, and never read a copy of
//! another buffer (a listener's `Read` mid-packet, the next packet).

use crate::support::*;

const SCHEMA: &str = r#"
option MaxEventsPerPacket = 1000
struct Pixel { r: u8, g: u8, b: u8, a: u8(0..200), tag: u16, x: u8, y: u8, z: u8, w: u8, flag: boolean }
struct Holder { id: u16, inner: Pixel[2], k: u8, l: u8, m: u8, n: u8 }
struct Short { a: u8, b: u8, c: u8 }
export struct Quad { a: u8, b: u8, c: u8, d: u8 }
event Pixels { From: Client, Type: Reliable, Call: ManySync, Data: Pixel[..50] }
event Holders { From: Client, Type: Reliable, Call: ManySync, Data: Holder[..10] }
event Shorts { From: Client, Type: Reliable, Call: ManySync, Data: Short[..10] }
event Quads { From: Client, Type: Reliable, Call: ManySync, Data: Quad[..10] }
event Flags { From: Client, Type: Reliable, Call: ManySync, Data: boolean[..2000] }
event Sent { From: Server, Type: Reliable, Call: ManySync, Data: Quad[..10] }
"#;

const TIMED: &str = "local Answer = BestString < BestBuffer";

/// `schema`'s modules with the timing's answer replaced on both sides (None: timed as
/// shipped).
fn compile_choosing(schema: &str, choice: Option<bool>) -> Modules {
    let mut modules = compile(schema);
    for module in [&mut modules.server, &mut modules.client] {
        assert!(module.contains(TIMED), "the module times its choice");
        if let Some(choice) = choice {
            *module = module.replace(TIMED, &format!("local Answer = {choice}"));
        }
    }
    modules
}

const VALUES: &str = r#"
shared.Pixels = {
    {},
    {
        { r = 0, g = 255, b = 1, a = 200, tag = 65535, x = 2, y = 3, z = 254, w = 128, flag = true },
        { r = 9, g = 8, b = 7, a = 0, tag = 0, x = 6, y = 5, z = 4, w = 3, flag = false },
    },
}
shared.Holders = {
    {
        {
            id = 513,
            inner = {
                { r = 1, g = 2, b = 3, a = 4, tag = 5, x = 6, y = 7, z = 8, w = 9, flag = true },
                { r = 10, g = 11, b = 12, a = 13, tag = 14, x = 15, y = 16, z = 17, w = 18, flag = false },
            },
            k = 19, l = 20, m = 21, n = 255,
        },
    },
}
shared.Shorts = { { { a = 1, b = 2, c = 3 }, { a = 255, b = 0, c = 128 } } }
shared.Quads = { { { a = 1, b = 2, c = 3, d = 4 } } }
-- Every length 0..70 (runs of 32, rows of 8, tails), and 1000 and 2000.
shared.Flags = {}
for Length = 0, 70 do
    local Flags = table.create(Length)
    for Index = 1, Length do Flags[Index] = (Index * 7 + Length) % 3 == 0 end
    table.insert(shared.Flags, Flags)
end
table.insert(shared.Flags, table.create(1000, true))
local Mixed = table.create(2000)
for Index = 1, 2000 do Mixed[Index] = Index % 5 == 1 end
table.insert(shared.Flags, Mixed)
"#;

#[test]
fn both_loops_deliver_the_same_values_in_both_modes() {
    for choice in [None, Some(true), Some(false)] {
        let modules = compile_choosing(SCHEMA, choice);
        for mode in MODES {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec(&format!(
                    r#"{VALUES}
                    local Net = require("Net")
                    shared.Got = {{ Pixels = {{}}, Holders = {{}}, Shorts = {{}}, Quads = {{}}, Flags = {{}} }}
                    for Name, List in shared.Got do
                        Net[Name].On(function(_, Value) table.insert(List, Value) end)
                    end
                    "#
                ))
                .expect("listeners");
            sim.client(0)
                .expect("client")
                .exec(&format!(
                    r#"{VALUES}
                    local Net = require("Net")
                    for _, Name in {{ "Pixels", "Holders", "Shorts", "Quads", "Flags" }} do
                        for _, Value in shared[Name] do Net[Name].Fire(Value) end
                    end
                    "#
                ))
                .expect("fires");
            sim.steps(2).expect("steps");
            let problems: String = sim
                .server()
                .eval(
                    r#"
                    local Problems = {}
                    for _, Name in { "Pixels", "Holders", "Shorts", "Quads", "Flags" } do
                        local Ok, Why = shared.deepEqual(shared.Got[Name], shared[Name])
                        if not Ok then table.insert(Problems, `{Name}: {Why}`) end
                    end
                    return table.concat(Problems, "\n")
                    "#,
                )
                .expect("compare");
            assert!(problems.is_empty(), "{choice:?} {mode:?}:\n{problems}");
            assert_no_errors(&sim);
        }
    }
}

/// One Pixel on the wire: the packed byte (`flag`), then the fixed fields in order.
fn pixel(bytes: [u8; 8], a: u8, tag: u16, flag: bool) -> Vec<u8> {
    let mut out = vec![u8::from(flag)];
    out.extend_from_slice(&bytes[..3]);
    out.push(a);
    out.extend_from_slice(&tag.to_le_bytes());
    out.extend_from_slice(&bytes[3..7]);
    out
}

#[test]
fn checks_hold_and_every_packet_is_read_from_its_own_bytes() {
    for choice in [Some(true), Some(false)] {
        let modules = compile_choosing(SCHEMA, choice);
        for mode in MODES {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec(
                    r#"
                    local Net = require("Net")
                    shared.Got = {}
                    Net.Pixels.On(function(_, Value)
                        local Texts = {}
                        for _, P in Value do table.insert(Texts, `{P.r},{P.a},{P.tag},{P.w},{P.flag}`) end
                        table.insert(shared.Got, table.concat(Texts, ";"))
                    end)
                    Net.Quads.On(function(_, Value)
                        local Q = Value[1]
                        table.insert(shared.Got, `q{Q.a}{Q.b}{Q.c}{Q.d}`)
                        -- Reads another buffer mid-packet: the packet's bytes must stay the ones read next.
                        local Other = Net.Quad.Read(buffer.fromstring("\9\9\9\9"))
                        table.insert(shared.Got, `read{Other.a}{Other.d}`)
                    end)
                    "#,
                )
                .expect("listeners");
            // Packet 1: Quads [1 2 3 4], then Pixels [one pixel] after the listener's Read.
            let mut first = vec![3, 1, 1, 2, 3, 4, 0, 1];
            first.extend(pixel([10, 11, 12, 13, 14, 15, 16, 0], 200, 65535, true));
            inject_client_packet(&mut sim, first);
            // Packet 2: same length, other bytes (a copy of packet 1 would give its values).
            let mut second = vec![3, 1, 5, 6, 7, 8, 0, 1];
            second.extend(pixel([20, 21, 22, 23, 24, 25, 26, 0], 0, 7, false));
            inject_client_packet(&mut sim, second);
            // Packet 3: `a` out of its range (201) in the second pixel: the whole record is refused.
            let mut third = vec![0, 2];
            third.extend(pixel([1, 2, 3, 4, 5, 6, 7, 0], 5, 1, false));
            third.extend(pixel([1, 2, 3, 4, 5, 6, 7, 0], 201, 1, false));
            inject_client_packet(&mut sim, third);
            // Packet 4: two pixels announced, one sent.
            let mut fourth = vec![0, 2];
            fourth.extend(pixel([1, 2, 3, 4, 5, 6, 7, 0], 5, 1, false));
            inject_client_packet(&mut sim, fourth);
            sim.steps(2).expect("steps");
            let got: Vec<String> = sim.server().eval("return shared.Got").expect("got");
            assert_eq!(
                got,
                [
                    "q1234",
                    "read99",
                    "10,200,65535,16,true",
                    "q5678",
                    "read99",
                    "20,0,7,26,false"
                ],
                "{choice:?} {mode:?}"
            );
            let (malformed, _) = drop_counts(&sim);
            assert_eq!(
                malformed, 2,
                "{choice:?} {mode:?}: the out-of-range and the short packet"
            );
        }
    }
}

#[test]
fn only_runs_of_four_or_more_get_a_second_loop() {
    let server = compile(SCHEMA).server;
    // Pixels, Holders and Quads; not Shorts (a run of three), not Holder's Pixel[2]
    // (inside Holders' loops the choice is made), not an exported Quad read alone.
    let chosen = server
        .lines()
        .filter(|line| line.contains("DetectInterpreted()) then"))
        .count();
    // ... and the boolean[] reader of Flags, and the writer of Sent's Quads (its four members
    // share it).
    assert_eq!(chosen, 3 + 1 + 1, "{server}");
    let merged_writes = server
        .lines()
        .filter(|line| line.contains("buffer.writeu32(") && line.contains("bit32.replace"))
        .count();
    assert_eq!(merged_writes, 1, "{server}");
    // Pixels: two runs; Holders: its own run and its Pixels' two; Quads: one.
    let run_reads = server
        .lines()
        .filter(|line| line.trim_start().starts_with("local Byte") && line.contains("= string.byte(Text"))
        .count();
    assert_eq!(run_reads, 2 + 3 + 1, "{server}");
}

#[test]
fn a_client_alternating_broadcast_and_personal_packets_reads_each_from_its_own_bytes() {
    for choice in [Some(true), Some(false)] {
        let modules = compile_choosing(SCHEMA, choice);
        for mode in MODES {
            let mut sim = start(&modules, mode, 2);
            for client in 0..2 {
                sim.client(client)
                    .expect("client")
                    .exec(
                        r#"
                        shared.Got = {}
                        require("Net").Sent.On(function(Value)
                            local Texts = {}
                            for _, Q in Value do table.insert(Texts, `{Q.a}{Q.b}{Q.c}{Q.d}`) end
                            table.insert(shared.Got, table.concat(Texts, ","))
                        end)
                        "#,
                    )
                    .expect("listener");
            }
            // Broadcast and personal records interleaved: the first client's packet is
            // read range by range, switching between the two buffers.
            sim.server()
                .exec(
                    r#"
                    local Net = require("Net")
                    local First = game:GetService("Players"):GetPlayers()[1]
                    local function Quads(Base)
                        return { { a = Base, b = Base + 1, c = Base + 2, d = Base + 3 }, { a = 9, b = Base, c = 9, d = Base } }
                    end
                    Net.Sent.FireAll(Quads(10))
                    Net.Sent.Fire(First, Quads(20))
                    Net.Sent.FireAll(Quads(30))
                    Net.Sent.Fire(First, Quads(40))
                    Net.Sent.FireAll(Quads(50))
                    "#,
                )
                .expect("fires");
            sim.steps(3).expect("steps");
            let first: Vec<String> = sim.client(0).expect("client").eval("return shared.Got").expect("got");
            assert_eq!(
                first,
                [
                    "10111213,910910",
                    "20212223,920920",
                    "30313233,930930",
                    "40414243,940940",
                    "50515253,950950"
                ],
                "{choice:?} {mode:?}"
            );
            let second: Vec<String> = sim.client(1).expect("client").eval("return shared.Got").expect("got");
            assert_eq!(
                second,
                ["10111213,910910", "30313233,930930", "50515253,950950"],
                "{choice:?} {mode:?}"
            );
            assert_no_errors(&sim);
        }
    }
}

#[test]
fn a_short_exact_size_array_is_dropped_in_both_forms() {
    // No length prefix, so no count check before the loop: the string form checks the
    // copy's length itself (string.byte past the end returns nothing; readu8 raises).
    let schema = r#"
    struct Q { a: u8, b: u8, c: u8, d: u8 }
    event Exact { From: Client, Type: Reliable, Call: SingleSync, Data: Q[4] }
    "#;
    for choice in [true, false] {
        let modules = compile_choosing(schema, Some(choice));
        for mode in MODES {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec("shared.Got = 0 require('Net').Exact.On(function() shared.Got += 1 end)")
                .expect("listener");
            inject_client_packet(&mut sim, vec![0, 1, 2, 3]);
            let mut whole = vec![0];
            whole.extend(1..=16);
            inject_client_packet(&mut sim, whole);
            sim.steps(2).expect("steps");
            let got: u32 = sim.server().eval("return shared.Got").expect("got");
            assert_eq!(got, 1, "{choice} {mode:?}: only the whole array reaches the listener");
            assert_eq!(drop_counts(&sim).0, 1, "{choice} {mode:?}: the short one is malformed");
        }
    }
}

#[test]
fn elements_with_more_run_bytes_than_locals_allow_keep_one_form_and_load() {
    // 210 u8 fields, and five nested structs of 40: their string form would keep a local
    // a byte (Luau allows 200 in a function).
    let fields: Vec<String> = (0..210).map(|i| format!("f{i}: u8")).collect();
    let group: Vec<String> = (0..40).map(|i| format!("g{i}: u8")).collect();
    let schema = format!(
        "struct W {{ {} }}\nstruct G {{ {} }}\nstruct N {{ a: G, b: G, c: G, d: G, e: G }}\n\
         event Wide {{ From: Client, Type: Reliable, Call: ManySync, Data: W[..2] }}\n\
         event Nested {{ From: Client, Type: Reliable, Call: ManySync, Data: N[..2] }}\n",
        fields.join(", "),
        group.join(", ")
    );
    let modules = compile(&schema);
    assert!(!modules.server.contains("DetectInterpreted()) then"), "one form only");
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        let values = r#"
            local W = {}
            for I = 0, 209 do W["f" .. I] = I end
            local G = {}
            for I = 0, 39 do G["g" .. I] = 255 - I end
            shared.Wide = { W, W }
            shared.Nested = { { a = G, b = G, c = G, d = G, e = G } }
        "#;
        sim.server()
            .exec(&format!(
                "{values} shared.Got = {{}} local Net = require('Net')
                 Net.Wide.On(function(_, V) shared.Got.Wide = V end)
                 Net.Nested.On(function(_, V) shared.Got.Nested = V end)"
            ))
            .expect("listeners");
        sim.client(0)
            .expect("client")
            .exec(&format!(
                "{values} local Net = require('Net') Net.Wide.Fire(shared.Wide) Net.Nested.Fire(shared.Nested)"
            ))
            .expect("fires");
        sim.steps(2).expect("steps");
        let problems: String = sim
            .server()
            .eval(
                r#"
                local A, WhyA = shared.deepEqual(shared.Got.Wide, shared.Wide)
                local B, WhyB = shared.deepEqual(shared.Got.Nested, shared.Nested)
                return (if A then "" else WhyA) .. (if B then "" else WhyB)
                "#,
            )
            .expect("compare");
        assert!(problems.is_empty(), "{mode:?}: {problems}");
        assert_no_errors(&sim);
    }
}

/// Runs of every length the writer groups (4, 5, 6, 7, 8 u8 fields; two runs split by a
/// u16; an exact-size array inside a struct), sent with odd numbers: the bytes must not
/// depend on the form, and must be what `buffer.writeu8` makes of each number.
const SEND_SCHEMA: &str = r#"
option MaxEventsPerPacket = 1000
struct R4 { a: u8, b: u8, c: u8, d: u8 }
struct R5 { a: u8, b: u8, c: u8, d: u8, e: u8 }
struct R6 { a: u8, b: u8, c: u8, d: u8, e: u8, f: u8 }
struct R7 { a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8 }
struct R8 { a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8 }
struct Split { a: u8, b: u8, c: u8, d: u8, mid: u16, e: u8, f: u8, g: u8, h: u8, i: u8 }
struct Box { tag: u8, cells: R5[2] }
struct Outer { id: u16, inner: R6, tail: u8 }
enum Shape = "kind" { Items { list: R4[..3] }, Empty { n: u8 } }
event E4 { From: Client, Type: Reliable, Call: ManySync, Data: R4[..20] }
event E5 { From: Client, Type: Reliable, Call: ManySync, Data: R5[..20] }
event E6 { From: Client, Type: Reliable, Call: ManySync, Data: R6[..20] }
event E7 { From: Client, Type: Reliable, Call: ManySync, Data: R7[..20] }
event E8 { From: Client, Type: Reliable, Call: ManySync, Data: R8[..20] }
event ESplit { From: Client, Type: Reliable, Call: ManySync, Data: Split[..20] }
event EBox { From: Client, Type: Reliable, Call: ManySync, Data: Box[3] }
event EOuter { From: Client, Type: Reliable, Call: ManySync, Data: Outer[..5] }
event EOptional { From: Client, Type: Reliable, Call: ManySync, Data: R7[..5]? }
event EMap { From: Client, Type: Reliable, Call: ManySync, Data: map { [u8]: R4[..3] } }
event EShape { From: Client, Type: Reliable, Call: ManySync, Data: Shape }
"#;

/// Numbers `buffer.writeu8` takes, and the byte it writes for each (its argument
/// truncated towards zero to a 64-bit integer, then the low eight bits).
const ODD_NUMBERS: [(&str, u8); 14] = [
    ("0", 0),
    ("255", 255),
    ("256", 0),
    ("300", 44),
    ("-1", 255),
    ("-200", 56),
    ("1.5", 1),
    ("2.99", 2),
    ("-0.5", 0),
    ("-7.5", 249),
    ("1e10", 0x00),
    ("-1e10", 0x00),
    ("2^32 + 5", 5),
    ("65535 * 3", 0xFD),
];

/// Numbers whose byte depends on the machine (x64 and arm64 convert them differently), and
/// a numeric string: only compared between the two forms.
const MACHINE_NUMBERS: [&str; 6] = ["0/0", "math.huge", "-math.huge", "2^63", "-2^63", "\"12\""];

/// Lines of the client that merge u8 fields with `bit32.replace` for SEND_SCHEMA: E4 1
/// (u32), E5 1 (u32, then a plain u8), E6 2 (u32 + u16), E7 2, E8 2, ESplit 2 (a u32 for
/// each run), EBox 1 (its cells' R5), EOuter 2 (the nested R6), EOptional 2, EMap 1,
/// EShape 1. More would mean a merged write outside an interpreted loop.
const MERGED_SEND_LINES: usize = 1 + 1 + 2 + 2 + 2 + 2 + 1 + 2 + 2 + 1 + 1;

#[test]
fn merged_and_bytewise_run_writes_send_the_same_bytes_for_any_number() {
    let merged_lines = compile(SEND_SCHEMA)
        .client
        .lines()
        .filter(|line| line.contains("buffer.write") && line.contains("bit32.replace("))
        .count();
    assert_eq!(merged_lines, MERGED_SEND_LINES, "the client merges exactly these runs");
    let mut numbers: Vec<&str> = ODD_NUMBERS.iter().map(|(text, _)| *text).collect();
    numbers.extend(MACHINE_NUMBERS);
    let values = format!(
        r#"
        local Numbers = {{ {} }}
        local Fields = {{ "a", "b", "c", "d", "e", "f", "g", "h", "i" }}
        local Next = 0
        local function Pick() Next += 1 return Numbers[(Next - 1) % #Numbers + 1] end
        -- The E4 payload checked byte for byte takes the numbers with known bytes only.
        local function Known(Count)
            local Items = {{}}
            for Item = 1, Count do
                local Value = {{}}
                for Index = 1, 4 do Value[Fields[Index]] = Numbers[((Item - 1) * 4 + Index - 1) % {known} + 1] end
                table.insert(Items, Value)
            end
            return Items
        end
        local function Make(Count, Extra)
            local Value = Extra or {{}}
            for Index = 1, Count do Value[Fields[Index]] = Pick() end
            return Value
        end
        local function List(Count, Fields)
            local Items = {{}}
            for _ = 1, Count do table.insert(Items, Make(Fields)) end
            return Items
        end
        shared.Sends = {{
            E4 = Known(7), E5 = List(7, 5), E6 = List(7, 6), E7 = List(7, 7), E8 = List(7, 8),
            ESplit = {{ Make(9, {{ mid = 513 }}), Make(9, {{ mid = 0 }}) }},
            EBox = {{
                {{ tag = Pick(), cells = List(2, 5) }},
                {{ tag = Pick(), cells = List(2, 5) }},
                {{ tag = Pick(), cells = List(2, 5) }},
            }},
            EOuter = {{ {{ id = 7, inner = Make(6), tail = Pick() }}, {{ id = 8, inner = Make(6), tail = Pick() }} }},
            EOptional = List(5, 7),
            EMap = {{ [1] = List(3, 4), [200] = List(1, 4) }},
            EShape = {{ kind = "Items", list = List(3, 4) }},
        }}
        shared.Order = {{ "E4", "E5", "E6", "E7", "E8", "ESplit", "EBox", "EOuter", "EOptional", "EMap", "EShape" }}
        "#,
        numbers.join(", "),
        known = ODD_NUMBERS.len()
    );
    let expected_bytes: Vec<u8> = ODD_NUMBERS.iter().map(|(_, byte)| *byte).collect();
    for mode in MODES {
        let mut received: Vec<(bool, String)> = Vec::new();
        for choice in [true, false] {
            let modules = compile_choosing(SEND_SCHEMA, Some(choice));
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec(
                    r#"
                    local Net = require("Net")
                    shared.Got = {}
                    -- Every byte received, field by field in schema order, as text.
                    local function Flatten(Value, Out)
                        if type(Value) ~= "table" then table.insert(Out, tostring(Value)) return end
                        local Keys = {}
                        for Key in Value do table.insert(Keys, Key) end
                        table.sort(Keys, function(A, B) return tostring(A) < tostring(B) end)
                        for _, Key in Keys do Flatten(Value[Key], Out) end
                    end
                    for _, Name in { "E4", "E5", "E6", "E7", "E8", "ESplit", "EBox", "EOuter", "EOptional", "EMap", "EShape" } do
                        Net[Name].On(function(_, Value)
                            local Out = {}
                            Flatten(Value, Out)
                            table.insert(shared.Got, Name .. ":" .. table.concat(Out, ","))
                        end)
                    end
                    "#,
                )
                .expect("listeners");
            sim.client(0)
                .expect("client")
                .exec(&format!(
                    r#"{values}
                    local Net = require("Net")
                    for _, Name in shared.Order do Net[Name].Fire(shared.Sends[Name]) end
                    "#
                ))
                .expect("fires");
            sim.steps(2).expect("steps");
            let got: Vec<String> = sim.server().eval("return shared.Got").expect("got");
            assert_eq!(got.len(), 11, "{choice} {mode:?}: every event arrives: {got:?}");
            assert_no_errors(&sim);
            received.push((choice, got.join("\n")));
        }
        assert_eq!(
            received[0].1, received[1].1,
            "{mode:?}: merged and bytewise writes differ"
        );
        // The first event's fields in order are the numbers in order.
        let first_event = received[0].1.lines().next().unwrap_or_default().to_string();
        let r4: Vec<u8> = first_event
            .trim_start_matches("E4:")
            .split(',')
            .map(|byte| byte.parse().expect("a byte"))
            .collect();
        let cycle: Vec<u8> = expected_bytes.iter().cycle().take(r4.len()).copied().collect();
        assert_eq!(r4, cycle, "{mode:?}: the bytes writeu8 makes of each number");
    }
}

#[test]
fn a_run_write_without_a_number_raises_in_both_forms_and_the_next_fire_goes_through() {
    for choice in [true, false] {
        let modules = compile_choosing(SEND_SCHEMA, Some(choice));
        for mode in MODES {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec("shared.Got = {} require('Net').E6.On(function(_, V) table.insert(shared.Got, #V) end)")
                .expect("listener");
            let raised: bool = sim
                .client(0)
                .expect("client")
                .eval(
                    r#"
                    local Net = require("Net")
                    local Whole = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6 }
                    local Ok = pcall(Net.E6.Fire, { Whole, { a = 1, b = 2, c = 3, e = 5, f = 6 } })
                    Net.E6.Fire({ Whole, Whole, Whole })
                    return not Ok
                    "#,
                )
                .expect("fires");
            assert!(raised, "{choice} {mode:?}: a missing field raises");
            sim.steps(2).expect("steps");
            let got: Vec<u32> = sim.server().eval("return shared.Got").expect("got");
            assert_eq!(got, [3], "{choice} {mode:?}: only the whole fire arrives");
        }
    }
}

#[test]
fn a_boolean_array_inside_a_chosen_element_loop_keeps_that_loop_s_form() {
    // WithBits has a run (so its arrays get a loop in each form) and a boolean[20]: inside
    // each loop the boolean array is read and written in that loop's form, with no second
    // test of `Interpreted` per element.
    let schema = r#"
    struct Quad { a: u8, b: u8, c: u8, d: u8 }
    struct WithBits { a: u8, b: u8, c: u8, d: u8, bits: boolean[20], more: Quad[2] }
    event Up { From: Client, Type: Reliable, Call: ManySync, Data: WithBits[..10] }
    event Down { From: Server, Type: Reliable, Call: ManySync, Data: WithBits[..10] }
    "#;
    let values = r#"
        local function Item(Seed)
            local Bits = {}
            for Index = 1, 20 do Bits[Index] = (Index * Seed) % 3 == 0 end
            return { a = Seed, b = Seed + 1, c = 255 - Seed, d = 7, bits = Bits,
                more = { { a = 1, b = 2, c = 3, d = Seed }, { a = Seed, b = 0, c = 255, d = 9 } } }
        end
        shared.Sent = { Item(1), Item(2), Item(5) }
    "#;
    let server = compile(schema).server;
    // One read choice (Up) and one write choice (Down's writer, which its four members share).
    let chosen = server
        .lines()
        .filter(|line| line.contains("DetectInterpreted()) then"))
        .count();
    assert_eq!(chosen, 1 + 1, "{server}");
    for choice in [true, false] {
        let modules = compile_choosing(schema, Some(choice));
        for mode in MODES {
            let mut sim = start(&modules, mode, 1);
            sim.server()
                .exec(&format!(
                    "{values} shared.Got = {{}} require('Net').Up.On(function(_, V) shared.Got = V end)"
                ))
                .expect("server listener");
            sim.client(0)
                .expect("client")
                .exec(&format!(
                    "{values} shared.Got = {{}} local Net = require('Net')
                     Net.Down.On(function(V) shared.Got = V end)
                     Net.Up.Fire(shared.Sent)"
                ))
                .expect("client fires");
            sim.server()
                .exec("require('Net').Down.FireAll(shared.Sent)")
                .expect("server fires");
            sim.steps(3).expect("steps");
            for world in [sim.server(), sim.client(0).expect("client")] {
                let problem: String = world
                    .eval("local Ok, Why = shared.deepEqual(shared.Got, shared.Sent) return if Ok then '' else Why")
                    .expect("compare");
                assert!(problem.is_empty(), "{choice} {mode:?}: {problem}");
            }
            assert_no_errors(&sim);
        }
    }
}
