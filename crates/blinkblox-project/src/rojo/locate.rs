//! From a folder on disk to the instance it becomes, and the folders a project maps.
//!
//! Nested project files can be reached along many paths (two `$path`s to one project, each of
//! whose nodes points at the next): walking every path is exponential in the nesting. Each
//! project file is therefore read once per question, and what it answers is kept.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::Value;

use super::{MAX_NESTING, RojoProject, nested_project, node_path, project_file_in};
use crate::{ProjectError, paths};

/// Folders `mappings` lists at most: past this, nested project files fan out.
const MAX_MAPPINGS: usize = 10_000;

/// A folder the project maps into the tree, and the instance it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    pub instance: Vec<String>,
    pub dir: PathBuf,
}

impl RojoProject {
    /// Every folder mapped into the tree (including through nested project files).
    pub fn mappings(&self) -> Result<Vec<Mapping>, ProjectError> {
        let mut walk = Walk::default();
        let mut out = Vec::new();
        walk.collect(&self.tree, &self.dir, &mut Vec::new(), &mut out, 0)?;
        Ok(out)
    }

    /// The instance path (`ReplicatedStorage.Shared.Net`) a folder becomes, when the folder
    /// lies inside a mapped `$path`. `None` when Rojo would not see it. Of several mapped
    /// folders holding it, the deepest decides (the last listed, of equally deep ones).
    #[cfg(test)]
    pub fn instance_path_of(&self, dir: &Path) -> Result<Option<String>, ProjectError> {
        Ok(self.instance_names_of(dir)?.map(|instance| instance.join(".")))
    }

    /// The instance a folder becomes, as names, one an instance (a name may hold a dot);
    /// `None` when Rojo would not see the folder.
    pub fn instance_names_of(&self, dir: &Path) -> Result<Option<Vec<String>>, ProjectError> {
        let dir = paths::normalize(dir);
        let mut walk = Walk::default();
        let found = walk.locate_in(self, &dir, 0)?;
        Ok(found.and_then(|found| found.instance))
    }
}

/// A mapped folder holding the folder asked about.
#[derive(Debug, Clone)]
struct Found {
    /// How deep the mapped folder is (its path's component count): the deepest wins.
    depth: usize,
    /// The instance the folder asked about becomes; `None` when a project file on the way
    /// down from the mapped folder does not map it.
    instance: Option<Vec<String>>,
}

/// What one question has read so far: each project file once, and each one's answer.
#[derive(Default)]
struct Walk {
    projects: HashMap<PathBuf, Rc<RojoProject>>,
    answers: HashMap<PathBuf, Option<Found>>,
    /// Project files whose answer is being worked out (one met again is a cycle).
    open: HashSet<PathBuf>,
}

fn too_deep() -> ProjectError {
    ProjectError::new(format!(
        "Rojo project files nest more than {MAX_NESTING} deep (a cycle?)"
    ))
}

impl Walk {
    fn load(&mut self, path: &Path) -> Result<Rc<RojoProject>, ProjectError> {
        let key = paths::normalize(path);
        if let Some(project) = self.projects.get(&key) {
            return Ok(Rc::clone(project));
        }
        let project = Rc::new(RojoProject::load(path)?);
        self.projects.insert(key, Rc::clone(&project));
        Ok(project)
    }

    /// Where `dir` is in `project`'s tree, relative to the project's root instance.
    fn locate_in(&mut self, project: &RojoProject, dir: &Path, depth: usize) -> Result<Option<Found>, ProjectError> {
        let key = paths::normalize(&project.path);
        if let Some(answer) = self.answers.get(&key) {
            return Ok(answer.clone());
        }
        if depth > MAX_NESTING || !self.open.insert(key.clone()) {
            return Err(too_deep());
        }
        let mut best = None;
        self.locate_node(&project.tree, &project.dir, &mut Vec::new(), dir, depth, &mut best)?;
        self.open.remove(&key);
        self.answers.insert(key, best.clone());
        Ok(best)
    }

    fn locate_node(
        &mut self,
        node: &Value,
        base: &Path,
        instance: &mut Vec<String>,
        dir: &Path,
        depth: usize,
        best: &mut Option<Found>,
    ) -> Result<(), ProjectError> {
        if let Some(path) = node_path(node, base) {
            if let Some(nested) = nested_project(&path) {
                let project = self.load(&nested)?;
                if let Some(found) = self.locate_in(&project, dir, depth + 1)? {
                    let instance = found.instance.map(|inner| {
                        let mut full = instance.clone();
                        full.extend(inner);
                        full
                    });
                    keep_deepest(best, Found { instance, ..found });
                }
            } else if path.is_dir() && paths::is_inside(dir, &path) {
                let found = self.below(&path, instance.clone(), dir, depth)?;
                keep_deepest(best, found);
            }
        }
        if let Some(object) = node.as_object() {
            for (key, child) in object {
                if key.starts_with('$') || !child.is_object() {
                    continue;
                }
                instance.push(key.clone());
                self.locate_node(child, base, instance, dir, depth, best)?;
                instance.pop();
            }
        }
        Ok(())
    }

    /// From the mapped folder `mapped` (the instance `instance`) down to `dir`: each folder on
    /// the way becomes a child instance, unless it holds a project file of its own, which then
    /// decides.
    fn below(
        &mut self,
        mapped: &Path,
        mut instance: Vec<String>,
        dir: &Path,
        depth: usize,
    ) -> Result<Found, ProjectError> {
        let mapped = paths::normalize(mapped);
        let found_depth = mapped.components().count();
        let mut current = mapped.clone();
        let rest = paths::relative_to(dir, &mapped).unwrap_or_default();
        for component in rest.components() {
            let name = component.as_os_str().to_string_lossy().into_owned();
            current = current.join(&name);
            if let (Some(nested), true) = (project_file_in(&current), depth < MAX_NESTING) {
                let project = self.load(&nested)?;
                instance.push(name);
                let inner = self
                    .locate_in(&project, dir, depth + 1)?
                    .and_then(|inner| inner.instance);
                return Ok(Found {
                    depth: found_depth,
                    instance: inner.map(|inner| {
                        instance.extend(inner);
                        instance
                    }),
                });
            }
            instance.push(name);
        }
        Ok(Found {
            depth: found_depth,
            instance: Some(instance),
        })
    }

    fn collect(
        &mut self,
        node: &Value,
        base: &Path,
        instance: &mut Vec<String>,
        out: &mut Vec<Mapping>,
        depth: usize,
    ) -> Result<(), ProjectError> {
        if depth > MAX_NESTING {
            return Err(too_deep());
        }
        if out.len() > MAX_MAPPINGS {
            return Err(ProjectError::new(format!(
                "the Rojo project maps more than {MAX_MAPPINGS} folders: its nested project files fan out"
            ))
            .with_help("point each folder at one project file"));
        }
        if let Some(path) = node_path(node, base) {
            if let Some(nested) = nested_project(&path) {
                let project = self.load(&nested)?;
                self.collect(&project.tree, &project.dir, instance, out, depth + 1)?;
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
                self.collect(child, base, instance, out, depth)?;
                instance.pop();
            }
        }
        Ok(())
    }
}

/// Keeps the deeper of two mapped folders; of equally deep ones, the later.
fn keep_deepest(best: &mut Option<Found>, found: Found) {
    if best.as_ref().is_none_or(|best| found.depth >= best.depth) {
        *best = Some(found);
    }
}
