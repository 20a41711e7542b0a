//! The schemas a command is pointed at: every `*.blink` file below a folder.

use std::path::{Path, PathBuf};

use crate::cli::output::Output;

/// Every `*.blink` file under `root`, sorted, skipping hidden folders. A folder that
/// cannot be read is a warning on stderr, so "no problems" never hides skipped schemas.
pub fn find(root: &Path, out: &Output) -> Vec<PathBuf> {
    let walk = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0 || !entry.file_name().to_str().is_some_and(|name| name.starts_with('.'))
        });
    let mut files = Vec::new();
    for entry in walk {
        match entry {
            Ok(entry) if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "blink") => {
                files.push(entry.into_path());
            }
            Ok(_) => {}
            Err(err) => {
                let place = err.path().unwrap_or(root).display().to_string();
                out.warning(&format!(
                    "skipped `{place}`: {err} (make it readable, or name the schemas to check explicitly)"
                ));
            }
        }
    }
    files.sort();
    files
}
