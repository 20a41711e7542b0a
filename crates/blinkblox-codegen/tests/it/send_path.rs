//! The client's send path: packed booleans
//! written 32 at a time, struct arrays walked with `ipairs`, a one-byte index merged with
//! a u8 payload into one 16-bit write, and failed writes found by comparing `SendCursor`
//! with the end of the last complete record.

use crate::support::*;
use blinkblox_luau::Simulation;

const SCHEMA: &str = r#"
option ManualReplication = true
option MaxPacketSize = 1048576
option InboundBytesPerSecond = 1073741824
option InboundBurst = 1073741824
struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }
event Flags { From: Client, Type: Reliable, Call: ManySync, Data: boolean[] }
event Fixed { From: Client, Type: Reliable, Call: ManySync, Data: boolean[37] }
event Entities { From: Client, Type: Reliable, Call: ManySync, Data: Entity[] }
event Tiny { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
event Signed { From: Client, Type: Reliable, Call: ManySync, Data: i8 }
event Loose { From: Client, Type: Unreliable, Call: ManySync, Data: u8 }
event Text { From: Client, Type: Reliable, Call: ManySync, Data: string }
event Bytes { From: Client, Type: Reliable, Call: ManySync, Data: u16[] }
export struct Pair { a: u8, b: u8 }
"#;

fn client_exec(sim: &Simulation, source: &str) {
    sim.client(0)
        .expect("client")
        .exec(source)
        .unwrap_or_else(|e| panic!("client: {e}"));
}

fn server_eval<T: mlua::FromLuaMulti>(sim: &Simulation, source: &str) -> T {
    sim.server().eval(source).unwrap_or_else(|e| panic!("server: {e}"))
}

/// Every event the server received, as text: `name:value`, in arrival order.
const RECORD_ALL: &str = r#"
shared.Got = {}
local Net = require("Net")
local function text(v)
    if type(v) == "string" then return #v .. ":" .. string.sub(v, 1, 3) .. string.sub(v, -3) end
    if type(v) ~= "table" then return tostring(v) end
    local parts = {}
    for i, item in ipairs(v) do
        if type(item) == "number" then
            parts[i] = tostring(item)
        elseif type(item) == "table" then
            parts[i] = `{item.id}.{item.x}.{item.y}.{item.z}.{item.orientation}.{item.animation}`
        else
            parts[i] = if item then "1" else "0"
        end
    end
    return #v .. "[" .. table.concat(parts, ",") .. "]"
end
for _, name in { "Flags", "Fixed", "Entities", "Tiny", "Signed", "Loose", "Text", "Bytes" } do
    Net[name].On(function(_, v) table.insert(shared.Got, name .. ":" .. text(v)) end)
end
"#;

fn started() -> Vec<Simulation> {
    let modules = compile(SCHEMA);
    MODES
        .iter()
        .map(|&mode| {
            let sim = start(&modules, mode, 1);
            sim.server().exec(RECORD_ALL).expect("listeners");
            sim
        })
        .collect()
}

#[test]
fn packed_booleans_of_every_length_arrive_bit_for_bit() {
    for mut sim in started() {
        // Lengths across the 32-value words, the rows of eight and the last bits, in a
        // pattern that is not periodic in 8 or 32.
        client_exec(
            &sim,
            r#"
            local Net = require("Net")
            for n = 0, 100 do
                local v = table.create(n)
                for i = 1, n do v[i] = (i * 7 + n) % 5 < 2 end
                Net.Flags.Fire(v)
            end
            local f = table.create(37)
            for i = 1, 37 do f[i] = i % 3 ~= 0 end
            Net.Fixed.Fire(f)
            Net.StepReplication()
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(&sim, "return shared.Got");
        let mut expected: Vec<String> = (0..=100u32)
            .map(|n| {
                let bits: Vec<&str> = (1..=n).map(|i| if (i * 7 + n) % 5 < 2 { "1" } else { "0" }).collect();
                format!("Flags:{n}[{}]", bits.join(","))
            })
            .collect();
        let fixed: Vec<&str> = (1..=37u32).map(|i| if i % 3 != 0 { "1" } else { "0" }).collect();
        expected.push(format!("Fixed:37[{}]", fixed.join(",")));
        assert_eq!(got, expected);
    }
}

#[test]
fn merged_index_and_byte_writes_truncate_as_writeu8_does() {
    for mut sim in started() {
        // 256 keeps its low byte, -1 wraps to 255, fractions are cut toward zero: what
        // buffer.writeu8 / writei8 write for the same values.
        client_exec(
            &sim,
            r#"
            local Net = require("Net")
            for _, v in { 0, 7, 255, 256, 513, -1, 7.9, -7.5 } do Net.Tiny.Fire(v) end
            for _, v in { -128, -1, 0, 127, 128, -129 } do Net.Signed.Fire(v) end
            Net.StepReplication()
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(&sim, "return shared.Got");
        let expected = [
            "Tiny:0",
            "Tiny:7",
            "Tiny:255",
            "Tiny:0",
            "Tiny:1",
            "Tiny:255",
            "Tiny:7",
            "Tiny:249",
            "Signed:-128",
            "Signed:-1",
            "Signed:0",
            "Signed:127",
            "Signed:-128",
            "Signed:127",
        ];
        assert_eq!(got, expected);
    }
}

#[test]
fn failed_writes_of_every_kind_leave_the_packet_valid() {
    for mut sim in started() {
        client_exec(
            &sim,
            r#"
            local Net = require("Net")
            local e = { id = 1, x = 2, y = 3, z = 4, orientation = 5, animation = 6 }
            Net.Tiny.Fire(1)
            -- A hole in a struct array: raises and names the position, nothing is kept.
            local ok, problem = pcall(Net.Entities.Fire, { e, nil, e })
            assert(not ok and string.find(tostring(problem), "position 2"), tostring(problem))
            -- A field that is not a number, half-way through the array.
            assert(not pcall(Net.Entities.Fire, { e, { id = 1 } }))
            -- A fixed-size record whose value is not a number.
            assert(not pcall(Net.Tiny.Fire, "x"))
            -- A scratch write (unreliable) that raises, then one that succeeds, then an
            -- exported Write: the resident batch is loaded back each time.
            assert(not pcall(Net.Loose.Fire, nil))
            Net.Loose.Fire(9)
            assert(not pcall(Net.Pair.Write, { a = 1 }))
            local bytes = Net.Pair.Write({ a = 1, b = 2 })
            assert(buffer.len(bytes) == 2)
            Net.Entities.Fire({ e, e })
            Net.Tiny.Fire(2)
            -- boolean[] takes truthiness, as before: a string is true.
            Net.Flags.Fire({ true, "truthy" })
            Net.Tiny.Fire(3)
            Net.StepReplication()
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(&sim, "return shared.Got");
        let reliable: Vec<&String> = got.iter().filter(|g| !g.starts_with("Loose:")).collect();
        let expected_reliable: Vec<String> = [
            "Tiny:1",
            "Entities:2[1.2.3.4.5.6,1.2.3.4.5.6]",
            "Tiny:2",
            "Flags:2[1,1]",
            "Tiny:3",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(reliable, expected_reliable.iter().collect::<Vec<_>>());
        assert!(got.contains(&"Loose:9".to_string()), "{got:?}");
        assert_no_errors(&sim);
        assert!(sim.server().warnings().is_empty(), "no packet was dropped");
    }
}

#[test]
fn length_prefixes_of_one_two_and_three_bytes_arrive_whole() {
    // The prefix and the elements are reserved inline below 2^14 (one or two LEB128
    // bytes); longer values take WriteLength. Lengths on each side of 2^7 and 2^14.
    let lengths = [0usize, 1, 127, 128, 129, 200, 16383, 16384, 20000];
    for mut sim in started() {
        client_exec(
            &sim,
            r#"
            local Net = require("Net")
            for _, n in { 0, 1, 127, 128, 129, 200, 16383, 16384, 20000 } do
                Net.Text.Fire(string.rep("abcdefg", n // 7 + 1):sub(1, math.max(n - 3, 0)) .. string.rep("z", math.min(n, 3)))
                local v = table.create(n)
                for i = 1, n do v[i] = i % 65536 end
                Net.Bytes.Fire(v)
                local f = table.create(n)
                for i = 1, n do f[i] = i % 3 == 0 end
                Net.Flags.Fire(f)
            end
            Net.StepReplication()
            "#,
        );
        sim.steps(2).expect("steps");
        let got: Vec<String> = server_eval(&sim, "return shared.Got");
        let mut expected = Vec::new();
        for n in lengths {
            let text: String = "abcdefg"
                .repeat(n / 7 + 1)
                .chars()
                .take(n.saturating_sub(3))
                .collect::<String>()
                + &"z".repeat(n.min(3));
            let head: String = text.chars().take(3).collect();
            let tail: String = text.chars().skip(n.saturating_sub(3)).collect();
            expected.push(format!("Text:{n}:{head}{tail}"));
            let numbers: Vec<String> = (1..=n).map(|i| (i % 65536).to_string()).collect();
            expected.push(format!("Bytes:{n}[{}]", numbers.join(",")));
            let flags: Vec<&str> = (1..=n).map(|i| if i % 3 == 0 { "1" } else { "0" }).collect();
            expected.push(format!("Flags:{n}[{}]", flags.join(",")));
        }
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(&expected) {
            assert!(
                got == expected,
                "got {} expected {}",
                &got[..got.len().min(80)],
                &expected[..expected.len().min(80)]
            );
        }
    }
}
