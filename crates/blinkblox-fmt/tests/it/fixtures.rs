//! Every schema of the repository — the valid fixtures and the files they import, the arena
//! example, the benchmark definitions — formatted: formatting is idempotent, and the
//! formatted schemas compile to byte-identical modules (every output kind). The invalid
//! fixtures that parse keep exactly their diagnostics' codes and messages.

use std::path::{Path, PathBuf};

use blinkblox_codegen::{Outputs, Source, Targets, compile};
use blinkblox_fmt::format_source;
use blinkblox_schema::CheckSettings;

use crate::repo_root;

/// Every `.blink` and `.txt` schema under `dir`, relative to it, sorted.
fn schemas_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("list the folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "blink" || e == "txt") {
                found.push(path.strip_prefix(dir).expect("inside").to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// Copies the schemas of `from` to `original/` and their formatted text to `formatted/`
/// under a new temp folder, checking idempotence on the way.
fn formatted_copy(from: &Path) -> (tempfile::TempDir, Vec<PathBuf>) {
    let temp = tempfile::tempdir().expect("temp dir");
    let files = schemas_under(from);
    assert!(!files.is_empty(), "no schemas under {}", from.display());
    for rel in &files {
        let text = std::fs::read_to_string(from.join(rel)).expect("read schema");
        let once = format_source(&text)
            .unwrap_or_else(|err| panic!("{} does not format: {:?}", rel.display(), err.diagnostics));
        let twice = format_source(&once).expect("formatted text parses");
        assert_eq!(once, twice, "formatting {} twice changed it", rel.display());
        for (side, contents) in [("original", &text), ("formatted", &once)] {
            let target = temp.path().join(side).join(rel);
            std::fs::create_dir_all(target.parent().expect("parent")).expect("create folder");
            std::fs::write(target, contents).expect("write copy");
        }
    }
    (temp, files)
}

/// Compiles `rel` on both sides and requires the same outputs, byte for byte, and the
/// same diagnostics.
fn same_modules(temp: &Path, rel: &Path) -> bool {
    let outputs = Outputs::Modules(Targets::outputs(true, true));
    let [original, formatted] = ["original", "formatted"].map(|side| {
        compile(
            Source::File(&temp.join(side).join(rel)),
            &CheckSettings::default(),
            outputs.clone(),
        )
    });
    let codes = |compiled: &blinkblox_codegen::Compiled| -> Vec<(&'static str, String)> {
        compiled
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message.clone()))
            .collect()
    };
    assert_eq!(
        codes(&original),
        codes(&formatted),
        "{}: diagnostics differ",
        rel.display()
    );
    assert_eq!(original.files.len(), formatted.files.len(), "{}", rel.display());
    for (before, after) in original.files.iter().zip(&formatted.files) {
        assert_eq!(before.kind, after.kind);
        assert!(
            before.contents == after.contents,
            "{}: the {:?} module changed after formatting",
            rel.display(),
            before.kind
        );
    }
    !original.files.is_empty()
}

fn check_folder(folder: &Path, roots: impl Fn(&Path) -> bool) {
    let (temp, files) = formatted_copy(folder);
    let mut compiled = 0;
    for rel in files.iter().filter(|rel| roots(rel)) {
        if same_modules(temp.path(), rel) {
            compiled += 1;
        }
    }
    assert!(compiled > 0, "no schema of {} compiled", folder.display());
}

#[test]
fn valid_fixtures_format_idempotently_to_the_same_modules() {
    let valid = repo_root().join("crates/blinkblox-schema/tests/fixtures/schema/valid");
    // Every file is a root, the imported ones included: those that only check where they
    // are imported must fail the same way on both sides.
    check_folder(&valid, |_| true);
}

#[test]
fn the_arena_example_formats_to_the_same_modules() {
    check_folder(&repo_root().join("examples/arena/net"), |_| true);
}

#[test]
fn the_benchmark_definitions_format_to_the_same_modules() {
    check_folder(&repo_root().join("benchmark/definitions"), |_| true);
}

#[test]
fn invalid_fixtures_that_parse_keep_their_diagnostics() {
    let invalid = repo_root().join("crates/blinkblox-schema/tests/fixtures/schema/invalid");
    let mut formatted = 0;
    for rel in schemas_under(&invalid) {
        // A file that is not UTF-8 is one of the fixtures; it has no text to format.
        let Ok(text) = std::fs::read_to_string(invalid.join(&rel)) else {
            continue;
        };
        let Ok(once) = format_source(&text) else {
            continue;
        };
        formatted += 1;
        assert_eq!(
            format_source(&once).expect("parses").as_str(),
            once,
            "{}",
            rel.display()
        );
        let name = invalid.join(&rel).to_string_lossy().into_owned();
        let check = |text: &str| -> Vec<(&'static str, String)> {
            blinkblox_schema::check_source(&name, text)
                .diagnostics
                .iter()
                .map(|d| (d.code, d.message.clone()))
                .collect()
        };
        assert_eq!(check(&text), check(&once), "{}: diagnostics changed", rel.display());
    }
    assert!(formatted > 10, "only {formatted} invalid fixtures parse");
}
