//! Every valid schema fixture compiles and both modules load in the VM; a schema of
//! 1000 declarations loads and dispatches; generation is deterministic; golden
//! snapshots of generated text.

use std::path::PathBuf;

use crate::support::*;
use blinkblox_codegen::{OutputKind, Targets, generate};
use blinkblox_luau::{Mode, Simulation};
use blinkblox_schema::check_file;

fn valid_fixtures() -> Vec<PathBuf> {
    let paths = valid_schema_fixtures();
    assert!(
        paths.len() >= 10,
        "expected the front end's valid fixtures in {}",
        valid_schema_fixtures_dir().display()
    );
    paths
}

#[test]
fn every_valid_fixture_compiles_and_loads() {
    for path in valid_fixtures() {
        let output = check_file(&path);
        let Some(schema) = output.schema else {
            panic!("{} has errors: {:#?}", path.display(), output.diagnostics);
        };
        let modules = modules_of(&schema);
        for mode in MODES {
            let mut sim = Simulation::new(mode, 1).expect("simulation");
            sim.server().exec(LIBRARIES).expect("libraries");
            sim.server()
                .load_module("Net", &modules.server)
                .unwrap_or_else(|e| panic!("{} server, {mode:?}: {e}", path.display()));
            sim.step().expect("step");
            sim.client(0)
                .expect("client")
                .load_module("Net", &modules.client)
                .unwrap_or_else(|e| panic!("{} client, {mode:?}: {e}", path.display()));
            if let Some(types) = &modules.types {
                sim.server()
                    .load_module("Types", types)
                    .unwrap_or_else(|e| panic!("{} types, {mode:?}: {e}", path.display()));
            }
            sim.steps(2).expect("steps");
            assert_no_errors(&sim);
        }
    }
}

#[test]
fn generation_is_deterministic() {
    for path in valid_fixtures() {
        let Some(schema) = check_file(&path).schema else {
            continue;
        };
        let targets = Targets {
            types: true,
            typescript: false,
        };
        assert_eq!(
            generate(&schema, targets),
            generate(&schema, targets),
            "{}",
            path.display()
        );
    }
}

#[test]
fn modules_begin_with_the_directives() {
    let modules = compile("event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }");
    for text in [&modules.server, &modules.client, modules.types.as_ref().expect("types")] {
        assert!(
            text.starts_with("--!strict\n--!native\n--!optimize 2\n"),
            "{}",
            &text[..60]
        );
    }
}

/// 1000 declarations: 500 each way, so both modules run the halving dispatch and
/// the per-declaration reader functions; their top-level functions must load.
#[test]
fn a_thousand_declarations_load_and_dispatch() {
    let mut text = String::new();
    for i in 0..500 {
        let ty = match i % 4 {
            0 => "u8",
            1 => "string",
            2 => "struct { a: u16, b: boolean }",
            _ => "u8[]",
        };
        text.push_str(&format!(
            "event C{i} {{ From: Client, Type: Reliable, Call: SingleSync, Data: {ty} }}\n"
        ));
        text.push_str(&format!(
            "event S{i} {{ From: Server, Type: Reliable, Call: SingleSync, Data: {ty} }}\n"
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
                for i = 0, 499 do Net["C" .. i].On(function(_, v) table.insert(shared.Got, i) end) end
                "#,
            )
            .expect("on");
        sim.client(0)
            .expect("client")
            .exec(
                r#"
                local Net = require("Net")
                local values = { 7, "s", { a = 1, b = true }, { 1, 2 } }
                for _, i in { 0, 1, 2, 3, 7, 8, 9, 255, 256, 300, 498, 499, 250 } do
                    Net["C" .. i].Fire(values[i % 4 + 1])
                end
                "#,
            )
            .expect("fire");
        sim.steps(2).expect("steps");
        let got: Vec<u32> = sim.server().eval("return shared.Got").expect("eval");
        assert_eq!(got, vec![0, 1, 2, 3, 7, 8, 9, 255, 256, 300, 498, 499, 250], "{mode:?}");
        sim.client(0)
            .expect("client")
            .exec("shared.Last = nil require('Net').S499.On(function(v) shared.Last = v end)")
            .expect("on");
        sim.server().exec("require('Net').S499.FireAll({ 9 })").expect("fire");
        sim.steps(2).expect("steps");
        let last: Vec<u8> = sim.client(0).expect("client").eval("return shared.Last").expect("eval");
        assert_eq!(last, vec![9], "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn golden_snapshots_of_generated_text() {
    let path = crate::fixtures().join("codegen/game.blink");
    let output = check_file(&path);
    let schema = output.schema.unwrap_or_else(|| panic!("{:#?}", output.diagnostics));
    let files = generate(
        &schema,
        Targets {
            types: true,
            typescript: false,
        },
    );
    for file in &files {
        let name = match file.kind {
            OutputKind::Server => "game_server",
            OutputKind::Client => "game_client",
            OutputKind::Types => "game_types",
            _ => continue,
        };
        insta::assert_snapshot!(name, file.contents);
    }
    // The golden text is also a working module.
    let modules = modules_of(&schema);
    let sim = start(&modules, Mode::Native, 1);
    assert_no_errors(&sim);
}
