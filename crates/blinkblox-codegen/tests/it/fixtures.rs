//! The schema fixtures as modules: every valid fixture of the front end and every codegen
//! fixture compiles and loads in the VM, a schema of 1000 declarations loads and
//! dispatches, generation is deterministic, and each codegen fixture
//! (`tests/fixtures/codegen/*.blink`, one per feature) has a snapshot of its modules in
//! which every fixed runtime part is one marker line, so it shows what the schema decides.

use std::path::{Path, PathBuf};

use crate::support::*;
use blinkblox_codegen::luau::banner::VERSION;
use blinkblox_codegen::luau::runtime::all_parts;
use blinkblox_codegen::{GeneratedFile, OutputKind, Outputs, Source, Targets, compile, generate};
use blinkblox_luau::Simulation;
use blinkblox_schema::{CheckSettings, check_file};

const WITH_TYPES: Targets = Targets::outputs(true, false);

fn valid_fixtures() -> Vec<PathBuf> {
    let paths = valid_schema_fixtures();
    assert!(
        paths.len() >= 10,
        "expected the front end's valid fixtures in {}",
        valid_schema_fixtures_dir().display()
    );
    paths
}

/// `tests/fixtures/codegen/*.blink`, sorted.
fn codegen_fixtures() -> Vec<PathBuf> {
    let dir = crate::fixtures().join("codegen");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("codegen fixtures folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "blink"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "expected the codegen fixtures in {}", dir.display());
    paths
}

/// Loads the modules in both VM modes: the server's (with the stand-in libraries), then
/// a client's after a step, then the Types module; nothing may log an error.
fn assert_modules_load(path: &Path, modules: &Modules) {
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

#[test]
fn every_valid_fixture_compiles_and_loads() {
    for path in valid_fixtures() {
        let output = check_file(&path);
        let Some(schema) = output.schema else {
            panic!("{} has errors: {:#?}", path.display(), output.diagnostics);
        };
        assert_modules_load(&path, &modules_of(&schema));
    }
}

#[test]
fn generation_is_deterministic() {
    for path in valid_fixtures().into_iter().chain(codegen_fixtures()) {
        let Some(schema) = check_file(&path).schema else {
            continue;
        };
        assert_eq!(
            generate(&schema, &WITH_TYPES),
            generate(&schema, &WITH_TYPES),
            "{}",
            path.display()
        );
    }
}

#[test]
fn modules_begin_with_the_directives() {
    let modules = crate::support::compile("event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }");
    for text in [&modules.server, &modules.client, modules.types.as_ref().expect("types")] {
        assert!(text.starts_with("--!strict\n--!optimize 2\n"), "{}", &text[..60]);
    }
}

/// The named functions of `text` that are not marked `@native`.
fn interpreted_functions(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start();
            let rest = rest
                .strip_prefix("local function ")
                .or_else(|| rest.strip_prefix("function "))?;
            Some(&rest[..rest.find('(')?])
        })
        .collect()
}

#[test]
fn what_runs_per_event_is_native_and_setup_is_not() {
    let modules = crate::support::compile(
        "event ToServer { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[] }\n\
         event ToClient { From: Server, Type: Unreliable, Call: ManySync, Data: string }\n\
         function Ask { Yield: Coroutine, Data: u8, Return: u8 }\n\
         stream Position { From: Server, Type: Unreliable, Data: vector }",
    );
    for text in [&modules.server, &modules.client] {
        assert!(
            !text.contains("--!native"),
            "the whole module would be compiled natively"
        );
        for hot in [
            "@native local function StepReplication()",
            "@native function TimeByteReads(",
        ] {
            assert!(text.contains(hot), "{hot} is missing");
        }
        assert!(text.contains("= @native function("), "no member is native");
        // Only setup, growth and error reporting run interpreted, the probe that detects
        // the mode (its timed loop is native), the helpers only interpreted code calls, and
        // what runs once a run of records rather than once a record.
        for name in interpreted_functions(text) {
            assert!(
                [
                    "NewBatch",
                    "Grow",
                    "Noop",
                    "NoopConnect",
                    "NoopIter",
                    "Start",
                    "Remote",
                    "DetectInterpreted",
                    "CloseFailedRecord",
                    "SplitClientBatch",
                    "GrantRecords",
                    "OpenClientRecord",
                    "SettleClientRecord",
                    "PackBooleanWords",
                    "UnpackBooleanRows",
                    "NewQueue",
                    "ConnectSingle",
                    "ConnectMany",
                    "Failed",
                    "OutOfBytes",
                    "ReportDrop",
                    "ConnectDropHook",
                    "GetDropCounts",
                    "ReportListenerError",
                    "EndPacket",
                    "UnknownIndex",
                    "DropPacket",
                    "ForgetPlayer",
                    "TooManyEvents",
                    "WriteError",
                    "NewOutgoingStream",
                    "NewIncomingStream",
                    "ConnectStream",
                    "StreamsJoined",
                    "StreamsLeft",
                    "ForgetIncomingStreams",
                ]
                .contains(&name),
                "{name} runs interpreted"
            );
        }
    }
    assert!(modules.server.contains("@native local function DecodeReliable("));
    assert!(modules.client.contains("@native local function DecodeUnreliable("));
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
    let modules = crate::support::compile(&text);
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

/// A module's text with each fixed runtime part (`src/runtime/*.luau`, copied verbatim)
/// replaced by `-- runtime: <file>`, and the generator's version by `<version>`.
fn schema_decided(module: &str) -> String {
    let mut text = module.replace(&format!("BlinkBlox {VERSION}."), "BlinkBlox <version>.");
    for part in all_parts() {
        // As `CodeBuilder::raw` writes it at the top level: every line ended by a newline.
        let written: String = part.text.lines().map(|line| format!("{line}\n")).collect();
        text = text.replace(&written, &format!("-- runtime: {}\n", part.name));
    }
    text
}

/// The Luau modules of one fixture, each under a heading, for its snapshot.
fn snapshot_text(files: &[GeneratedFile]) -> String {
    let mut out = String::new();
    for file in files {
        if matches!(file.kind, OutputKind::Server | OutputKind::Client | OutputKind::Types) {
            out.push_str(&format!("==== {} ====\n", file.kind.file_name()));
            out.push_str(&schema_decided(&file.contents));
        }
    }
    out
}

/// One snapshot per codegen fixture (`it__fixtures__modules@<fixture>.snap`); each
/// fixture's modules also load in the VM.
#[test]
fn feature_fixtures_snapshot_and_load() {
    insta::glob!("../fixtures/codegen", "*.blink", |path| {
        let compiled = compile(
            Source::File(path),
            &CheckSettings::default(),
            Outputs::Modules(WITH_TYPES),
        );
        assert!(
            compiled.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            compiled.diagnostics
        );
        insta::assert_snapshot!("modules", snapshot_text(&compiled.files));
        assert_modules_load(path, &modules_in(&compiled.files));
    });
}

#[test]
fn markers_stand_for_every_runtime_part_a_module_holds() {
    let modules = crate::support::compile(
        "export type Id = u8\nevent E { From: Client, Type: Reliable, Call: SingleSync, Data: Id }",
    );
    let server = schema_decided(&modules.server);
    let client = schema_decided(&modules.client);
    let types = schema_decided(modules.types.as_ref().expect("types"));
    let markers = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|line| line.strip_prefix("-- runtime: "))
            .map(str::to_string)
            .collect()
    };
    // Only the parts the module's code uses: the server receives E and sends nothing, the client
    // sends E and receives nothing; no streams, functions, f16 or two-form paths.
    let expect = [
        (
            &server,
            vec![
                "recv_state.luau",
                "decode_range.luau",
                "queues.luau",
                "client_packets.luau",
                "exported.luau",
            ],
        ),
        (
            &client,
            vec![
                "batches.luau",
                "client_batch.luau",
                "client_scratch.luau",
                "exported.luau",
            ],
        ),
    ];
    for (text, parts) in expect {
        let held = markers(text);
        for part in parts {
            assert!(held.iter().any(|name| name == part), "{part} missing from {held:?}");
        }
        for part in [
            "server_streams.luau",
            "client_streams.luau",
            "f16.luau",
            "two_forms.luau",
            "invocations.luau",
        ] {
            assert!(!held.iter().any(|name| name == part), "{part} in {held:?}");
        }
    }
    assert!(!markers(&client).iter().any(|name| name == "decode_range.luau"));
    assert_eq!(
        markers(&types),
        [
            "batches.luau",
            "recv_state.luau",
            "packet_strings.luau",
            "standalone.luau",
            "exported.luau"
        ]
    );
    for part in all_parts() {
        let first = part.text.lines().next().unwrap_or_default();
        for text in [&server, &client, &types] {
            assert!(!text.contains(first), "{}'s first line left in a snapshot", part.name);
        }
    }
}
