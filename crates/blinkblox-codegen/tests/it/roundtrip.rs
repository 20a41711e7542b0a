//! Round trips of every type and modifier through generated modules, both directions,
//! natively and interpreted: the listener receives a deep-equal value.

use crate::support::*;
use blinkblox_luau::{Mode, Simulation};

/// Named declarations the cases use.
const DECLARATIONS: &str = r#"
struct Pair<A, B> { first: A, second: B }
map Dict<K, V> = { [K]: V }
enum Shape<T> = "kind" { Circle { radius: T }, Square { side: T, filled: boolean, label: string? } }
enum Team = { Red, Blue, "Green Team" }
set Perks = { Speed, Jump, Regen }
set Many = { F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12, F13, F14, F15, F16, F17, F18, F19, F20,
    F21, F22, F23, F24, F25, F26, F27, F28, F29, F30, F31, F32, F33, F34, F35, F36, F37, F38, F39, F40 }
struct Inner { x: u8, flag: boolean, name: string? }
struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }
struct Outer {
    id: u32,
    inner: Inner,
    list: Inner[..4],
    b1: boolean, b2: boolean, b3: boolean, b4: boolean, b5: boolean, b6: boolean, b7: boolean, b8: boolean, b9: boolean,
    maybe: Inner?,
    part: Instance(BasePart)?,
    tags: string(..16)[..8],
    ["quoted key"]: u8,
    ["end"]: i8,
}
struct Wide {
    w1: string, w2: u8?, w3: vector, w4: boolean, w5: Inner, w6: Inner?, w7: string?, w8: u16, w9: Instance?,
    w10: boolean, w11: f64, w12: string[], w13: CFrame, w14: u8, w15: Team, w16: Perks, w17: buffer,
}
struct WideFixed {
    f1: u8, f2: u8, f3: u8, f4: u8, f5: u8, f6: u8, f7: u8, f8: u8, f9: u8, f10: u8, f11: u8, f12: u8,
    f13: u8, f14: u8, f15: u8, f16: boolean, f17: vector<i16>, f18: f32(0..1),
}
"#;

/// (type, Luau values). Instances come from parts the server made (replicated).
const CASES: &[(&str, &str)] = &[
    ("u8", "0, 1, 255"),
    ("u8", "0, 1, 255"),
    ("u16", "0, 65535"),
    ("u32", "0, 4294967295"),
    ("i8", "-128, 0, 127"),
    ("i16", "-32768, 32767"),
    ("i32", "-2147483648, 2147483647"),
    (
        "f16",
        "0, 0.5, -2, 65504, -65504, 5.9604644775390625e-08, 6.103515625e-05, 1.5",
    ),
    ("f32", "0, 1.5, -3.25, 16777216, -16777216"),
    ("f64", "0, math.pi, -1e300, 9007199254740992"),
    ("u8(0..100)", "0, 100"),
    ("i16(-5..)", "-5, 32767"),
    ("u32(..100)", "0, 100"),
    ("i32(7)", "7"),
    ("f32(0..1)", "0, 0.25, 1"),
    ("f64(-1.5..2.5)", "-1.5, 2.5"),
    // Quantized numbers: values on a step arrive exactly, in 1, 2, 3 and 4 bytes.
    ("f32(-2048..2048 step 1/64)", "-2048, 2048, 0, 1.015625, -0.5"),
    ("f64(0..1 step 0.1)", "0, 0.3, 0.7, 1"),
    ("f32(0..255 step 1)", "0, 17, 255"),
    ("f32(-100000..100000 step 1/2)", "-100000, 99999.5"),
    ("f64(-1000000..1000000 step 0.001)", "-1000000, 1000000, 0.25"),
    ("f32(-8..8 step 1/4)?", "-7.75"),
    ("f32(0..360 step 0.5)[..4]", "{}, { 0, 359.5, 360 }"),
    ("map { [string]: f16(0..1 step 1/8) }", "{ a = 0.125, b = 1 }"),
    (
        "struct { id: u16, position: f32(-2048..2048 step 1/64), health: u8 }",
        "{ id = 7, position = -1000.25, health = 100 }",
    ),
    (
        "vector<f32(-2048..2048 step 1/64)>",
        "Vector3.new(-2048, 1.015625, 2048), Vector3.zero",
    ),
    ("vector<f16(-8..8 step 1/4)>[]", "{ Vector3.new(1.25, -2.5, 0) }"),
    ("boolean", "true, false"),
    ("string", "'', 'hello', string.rep('x', 300)"),
    ("string(4)", "'abcd'"),
    ("string(..32)", "'', 'short'"),
    ("string(2..5)", "'ab', 'abcde'"),
    ("buffer", "buffer.create(0), buffer.fromstring('bytes')"),
    (
        "buffer(16..1024)",
        "buffer.create(16), buffer.fromstring(string.rep('z', 1024))",
    ),
    ("buffer(3)", "buffer.fromstring('abc')"),
    ("vector", "Vector3.new(1.5, -2, 3), Vector3.zero"),
    ("vector<i16>", "Vector3.new(1, -2, 300)"),
    ("vector<f16>(..100)", "Vector3.new(3, 4, 0)"),
    ("vector<u8>", "Vector3.new(0, 255, 7)"),
    (
        "CFrame",
        "CFrame.new(1, 2, 3) * CFrame.fromOrientation(0.1, 0.2, 0.3), CFrame.identity",
    ),
    (
        "CFrame<i16, f16>",
        "CFrame.new(10, -20, 300) * CFrame.fromOrientation(0.5, -0.25, 1)",
    ),
    (
        "CFrame<f64>",
        "CFrame.new(1.25, 2.5, 3.75) * CFrame.fromOrientation(-0.5, 0.75, 0.125)",
    ),
    ("Color3", "Color3.fromRGB(10, 20, 30), Color3.fromRGB(255, 0, 128)"),
    ("BrickColor", "BrickColor.new(21), BrickColor.new(1)"),
    (
        "DateTime",
        "DateTime.fromUnixTimestamp(1700000000), DateTime.fromUnixTimestamp(0)",
    ),
    ("DateTimeMillis", "DateTime.fromUnixTimestampMillis(1700000000123)"),
    ("Instance", "workspace.Part1, workspace.Folder1"),
    ("Instance(BasePart)", "workspace.Part1"),
    ("Instance?", "workspace.Folder1"),
    ("Instance(BasePart)?", "workspace.Part1"),
    ("Instance[]", "{ workspace.Part1, workspace.Folder1, workspace.Part1 }"),
    ("unknown", "'anything', 42, true"),
    ("u8?", "5"),
    ("string?", "'maybe'"),
    ("Inner?", "{ x = 1, flag = true, name = nil }"),
    ("u8[]", "{}, { 1, 2, 3 }"),
    ("u8[3]", "{ 7, 8, 9 }"),
    ("u8[1..4]", "{ 1 }, { 1, 2, 3, 4 }"),
    ("u16[..2]", "{}, { 65535, 0 }"),
    ("u8?[]", "{ 1, 2 }"),
    ("string[]", "{ 'a', '', 'ccc' }"),
    // Arrays of strings travel as their lengths, then their bytes in one run: lengths of
    // one and two LEB128 bytes (a packet from a client holds 16 KiB by default), exact
    // and bounded lengths, nested and optional.
    (
        "string[]",
        "{ string.rep('x', 200), '', string.rep('y', 9000), 'z' }, {}",
    ),
    ("string[3]", "{ 'a', '', 'ccc' }"),
    ("string(..3)[2..4]", "{ 'a', 'bcd' }, { '', '', '', 'xyz' }"),
    ("string(2)[]", "{ 'ab', 'cd' }"),
    ("string[][]", "{ {}, { 'a' }, { 'bb', '' } }"),
    ("string[]?", "{ 'p', 'q' }"),
    ("map { [u8]: string[] }", "{ [1] = { 'x', 'yy' }, [2] = {} }"),
    ("u8[][]", "{ {}, { 1 }, { 2, 3 } }"),
    ("u8[2][2]", "{ { 1, 2 }, { 3, 4 } }"),
    (
        "boolean[]",
        "{}, { true, false, true, true, false, false, true, false, true, true, false, false, true }",
    ),
    ("boolean[8]", "{ true, false, true, false, false, false, false, true }"),
    ("boolean[3]", "{ true, false, true }"),
    ("boolean[0..1000]", "table.create(1000, true)"),
    (
        "Entity[0..1000]",
        "{ { id = 1, x = 2, y = 3, z = 4, orientation = 5, animation = 6 }, { id = 255, x = 0, y = 0, z = 0, orientation = 0, animation = 9 } }",
    ),
    ("Inner", "{ x = 3, flag = false, name = 'n' }, { x = 4, flag = true }"),
    (
        "Outer",
        "{ id = 4000000000, inner = { x = 1, flag = true, name = 'in' }, list = { { x = 2, flag = false }, { x = 3, flag = true, name = 'l' } }, b1 = true, b2 = false, b3 = true, b4 = false, b5 = true, b6 = false, b7 = true, b8 = false, b9 = true, maybe = { x = 9, flag = true }, part = workspace.Part1, tags = { 'a', 'bb' }, ['quoted key'] = 200, ['end'] = -7 }, { id = 0, inner = { x = 0, flag = false }, list = {}, b1 = false, b2 = false, b3 = false, b4 = false, b5 = false, b6 = false, b7 = false, b8 = false, b9 = true, tags = {}, ['quoted key'] = 0, ['end'] = 0 }",
    ),
    (
        "struct { a: u8, b: struct { c: boolean, d: u16 } }",
        "{ a = 1, b = { c = true, d = 513 } }",
    ),
    (
        "struct { p: Instance, q: unknown, r: Instance? }",
        "{ p = workspace.Folder1, q = 'side', r = workspace.Part1 }, { p = workspace.Part1, q = 7 }",
    ),
    // Past WIDE_STRUCT_FIELDS a struct is read into a table made first, field by field.
    (
        "Wide",
        "{ w1 = 'one', w2 = 2, w3 = Vector3.new(1, 2, 3), w4 = true, w5 = { x = 5, flag = true, name = 'five' }, w6 = { x = 6, flag = false }, w7 = 'seven', w8 = 65535, w9 = workspace.Part1, w10 = false, w11 = -1.5, w12 = { 'a', 'b' }, w13 = CFrame.new(1, 2, 3), w14 = 14, w15 = 'Blue', w16 = { Speed = true, Jump = false, Regen = false }, w17 = buffer.fromstring('wide') }, { w1 = '', w3 = Vector3.zero, w4 = false, w5 = { x = 0, flag = false }, w8 = 0, w10 = true, w11 = 0, w12 = {}, w13 = CFrame.identity, w14 = 0, w15 = 'Red', w16 = { Speed = false, Jump = false, Regen = false }, w17 = buffer.create(0) }",
    ),
    (
        "WideFixed[]",
        "{ { f1 = 1, f2 = 2, f3 = 3, f4 = 4, f5 = 5, f6 = 6, f7 = 7, f8 = 8, f9 = 9, f10 = 10, f11 = 11, f12 = 12, f13 = 13, f14 = 14, f15 = 255, f16 = true, f17 = Vector3.new(-1, 2, 300), f18 = 0.5 }, { f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, f6 = 0, f7 = 0, f8 = 0, f9 = 0, f10 = 0, f11 = 0, f12 = 0, f13 = 0, f14 = 0, f15 = 0, f16 = false, f17 = Vector3.zero, f18 = 1 } }",
    ),
    ("Team", "'Red', 'Green Team'"),
    ("enum { A, B, C }", "'C'"),
    (
        "Shape<u8>",
        "{ kind = 'Circle', radius = 5 }, { kind = 'Square', side = 2, filled = true, label = 'sq' }, { kind = 'Square', side = 3, filled = false }",
    ),
    ("Perks", "{ Speed = true, Jump = false, Regen = true }"),
    (
        "Many",
        "{ F1 = true, F2 = false, F3 = false, F4 = false, F5 = false, F6 = false, F7 = false, F8 = false, F9 = true, F10 = false, F11 = false, F12 = false, F13 = false, F14 = false, F15 = false, F16 = false, F17 = false, F18 = false, F19 = false, F20 = false, F21 = false, F22 = false, F23 = false, F24 = false, F25 = false, F26 = false, F27 = false, F28 = false, F29 = false, F30 = false, F31 = false, F32 = true, F33 = true, F34 = false, F35 = false, F36 = false, F37 = false, F38 = false, F39 = false, F40 = true }",
    ),
    ("map { [string]: u8 }", "{}, { a = 1, b = 2 }"),
    (
        "map { [u8]: Inner }",
        "{ [1] = { x = 1, flag = true }, [200] = { x = 2, flag = false, name = 'z' } }",
    ),
    ("Dict<string, boolean>", "{ yes = true, no = false }"),
    ("Pair<u8, string>", "{ first = 1, second = 'two' }"),
    (
        "Pair<Inner, Team>",
        "{ first = { x = 1, flag = false }, second = 'Blue' }",
    ),
];

fn schema_text() -> String {
    let mut text = String::from(DECLARATIONS);
    for (i, (ty, _)) in CASES.iter().enumerate() {
        text.push_str(&format!(
            "event S{i} {{ From: Server, Type: Reliable, Call: ManySync, Data: {ty} }}\n"
        ));
        text.push_str(&format!(
            "event C{i} {{ From: Client, Type: Reliable, Call: ManySync, Data: {ty} }}\n"
        ));
    }
    text.push_str(
        "event STuple { From: Server, Type: Reliable, Call: ManySync, Data: (u8, string?, boolean, Instance?) }\n",
    );
    text.push_str(
        "event CTuple { From: Client, Type: Reliable, Call: ManySync, Data: (u8, string?, boolean, Instance?) }\n",
    );
    text
}

fn cases_luau() -> String {
    let mut text = String::from("shared.Cases = {\n");
    for (i, (_, values)) in CASES.iter().enumerate() {
        text.push_str(&format!("    [{i}] = {{ {values} }},\n"));
    }
    text.push_str("}\n");
    text.push_str("shared.Tuples = { { 1, 'a', true, workspace.Part1 }, { 2, nil, false, nil } }\n");
    text
}

const MAKE_PARTS: &str = r#"
    local part = Instance.new("Part")
    part.Name = "Part1"
    part.Parent = workspace
    local folder = Instance.new("Folder")
    folder.Name = "Folder1"
    folder.Parent = workspace
"#;

const COMPARE: &str = r#"
    local problems = {}
    local total = 0
    for i, values in shared.Cases do
        total += #values
        if #shared.Got[i] ~= #values then table.insert(problems, `case {i}: {#shared.Got[i]} values arrived, {#values} sent`) end
    end
    if total < 100 then table.insert(problems, "too few values compared") end
    for i, values in shared.Cases do
        local got = shared.Got[i]
        local ok, why = shared.deepEqual(got, values)
        if not ok then table.insert(problems, `case {i}: {why}`) end
    end
    local ok, why = shared.deepEqual(shared.GotTuples, shared.Tuples)
    if not ok then table.insert(problems, `tuples: {why}`) end
    return table.concat(problems, "\n")
"#;

fn run(sim: &mut Simulation) {
    // Client -> server.
    sim.server()
        .exec(&format!(
            r#"{}
            local Net = require("Net")
            shared.Got = {{}}
            shared.GotTuples = {{}}
            for i in shared.Cases do
                shared.Got[i] = {{}}
                Net["C" .. i].On(function(player, value) table.insert(shared.Got[i], value) end)
            end
            Net.CTuple.On(function(player, a, b, c, d) table.insert(shared.GotTuples, {{ a, b, c, d }}) end)
            "#,
            cases_luau()
        ))
        .expect("server listeners");
    sim.client(0)
        .expect("client")
        .exec(&format!(
            r#"{}
            local Net = require("Net")
            for i, values in shared.Cases do
                for _, value in values do Net["C" .. i].Fire(value) end
            end
            for _, t in shared.Tuples do Net.CTuple.Fire(t[1], t[2], t[3], t[4]) end
            "#,
            cases_luau()
        ))
        .expect("client fires");
    sim.steps(2).expect("steps");
    let problems: String = sim.server().eval(COMPARE).expect("compare");
    assert!(problems.is_empty(), "{:?} client -> server:\n{problems}", sim.mode());

    // Server -> client.
    sim.client(0)
        .expect("client")
        .exec(
            r#"
            local Net = require("Net")
            shared.Got = {}
            shared.GotTuples = {}
            for i in shared.Cases do
                shared.Got[i] = {}
                Net["S" .. i].On(function(value) table.insert(shared.Got[i], value) end)
            end
            Net.STuple.On(function(a, b, c, d) table.insert(shared.GotTuples, { a, b, c, d }) end)
            "#,
        )
        .expect("client listeners");
    sim.server()
        .exec(
            r#"
            local Net = require("Net")
            local player = game:GetService("Players"):GetPlayers()[1]
            for i, values in shared.Cases do
                for _, value in values do Net["S" .. i].Fire(player, value) end
            end
            for _, t in shared.Tuples do Net.STuple.Fire(player, t[1], t[2], t[3], t[4]) end
            "#,
        )
        .expect("server fires");
    sim.steps(2).expect("steps");
    let problems: String = sim.client(0).expect("client").eval(COMPARE).expect("compare");
    assert!(problems.is_empty(), "{:?} server -> client:\n{problems}", sim.mode());
    assert_no_errors(sim);
    for world in sim.worlds() {
        assert!(world.warnings().is_empty(), "warnings: {:?}", world.warnings());
    }
}

fn start_with_parts(modules: &Modules, mode: Mode) -> Simulation {
    start_with(modules, mode, 1, MAKE_PARTS)
}

#[test]
fn every_type_round_trips_both_ways() {
    let modules = compile(&schema_text());
    for mode in MODES {
        let mut sim = start_with_parts(&modules, mode);
        run(&mut sim);
    }
}

#[test]
fn every_type_round_trips_with_write_validations_on() {
    let modules = compile(&format!("option WriteValidations = true\n{}", schema_text()));
    let mut sim = start_with_parts(&modules, Mode::Native);
    run(&mut sim);
}

#[test]
fn non_finite_floats_round_trip_when_allowed() {
    let modules = compile(
        r#"
        option AllowNonFinite = true
        event H { From: Client, Type: Reliable, Call: ManySync, Data: f16[] }
        event F { From: Client, Type: Reliable, Call: ManySync, Data: f32[] }
        event D { From: Client, Type: Reliable, Call: ManySync, Data: f64[] }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Got = {}
                for _, name in { "H", "F", "D" } do
                    Net[name].On(function(_, v) shared.Got[name] = v end)
                end
                "#,
            )
            .expect("listeners");
        sim.client(0)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                local values = { 0 / 0, math.huge, -math.huge, 1.5 }
                Net.H.Fire(values) Net.F.Fire(values) Net.D.Fire(values)
                "#,
            )
            .expect("fire");
        sim.steps(2).expect("steps");
        sim.server()
            .exec(
                r#"
                for _, name in { "H", "F", "D" } do
                    local v = shared.Got[name]
                    assert(v[1] ~= v[1], name .. ": NaN kept")
                    assert(v[2] == math.huge and v[3] == -math.huge and v[4] == 1.5, name .. ": infinities kept")
                end
                "#,
            )
            .expect("non-finite values arrive");
    }
}

#[test]
fn non_finite_floats_are_rejected_by_default() {
    let modules = compile(
        r#"
        event F { From: Client, Type: Reliable, Call: ManySync, Data: f32 }
        event Ok { From: Client, Type: Reliable, Call: ManySync, Data: u8 }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                shared.Floats = {}
                shared.Oks = 0
                Net.F.On(function(_, v) table.insert(shared.Floats, v) end)
                Net.Ok.On(function() shared.Oks += 1 end)
                "#,
            )
            .expect("listeners");
        // Each value in a frame of its own: a bad one ends only its packet.
        for value in ["0 / 0", "math.huge", "2.5"] {
            sim.client(0)
                .expect("client")
                .exec(&format!(
                    "local Net = require('Net') Net.Ok.Fire(1) Net.F.Fire({value})"
                ))
                .expect("fire");
            sim.steps(2).expect("steps");
        }
        let (floats, oks): (Vec<f64>, u32) = sim.server().eval("return shared.Floats, shared.Oks").expect("eval");
        assert_eq!(
            floats,
            vec![2.5],
            "{mode:?}: only the finite value reaches the listener"
        );
        assert_eq!(
            oks, 3,
            "{mode:?}: events before the bad one in its packet are delivered"
        );
    }
}

#[test]
fn the_comparison_notices_a_difference() {
    let modules = compile("event C { From: Client, Type: Reliable, Call: ManySync, Data: u8 }");
    let mut sim = start(&modules, Mode::Native, 1);
    sim.server()
        .exec(r#"shared.Got = {} require("Net").C.On(function(_, v) table.insert(shared.Got, v) end)"#)
        .expect("on");
    sim.client(0)
        .expect("client")
        .exec(r#"require("Net").C.Fire(3)"#)
        .expect("fire");
    sim.steps(2).expect("steps");
    sim.server()
        .exec("shared.assertEqual(shared.Got, { 3 })")
        .expect("equal");
    assert!(sim.server().exec("shared.assertEqual(shared.Got, { 4 })").is_err());
}
