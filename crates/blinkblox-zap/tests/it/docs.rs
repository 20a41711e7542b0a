//! `docs/migrating.md` lists what the importer refuses and drops: every code of the
//! constructs without an equivalent (`Z2…`) and of the warnings (`Z4…`) by itself, and the
//! reading (`Z1…`) and zap-rule (`Z3…`) codes as ranges that end at the last code.

use std::collections::HashSet;

use blinkblox_zap::codes::TABLE;

use crate::repo_root;

#[test]
fn the_migration_guide_names_every_code() {
    let guide = std::fs::read_to_string(repo_root().join("docs/migrating.md")).expect("docs/migrating.md");
    let mut seen = HashSet::new();
    for (code, summary) in TABLE {
        assert!(seen.insert(code), "{code} is listed twice");
        assert!(!summary.is_empty());
        if code.starts_with("Z2") || code.starts_with("Z4") {
            assert!(
                guide.contains(&format!("| {code} |")),
                "docs/migrating.md has no row for {code}"
            );
        }
    }
    for group in ["Z1", "Z3"] {
        let last = TABLE
            .iter()
            .map(|(code, _)| *code)
            .filter(|code| code.starts_with(group))
            .max()
            .expect("codes in the group");
        let range = format!("{group}001–{last}");
        assert!(guide.contains(&range), "docs/migrating.md should say {range}");
    }
}
