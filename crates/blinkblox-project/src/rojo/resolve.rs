//! From an instance path (`ReplicatedStorage.Shared.Net`) to the folder on disk behind it.

use std::path::PathBuf;

use serde_json::Value;

use super::{MAX_NESTING, RojoProject, child_node, nested_project, node_dir, node_path, project_file_in};
use crate::{ProjectError, paths};

impl RojoProject {
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
                        let children: Vec<&str> = node
                            .as_object()
                            .map(|object| {
                                object
                                    .iter()
                                    .filter(|(key, child)| !key.starts_with('$') && child.is_object())
                                    .map(|(key, _)| key.as_str())
                                    .collect()
                            })
                            .unwrap_or_default();
                        let help = match blinkblox_schema::suggest::closest(segment, children.iter().copied()) {
                            Some(suggestion) => {
                                let mut corrected = segments.clone();
                                corrected[index] = suggestion;
                                let listed: Vec<String> = children.iter().map(|child| format!("`{child}`")).collect();
                                format!(
                                    "did you mean `{}`? ({parent} has {})",
                                    corrected.join("."),
                                    listed.join(", ")
                                )
                            }
                            None => "map a folder with `$path` in the project file, or use `[output] path` instead"
                                .to_string(),
                        };
                        return Err(ProjectError::new(format!(
                            "cannot resolve `{instance}`: {parent} in `{}` has no child `{segment}` and no `$path` folder",
                            file.display()
                        ))
                        .with_help(help));
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
