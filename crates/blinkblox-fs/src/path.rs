//! Paths, one way everywhere. Most helpers are lexical (no symbolic link followed, no need
//! for the path to exist), so what they give does not depend on the machine; [`real`] and
//! what is built on it follow links, for the checks that decide where a command may write
//! or what it may remove.

use std::path::{Component, Path, PathBuf};

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

/// Where `path` really is: symlinks resolved along the part that exists, the rest (folders
/// sync has yet to create) appended as written. Relative paths are taken from the current
/// folder. A link whose target does not exist is followed too, so it cannot hide where a
/// later write would land.
pub fn real(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&std::env::current_dir().unwrap_or_default().join(path))
    };
    real_within(&absolute, 0)
}

fn real_within(absolute: &Path, links: usize) -> PathBuf {
    let mut existing = absolute.to_path_buf();
    let mut missing = Vec::new();
    loop {
        if let Ok(found) = existing.canonicalize() {
            return missing.iter().rev().fold(found, |path, name| path.join(name));
        }
        // A dangling link: where it points decides (bounded, as the system bounds links).
        if links < 40
            && let Ok(target) = std::fs::read_link(&existing)
        {
            let parent = existing.parent().map(Path::to_path_buf).unwrap_or_default();
            let target = normalize(&parent.join(target));
            let resolved = real_within(&target, links + 1);
            return missing.iter().rev().fold(resolved, |path, name| path.join(name));
        }
        match existing.file_name() {
            Some(name) => {
                missing.push(name.to_os_string());
                existing.pop();
            }
            None => return absolute.to_path_buf(),
        }
    }
}

/// Whether `path` really lies inside `dir` (or is `dir`), symlinks followed.
pub fn is_really_inside(path: &Path, dir: &Path) -> bool {
    real(path).starts_with(real(dir))
}

/// Whether `name` names one file or folder inside its parent: not empty, not `.` or `..`,
/// no separator. A name made from user input (a schema's file name) must be one before it
/// is joined to a folder, or it would lead out of it.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\'])
}

/// The name a file is shown under: relative to the working directory when it is
/// inside it, as given otherwise, always with `/` separators.
pub fn display_name(path: &Path) -> String {
    let normalized = normalize(path);
    let shown = match std::env::current_dir() {
        Ok(cwd) if normalized.is_absolute() => normalized
            .strip_prefix(&cwd)
            .map(Path::to_path_buf)
            .unwrap_or(normalized),
        _ => normalized,
    };
    shown.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_lead_nowhere_else() {
        assert!(is_plain_name("combat") && is_plain_name(".hidden") && is_plain_name("a.b"));
        for name in ["", ".", "..", "a/b", "..\\x"] {
            assert!(!is_plain_name(name), "{name:?}");
        }
    }

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
}
