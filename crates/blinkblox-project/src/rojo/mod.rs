//! The Rojo project file: finding it, resolving an instance path such as
//! `ReplicatedStorage.Shared.Net` to the folder on disk behind it, and telling which
//! instance a folder becomes (through the project's `$path` nodes, and Rojo's rule that a
//! folder's `init.luau` makes the folder itself the module).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ProjectError;
use crate::{jsonc, paths};

mod locate;
mod resolve;

pub use locate::Mapping;

/// Project file names Rojo picks by default, in order.
pub const DEFAULT_PROJECT_NAMES: [&str; 2] = ["default.project.json", "default.project.jsonc"];

/// How deep nested project files may go before we call it a cycle.
pub(crate) const MAX_NESTING: usize = 16;

/// A loaded project file.
#[derive(Debug, Clone)]
pub struct RojoProject {
    pub path: PathBuf,
    /// The folder holding the project file: its `$path`s are relative to it.
    pub dir: PathBuf,
    pub tree: Value,
    /// `globIgnorePaths`: globs relative to `dir` that Rojo skips.
    pub glob_ignore_paths: Vec<String>,
}

/// The project file configured in the manifest, else `default.project.json`, else `.jsonc`,
/// in `root`. `Ok(None)` when there is none (not a Rojo project).
pub fn find_project(root: &Path, configured: Option<&str>) -> Result<Option<PathBuf>, ProjectError> {
    if let Some(configured) = configured {
        let path = paths::normalize(&root.join(configured));
        if path.is_dir() {
            return match project_file_in(&path) {
                // A folder holding a project file names it, as `rojo build <folder>` does.
                Some(file) => Ok(Some(file)),
                None => Err(ProjectError::new(format!(
                    "`[rojo] project = \"{configured}\"` is a folder with no `default.project.json` in it"
                ))
                .with_help("name the project file itself, e.g. `project = \"default.project.json\"`")),
            };
        }
        if !path.is_file() {
            return Err(ProjectError::new(format!(
                "the Rojo project file `{configured}` named in `[rojo] project` does not exist"
            ))
            .with_help("fix the path (relative to blinkblox.toml) or remove the key to find it automatically"));
        }
        return Ok(Some(path));
    }
    Ok(project_file_in(root))
}

/// `default.project.json`, then `default.project.jsonc`, in `dir`.
pub fn project_file_in(dir: &Path) -> Option<PathBuf> {
    DEFAULT_PROJECT_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn is_project_file(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    name.ends_with(".project.json") || name.ends_with(".project.jsonc")
}

impl RojoProject {
    pub fn load(path: &Path) -> Result<RojoProject, ProjectError> {
        let text = crate::read_text(path).map_err(|err| ProjectError::io("read", path, &err))??;
        let value = jsonc::parse(&text).map_err(|err| {
            ProjectError::new(format!(
                "`{}`:{}:{}: not a valid Rojo project file: {err}",
                path.display(),
                err.line(),
                err.column()
            ))
        })?;
        let tree = value
            .get("tree")
            .cloned()
            .ok_or_else(|| ProjectError::new(format!("`{}` has no `tree`: not a Rojo project file", path.display())))?;
        if !tree.is_object() {
            return Err(ProjectError::new(format!(
                "`{}`: `tree` must be an object",
                path.display()
            )));
        }
        check_paths(path, &tree, "tree")?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        refuse_self_reference(path, &dir, &tree, "tree")?;
        let glob_ignore_paths = glob_ignore_paths(path, &value)?;
        Ok(RojoProject {
            path: path.to_path_buf(),
            dir: path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from(".")),
            tree,
            glob_ignore_paths,
        })
    }

    /// The `globIgnorePaths` pattern that hides files written into `dir` from Rojo, if any.
    /// Rojo matches the paths of the files it reads, so a file inside `dir` is the probe; a
    /// matching `!pattern` (gitignore-style negation, Rojo 7.7) brings it back.
    pub fn ignored_by(&self, dir: &Path) -> Option<String> {
        let probe = paths::slash(&paths::relative_to(&dir.join("Server.luau"), &self.dir)?);
        let matches = |pattern: &str| {
            globset::Glob::new(pattern)
                .map(|glob| glob.compile_matcher().is_match(&probe))
                .unwrap_or(false)
        };
        let mut ignored_by = None;
        for pattern in &self.glob_ignore_paths {
            match pattern.strip_prefix('!') {
                Some(negated) if matches(negated) => ignored_by = None,
                Some(_) => {}
                None if matches(pattern) => ignored_by = Some(pattern.clone()),
                None => {}
            }
        }
        ignored_by
    }
}

/// A child instance node (keys not starting with `$`).
pub(crate) fn child_node<'a>(node: &'a Value, name: &str) -> Option<&'a Value> {
    if name.starts_with('$') {
        return None;
    }
    node.get(name).filter(|child| child.is_object())
}

/// Every `$path` in the tree is a string or `{ "optional": string }`, as Rojo requires, and
/// every child is an object: otherwise Rojo refuses the project, and sync would report a
/// missing folder instead of the real mistake.
fn check_paths(path: &Path, node: &Value, at: &str) -> Result<(), ProjectError> {
    let Some(object) = node.as_object() else {
        return Ok(());
    };
    for (key, child) in object {
        if key == "$path" {
            let valid = child.is_string() || child.get("optional").is_some_and(Value::is_string);
            if !valid {
                return Err(
                    ProjectError::new(format!("`{}`: `{at}.$path` is `{child}`, not a path", path.display()))
                        .with_help("write `\"$path\": \"src/shared\"` (or `{ \"optional\": \"…\" }`)"),
                );
            }
        } else if !key.starts_with('$') {
            if !child.is_object() {
                return Err(ProjectError::new(format!(
                    "`{}`: `{at}.{key}` is `{child}`, but an instance must be an object",
                    path.display()
                ))
                .with_help(format!(
                    "write `\"{key}\": {{ \"$path\": \"…\" }}` or `\"{key}\": {{ \"$className\": \"Folder\" }}`"
                )));
            }
            check_paths(path, child, &format!("{at}.{key}"))?;
        }
    }
    Ok(())
}

/// A `$path` leading back to the project file itself (`"$path": "."` in the folder holding
/// `default.project.json`) makes Rojo read the project as a nested project of its own.
fn refuse_self_reference(path: &Path, dir: &Path, node: &Value, at: &str) -> Result<(), ProjectError> {
    if let Some(target) = node_path(node, dir)
        && nested_project(&target).is_some_and(|nested| paths::normalize(&nested) == paths::normalize(path))
    {
        let written = node
            .get("$path")
            .and_then(|raw| raw.as_str().or_else(|| raw.get("optional").and_then(Value::as_str)))
            .unwrap_or_default();
        return Err(ProjectError::new(format!(
            "`{}`: `{at}.$path` is `{written}`, which leads back to this project file, so Rojo would read the project inside itself",
            path.display()
        ))
        .with_help("point `$path` at the folder of the code, e.g. `\"$path\": \"src/shared\"`"));
    }
    if let Some(object) = node.as_object() {
        for (key, child) in object.iter().filter(|(key, _)| !key.starts_with('$')) {
            refuse_self_reference(path, dir, child, &format!("{at}.{key}"))?;
        }
    }
    Ok(())
}

/// `globIgnorePaths`: a list of globs, each optionally negated with `!`. Rojo refuses a
/// project whose list is not that, so sync does too rather than guess what it ignores.
fn glob_ignore_paths(path: &Path, project: &Value) -> Result<Vec<String>, ProjectError> {
    let Some(list) = project.get("globIgnorePaths") else {
        return Ok(Vec::new());
    };
    let invalid = |what: String| {
        ProjectError::new(format!("`{}`: `globIgnorePaths` {what}", path.display()))
            .with_help("make it a list of glob strings, e.g. `\"globIgnorePaths\": [\"**/*.spec.luau\"]`")
    };
    let Some(list) = list.as_array() else {
        return Err(invalid(format!("must be a list of globs, not `{list}`")));
    };
    let mut patterns = Vec::with_capacity(list.len());
    for item in list {
        let Some(pattern) = item.as_str() else {
            return Err(invalid(format!("holds `{item}`, which is not a string")));
        };
        let glob = pattern.strip_prefix('!').unwrap_or(pattern);
        if let Err(err) = globset::Glob::new(glob) {
            return Err(invalid(format!(
                "holds `{pattern}`, which is not a valid glob: {}",
                err.kind()
            )));
        }
        patterns.push(pattern.to_string());
    }
    Ok(patterns)
}

/// The node's `$path` (a string or `{"optional": …}`), joined to the project's folder.
pub(crate) fn node_path(node: &Value, base: &Path) -> Option<PathBuf> {
    let raw = node.get("$path")?;
    let text = raw.as_str().or_else(|| raw.get("optional").and_then(Value::as_str))?;
    Some(paths::normalize(&base.join(text)))
}

/// The node's `$path` when it is a folder (and not a nested project).
pub(crate) fn node_dir(node: &Value, base: &Path) -> Option<PathBuf> {
    node_path(node, base).filter(|path| path.is_dir() && nested_project(path).is_none())
}

/// The project file a `$path` leads to, when it names one or a folder holding one.
pub(crate) fn nested_project(path: &Path) -> Option<PathBuf> {
    if path.is_file() && is_project_file(path) {
        return Some(path.to_path_buf());
    }
    if path.is_dir() {
        return project_file_in(path);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn resolves_through_nested_paths_and_projects() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        write(
            &root.join("default.project.jsonc"),
            r#"{ "name": "game", "tree": { "$className": "DataModel",
                 // shared code
                 "ReplicatedStorage": { "Shared": { "$path": "src/shared" }, "Lib": { "$path": "lib" }, },
                 "ServerScriptService": { "$path": "src/server" } } }"#,
        );
        std::fs::create_dir_all(root.join("src/shared/Game")).expect("mkdir");
        std::fs::create_dir_all(root.join("src/server")).expect("mkdir");
        write(
            &root.join("lib/default.project.json"),
            r#"{ "tree": { "$path": "code" } }"#,
        );
        std::fs::create_dir_all(root.join("lib/code/Net")).expect("mkdir");

        let project = RojoProject::load(&root.join("default.project.jsonc")).expect("load");
        assert_eq!(
            project.resolve_instance("ReplicatedStorage.Shared").unwrap(),
            root.join("src/shared")
        );
        assert_eq!(
            project
                .resolve_instance("game.ReplicatedStorage.Shared.Game.Net")
                .unwrap(),
            root.join("src/shared/Game/Net")
        );
        assert_eq!(
            project.resolve_instance("ReplicatedStorage.Lib.Net").unwrap(),
            root.join("lib/code/Net")
        );
        assert_eq!(
            project.resolve_instance("ServerScriptService").unwrap(),
            root.join("src/server")
        );

        let err = project.resolve_instance("ReplicatedStorage.Nope").unwrap_err();
        assert!(err.message.contains("no child `Nope`"), "{err}");
        let err = project.resolve_instance("ReplicatedStorage").unwrap_err();
        assert!(err.message.contains("no folder"), "{err}");

        assert_eq!(
            project
                .instance_path_of(&root.join("src/shared/Game/Net"))
                .unwrap()
                .as_deref(),
            Some("ReplicatedStorage.Shared.Game.Net")
        );
        assert_eq!(
            project.instance_path_of(&root.join("lib/code/Net")).unwrap().as_deref(),
            Some("ReplicatedStorage.Lib.Net")
        );
        assert_eq!(project.instance_path_of(&root.join("elsewhere/Net")).unwrap(), None);
    }

    #[test]
    fn glob_ignore_paths_hide_an_output_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        write(
            &root.join("default.project.json"),
            r#"{ "globIgnorePaths": ["**/Net/**", "!**/Kept/Net/**"], "tree": { "$path": "src" } }"#,
        );
        let project = RojoProject::load(&root.join("default.project.json")).expect("load");
        assert_eq!(
            project.ignored_by(&root.join("src/shared/Net")).as_deref(),
            Some("**/Net/**")
        );
        assert_eq!(project.ignored_by(&root.join("src/Kept/Net")), None);
        assert_eq!(project.ignored_by(&root.join("src/shared/Other")), None);
    }

    #[test]
    fn a_glob_ignore_list_rojo_would_refuse_is_an_error_naming_it() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        for (list, expected) in [
            (r#"["["]"#, "holds `[`, which is not a valid glob"),
            (r#"["!**/{a"]"#, "holds `!**/{a`, which is not a valid glob"),
            (r#"[5]"#, "holds `5`, which is not a string"),
            (r#""**/Net/**""#, "must be a list of globs"),
        ] {
            let file = root.join("default.project.json");
            write(
                &file,
                &format!(r#"{{ "globIgnorePaths": {list}, "tree": {{ "$path": "src" }} }}"#),
            );
            let Err(err) = RojoProject::load(&file) else {
                panic!("{list}: an invalid list is refused");
            };
            let text = err.to_string();
            assert!(text.contains("default.project.json`: `globIgnorePaths` "), "{text}");
            assert!(text.contains(expected), "{text}");
        }
    }

    #[test]
    fn a_path_or_child_of_the_wrong_type_is_an_error_naming_it() {
        let temp = tempfile::tempdir().expect("tempdir");
        let file = temp.path().join("default.project.json");
        for (tree, expected) in [
            (
                r#"{ "ReplicatedStorage": { "$path": 5 } }"#,
                "`tree.ReplicatedStorage.$path` is `5`, not a path",
            ),
            (
                r#"{ "ReplicatedStorage": "oops" }"#,
                "`tree.ReplicatedStorage` is `\"oops\"`, but an instance must be an object",
            ),
            (
                r#"{ "A": { "B": { "$path": { "optional": 1 } } } }"#,
                "`tree.A.B.$path`",
            ),
        ] {
            write(&file, &format!(r#"{{ "tree": {tree} }}"#));
            let Err(err) = RojoProject::load(&file) else {
                panic!("{tree}: refused");
            };
            assert!(err.to_string().contains(expected), "{err}");
        }
        write(
            &file,
            r#"{ "tree": { "$className": "DataModel", "A": { "$path": { "optional": "a" }, "$properties": { "X": 1 } } } }"#,
        );
        assert!(RojoProject::load(&file).is_ok(), "valid trees still load");
    }

    #[test]
    fn a_script_in_the_way_is_an_error() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        write(
            &root.join("default.project.json"),
            r#"{ "tree": { "ReplicatedStorage": { "$path": "src" } } }"#,
        );
        write(&root.join("src/Net.luau"), "return {}");
        let project = RojoProject::load(&root.join("default.project.json")).expect("load");
        let err = project.resolve_instance("ReplicatedStorage.Net").unwrap_err();
        assert!(err.message.contains("is a script"), "{err}");
    }

    #[test]
    fn nested_project_files_fanning_out_are_each_read_once() {
        // Each of 16 project files points at the next three times: 3^16 paths to the last.
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        for level in 0..16 {
            let next = format!("p{}.project.json", level + 1);
            let tree = format!(
                r#"{{ "A": {{ "$path": "{next}" }}, "B": {{ "$path": "{next}" }}, "C": {{ "$path": "{next}" }} }}"#
            );
            write(
                &root.join(format!("p{level}.project.json")),
                &format!(r#"{{ "tree": {tree} }}"#),
            );
        }
        write(&root.join("p16.project.json"), r#"{ "tree": { "$path": "src" } }"#);
        std::fs::create_dir_all(root.join("src/Net")).expect("mkdir");
        let project = RojoProject::load(&root.join("p0.project.json")).expect("load");
        let found = project.instance_path_of(&root.join("src/Net")).expect("located");
        let expected = format!("{}Net", "C.".repeat(16));
        assert_eq!(
            found.as_deref(),
            Some(expected.as_str()),
            "the last of equally deep mappings"
        );
        assert_eq!(
            project.instance_path_of(&root.join("elsewhere")).expect("located"),
            None
        );
        let err = project.mappings().expect_err("too many folders to list");
        assert!(err.message.contains("fan out"), "{err}");
    }

    #[test]
    fn a_cycle_of_project_files_is_an_error() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        write(
            &root.join("a.project.json"),
            r#"{ "tree": { "B": { "$path": "b.project.json" } } }"#,
        );
        write(
            &root.join("b.project.json"),
            r#"{ "tree": { "A": { "$path": "a.project.json" } } }"#,
        );
        let project = RojoProject::load(&root.join("a.project.json")).expect("load");
        let err = project.instance_path_of(&root.join("src")).expect_err("a cycle");
        assert!(err.message.contains("cycle"), "{err}");
    }

    #[test]
    fn finds_the_default_project_file_in_order() {
        let temp = tempfile::tempdir().expect("tempdir");
        assert_eq!(find_project(temp.path(), None).unwrap(), None);
        write(&temp.path().join("default.project.jsonc"), "{}");
        assert_eq!(
            find_project(temp.path(), None).unwrap(),
            Some(temp.path().join("default.project.jsonc"))
        );
        write(&temp.path().join("default.project.json"), "{}");
        assert_eq!(
            find_project(temp.path(), None).unwrap(),
            Some(temp.path().join("default.project.json"))
        );
        assert!(find_project(temp.path(), Some("missing.project.json")).is_err());
    }
}
