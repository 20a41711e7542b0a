//! Roblox datatypes in the mock, and `typeof` on them.

use blinkblox_luau::{Mode, Simulation};

fn eval_strings(source: &str) -> Vec<String> {
    let mut results = Vec::new();
    for mode in [Mode::Native, Mode::Interpreted] {
        let sim = Simulation::new(mode, 0).expect("simulation");
        let values: Vec<String> = sim.server().eval(source).expect("eval");
        if let Some(previous) = results.last() {
            assert_eq!(previous, &values, "native and interpreted differ");
        }
        results.push(values);
    }
    results.pop().unwrap_or_default()
}

#[test]
fn typeof_knows_instances_and_datatypes() {
    let names = eval_strings(
        r#"
        return {
            typeof(game), typeof(workspace), typeof(Instance.new("Part")), typeof(Vector3.new(1, 2, 3)),
            typeof(vector.create(1, 2, 3)), typeof(CFrame.new()), typeof(Color3.new()), typeof(BrickColor.new(1)),
            typeof(DateTime.fromUnixTimestamp(0)), typeof(Random.new(1)), typeof(Enum), typeof(Enum.KeyCode),
            typeof(Enum.KeyCode.A), typeof(game.Changed), typeof(game.Changed:Connect(function() end)),
            typeof(buffer.create(1)), typeof(1), typeof(nil), typeof({}), type(CFrame.new()),
        }
        "#,
    );
    assert_eq!(
        names,
        [
            "Instance",
            "Instance",
            "Instance",
            "Vector3",
            "Vector3",
            "CFrame",
            "Color3",
            "BrickColor",
            "DateTime",
            "Random",
            "Enums",
            "Enum",
            "EnumItem",
            "RBXScriptSignal",
            "RBXScriptConnection",
            "buffer",
            "number",
            "nil",
            "table",
            "userdata"
        ]
    );
}

#[test]
fn vector3_is_the_native_vector() {
    let values = eval_strings(
        r#"
        local v = Vector3.new(3, 4, 0)
        return {
            tostring(v.X), tostring(v.y), tostring(v.Magnitude), tostring(v.Unit.X), tostring(v:Dot(Vector3.xAxis)),
            tostring(Vector3.zero == vector.create(0, 0, 0)), tostring(Vector3.one.Z), tostring(Vector3.new().X),
            tostring((v + Vector3.new(1, 1, 1)).Y), tostring(v:FuzzyEq(Vector3.new(3, 4, 1e-7))),
            tostring(Vector3.new(0.1, 0, 0).X == 0.1), tostring(pcall(function() return v.Nope end)),
        }
        "#,
    );
    assert_eq!(
        values,
        [
            "3",
            "4",
            "5",
            "0.6000000238418579",
            "3",
            "true",
            "1",
            "0",
            "5",
            "true",
            "false",
            "false"
        ]
    );
}

#[test]
fn cframe_orientation_round_trips() {
    let ok: Vec<String> = eval_strings(
        r#"
        local out = {}
        for _, angles in { { 0.1, 0.2, 0.3 }, { -1.2, 2.5, -0.4 }, { 1.5, -3, 3 }, { 0, 0, 0 } } do
            local cf = CFrame.fromOrientation(angles[1], angles[2], angles[3])
            local rx, ry, rz = cf:ToOrientation()
            local again = CFrame.fromOrientation(rx, ry, rz)
            table.insert(out, tostring(again:FuzzyEq(cf, 1e-5)))
            table.insert(out, tostring(math.abs(rx - angles[1]) < 1e-5 and math.abs(ry - angles[2]) < 1e-5 and math.abs(rz - angles[3]) < 1e-5))
        end
        return out
        "#,
    );
    assert!(ok.iter().all(|v| v == "true"), "{ok:?}");
}

#[test]
fn cframe_arithmetic_and_components() {
    let values = eval_strings(
        r#"
        local a = CFrame.new(1, 2, 3) * CFrame.Angles(0, math.pi / 2, 0)
        local point = a * Vector3.new(1, 0, 0)
        local inverse = a:Inverse() * a
        local components = { CFrame.new(1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, 1):GetComponents() }
        local q = CFrame.new(0, 0, 0, 0, 0, 0, 1)
        local looked = CFrame.lookAt(Vector3.zero, Vector3.new(0, 0, -5))
        return {
            tostring(point:FuzzyEq(Vector3.new(1, 2, 2), 1e-5)),
            tostring(inverse:FuzzyEq(CFrame.identity, 1e-5)),
            tostring(#components), tostring(components[1]), tostring(components[12]),
            tostring(a.Position == Vector3.new(1, 2, 3)),
            tostring(q == CFrame.identity),
            tostring(looked.LookVector:FuzzyEq(Vector3.new(0, 0, -1), 1e-6)),
            tostring((CFrame.new(1, 0, 0) + Vector3.new(0, 1, 0)).Y),
            tostring(CFrame.new(0.1, 0, 0).X == 0.1),
            tostring(CFrame.new(Vector3.new(4, 5, 6)).Z),
            tostring(CFrame.fromMatrix(Vector3.zero, Vector3.xAxis, Vector3.yAxis) == CFrame.identity),
        }
        "#,
    );
    assert_eq!(
        values,
        [
            "true", "true", "12", "1", "1", "true", "true", "true", "1", "false", "6", "true"
        ]
    );
}

#[test]
fn color3_brickcolor_datetime_random_enum() {
    let values = eval_strings(
        r#"
        local c = Color3.fromRGB(255, 128, 0)
        local d = DateTime.fromUnixTimestamp(1700000000.5)
        local r1, r2 = Random.new(42), Random.new(42)
        return {
            tostring(c.R), tostring(math.round(c.G * 255)), tostring(c.B), c:ToHex(),
            tostring(Color3.new(0.5, 0.5, 0.5) == Color3.new(0.5, 0.5, 0.5)),
            tostring(BrickColor.new(21).Number), BrickColor.new(21).Name, tostring(BrickColor.new(5000).Number),
            BrickColor.new("Really red").Name, tostring(BrickColor.new(194) == BrickColor.new(194)),
            tostring(d.UnixTimestamp), tostring(d.UnixTimestampMillis),
            tostring(DateTime.fromUnixTimestampMillis(-1500).UnixTimestamp),
            tostring(r1:NextNumber() == r2:NextNumber()), tostring(r1:NextInteger(1, 6) == r2:NextInteger(1, 6)),
            tostring(Enum.KeyCode.A == Enum.KeyCode.A), Enum.KeyCode.A.Name, tostring(Enum.KeyCode.A.EnumType == Enum.KeyCode),
        }
        "#,
    );
    assert_eq!(
        values,
        [
            "1",
            "128",
            "0",
            "FF8000",
            "true",
            "21",
            "Bright red",
            "194",
            "Really red",
            "true",
            "1700000000",
            "1700000000500",
            "-2",
            "true",
            "true",
            "true",
            "A",
            "true"
        ]
    );
}

#[test]
fn datatype_errors_are_clear() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    for (source, expected) in [
        ("CFrame.new(1, 2)", "unsupported arguments"),
        ("BrickColor.new({})", "number or name expected"),
        ("DateTime.fromUnixTimestamp('x')", "number expected"),
        ("Color3.fromHex('zz')", "invalid hex color"),
        ("local _ = CFrame.new().Nope", "Nope is not a valid member of CFrame"),
        ("CFrame.new().Position = Vector3.zero", "read only"),
    ] {
        let error = sim.server().exec(source).expect_err(source);
        assert!(error.to_string().contains(expected), "{source}: {error}");
    }
}

#[test]
fn http_service_encodes_and_decodes_json() {
    let values = eval_strings(
        r#"
        local http = game:GetService("HttpService")
        local text = http:JSONEncode({ b = { 1, 2.5, "x\n\"" }, a = true, c = {} })
        local back = http:JSONDecode(text)
        local guid = http:GenerateGUID(false)
        return {
            text, tostring(back.a), tostring(back.b[2]), back.b[3], tostring(#back.c),
            tostring(#guid), tostring(pcall(http.JSONDecode, http, "{bad")),
            tostring(http:JSONDecode(' [1, null, -2e3] ')[3]),
        }
        "#,
    );
    assert_eq!(
        values,
        [
            r#"{"a":true,"b":[1,2.5,"x\n\""],"c":[]}"#,
            "true",
            "2.5",
            "x\n\"",
            "0",
            "36",
            "false",
            "-2000"
        ]
    );
}
