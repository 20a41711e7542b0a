//! Golden tests over the schema fixtures: every valid fixture's checked model (with
//! any warnings) and every invalid fixture's rendered diagnostics (no colour).

use std::path::Path;

use blinkblox_schema::diagnostics::render::render_all;
use blinkblox_schema::{check_file, dump::dump};

/// The fixture path relative to the crate root, so file names in diagnostics and
/// snapshots do not depend on the machine.
fn relative(path: &Path) -> &Path {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root).unwrap_or(path)
}

#[test]
fn valid_schemas_check_and_dump() {
    insta::glob!("../fixtures/schema/valid", "*.blink", |path| {
        let output = check_file(relative(path));
        let rendered = render_all(&output.diagnostics, &output.sources, false);
        let schema = output
            .schema
            .as_ref()
            .unwrap_or_else(|| panic!("{} should be valid:\n{rendered}", path.display()));
        insta::assert_snapshot!(format!("{rendered}{}", dump(schema)));
    });
}

#[test]
fn invalid_schemas_report_errors() {
    insta::glob!("../fixtures/schema/invalid", "*.blink", |path| {
        let output = check_file(relative(path));
        assert!(output.schema.is_none(), "{} should be invalid", path.display());
        assert!(output.has_errors());
        insta::assert_snapshot!(render_all(&output.diagnostics, &output.sources, false));
    });
}
