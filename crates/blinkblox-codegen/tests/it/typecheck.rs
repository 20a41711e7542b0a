//! The generated modules under Luau's type checker in strict mode, as Roblox developers open
//! them (luau-lsp in VS Code): every module of every fixture checks clean, and game code
//! written against a module's API checks clean when it uses it right and is reported when
//! it does not.
//!
//! The checker is Luau's own Analysis library, run in process by the `luau-typecheck` tool of
//! this crate (`--features typecheck`), with the Roblox API of `tests/fixtures/luau/roblox.d.luau`.
//! It checks one file at a time: a game script's `require` of a module cannot be followed, so a
//! game script is checked appended to the module it requires (the module's `return Returns`
//! becomes `local Net = Returns`, the script follows in a `do` block, and the module's exported
//! types are in scope by name).

use std::path::{Path, PathBuf};
use std::process::Command;

use blinkblox_codegen::{GeneratedFile, OutputKind, Outputs, Source, Targets, compile};
use blinkblox_schema::CheckSettings;

use crate::support::valid_schema_fixtures;

/// The type checker tool, when this build has it.
const TOOL: Option<&str> = option_env!("CARGO_BIN_EXE_luau-typecheck");

/// Checks each `(name, source)` and returns what the checker reports (errors and lint
/// warnings), one entry each: `name:line: kind: message` and the source line it names.
fn problems(modules: &[(String, String)]) -> Vec<String> {
    let tool = TOOL.expect("built with --features typecheck");
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut paths = Vec::new();
    for (index, (_, source)) in modules.iter().enumerate() {
        let path = dir.path().join(format!("{index}.luau"));
        std::fs::write(&path, source).expect("module written");
        paths.push(path);
    }
    let definitions = crate::fixtures().join("luau/roblox.d.luau");
    let output = Command::new(tool)
        .arg(&definitions)
        .args(&paths)
        .output()
        .expect("the type checker runs");
    assert!(
        output.status.success(),
        "the type checker failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(4, '\t');
            let (path, number, kind, message) = (fields.next()?, fields.next()?, fields.next()?, fields.next()?);
            let index = paths.iter().position(|p| p.to_string_lossy() == path)?;
            let (name, source) = &modules[index];
            let number: usize = number.parse().ok()?;
            let text = source.lines().nth(number.saturating_sub(1)).unwrap_or("").trim();
            Some(format!(
                "{name}:{number}: {kind}: {}\n    {text}",
                message.replace("\\n", "\n")
            ))
        })
        .collect()
}

/// Every schema the project ships or tests: the front end's valid fixtures, the codegen
/// fixtures, the TypeScript fixtures, the arena example's and the benchmark's.
fn every_schema() -> Vec<PathBuf> {
    let root = crate::repo_root();
    let mut paths = valid_schema_fixtures();
    for dir in [
        crate::fixtures().join("codegen"),
        crate::fixtures().join("typescript"),
        root.join("examples/arena/net"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "blink"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths.push(root.join("benchmark/definitions/Definition.blink"));
    paths.push(root.join("benchmark/definitions/Scenarios.blink"));
    paths
}

const WITH_TYPES: Targets = Targets {
    types: true,
    typescript: false,
};

/// A module as the checker sees it: the checker cannot follow `require` of an Instance path,
/// so the Future and Promise libraries' requires are given the libraries' declared types
/// (`FUTURE_LIBRARY` and `PROMISE_LIBRARY` in the declarations).
fn as_checked(module: &str) -> String {
    module
        .lines()
        .map(|line| {
            for (local, library) in [
                ("FutureLibrary", "FUTURE_LIBRARY"),
                ("PromiseLibrary", "PROMISE_LIBRARY"),
            ] {
                if line.starts_with(&format!("local {local} = require(")) {
                    return format!("local {local} = {library}\n");
                }
            }
            format!("{line}\n")
        })
        .collect()
}

/// The Luau modules compiled from a schema file, or from text named after it.
fn luau_modules(path: &Path, text: Option<&str>) -> Vec<GeneratedFile> {
    let name = path.display().to_string();
    let source = match text {
        Some(text) => Source::Text { name: &name, text },
        None => Source::File(path),
    };
    let compiled = compile(source, &CheckSettings::default(), Outputs::Modules(WITH_TYPES));
    assert!(!compiled.has_errors(), "{name}: {:#?}", compiled.diagnostics);
    compiled
        .files
        .into_iter()
        .filter(|file| matches!(file.kind, OutputKind::Server | OutputKind::Client | OutputKind::Types))
        .collect()
}

/// `folder/schema/Module.luau`: the schema's folder and name (fixtures of two folders share names).
fn module_label(path: &Path, kind: OutputKind) -> String {
    let name = |path: Option<&Path>| {
        path.and_then(Path::file_stem)
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    format!("{}/{}/{}", name(path.parent()), name(Some(path)), kind.file_name())
}

/// Fails with every problem found (the first 40 shown) and their count.
fn assert_clean(found: &[String], what: &str) {
    if found.is_empty() {
        return;
    }
    let shown: Vec<&str> = found.iter().take(40).map(String::as_str).collect();
    panic!("{} problems in {what}:\n{}", found.len(), shown.join("\n"));
}

#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn every_module_of_every_fixture_type_checks_clean() {
    let mut modules = Vec::new();
    for path in every_schema() {
        for file in luau_modules(&path, None) {
            modules.push((module_label(&path, file.kind), as_checked(&file.contents)));
        }
    }
    assert!(
        modules.len() >= 100,
        "expected the fixtures' modules, found {}",
        modules.len()
    );
    assert_clean(&problems(&modules), &format!("{} modules", modules.len()));
}

/// The schemas that name a Future or Promise library, their functions switched to
/// `Yield: Coroutine` and the libraries left out: the modules without them check clean too.
#[test]
#[cfg_attr(
    not(feature = "typecheck"),
    ignore = "needs --features typecheck (the Luau type checker)"
)]
fn modules_without_the_future_and_promise_libraries_type_check_clean() {
    let mut modules = Vec::new();
    let mut variants = 0;
    for path in every_schema() {
        let text = std::fs::read_to_string(&path).expect("schema");
        if !text.contains("FutureLibrary") && !text.contains("PromiseLibrary") {
            continue;
        }
        let plain: String = text
            .lines()
            .filter(|line| !line.contains("FutureLibrary") && !line.contains("PromiseLibrary"))
            .map(|line| {
                line.replace("Yield: Future", "Yield: Coroutine")
                    .replace("Yield: Promise", "Yield: Coroutine")
            })
            .collect::<Vec<_>>()
            .join("\n");
        variants += 1;
        for file in luau_modules(&path, Some(&plain)) {
            modules.push((module_label(&path, file.kind), as_checked(&file.contents)));
        }
    }
    assert!(variants >= 2, "expected schemas with the libraries, found {variants}");
    assert_clean(&problems(&modules), "the modules without libraries");
}
