//! The docs' option table is the language's option table: `docs/generated-modules.md` lists
//! every option the checker accepts, with the value it takes, its default and what it does,
//! exactly as `blinkblox_schema::vocabulary::OPTIONS` declares them.

use blinkblox_schema::vocabulary::{OPTIONS, OptionKind};

/// The table as the docs hold it, rendered from the vocabulary.
fn rendered() -> String {
    let mut out = String::from("| Option | Takes | Default | What it does |\n|---|---|---|---|\n");
    for spec in OPTIONS {
        let takes = match spec.kind {
            OptionKind::Text => "a string",
            OptionKind::Flag => "`true` / `false`",
            OptionKind::Count => "a whole number ≥ 1",
            OptionKind::Casing => "`Pascal` / `Camel` / `Snake`",
            OptionKind::Unused => "`true` / `false` (ignored)",
        };
        let default = match spec.default_text() {
            text if text.is_empty() => "not set".to_string(),
            text => format!("`{text}`"),
        };
        out.push_str(&format!("| `{}` | {takes} | {default} | {} |\n", spec.name, spec.about));
    }
    out
}

#[test]
fn the_docs_option_table_is_the_vocabulary() {
    let path = crate::repo_root().join("docs/generated-modules.md");
    let docs = std::fs::read_to_string(&path).expect("docs/generated-modules.md");
    let table = rendered();
    assert!(
        docs.contains(&table),
        "docs/generated-modules.md's option table differs from the vocabulary; replace it with:\n\n{table}"
    );
}
