//! Removing a file a command wrote earlier. What names it (a lockfile, a package's file
//! list) is input like any other: the file is removed only when its real folder, symbolic
//! links followed, lies inside the folder the caller owns.

use std::io;
use std::path::Path;

use crate::path::{is_inside, is_really_inside, normalize, real};

/// What [`remove_inside`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Removal {
    /// Removed (or already gone).
    Removed,
    /// Left in place: its folder really lies outside `dir`, at this path.
    Outside(std::path::PathBuf),
}

/// Removes one file (a link itself, never what it leads to); a file already gone is removed.
pub fn remove_file(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Removes `path` when its folder really lies inside `dir`, then every folder above it that
/// became empty, up to (not including) `prune_stop` (`dir`, or a folder above it that the
/// caller also owns). A symbolic link named by `path` is removed itself, never what it
/// leads to.
pub fn remove_inside(path: &Path, dir: &Path, prune_stop: &Path) -> io::Result<Removal> {
    // What is checked is what is removed: `a/link/../x` is taken as `a/x` by both.
    let path = &normalize(path);
    let folder = path.parent().unwrap_or(Path::new(""));
    if !is_really_inside(folder, dir) {
        return Ok(Removal::Outside(real(folder)));
    }
    remove_file(path)?;
    let mut current = path.parent();
    while let Some(folder) = current {
        if !is_inside(folder, prune_stop) || normalize(folder) == normalize(prune_stop) {
            break;
        }
        // `remove_dir` only succeeds on an empty folder: anything else stays.
        if std::fs::remove_dir(folder).is_err() {
            break;
        }
        current = folder.parent();
    }
    Ok(Removal::Removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::write_atomic;

    #[test]
    fn removal_prunes_only_empty_folders_below_the_output() {
        let temp = tempfile::tempdir().expect("tempdir");
        let out = temp.path().join("Net");
        write_atomic(&out.join("a/Server.luau"), b"x").expect("write");
        write_atomic(&out.join("b/Server.luau"), b"x").expect("write");
        write_atomic(&out.join("b/Notes.md"), b"mine").expect("write");
        assert_eq!(
            remove_inside(&out.join("a/Server.luau"), &out, &out).expect("remove"),
            Removal::Removed
        );
        remove_inside(&out.join("b/Server.luau"), &out, &out).expect("remove");
        assert!(!out.join("a").exists());
        assert!(out.join("b/Notes.md").exists());
        assert!(out.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_folder_does_not_lead_a_removal_out() {
        let temp = tempfile::tempdir().expect("tempdir");
        let outside = temp.path().join("outside");
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(outside.join("Server.luau"), "precious").expect("write");
        let out = temp.path().join("project/Net");
        std::fs::create_dir_all(&out).expect("mkdir");
        std::os::unix::fs::symlink(&outside, out.join("link")).expect("symlink");
        let removal = remove_inside(&out.join("link/Server.luau"), &out, &out).expect("remove");
        assert!(matches!(removal, Removal::Outside(_)), "{removal:?}");
        assert_eq!(std::fs::read(outside.join("Server.luau")).expect("read"), b"precious");
    }
}
