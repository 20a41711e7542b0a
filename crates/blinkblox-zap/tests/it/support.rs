//! Shared by the tests: import a zap file, render its diagnostics, compile the translation.
#![allow(dead_code)]

use std::path::Path;

use blinkblox_codegen::{Compiled, Outputs, Source, Targets};
use blinkblox_schema::CheckSettings;
use blinkblox_schema::diagnostics::render::render_all;
use blinkblox_zap::{Imported, Settings, import};

/// The fixture path relative to the crate root, so file names in diagnostics and
/// snapshots do not depend on the machine.
pub fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

pub fn import_file(path: &Path) -> Imported {
    let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()));
    import(&relative(path), &text, &Settings::default())
}

pub fn rendered(imported: &Imported) -> String {
    render_all(&imported.diagnostics, &imported.sources, false)
}

/// The translation, failing the test with the diagnostics when there is none.
pub fn translation(imported: &Imported) -> &str {
    imported
        .blink
        .as_deref()
        .unwrap_or_else(|| panic!("the import failed:\n{}", rendered(imported)))
}

/// Compiles schema text through the compile step every command uses, with every output.
pub fn compile_blink(name: &str, text: &str) -> Compiled {
    blinkblox_codegen::compile(
        Source::Text { name, text },
        &CheckSettings::default(),
        Outputs::Modules(Targets::outputs(true, true)),
    )
}

/// Fails the test with the rendered diagnostics when the translation does not compile
/// cleanly (no errors, no warnings).
pub fn assert_compiles(name: &str, text: &str) -> Compiled {
    let compiled = compile_blink(name, text);
    let diagnostics = render_all(&compiled.diagnostics, &compiled.sources, false);
    assert!(
        compiled.diagnostics.is_empty(),
        "the translation of {name} does not compile cleanly:\n{diagnostics}\n{text}"
    );
    assert!(!compiled.files.is_empty(), "{name}: no modules generated");
    compiled
}
