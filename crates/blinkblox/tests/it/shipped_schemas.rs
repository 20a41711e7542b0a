//! Every schema the repository ships is in `blinkblox fmt`'s layout: the example's and the
//! benchmark's schema files, the schemas shown in the README and the docs, and the example
//! schema `blinkblox init` writes. A user who copies one and runs `fmt --check` in CI must
//! not fail on our text.

use std::path::{Path, PathBuf};

use crate::common::{blinkblox, read, stderr};

/// Every `.blink` file under `folder`, sorted.
fn schemas_under(folder: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(folder)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "blink"))
        .map(walkdir::DirEntry::into_path)
        .collect();
    found.sort();
    found
}

/// The ```` ```blink ```` blocks of a Markdown file.
fn blink_blocks(markdown: &str) -> Vec<String> {
    markdown
        .split("```blink\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("```").map(|(block, _)| block.to_string()))
        .collect()
}

fn assert_formatted(what: &str, text: &str) {
    match blinkblox_fmt::format_source(text) {
        Ok(formatted) => assert_eq!(formatted, text, "{what} is not formatted; run `blinkblox fmt` on it"),
        Err(_) => panic!("{what} does not parse"),
    }
}

#[test]
fn the_shipped_schema_files_are_formatted() {
    let root = crate::repo_root();
    let files: Vec<PathBuf> = ["examples", "benchmark/definitions"]
        .iter()
        .flat_map(|folder| schemas_under(&root.join(folder)))
        .collect();
    assert!(files.len() >= 7, "{files:?}");
    for file in files {
        assert_formatted(&file.display().to_string(), &read(&file));
    }
}

#[test]
fn the_schemas_in_the_readme_and_the_docs_are_formatted() {
    let root = crate::repo_root();
    let mut documents = vec![root.join("README.md"), root.join("examples/arena/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    documents.extend(docs);
    let mut blocks = 0;
    for document in documents {
        for (index, block) in blink_blocks(&read(&document)).iter().enumerate() {
            assert_formatted(&format!("{} block {}", document.display(), index + 1), block);
            blocks += 1;
        }
    }
    assert!(blocks >= 1, "the README shows a schema");
}

#[test]
fn the_schema_init_writes_is_formatted() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path();
    crate::common::shared_only_game(dir);
    blinkblox(dir).arg("init").assert().success();
    let check = blinkblox(dir).args(["fmt", "--check"]).assert();
    assert!(check.get_output().status.success(), "{}", stderr(&check));
}
