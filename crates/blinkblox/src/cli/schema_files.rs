//! The schemas a command is pointed at: every `*.blink` file below a folder.

use std::path::{Path, PathBuf};

use crate::cli::output::Output;

/// Every `*.blink` file under `root`, sorted, skipping hidden folders. A folder that
/// cannot be read is a warning on stderr, so "no problems" never hides skipped schemas. A
/// link named `*.blink` is taken when it leads to a file inside `root`, and is a warning
/// otherwise; links to folders are not followed.
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
            Ok(entry) if entry.path().extension().is_some_and(|e| e == "blink") => {
                if entry.file_type().is_file() {
                    files.push(entry.into_path());
                } else if entry.path_is_symlink() {
                    linked_schema(entry.into_path(), root, out, &mut files);
                }
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

/// A `*.blink` symbolic link found in the walk: taken when it leads to a regular file
/// inside `root` (the file is then read, and written, through the link), else named.
fn linked_schema(link: PathBuf, root: &Path, out: &Output, files: &mut Vec<PathBuf>) {
    let target = blinkblox_fs::path::real(&link);
    if !target.is_file() {
        out.warning(&format!(
            "skipped `{}`: a symbolic link to `{}`, which is not a file",
            link.display(),
            target.display()
        ));
    } else if !blinkblox_fs::path::is_really_inside(&link, root) {
        out.warning(&format!(
            "skipped `{}`: a symbolic link leading out of `{}` (to `{}`); name it to include it",
            link.display(),
            root.display(),
            target.display()
        ));
    } else {
        files.push(link);
    }
}
