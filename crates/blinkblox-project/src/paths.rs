//! Path helpers shared by the project layer. Everything here is lexical (no symlink
//! resolution, no need for the path to exist) so results do not depend on the machine.

use std::path::{Component, Path, PathBuf};

/// The folders Wally deletes before every install: sync never writes inside them.
pub const PACKAGE_FOLDERS: [&str; 3] = ["Packages", "ServerPackages", "DevPackages"];

/// Removes `.` components and folds `..` into the preceding component where there is one.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(component),
            },
            other => out.push(other),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// `path` relative to `base` (both normalized), with `..` where `path` is outside `base`.
/// `None` only when they are on different roots (e.g. different Windows drives).
pub fn relative_to(path: &Path, base: &Path) -> Option<PathBuf> {
    let path = normalize(path);
    let base = normalize(base);
    let path_parts: Vec<Component<'_>> = path.components().collect();
    let base_parts: Vec<Component<'_>> = base.components().filter(|c| *c != Component::CurDir).collect();
    let path_parts: Vec<Component<'_>> = path_parts.into_iter().filter(|c| *c != Component::CurDir).collect();
    let common = path_parts
        .iter()
        .zip(base_parts.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let is_rooted = |parts: &[Component<'_>]| matches!(parts.first(), Some(Component::RootDir | Component::Prefix(_)));
    if is_rooted(&path_parts) != is_rooted(&base_parts) || (is_rooted(&path_parts) && common == 0) {
        return None;
    }
    let mut out = PathBuf::new();
    for part in &base_parts[common..] {
        if matches!(part, Component::ParentDir) {
            return None;
        }
        out.push("..");
    }
    for part in &path_parts[common..] {
        out.push(part.as_os_str());
    }
    Some(out)
}

/// A relative path written with `/` whatever the platform: the form that goes into the
/// lockfile and messages, so they are the same on every machine.
pub fn slash(path: &Path) -> String {
    let mut out = String::new();
    for component in path.components() {
        let part = match component {
            Component::CurDir => continue,
            Component::ParentDir => "..".into(),
            Component::Normal(name) => name.to_string_lossy(),
            Component::RootDir => {
                out.push('/');
                continue;
            }
            Component::Prefix(prefix) => prefix.as_os_str().to_string_lossy(),
        };
        if !out.is_empty() && !out.ends_with('/') {
            out.push('/');
        }
        out.push_str(&part);
    }
    if out.is_empty() { ".".into() } else { out }
}

/// `path` shown relative to `root` with `/`, or as given when it is elsewhere.
pub fn display_relative(path: &Path, root: &Path) -> String {
    match relative_to(path, root) {
        Some(rel) => slash(&rel),
        None => path.display().to_string(),
    }
}

/// Whether `path` lies inside `dir` (or is `dir`), lexically.
pub fn is_inside(path: &Path, dir: &Path) -> bool {
    normalize(path).starts_with(normalize(dir))
}

/// The Wally folder `path` lies in, if any: the first component of `path` relative to the
/// project `root` that is `Packages`, `ServerPackages` or `DevPackages`.
pub fn package_folder_in(path: &Path, root: &Path) -> Option<&'static str> {
    let rel = relative_to(path, root)?;
    rel.components().find_map(|component| match component {
        Component::Normal(name) => PACKAGE_FOLDERS.iter().copied().find(|folder| name == *folder),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_dots() {
        assert_eq!(normalize(Path::new("a/./b/../c")), PathBuf::from("a/c"));
        assert_eq!(normalize(Path::new("../a/..")), PathBuf::from(".."));
        assert_eq!(normalize(Path::new("/x/../../y")), PathBuf::from("/y"));
    }

    #[test]
    fn relative_paths_walk_up_with_dotdot() {
        assert_eq!(
            relative_to(Path::new("/p/src/net"), Path::new("/p")),
            Some(PathBuf::from("src/net"))
        );
        assert_eq!(
            relative_to(Path::new("/p/other"), Path::new("/p/src")),
            Some(PathBuf::from("../other"))
        );
        assert_eq!(relative_to(Path::new("/p"), Path::new("/p")), Some(PathBuf::new()));
        assert_eq!(slash(&PathBuf::from("a").join("b").join("c.luau")), "a/b/c.luau");
    }

    #[test]
    fn package_folders_are_found_at_any_depth() {
        let root = Path::new("/game");
        assert_eq!(
            package_folder_in(Path::new("/game/Packages/net"), root),
            Some("Packages")
        );
        assert_eq!(
            package_folder_in(Path::new("/game/src/DevPackages"), root),
            Some("DevPackages")
        );
        assert_eq!(package_folder_in(Path::new("/game/src/shared/Net"), root), None);
        assert!(is_inside(
            Path::new("/game/src/shared/Net"),
            Path::new("/game/src/./shared")
        ));
        assert!(!is_inside(
            Path::new("/game/src/sharedX"),
            Path::new("/game/src/shared")
        ));
    }
}
