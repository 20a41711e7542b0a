//! The project's paths: the general helpers are `blinkblox_fs::path`'s, re-exported; what is
//! the project's own is where Wally's folders are.

use std::path::{Path, PathBuf};

/// The folders Wally deletes before every install: sync never writes inside them.
pub const PACKAGE_FOLDERS: [&str; 3] = ["Packages", "ServerPackages", "DevPackages"];

pub use blinkblox_fs::path::{
    display_relative, is_inside, is_plain_name, is_really_inside, normalize, real, relative_to, slash,
};

/// The Wally folder `path` really lies in, if any: a `Packages`, `ServerPackages` or
/// `DevPackages` folder directly in the project `root` or next to a `wally.toml` (where
/// `wally install` puts them, deleting what was there). A folder of that name anywhere else
/// is the project's own.
pub fn wally_folder_in(path: &Path, root: &Path) -> Option<PathBuf> {
    let real_root = real(root);
    let real_path = real(path);
    let mut ancestor = real_path.as_path();
    loop {
        let named_like_wally = ancestor
            .file_name()
            .is_some_and(|name| PACKAGE_FOLDERS.iter().any(|folder| name == *folder));
        if let (true, Some(parent)) = (named_like_wally, ancestor.parent())
            && (parent == real_root || parent.join("wally.toml").is_file())
        {
            return Some(ancestor.to_path_buf());
        }
        ancestor = ancestor.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wally_folders_are_the_roots_and_those_next_to_wally_toml() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        std::fs::create_dir_all(root.join("lib/Packages")).expect("mkdir");
        std::fs::write(root.join("lib/wally.toml"), "").expect("write");
        let real_root = real(root);
        assert_eq!(
            wally_folder_in(&root.join("Packages/net"), root),
            Some(real_root.join("Packages"))
        );
        assert_eq!(
            wally_folder_in(&root.join("lib/Packages/x/y"), root),
            Some(real_root.join("lib/Packages"))
        );
        assert_eq!(wally_folder_in(&root.join("src/Packages/Net"), root), None);
        assert_eq!(wally_folder_in(&root.join("src/shared/Net"), root), None);
        assert!(is_inside(
            Path::new("/game/src/shared/Net"),
            Path::new("/game/src/./shared")
        ));
        assert!(!is_inside(
            Path::new("/game/src/sharedX"),
            Path::new("/game/src/shared")
        ));
    }

    #[cfg(unix)]
    #[test]
    fn real_paths_follow_links_even_dangling_ones() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = real(temp.path());
        std::fs::create_dir_all(root.join("project/src")).expect("mkdir");
        std::fs::create_dir_all(root.join("elsewhere")).expect("mkdir");
        std::os::unix::fs::symlink(root.join("elsewhere"), root.join("project/src/Net")).expect("link");
        std::os::unix::fs::symlink(root.join("nowhere/deep"), root.join("project/src/Dangling")).expect("link");
        assert_eq!(real(&root.join("project/src/Net/a/b")), root.join("elsewhere/a/b"));
        assert_eq!(real(&root.join("project/src/Dangling/x")), root.join("nowhere/deep/x"));
        assert!(!is_really_inside(&root.join("project/src/Net"), &root.join("project")));
        assert!(is_really_inside(&root.join("project/src/new/x"), &root.join("project")));
        std::os::unix::fs::symlink(root.join("project/Packages"), root.join("project/src/Pk")).expect("link");
        assert_eq!(
            wally_folder_in(&root.join("project/src/Pk/Net"), &root.join("project")),
            Some(root.join("project/Packages"))
        );
    }
}
