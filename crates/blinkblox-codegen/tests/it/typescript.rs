//! TypeScript declarations: golden `.d.ts` files for two fixtures,
//! when they are produced, where `compile` writes them, and a `tsc --strict` run over
//! the declarations of every fixture together with usage files that call the API (and
//! `@ts-expect-error` lines that must stay errors, so loose shapes fail too), and the
//! declared members against the API tables of the real modules run in the VM.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{LIBRARIES, valid_schema_fixtures};
use blinkblox_codegen::{GeneratedFile, OutputKind, Targets, generate};
use blinkblox_luau::{Mode, Simulation};
use blinkblox_schema::{check_file, check_source};

fn fixture_dir() -> PathBuf {
    crate::fixtures().join("typescript")
}

fn declarations_of(path: &Path) -> Vec<GeneratedFile> {
    let output = check_file(path);
    let Some(schema) = output.schema else {
        panic!("{} has errors: {:#?}", path.display(), output.diagnostics);
    };
    generate(&schema, &Targets::outputs(true, true))
        .into_iter()
        .filter(|file| {
            matches!(
                file.kind,
                OutputKind::ServerDts | OutputKind::ClientDts | OutputKind::TypesDts
            )
        })
        .collect()
}

fn kinds(files: &[GeneratedFile]) -> Vec<OutputKind> {
    files.iter().map(|file| file.kind).collect()
}

#[test]
fn golden_declarations() {
    for stem in ["net", "odd"] {
        for file in declarations_of(&fixture_dir().join(format!("{stem}.blink"))) {
            let name = format!("{stem}_{}", file.kind.file_name().replace(".d.ts", "").to_lowercase());
            insta::with_settings!({ snapshot_path => "../fixtures/typescript/snapshots", prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(name, file.contents);
            });
        }
    }
}

#[test]
fn declarations_come_with_the_target_or_the_option() {
    let plain = "event E { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }";
    let schema = check_source("a.blink", plain).schema.expect("valid");
    let none = generate(&schema, &Targets::default());
    assert_eq!(kinds(&none), vec![OutputKind::Server, OutputKind::Client]);
    let asked = generate(&schema, &Targets::outputs(false, true));
    assert_eq!(
        kinds(&asked),
        vec![
            OutputKind::Server,
            OutputKind::Client,
            OutputKind::ServerDts,
            OutputKind::ClientDts
        ]
    );
    let with_option = check_source("b.blink", &format!("option Typescript = true\n{plain}"))
        .schema
        .expect("valid");
    let files = generate(&with_option, &Targets::outputs(true, false));
    assert_eq!(
        kinds(&files),
        vec![
            OutputKind::Server,
            OutputKind::Client,
            OutputKind::Types,
            OutputKind::ServerDts,
            OutputKind::ClientDts,
            OutputKind::TypesDts
        ]
    );
    // Deterministic, like the Luau outputs.
    assert_eq!(files, generate(&with_option, &Targets::outputs(true, false)));
}

/// `tsc` from the project-local install (`.ci/run` puts it in target/npm), else PATH.
fn find_tsc() -> Option<PathBuf> {
    let local = crate::repo_root().join("target/npm/node_modules/.bin/tsc");
    if local.is_file() {
        return Some(local);
    }
    let on_path = Command::new("tsc").arg("--version").output();
    match on_path {
        Ok(output) if output.status.success() => Some(PathBuf::from("tsc")),
        _ => None,
    }
}

fn write_declarations(folder: &Path, files: &[GeneratedFile]) {
    std::fs::create_dir_all(folder).expect("mkdir");
    for file in files {
        std::fs::write(folder.join(file.kind.file_name()), &file.contents).expect("write .d.ts");
    }
}

#[test]
#[ignore = "needs tsc: .ci/run installs TypeScript into target/npm and runs the ignored tests"]
fn declarations_type_check_with_tsc() {
    let tsc = find_tsc().expect(
        "no tsc in target/npm/node_modules/.bin or on PATH: `npm install --prefix target/npm typescript@5.9.3` (.ci/run does)",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    for name in ["roblox.d.ts", "usage_server.ts", "usage_client.ts", "usage_odd.ts"] {
        std::fs::copy(fixture_dir().join(name), root.join(name)).expect("copy fixture");
    }
    for stem in ["net", "odd"] {
        write_declarations(
            &root.join(stem),
            &declarations_of(&fixture_dir().join(format!("{stem}.blink"))),
        );
    }
    let fixtures = valid_schema_fixtures();
    assert!(fixtures.len() >= 10, "expected the front end's valid fixtures");
    for path in &fixtures {
        let stem = path.file_stem().expect("stem").to_string_lossy().into_owned();
        write_declarations(&root.join("schemas").join(stem), &declarations_of(path));
    }
    // ES2017's lib stands in for roblox-ts's Array, Map, Promise and Iterable.
    std::fs::write(
        root.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "target": "ES2017",
    "lib": ["ES2017"],
    "module": "commonjs",
    "moduleResolution": "node",
    "types": []
  },
  "include": ["**/*.ts"]
}
"#,
    )
    .expect("tsconfig");
    let output = Command::new(&tsc)
        .arg("-p")
        .arg(root.join("tsconfig.json"))
        .arg("--noEmit")
        .arg("--strict")
        .current_dir(root)
        .output()
        .expect("run tsc");
    assert!(
        output.status.success(),
        "tsc rejected the declarations:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The member paths a `.d.ts` declares (`Shop.Item.Read`, `StepReplication`…), read
/// from the generated text: declarations nest one tab per level, and a line ending in
/// `{` opens a level. A constant declared under another name and exported as itself
/// (`export { BlinkBlox_x as x }`) is renamed back.
fn declared_paths(dts: &str) -> BTreeSet<String> {
    let mut renames: Vec<(String, String)> = Vec::new();
    for line in dts.lines() {
        if let Some(rest) = line.strip_prefix("export { ") {
            let inner = rest.trim_end_matches(" };");
            if let Some((local, exported)) = inner.split_once(" as ") {
                renames.push((local.to_string(), exported.trim_matches('"').to_string()));
            }
        }
    }
    let mut stack: Vec<String> = Vec::new();
    let mut paths = BTreeSet::new();
    for line in dts.lines() {
        let depth = line.chars().take_while(|c| *c == '\t').count();
        let text = line.trim_start_matches('\t');
        let name = [
            "export declare namespace ",
            "export namespace ",
            "export declare const ",
            "export const ",
            "declare const ",
            "readonly ",
        ]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))
        .and_then(|rest| rest.split([':', ' ']).next());
        let Some(name) = name else {
            continue;
        };
        let name = renames
            .iter()
            .find(|(local, _)| local == name)
            .map(|(_, exported)| exported.clone())
            .unwrap_or_else(|| name.trim_matches('"').to_string());
        stack.truncate(depth);
        stack.push(name);
        if !text.ends_with('{') {
            paths.insert(stack.join("."));
        }
    }
    paths
}

/// Walks a loaded module's API table: every function's dotted path.
const API_PATHS: &str = r#"
local paths = {}
local function walk(value, prefix)
    for key, member in value do
        local path = if prefix == "" then tostring(key) else prefix .. "." .. tostring(key)
        if type(member) == "table" then walk(member, path) else table.insert(paths, path) end
    end
end
walk(require("Net"), "")
table.sort(paths)
return paths
"#;

/// Every member the Luau modules return is declared, and nothing else: run the real
/// modules in the VM and compare their API tables with the `.d.ts` files, for the two
/// TypeScript fixtures and every valid schema fixture.
#[test]
fn declarations_match_the_api_tables_of_the_modules() {
    let mut schemas: Vec<PathBuf> = ["net", "odd"]
        .iter()
        .map(|stem| fixture_dir().join(format!("{stem}.blink")))
        .collect();
    schemas.extend(valid_schema_fixtures());
    for path in schemas {
        let output = check_file(&path);
        let Some(schema) = output.schema else {
            panic!("{} has errors: {:#?}", path.display(), output.diagnostics);
        };
        let files = generate(&schema, &Targets::outputs(true, true));
        let text = |kind: OutputKind| {
            files
                .iter()
                .find(|file| file.kind == kind)
                .map(|file| file.contents.clone())
                .unwrap_or_else(|| panic!("{}: no {kind:?}", path.display()))
        };
        let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
        sim.server().exec(LIBRARIES).expect("libraries");
        sim.server()
            .load_module("Net", &text(OutputKind::Server))
            .unwrap_or_else(|e| panic!("{} server: {e}", path.display()));
        sim.step().expect("step");
        let client = sim.client(0).expect("client");
        client
            .load_module("Net", &text(OutputKind::Client))
            .unwrap_or_else(|e| panic!("{} client: {e}", path.display()));
        let server_paths: Vec<String> = sim.server().eval(API_PATHS).expect("server API");
        let client_paths: Vec<String> = sim.client(0).expect("client").eval(API_PATHS).expect("client API");
        for (side, luau, kind) in [
            ("server", server_paths, OutputKind::ServerDts),
            ("client", client_paths, OutputKind::ClientDts),
        ] {
            let luau: BTreeSet<String> = luau.into_iter().collect();
            let declared = declared_paths(&text(kind));
            assert!(
                luau.iter()
                    .any(|p| p.to_lowercase().replace('_', "") == "stepreplication"),
                "{} {side}: the API walk found no StepReplication: {luau:?}",
                path.display()
            );
            assert_eq!(
                declared,
                luau,
                "{} {side}: .d.ts members (left) differ from the Luau API table (right)",
                path.display()
            );
        }
    }
}
