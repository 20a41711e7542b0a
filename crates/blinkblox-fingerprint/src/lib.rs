//! The fingerprint of a crate's sources, for `blinkblox.lock`: a lockfile written by one build
//! is not taken as up to date by another build of the same version whose generated code
//! differs. Used by the build scripts of the crates that decide the generated code. A
//! comment or a unit test changes the fingerprint too: it errs on the side of calling
//! outputs stale.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The environment variable [`emit`] sets for the crate being built.
pub const VARIABLE: &str = "BLINKBLOX_SOURCE_FINGERPRINT";

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

/// Twelve hex digits of the sha256 of every `.rs` and `.luau` file below `root/folder`, their
/// paths relative to `root`, CRLF read as LF (git may check files out either way).
pub fn fingerprint(root: &Path, folder: &str) -> std::io::Result<String> {
    let mut files = Vec::new();
    collect_files(&root.join(folder), &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for file in &files {
        let relative = file.strip_prefix(root).unwrap_or(file);
        hasher.update(relative.to_string_lossy().replace('\\', "/").as_bytes());
        hasher.update([0]);
        let text = std::fs::read(file)?;
        let normalized: Vec<u8> = text
            .iter()
            .enumerate()
            .filter(|&(index, &byte)| !(byte == b'\r' && text.get(index + 1) == Some(&b'\n')))
            .map(|(_, &byte)| byte)
            .collect();
        hasher.update((normalized.len() as u64).to_le_bytes());
        hasher.update(&normalized);
    }
    Ok(hasher.finalize()[..6]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// For a build script: fingerprints the crate's `folder` into [`VARIABLE`], and reruns the
/// script when anything below it changes.
pub fn emit(folder: &str) {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed={folder}");
    match fingerprint(&root, folder) {
        Ok(fingerprint) => println!("cargo:rustc-env={VARIABLE}={fingerprint}"),
        Err(err) => {
            println!("cargo:warning=could not read {folder} to fingerprint the generator: {err}");
            println!("cargo:rustc-env={VARIABLE}=unknown");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_and_other_files_do_not_change_it_but_sources_do() {
        let dir = tempfile_dir();
        std::fs::create_dir_all(dir.join("src/a")).expect("mkdir");
        std::fs::write(dir.join("src/a/x.rs"), "fn a() {}\n").expect("write");
        let first = fingerprint(&dir, "src").expect("fingerprint");
        std::fs::write(dir.join("src/a/x.rs"), "fn a() {}\r\n").expect("write");
        std::fs::write(dir.join("src/a/.x.rs.swp"), "junk").expect("write");
        assert_eq!(fingerprint(&dir, "src").expect("fingerprint"), first);
        std::fs::write(dir.join("src/runtime.luau"), "return 1\n").expect("write");
        assert_ne!(fingerprint(&dir, "src").expect("fingerprint"), first);
        assert_eq!(first.len(), 12);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("blinkblox-fingerprint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }
}
