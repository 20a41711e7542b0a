//! The Rojo project file: finding it, resolving an instance path such as
//! `ReplicatedStorage.Shared.Net` to the folder on disk behind it, and telling which
//! instance a folder becomes (through the project's `$path` nodes, and Rojo's rule that a
//! folder's `init.luau` makes the folder itself the module).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ProjectError;
use crate::{jsonc, paths};

/// Project file names Rojo picks by default, in order.
pub const DEFAULT_PROJECT_NAMES: [&str; 2] = ["default.project.json", "default.project.jsonc"];

/// How deep nested project files may go before we call it a cycle.
const MAX_NESTING: usize = 16;

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

/// A folder the project maps into the tree, and the instance it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    pub instance: Vec<String>,
    pub dir: PathBuf,
}

/// The project file configured in the manifest, else `default.project.json`, else `.jsonc`,
/// in `root`. `Ok(None)` when there is none (not a Rojo project).
pub fn find_project(root: &Path, configured: Option<&str>) -> Result<Option<PathBuf>, ProjectError> {
    if let Some(configured) = configured {
        let path = paths::normalize(&root.join(configured));
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
        let text = std::fs::read_to_string(path).map_err(|err| ProjectError::io("read", path, &err))?;
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

    /// The folder on disk behind an instance path such as `ReplicatedStorage.Shared.Net`
    /// (a leading `game.` is allowed). Trailing folders that do not exist yet are fine:
    /// sync creates them.
    pub fn resolve_instance(&self, instance: &str) -> Result<PathBuf, ProjectError> {
        let mut segments: Vec<&str> = instance.split('.').map(str::trim).collect();
        if segments.first() == Some(&"game") {
            segments.remove(0);
        }
        let mut cursor = Cursor::node(self.tree.clone(), self.dir.clone(), self.path.clone()).enter(0)?;
        for (index, segment) in segments.iter().enumerate() {
            let so_far = segments[..index].join(".");
            cursor = match cursor {
                Cursor::Node { node, base, file } => {
                    if let Some(child) = child_node(&node, segment) {
                        Cursor::node(child.clone(), base, file).enter(0)?
                    } else if let Some(dir) = node_dir(&node, &base) {
                        Cursor::disk(dir.join(segment), instance)?
                    } else {
                        let parent = if so_far.is_empty() {
                            "the root".to_string()
                        } else {
                            format!("`{so_far}`")
                        };
                        return Err(ProjectError::new(format!(
                            "cannot resolve `{instance}`: {parent} in `{}` has no child `{segment}` and no `$path` folder",
                            file.display()
                        ))
                        .with_help("map a folder with `$path` in the project file, or use `[output] path` instead"));
                    }
                }
                Cursor::Disk(dir) => Cursor::disk(dir.join(segment), instance)?,
            };
        }
        match cursor {
            Cursor::Disk(dir) => Ok(paths::normalize(&dir)),
            Cursor::Node { node, base, file } => match node_path(&node, &base) {
                Some(path) if path.is_dir() => Ok(paths::normalize(&path)),
                Some(path) => Err(ProjectError::new(format!(
                    "cannot write into `{instance}`: its `$path` `{}` in `{}` is not a folder",
                    path.display(),
                    file.display()
                ))),
                None => Err(ProjectError::new(format!(
                    "cannot write into `{instance}`: `{}` maps no folder to it (no `$path`)",
                    file.display()
                ))
                .with_help("give the instance a `$path` folder, or point `[output] instance` below one")),
            },
        }
    }

    /// Every folder mapped into the tree (including through nested project files).
    pub fn mappings(&self) -> Result<Vec<Mapping>, ProjectError> {
        let mut out = Vec::new();
        collect_mappings(&self.tree, &self.dir, &mut Vec::new(), &mut out, 0)?;
        Ok(out)
    }

    /// The instance path (`ReplicatedStorage.Shared.Net`) a folder becomes, when the folder
    /// lies inside a mapped `$path`. `None` when Rojo would not see it.
    pub fn instance_path_of(&self, dir: &Path) -> Result<Option<String>, ProjectError> {
        let dir = paths::normalize(dir);
        locate(&self.mappings()?, &dir, 0)
    }
}

fn locate(mappings: &[Mapping], dir: &Path, depth: usize) -> Result<Option<String>, ProjectError> {
    let best = mappings
        .iter()
        .filter(|mapping| paths::is_inside(dir, &mapping.dir))
        .max_by_key(|mapping| mapping.dir.components().count());
    let Some(best) = best else { return Ok(None) };
    let mut instance = best.instance.clone();
    let mut current = paths::normalize(&best.dir);
    let rest = paths::relative_to(dir, &best.dir).unwrap_or_default();
    for component in rest.components() {
        let name = component.as_os_str().to_string_lossy().into_owned();
        current = current.join(&name);
        // A folder holding a project file is that nested project, with its own mappings.
        if let (Some(nested), true) = (project_file_in(&current), depth < MAX_NESTING) {
            let project = RojoProject::load(&nested)?;
            let mut nested_mappings = project.mappings()?;
            for mapping in &mut nested_mappings {
                let mut full = instance.clone();
                full.push(name.clone());
                full.extend(mapping.instance.iter().cloned());
                mapping.instance = full;
            }
            return locate(&nested_mappings, dir, depth + 1);
        }
        instance.push(name);
    }
    Ok(Some(instance.join(".")))
}

fn collect_mappings(
    node: &Value,
    base: &Path,
    instance: &mut Vec<String>,
    out: &mut Vec<Mapping>,
    depth: usize,
) -> Result<(), ProjectError> {
    if depth > MAX_NESTING {
        return Err(ProjectError::new(
            "Rojo project files nest more than 16 deep (a cycle?)",
        ));
    }
    if let Some(path) = node_path(node, base) {
        if let Some(nested) = nested_project(&path) {
            let project = RojoProject::load(&nested)?;
            collect_mappings(&project.tree, &project.dir, instance, out, depth + 1)?;
        } else if path.is_dir() {
            out.push(Mapping {
                instance: instance.clone(),
                dir: paths::normalize(&path),
            });
        }
    }
    if let Some(object) = node.as_object() {
        for (key, child) in object {
            if key.starts_with('$') || !child.is_object() {
                continue;
            }
            instance.push(key.clone());
            collect_mappings(child, base, instance, out, depth)?;
            instance.pop();
        }
    }
    Ok(())
}

/// Where resolution stands: on a project node, or on a folder on disk.
enum Cursor {
    Node { node: Value, base: PathBuf, file: PathBuf },
    Disk(PathBuf),
}

impl Cursor {
    fn node(node: Value, base: PathBuf, file: PathBuf) -> Cursor {
        Cursor::Node { node, base, file }
    }

    /// Follows a `$path` that names a nested project file (or a folder holding one).
    fn enter(self, depth: usize) -> Result<Cursor, ProjectError> {
        let Cursor::Node { node, base, file } = self else {
            return Ok(self);
        };
        match node_path(&node, &base).and_then(|path| nested_project(&path)) {
            Some(nested) if depth < MAX_NESTING => {
                let project = RojoProject::load(&nested)?;
                Cursor::node(project.tree, project.dir, project.path).enter(depth + 1)
            }
            Some(_) => Err(ProjectError::new(
                "Rojo project files nest more than 16 deep (a cycle?)",
            )),
            None => Ok(Cursor::Node { node, base, file }),
        }
    }

    /// Steps onto a folder on disk, which may be a nested project.
    fn disk(path: PathBuf, instance: &str) -> Result<Cursor, ProjectError> {
        if path.is_dir() {
            if let Some(nested) = project_file_in(&path) {
                let project = RojoProject::load(&nested)?;
                return Cursor::node(project.tree, project.dir, project.path).enter(1);
            }
            return Ok(Cursor::Disk(path));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for suffix in [
            ".luau",
            ".lua",
            ".server.luau",
            ".client.luau",
            ".server.lua",
            ".client.lua",
        ] {
            let script = path.with_file_name(format!("{name}{suffix}"));
            if script.is_file() {
                return Err(ProjectError::new(format!(
                    "cannot write into `{instance}`: `{}` is a script, not a folder",
                    script.display()
                )));
            }
        }
        if path.exists() {
            return Err(ProjectError::new(format!(
                "cannot write into `{instance}`: `{}` is a file, not a folder",
                path.display()
            )));
        }
        Ok(Cursor::Disk(path))
    }
}

/// A child instance node (keys not starting with `$`).
fn child_node<'a>(node: &'a Value, name: &str) -> Option<&'a Value> {
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
fn node_path(node: &Value, base: &Path) -> Option<PathBuf> {
    let raw = node.get("$path")?;
    let text = raw.as_str().or_else(|| raw.get("optional").and_then(Value::as_str))?;
    Some(paths::normalize(&base.join(text)))
}

/// The node's `$path` when it is a folder (and not a nested project).
fn node_dir(node: &Value, base: &Path) -> Option<PathBuf> {
    node_path(node, base).filter(|path| path.is_dir() && nested_project(path).is_none())
}

/// The project file a `$path` leads to, when it names one or a folder holding one.
fn nested_project(path: &Path) -> Option<PathBuf> {
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
