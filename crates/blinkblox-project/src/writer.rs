//! Where sync may put files: never inside Wally's folders, never outside the project unless
//! the manifest allows it. The writing and removing themselves are `blinkblox_fs`'s (atomic
//! replacement, permissions kept, removal only inside the output folder), re-exported here.

use std::path::Path;

pub use blinkblox_fs::remove::{Removal, remove_inside};

use crate::ProjectError;
use crate::paths;

pub use blinkblox_fs::write::{
    BeforeRename, Staged, commit_all, no_hook, stage, stale_temp_files, write_atomic, write_atomic_with, write_changed,
};

/// Refuses any path inside `Packages/`, `ServerPackages/` or `DevPackages/` under `root`.
pub fn ensure_not_in_packages(path: &Path, root: &Path) -> Result<(), ProjectError> {
    refuse_packages(path, "", root)
}

/// Refuses an output folder inside (or being) one of the package folders.
pub fn ensure_folder_not_in_packages(folder: &Path, root: &Path) -> Result<(), ProjectError> {
    refuse_packages(folder, "into the output folder ", root)
}

fn refuse_packages(path: &Path, what: &str, root: &Path) -> Result<(), ProjectError> {
    let Some(folder) = paths::wally_folder_in(path, root) else {
        return Ok(());
    };
    let real_root = paths::real(root);
    let folder = paths::display_relative(&folder, &real_root);
    let through_link = !paths::is_inside(&paths::normalize(&root.join(path)), &root.join(&folder));
    let how = if through_link { " (through a symbolic link)" } else { "" };
    Err(ProjectError::new(format!(
        "refusing to write {what}`{}`: it is inside `{folder}/`{how}, which `wally install` deletes",
        paths::display_relative(path, root)
    ))
    .with_help("point `[output]` in blinkblox.toml at a folder of your own, e.g. `src/shared/Net`"))
}

/// Refuses a destination that really lies outside the project `root` (a `..` path, an
/// absolute one, a Rojo `$path` or a symbolic link leading out), unless the manifest allows
/// it: `what` names the manifest key that would (`[output] allow_outside_project`).
pub fn ensure_inside_project(path: &Path, root: &Path, allowed: bool, what: &str) -> Result<(), ProjectError> {
    if allowed || paths::is_really_inside(path, root) {
        return Ok(());
    }
    let real_path = paths::real(path);
    let lexically_inside = paths::is_inside(&paths::normalize(path), &paths::normalize(root));
    let how = if lexically_inside {
        format!(" (a symbolic link on the way leads to `{}`)", real_path.display())
    } else {
        format!(" (`{}`)", real_path.display())
    };
    Err(ProjectError::new(format!(
        "refusing to write into `{}`: it is outside the project{how}",
        paths::display_relative(path, root)
    ))
    .with_help(format!(
        "point it at a folder inside the project (`{}`), or set `{what} = true` in blinkblox.toml if writing there is intended",
        paths::real(root).display()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_folders_are_refused() {
        let root = Path::new("/game");
        let err = ensure_not_in_packages(Path::new("/game/Packages/Net/Server.luau"), root).unwrap_err();
        assert!(err.message.contains("inside `Packages/`"), "{err}");
        assert!(ensure_not_in_packages(Path::new("/game/src/Net/Server.luau"), root).is_ok());
    }
}
