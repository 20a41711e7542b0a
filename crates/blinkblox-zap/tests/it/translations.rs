//! Every translation fixture (`tests/fixtures/translate/*.zap`, one per construct): its
//! `.blink` text and warnings are snapshotted, and the text must compile with no diagnostic.

use crate::support::*;

#[test]
fn translations_compile_and_match_their_snapshots() {
    insta::glob!("../fixtures/translate", "*.zap", |path| {
        let imported = import_file(path);
        let blink = translation(&imported).to_string();
        assert_compiles(&relative(path), &blink);
        let warnings = rendered(&imported);
        insta::assert_snapshot!(format!("{warnings}{blink}"));
    });
}
