//! Fingerprints this crate's sources for `blinkblox.lock`: a lockfile written by one build is
//! not taken as up to date by another build of the same version whose generated code differs.
//! A comment or a unit test changes the fingerprint too: it errs on the side of calling outputs
//! stale.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|extension| extension == "rs" || extension == "luau")
        {
            // Only sources: an editor's swap file must not make a tree fingerprint differently.
            files.push(path);
        }
    }
    Ok(())
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // A folder here makes Cargo rerun this script when anything below it changes.
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    if let Err(err) = collect_files(&root.join("src"), &mut files) {
        println!("cargo:warning=could not read src to fingerprint the generator: {err}");
    }
    files.sort();
    let mut hasher = Sha256::new();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        hasher.update(relative.to_string_lossy().replace('\\', "/").as_bytes());
        hasher.update([0]);
        // Line endings as git may check them out either way: CRLF counts as LF.
        let text = std::fs::read(file).unwrap_or_default();
        let normalized: Vec<u8> = text
            .iter()
            .enumerate()
            .filter(|&(index, &byte)| !(byte == b'\r' && text.get(index + 1) == Some(&b'\n')))
            .map(|(_, &byte)| byte)
            .collect();
        hasher.update((normalized.len() as u64).to_le_bytes());
        hasher.update(&normalized);
    }
    let fingerprint: String = hasher.finalize()[..6]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    println!("cargo:rustc-env=BLINKBLOX_SOURCE_FINGERPRINT={fingerprint}");
}
