//! zap files the translation refuses: one fixture per construct without a BlinkBlox
//! equivalent (`tests/fixtures/unsupported`), and zap that breaks zap's own rules
//! (`tests/fixtures/invalid`). Nothing is translated; the rendered diagnostics are
//! snapshotted, so each message, place and fix is reviewed.

use crate::support::*;

/// Imports a fixture that must fail, returning its rendered diagnostics; every error code
/// must start with `prefix` or be one of zap's own rules.
fn refused(path: &std::path::Path, prefixes: &[&str]) -> String {
    let imported = import_file(path);
    let text = rendered(&imported);
    assert!(imported.blink.is_none(), "{} was translated:\n{text}", path.display());
    let errors: Vec<&str> = imported
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    assert!(!errors.is_empty(), "{}: no error", path.display());
    assert!(
        errors
            .iter()
            .any(|code| prefixes.iter().any(|prefix| code.starts_with(prefix))),
        "{}: no {prefixes:?} error in {errors:?}",
        path.display()
    );
    text
}

#[test]
fn constructs_without_an_equivalent_are_errors() {
    insta::glob!("../fixtures/unsupported", "*.zap", |path| {
        insta::assert_snapshot!(refused(path, &["Z2"]));
    });
}

#[test]
fn zap_that_breaks_zaps_rules_is_reported() {
    insta::glob!("../fixtures/invalid", "*.zap", |path| {
        insta::assert_snapshot!(refused(path, &["Z1", "Z3"]));
    });
}

#[test]
fn every_problem_is_reported_in_one_run() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/unsupported/all_at_once.zap");
    let imported = import_file(&path);
    let mut codes: Vec<&str> = imported.diagnostics.iter().map(|d| d.code).collect();
    codes.sort_unstable();
    assert_eq!(codes, ["Z2001", "Z2002", "Z2004", "Z2005", "Z2008"]);
}
