//! The project as its manifest describes it, resolved against the disk: the Rojo project
//! file, the output folder, the schemas, and the warnings found on the way.

use std::path::{Path, PathBuf};

use crate::lockfile::{self, FileHash};
use crate::manifest::{Manifest, OutputLocation};
use crate::project_schemas::ProjectSchemas;
use crate::rojo::{self, RojoProject};
use crate::schemas::SchemaEntry;
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

/// Where the modules go must be a folder sync may write: inside the project (unless the
/// manifest allows otherwise), outside Wally's folders however it is reached, and not a
/// file the project needs.
fn check_output_folder(manifest: &Manifest, output_dir: &Path) -> Result<(), ProjectError> {
    let root = &manifest.root;
    writer::ensure_folder_not_in_packages(output_dir, root)?;
    writer::ensure_inside_project(
        output_dir,
        root,
        manifest.output.allow_outside_project,
        "[output] allow_outside_project",
    )?;
    let real = paths::real(output_dir);
    let own_files = [
        (root.join(lockfile::LOCKFILE_NAME), "the lockfile"),
        (manifest.path.clone(), "the manifest"),
    ];
    if let Some((_, what)) = own_files.iter().find(|(file, _)| paths::real(file) == real) {
        return Err(ProjectError::new(format!(
            "`[output]` names `{}`, {what}, as the folder for the generated modules",
            paths::display_relative(output_dir, root)
        ))
        .with_help("point `[output] path` at a folder of its own, e.g. `src/shared/Net`"));
    }
    if output_dir.is_file() {
        return Err(ProjectError::new(format!(
            "the output folder `{}` is a file",
            paths::display_relative(output_dir, root)
        ))
        .with_help("point `[output]` at a folder (sync creates it when it does not exist)"));
    }
    Ok(())
}

/// Services whose contents never replicate to clients.
const SERVER_ONLY_SERVICES: [&str; 2] = ["ServerScriptService", "ServerStorage"];

/// A warning when the modules land where no client can require them: each schema's Client
/// module goes with its Server module.
fn unreachable_by_clients(instance: &str) -> Option<String> {
    let service = instance.split('.').next()?;
    SERVER_ONLY_SERVICES.contains(&service).then(|| {
        format!(
            "the generated modules go to `{instance}`, and clients cannot see {service}: no LocalScript can require the Client modules there; put `[output]` under ReplicatedStorage (e.g. `ReplicatedStorage.Shared.Net`)"
        )
    })
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
        let manifest_name = paths::display_relative(&manifest.path, &root);
        check_output_folder(&manifest, &output_dir)?;
        let mut warnings = Vec::new();
        if let Some(project) = &rojo {
            match project.instance_path_of(&output_dir)? {
                None => warnings.push(format!(
                    "the output folder `{}` is not inside any folder `{}` maps into the DataModel, so Rojo will not sync the generated modules; map it with a `$path` or move `[output] path` under one",
                    paths::display_relative(&output_dir, &root),
                    paths::display_relative(&project.path, &root)
                )),
                Some(instance) => warnings.extend(unreachable_by_clients(&instance)),
            }
        }
        // The same schemas, with the same folders, that `check` and the editor see.
        let discovered = ProjectSchemas::discover(manifest, manifest_name)?;
        warnings.extend(discovered.warnings);
        let (manifest, schemas) = (discovered.manifest, discovered.schemas);
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
