//! The schemas a command is pointed at: every `*.blink` file below a folder, as a developer's
//! tools would see the folder — what `.gitignore` (and `.ignore`) leave out, hidden folders
//! and dependency folders are skipped.

use std::path::{Path, PathBuf};

use crate::cli::output::Output;
use blinkblox_project::paths::PACKAGE_FOLDERS;

/// Folders of other people's code besides Wally's (`PACKAGE_FOLDERS`): pesde's installed
/// packages and npm's. A bare `fmt` must not rewrite them, nor `check` report on them;
/// name one to include it.
const OTHER_DEPENDENCY_FOLDERS: [&str; 5] = [
    "roblox_packages",
    "roblox_server_packages",
    "lune_packages",
    "luau_packages",
    "node_modules",
];

/// Whether a folder named `name` holds other people's code.
fn is_dependency_folder(name: &str) -> bool {
    PACKAGE_FOLDERS.contains(&name) || OTHER_DEPENDENCY_FOLDERS.contains(&name)
}

/// Every `*.blink` file under `root`, sorted. Skipped: hidden folders, dependency folders
/// ([`is_dependency_folder`]), and what the `.gitignore` and `.ignore` files on the way
/// ignore (also outside a git repository). A folder that cannot be read is a warning on
/// stderr, so "no problems" never hides skipped schemas. A link named `*.blink` is taken
/// when it leads to a file inside `root`, and is a warning otherwise; links to folders are
/// not followed.
pub fn find(root: &Path, out: &Output) -> Vec<PathBuf> {
    let walk = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .hidden(true)
        .git_global(false)
        .require_git(false)
        .filter_entry(|entry| {
            entry.depth() == 0
                || !(entry.file_type().is_some_and(|kind| kind.is_dir())
                    && entry.file_name().to_str().is_some_and(is_dependency_folder))
        })
        .build();
    let mut files = Vec::new();
    for entry in walk {
        match entry {
            Ok(entry) if entry.path().extension().is_some_and(|e| e == "blink") => {
                let kind = entry.file_type();
                if kind.is_some_and(|kind| kind.is_file()) {
                    files.push(entry.into_path());
                } else if entry.path_is_symlink() {
                    linked_schema(entry.into_path(), root, out, &mut files);
                }
            }
            Ok(_) => {}
            Err(err) => {
                out.warning(&format!(
                    "skipped {err} (make it readable, or name the schemas to check explicitly)"
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
