//! The front end's public API: imports from disk, project defaults, channel indices
//! and the wire sizes of the benchmark's payloads (128 bytes for 1000 booleans, 602 for
//! 100 structs of six u8, 2 for a single u8).

use std::path::Path;

use blinkblox_schema::model::{Payload, Reliability, TypeKind};
use blinkblox_schema::source::SourceFile;
use blinkblox_schema::{
    CheckSettings, OptionDefault, OptionValue, check_file_with, check_source, check_source_with, codes, wire,
};

fn codes_of(output: &blinkblox_schema::CheckOutput) -> Vec<&'static str> {
    output.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn imports_resolve_relative_to_the_named_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("shared")).expect("mkdir");
    std::fs::write(dir.path().join("shared/types.blink"), "struct Unit { id: u16 }\n").expect("write");
    std::fs::write(dir.path().join("shared/old.txt"), "type Old = u8\n").expect("write");
    std::fs::write(dir.path().join("shared/plain"), "type Plain = u16\n").expect("write");
    let absolute = dir.path().join("shared/types.blink");
    let text = format!(
        "import \"./shared/types\"\nimport \"shared/old\" as Legacy\nimport \"./shared/plain\"\nimport \"{}\" as Abs\n\
         event E {{ From: Server, Type: Reliable, Call: SingleSync, Data: (types.Unit, Legacy.Old, plain.Plain, Abs.Unit) }}\n",
        absolute.display()
    );
    let name = dir.path().join("net.blink");
    let output = check_source(&name.to_string_lossy(), &text);
    assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
    let schema = output.schema.expect("valid");
    assert_eq!(
        schema.scopes,
        vec![
            vec!["types".to_string()],
            vec!["Legacy".to_string()],
            vec!["plain".to_string()],
            vec!["Abs".to_string()]
        ]
    );
    assert_eq!(schema.types.len(), 4);
    assert_eq!(schema.types[3].luau_name(), "Abs_Unit");
}

/// Blink tries the written name without its extension, then with `.txt`, then `.blink`, then
/// as written; Blink 0.18.7's own test schemas import `./Source2.txt` where the folder holds
/// `Source2.blink`.
#[test]
fn imports_resolve_in_blinks_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).expect("write");
    write(
        "Source2.blink",
        "type FromBlink = u8
",
    );
    write(
        "both.txt",
        "type FromTxt = u8
",
    );
    write(
        "both.blink",
        "type FromBlinkFile = u8
",
    );
    write(
        "a.b.blink",
        "type Dotted = u8
",
    );
    let check = |import: &str| {
        let text = format!("import \"{import}\" as I\n");
        check_source(&dir.path().join("net.blink").to_string_lossy(), &text)
    };
    let type_names = |output: blinkblox_schema::CheckOutput| -> Vec<String> {
        assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
        output
            .schema
            .expect("valid")
            .types
            .iter()
            .map(|t| t.luau_name())
            .collect()
    };
    // The extension written is dropped first, as Blink does.
    assert_eq!(type_names(check("./Source2.txt")), ["I_FromBlink"]);
    // Of `both.txt` and `both.blink`, `.txt` comes first, whichever is written.
    assert_eq!(type_names(check("./both")), ["I_FromTxt"]);
    assert_eq!(type_names(check("./both.blink")), ["I_FromTxt"]);
    // Where Blink finds nothing, the written name with `.blink` added.
    assert_eq!(type_names(check("./a.b")), ["I_Dotted"]);
    let missing = check("./nothing.txt");
    assert_eq!(codes_of(&missing), [codes::IMPORT_NOT_FOUND]);
}

#[test]
fn an_import_cycle_names_the_chain() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.blink"), "import \"./b\"\n").expect("write");
    std::fs::write(dir.path().join("b.blink"), "import \"./c\"\n").expect("write");
    std::fs::write(dir.path().join("c.blink"), "import \"./a\"\n").expect("write");
    let output = blinkblox_schema::check_file(&dir.path().join("a.blink"));
    let cycle = output
        .diagnostics
        .iter()
        .find(|d| d.code == codes::IMPORT_CYCLE)
        .expect("cycle reported");
    for file in ["a.blink", "b.blink", "c.blink"] {
        assert!(cycle.message.contains(file), "{}", cycle.message);
    }
}

#[test]
fn project_defaults_apply_unless_the_schema_sets_the_option() {
    let settings = CheckSettings {
        defaults: vec![
            OptionDefault::new("MaxPacketSize", OptionValue::Number(4096.0)),
            OptionDefault::new("Casing", OptionValue::Name("Camel".to_string())),
            OptionDefault::new("ServerOutput", OptionValue::String("out/server.luau".to_string())),
        ],
        ..CheckSettings::default()
    };
    let output = check_source_with("net.blink", "option Casing = Snake\ntype A = u8\n", &settings);
    let schema = output.schema.expect("valid");
    assert_eq!(schema.options.max_packet_size, 4096);
    assert_eq!(schema.options.casing, blinkblox_schema::model::Casing::Snake);
    assert_eq!(schema.options.server_output.as_deref(), Some("out/server.luau"));
    assert_eq!(schema.options.set_in_schema, vec!["Casing"]);
}

#[test]
fn a_bad_project_default_is_reported_where_the_default_is_written() {
    let manifest = "[options]\nMaxPackets = 1\n";
    let value = manifest.find('1').expect("the value");
    let settings = CheckSettings {
        defaults: vec![OptionDefault {
            span: Some(value..value + 1),
            ..OptionDefault::new("MaxPackets", OptionValue::Number(1.0))
        }],
        defaults_file: Some(SourceFile::new(
            "blinkblox.toml".into(),
            "blinkblox.toml".to_string(),
            manifest.to_string(),
        )),
    };
    let output = check_source_with("net.blink", "type A = u8\n", &settings);
    assert_eq!(codes_of(&output), vec![codes::UNKNOWN_OPTION]);
    let span = output.diagnostics[0].primary.span;
    assert_eq!(Some(span.file), output.defaults_file);
    assert_eq!(output.sources.get(span.file).name, "blinkblox.toml");
    assert_eq!((span.start as usize, span.end as usize), (value, value + 1));

    // Without the file they come from, a bad default is reported at the schema's start.
    let output = check_source_with(
        "net.blink",
        "type A = u8\n",
        &CheckSettings {
            defaults: vec![OptionDefault::new("MaxPackets", OptionValue::Number(1.0))],
            ..CheckSettings::default()
        },
    );
    assert_eq!(codes_of(&output), vec![codes::UNKNOWN_OPTION]);
    assert_eq!(
        output.sources.get(output.diagnostics[0].primary.span.file).name,
        "net.blink"
    );
}

#[test]
fn check_file_with_missing_file_is_a_diagnostic() {
    let output = check_file_with(Path::new("definitely/missing.blink"), &CheckSettings::default());
    assert_eq!(codes_of(&output), vec![codes::UNREADABLE_FILE]);
    assert!(output.schema.is_none());
}

#[test]
fn oversized_files_are_diagnostics_with_a_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Sparse: the size check reads the metadata, never the 65 MiB of zeros.
    let huge = std::fs::File::create(dir.path().join("huge.blink")).expect("create");
    huge.set_len(65 * 1024 * 1024).expect("grow");
    std::fs::write(dir.path().join("main.blink"), "import \"./huge\"\n").expect("write");

    let output = check_file_with(&dir.path().join("main.blink"), &CheckSettings::default());
    assert_eq!(codes_of(&output), vec![codes::IMPORT_UNREADABLE]);
    let diagnostic = &output.diagnostics[0];
    assert!(diagnostic.message.contains("huge.blink"), "{}", diagnostic.message);
    assert!(
        diagnostic.message.contains("more than a schema can be"),
        "{}",
        diagnostic.message
    );
    assert!(
        diagnostic.notes.iter().any(|n| n.contains("split the schema")),
        "{:?}",
        diagnostic.notes
    );

    let output = check_file_with(&dir.path().join("huge.blink"), &CheckSettings::default());
    assert_eq!(codes_of(&output), vec![codes::UNREADABLE_FILE]);
    assert!(
        output.diagnostics[0]
            .notes
            .iter()
            .any(|n| n.contains("split the schema"))
    );
}

#[test]
fn indices_follow_declaration_order_per_channel() {
    let text = "\
event A { From: Server, Type: Reliable, Call: SingleSync }
event B { From: Client, Type: Unreliable, Call: SingleSync }
scope S {
    function F { Yield: Coroutine }
    stream T { From: Server, Type: Unreliable, Data: u8 }
}
stream U { From: Server, Type: Reliable, Data: u8 }
event C { From: Client, Type: Reliable, Call: SingleSync }
";
    let schema = check_source("order.blink", text).schema.expect("valid");
    let events: Vec<(&str, Reliability, u16)> = schema
        .events
        .iter()
        .map(|e| (e.name.as_str(), e.reliability, e.index))
        .collect();
    assert_eq!(
        events,
        vec![
            ("A", Reliability::Reliable, 0),
            ("B", Reliability::Unreliable, 0),
            ("C", Reliability::Reliable, 3)
        ]
    );
    assert_eq!(schema.functions[0].index, 1);
    assert_eq!(schema.functions[0].scope, vec!["S".to_string()]);
    assert_eq!((schema.streams[0].index, schema.streams[1].index), (1, 2));
    assert_eq!((schema.reliable.count, schema.unreliable.count), (4, 2));
}

#[test]
fn benchmark_payload_record_sizes() {
    let text = "\
struct Entity { id: u8, x: u8, y: u8, z: u8, orientation: u8, animation: u8 }
event Booleans { From: Client, Type: Reliable, Call: SingleSync, Data: boolean[0..1000] }
event Entities { From: Client, Type: Reliable, Call: SingleSync, Data: Entity[0..100] }
event Byte { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }
";
    let schema = check_source("seed.blink", text).schema.expect("valid");
    let index = u64::from(schema.reliable.index_bytes);
    // A record with `count` elements of `element` bytes (or bits, for booleans).
    let record = |payload: &Payload, count: u64| -> u64 {
        let Payload::Single(ty) = payload else {
            panic!("one value")
        };
        match &wire::resolve(&schema, ty).kind {
            TypeKind::Array { element, length } => {
                let prefix = if wire::has_length_prefix(*length) {
                    u64::from(wire::varint_size(count))
                } else {
                    0
                };
                let body = if wire::is_boolean(&schema, element) {
                    count.div_ceil(8)
                } else {
                    count * u64::from(element.layout.fixed_size.expect("fixed element"))
                };
                index + prefix + body
            }
            _ => index + u64::from(ty.layout.fixed_size.expect("fixed")),
        }
    };
    assert_eq!(record(&schema.events[0].data, 1000), 128);
    assert_eq!(record(&schema.events[1].data, 100), 602);
    assert_eq!(record(&schema.events[2].data, 1), 2);
}

#[test]
fn empty_schema_is_valid_with_a_warning_and_outputs_are_optional() {
    let output = check_source("empty.blink", "");
    assert_eq!(codes_of(&output), vec![codes::EMPTY_SCHEMA]);
    let schema = output.schema.expect("valid");
    assert!(schema.options.server_output.is_none() && schema.options.client_output.is_none());
}

#[test]
fn a_file_imported_twice_becomes_two_scopes() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("common.blink"), "type Id = u32\n").expect("write");
    let text = "import \"./common\" as One\nimport \"./common\" as Two\nstruct S { a: One.Id, b: Two.Id }\n";
    let output = check_source(&dir.path().join("main.blink").to_string_lossy(), text);
    let schema = output.schema.expect("valid");
    let names: Vec<String> = schema.types.iter().map(|t| t.luau_name()).collect();
    assert_eq!(names, vec!["One_Id", "Two_Id", "S"]);
}

#[test]
fn every_error_in_a_file_is_reported() {
    let text = "type A = Nope\nevent B { From: Both, Type: Reliable, Call: SingleSync }\n}\ntype C = u8(9..1)\nstruct D { x: u8 y }\n";
    let output = check_source("many.blink", text);
    let found = codes_of(&output);
    for code in [
        codes::UNKNOWN_TYPE,
        codes::INVALID_FIELD_VALUE,
        codes::UNMATCHED_BRACE,
        codes::REVERSED_RANGE,
        codes::UNEXPECTED_TOKEN,
    ] {
        assert!(found.contains(&code), "{code} missing from {found:?}");
    }
}

#[test]
fn optional_flags_follow_named_types() {
    let text = "type Part = Instance(Part)\ntype Maybe = u8?\nstruct S { a: Part?, b: Maybe, c: boolean }\n";
    let schema = check_source("flags.blink", text).schema.expect("valid");
    let TypeKind::Struct(body) = &schema.types[2].ty.kind else {
        panic!("struct")
    };
    let flagged: Vec<usize> = body.layout.bits.iter().map(|slot| slot.field).collect();
    assert_eq!(flagged, vec![1, 2], "Part? has no flag; Maybe (u8?) and the boolean do");
    let TypeKind::Optional(inner) = &body.fields[0].ty.kind else {
        panic!("optional")
    };
    assert!(!wire::optional_has_flag(&schema, inner));
}
