//! Finding the schemas a manifest asks for: `include` globs (relative to the manifest),
//! minus `exclude` globs. A schema keeps its folder relative to its glob's base, so
//! `net/**/*.blink` maps `net/combat/guns.blink` to `<output>/combat/guns/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder};
use walkdir::WalkDir;

use crate::ProjectError;
use crate::manifest::SchemaGlobs;
use crate::paths;

/// A schema found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaEntry {
    /// The file, `root` joined with its relative path.
    pub path: PathBuf,
    /// Relative to the manifest's folder, `/`-separated (the lockfile key).
    pub rel_path: String,
    /// The schema's folder under the output, `/`-separated: `combat` or `sub/combat`.
    pub out_rel: String,
}

/// What the manifest's globs found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    /// Every schema the globs match, sorted by path.
    pub schemas: Vec<SchemaEntry>,
    /// `include` patterns that matched no file.
    pub unmatched: Vec<String>,
    /// `exclude` patterns that removed no file.
    pub unused_excludes: Vec<String>,
    /// Files `include` matched that `exclude` removed.
    pub excluded: usize,
}

impl Discovery {
    /// A project with no schema is an error unless the manifest says it is intended: globs
    /// that match nothing would otherwise make sync remove every generated module.
    pub fn require_schemas(&self, globs: &SchemaGlobs, manifest: &str) -> Result<(), ProjectError> {
        if !self.schemas.is_empty() || globs.allow_empty {
            return Ok(());
        }
        let allow = "or set `allow_empty = true` in `[schemas]` if the project is meant to have no schema";
        if self.excluded > 0 {
            return Err(ProjectError::new(format!(
                "{manifest}: `[schemas] exclude` ({}) removes every schema `include` matches ({} {}), so sync would remove every generated module",
                globs.exclude.join(", "),
                self.excluded,
                if self.excluded == 1 { "file" } else { "files" }
            ))
            .with_help(format!("narrow the `exclude` patterns, {allow}")));
        }
        Err(ProjectError::new(format!(
            "{manifest}: no schema matches `[schemas] include` ({}), so sync would remove every generated module",
            globs.include.join(", ")
        ))
        .with_help(format!(
            "patterns are relative to {manifest} and schemas end in `.blink` (e.g. `net/*.blink`); fix them, {allow}"
        )))
    }

    /// One warning for every pattern that matched nothing (when the project has schemas: an
    /// empty one is refused by [`Discovery::require_schemas`]).
    pub fn warnings(&self, manifest: &str) -> Vec<String> {
        let includes = self
            .unmatched
            .iter()
            .map(|pattern| format!("{manifest}: `[schemas] include` pattern `{pattern}` matches no file"));
        let excludes = self
            .unused_excludes
            .iter()
            .map(|pattern| format!("{manifest}: `[schemas] exclude` pattern `{pattern}` excludes no file"));
        includes.chain(excludes).collect()
    }
}

/// Every schema the globs match, sorted by path. A pattern or a matched file reaching
/// outside the project `root` (`../shared/*.blink`, a symbolic link) is an error unless the
/// manifest allows it.
pub fn discover(root: &Path, globs: &SchemaGlobs) -> Result<Discovery, ProjectError> {
    let mut excludes = Vec::new();
    for pattern in &globs.exclude {
        excludes.push((pattern.as_str(), compile(pattern, "exclude")?.compile_matcher()));
    }
    let mut excludes_used = vec![false; excludes.len()];
    let mut discovery = Discovery::default();
    let mut found: BTreeMap<String, SchemaEntry> = BTreeMap::new();
    let mut by_folder: BTreeMap<String, String> = BTreeMap::new();
    let mut excluded = std::collections::BTreeSet::new();

    for pattern in &globs.include {
        let matcher = compile(pattern, "include")?.compile_matcher();
        let base = glob_base(pattern);
        let base_dir = paths::normalize(&root.join(&base));
        if !globs.allow_outside_project && !paths::is_really_inside(&base_dir, root) {
            return Err(outside(pattern, &base_dir));
        }
        let mut matched = false;
        let walker = WalkDir::new(&base_dir)
            .sort_by_file_name()
            .follow_links(true)
            .into_iter()
            .filter_entry(|entry| entry.depth() == 0 || !is_skipped_dir(entry, root));
        for entry in walker.filter(|_| base_dir.is_dir()) {
            let entry = entry.map_err(|err| {
                ProjectError::new(format!("could not list schemas under `{}`: {err}", base_dir.display()))
            })?;
            if !entry.file_type().is_file() {
                continue;
            }
            let Some(rel) = paths::relative_to(entry.path(), root) else {
                continue;
            };
            let rel_path = paths::slash(&rel);
            if !matcher.is_match(&rel_path) {
                continue;
            }
            matched = true;
            let excluded_by: Vec<usize> = excludes
                .iter()
                .enumerate()
                .filter(|(_, (_, exclude))| exclude.is_match(&rel_path))
                .map(|(index, _)| index)
                .collect();
            if !excluded_by.is_empty() {
                for index in excluded_by {
                    excludes_used[index] = true;
                }
                excluded.insert(rel_path);
                continue;
            }
            if found.contains_key(&rel_path) {
                continue;
            }
            if !globs.allow_outside_project && !paths::is_really_inside(entry.path(), root) {
                return Err(outside(pattern, entry.path()));
            }
            let under_base = paths::relative_to(entry.path(), &base_dir).unwrap_or_else(|| rel.clone());
            let stem = under_base
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !paths::is_plain_name(&stem) {
                return Err(ProjectError::new(format!(
                    "schema `{rel_path}` would write its modules into a folder named `{stem}`, which leads out of its place in the output folder"
                ))
                .with_help("give the schema a name before `.blink`, e.g. `net.blink`, or exclude it with `[schemas] exclude`"));
            }
            let out_rel = match under_base.parent().map(paths::slash) {
                Some(folder) if folder != "." && !folder.is_empty() => format!("{folder}/{stem}"),
                _ => stem,
            };
            if let Some(other) = by_folder.insert(out_rel.clone(), rel_path.clone()) {
                return Err(ProjectError::new(format!(
                    "schemas `{other}` and `{rel_path}` would both write to the output folder `{out_rel}`"
                ))
                .with_help("rename one of them, or exclude one with `[schemas] exclude`"));
            }
            found.insert(
                rel_path.clone(),
                SchemaEntry {
                    path: paths::normalize(&root.join(&rel)),
                    rel_path,
                    out_rel,
                },
            );
        }
        if !matched {
            discovery.unmatched.push(pattern.clone());
        }
    }
    discovery.unused_excludes = excludes
        .iter()
        .zip(&excludes_used)
        .filter(|(_, used)| !**used)
        .map(|((pattern, _), _)| pattern.to_string())
        .collect();
    discovery.excluded = excluded.len();
    discovery.schemas = found.into_values().collect();
    Ok(discovery)
}

fn outside(pattern: &str, path: &Path) -> ProjectError {
    ProjectError::new(format!(
        "`[schemas] include` pattern `{pattern}` reaches `{}`, outside the project",
        paths::real(path).display()
    ))
    .with_help("keep schemas inside the project (the folder of blinkblox.toml), or set `allow_outside_project = true` in `[schemas]` if reading them from there is intended")
}

/// Hidden folders (`.git`) and Wally's folders are never searched for schemas.
fn is_skipped_dir(entry: &walkdir::DirEntry, root: &Path) -> bool {
    if !entry.file_type().is_dir() {
        return false;
    }
    let name = entry.file_name().to_string_lossy();
    name.starts_with('.')
        || (paths::PACKAGE_FOLDERS.contains(&name.as_ref()) && paths::wally_folder_in(entry.path(), root).is_some())
}

/// The leading folders of a glob that hold no glob syntax: where the walk starts and what
/// a schema's relative folder is measured from.
pub fn glob_base(pattern: &str) -> String {
    let parts: Vec<&str> = pattern.split('/').collect();
    let folders = &parts[..parts.len().saturating_sub(1)];
    let literal: Vec<&str> = folders
        .iter()
        .take_while(|part| !part.contains(['*', '?', '[', ']', '{', '}']))
        .copied()
        .collect();
    literal.join("/")
}

fn compile(pattern: &str, key: &str) -> Result<Glob, ProjectError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|err| {
            ProjectError::new(format!(
                "blinkblox.toml: `[schemas] {key}` has a bad glob `{pattern}`: {err}"
            ))
        })
}

/// Whether a path (relative to the manifest, `/`-separated) would be picked up as a
/// schema: watch mode uses it to notice new schema files.
pub fn would_include(globs: &SchemaGlobs, rel_path: &str) -> bool {
    let matches = |patterns: &[String]| {
        patterns.iter().any(|pattern| {
            compile(pattern, "include")
                .map(|glob| glob.compile_matcher().is_match(rel_path))
                .unwrap_or(false)
        })
    };
    matches(&globs.include) && !matches(&globs.exclude)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, "").expect("write");
    }

    fn globs(include: &[&str], exclude: &[&str]) -> SchemaGlobs {
        SchemaGlobs {
            include: include.iter().map(|s| s.to_string()).collect(),
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
            allow_empty: false,
            allow_outside_project: false,
        }
    }

    #[test]
    fn bases_stop_at_the_first_glob() {
        assert_eq!(glob_base("net/*.blink"), "net");
        assert_eq!(glob_base("net/**/*.blink"), "net");
        assert_eq!(glob_base("a/b/c.blink"), "a/b");
        assert_eq!(glob_base("*.blink"), "");
        assert_eq!(glob_base("src/{a,b}/x.blink"), "src");
    }

    #[test]
    fn subfolders_keep_their_relative_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        for rel in [
            "net/combat.blink",
            "net/ui/hud.blink",
            "net/old.blink",
            "net/notes.txt",
            "net/.hidden/x.blink",
        ] {
            touch(root, rel);
        }
        let found = discover(root, &globs(&["net/**/*.blink"], &["net/old.blink"]))
            .expect("discover")
            .schemas;
        let pairs: Vec<(&str, &str)> = found
            .iter()
            .map(|s| (s.rel_path.as_str(), s.out_rel.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![("net/combat.blink", "combat"), ("net/ui/hud.blink", "ui/hud")]
        );
        assert_eq!(found[0].path, root.join("net/combat.blink"));

        let shallow = discover(root, &globs(&["net/*.blink"], &[])).expect("discover").schemas;
        let names: Vec<&str> = shallow.iter().map(|s| s.out_rel.as_str()).collect();
        assert_eq!(names, vec!["combat", "old"]);
        assert!(would_include(
            &globs(&["net/*.blink"], &["net/old.blink"]),
            "net/combat.blink"
        ));
        assert!(!would_include(
            &globs(&["net/*.blink"], &["net/old.blink"]),
            "net/old.blink"
        ));
    }

    #[test]
    fn two_schemas_for_one_folder_is_an_error() {
        let temp = tempfile::tempdir().expect("tempdir");
        touch(temp.path(), "a/net.blink");
        touch(temp.path(), "b/net.blink");
        let err = discover(temp.path(), &globs(&["a/*.blink", "b/*.blink"], &[])).unwrap_err();
        assert!(err.message.contains("`a/net.blink` and `b/net.blink`"), "{err}");
        let bad = discover(temp.path(), &globs(&["a/[.blink"], &[])).unwrap_err();
        assert!(bad.message.contains("bad glob"), "{bad}");
    }
}
