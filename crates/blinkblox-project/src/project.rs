//! The project as its manifest describes it, resolved against the disk: the Rojo project
//! file, the output folder, the schemas, and the warnings found on the way.

use std::path::{Path, PathBuf};

use crate::lockfile::{self, FileHash};
use crate::manifest::{Manifest, OutputLocation};
use crate::rojo::{self, RojoProject};
use crate::schemas::{self, SchemaEntry};
use crate::{ProjectError, paths, writer};

/// The project as the manifest describes it, resolved against the disk.
#[derive(Debug)]
pub struct Project {
    pub manifest: Manifest,
    pub rojo: Option<RojoProject>,
    /// The output folder (absolute or relative like `manifest.root`).
    pub output_dir: PathBuf,
    pub schemas: Vec<SchemaEntry>,
    pub warnings: Vec<String>,
}

impl Project {
    pub fn resolve(manifest: Manifest) -> Result<Project, ProjectError> {
        let root = manifest.root.clone();
        let rojo = match rojo::find_project(&root, manifest.rojo_project.as_deref())? {
            Some(path) => Some(RojoProject::load(&path)?),
            None => None,
        };
        let output_dir = match &manifest.output.location {
            OutputLocation::Path(path) => paths::normalize(&root.join(path)),
            OutputLocation::Instance(instance) => {
                let Some(project) = &rojo else {
                    return Err(ProjectError::new(format!(
                        "`[output] instance = \"{instance}\"` needs a Rojo project, but there is no `default.project.json` next to `{}`",
                        manifest.path.display()
                    ))
                    .with_help("set `[rojo] project = \"<file>.project.json\"`, or use `[output] path`"));
                };
                project.resolve_instance(instance)?
            }
        };
        writer::ensure_folder_not_in_packages(&output_dir, &root)?;
        let mut warnings = Vec::new();
        if let Some(project) = &rojo
            && project.instance_path_of(&output_dir)?.is_none()
        {
            warnings.push(format!(
                "the output folder `{}` is not inside any folder `{}` maps into the DataModel, so Rojo will not sync the generated modules; map it with a `$path` or move `[output] path` under one",
                paths::display_relative(&output_dir, &root),
                paths::display_relative(&project.path, &root)
            ));
        }
        let schemas = schemas::discover(&root, &manifest.schemas)?;
        if schemas.is_empty() {
            warnings.push(format!(
                "no schema matches `[schemas] include` ({}) in `{}`",
                manifest.schemas.include.join(", "),
                paths::display_relative(&manifest.path, &root)
            ));
        }
        if let Some(project) = &rojo
            && let Some(pattern) = project.ignored_by(&output_dir)
        {
            warnings.push(format!(
                "`{}` ignores the output folder `{}` (globIgnorePaths `{pattern}`), so Rojo will not sync the generated modules",
                paths::display_relative(&project.path, &root),
                paths::display_relative(&output_dir, &root)
            ));
        }
        Ok(Project {
            manifest,
            rojo,
            output_dir,
            schemas,
            warnings,
        })
    }

    pub fn root(&self) -> &Path {
        &self.manifest.root
    }

    pub fn rel(&self, path: &Path) -> String {
        paths::display_relative(path, self.root())
    }

    pub fn lockfile_path(&self) -> PathBuf {
        self.root().join(lockfile::LOCKFILE_NAME)
    }

    pub(crate) fn schema_folder(&self, schema: &SchemaEntry) -> PathBuf {
        self.output_dir.join(&schema.out_rel)
    }

    /// The project file, recorded in the lockfile when the output went through it.
    pub(crate) fn locked_project_file(&self) -> Option<FileHash> {
        match (&self.manifest.output.location, &self.rojo) {
            (OutputLocation::Instance(_), Some(project)) => Some(FileHash {
                path: self.rel(&project.path),
                sha256: lockfile::file_hash(&project.path).unwrap_or_default(),
            }),
            _ => None,
        }
    }
}
