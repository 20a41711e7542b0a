//! The project as its manifest describes it, resolved against the disk: the Rojo project
//! file, the output folder, the schemas, and the warnings found on the way.

use std::path::{Path, PathBuf};

use crate::lockfile::{self, FileHash};
use crate::manifest::{Manifest, OutputLocation};
use crate::project_schemas::ProjectSchemas;
use crate::rojo::{self, RojoProject};
use crate::schemas::SchemaEntry;
use crate::{ProjectError, paths, writer};
use blinkblox_codegen::{OutputKind, RequirePaths, require_expression};

/// The project as the manifest describes it, resolved against the disk.
#[derive(Debug)]
pub struct Project {
    pub manifest: Manifest,
    pub rojo: Option<RojoProject>,
    /// The output folder (absolute or relative like `manifest.root`): the Client modules,
    /// and the Types modules and declarations.
    pub output_dir: PathBuf,
    /// The folder of the Server modules: `output_dir` unless the manifest sets
    /// `server_path` or `server_instance`.
    pub server_dir: PathBuf,
    /// The instance each of those two folders becomes in the Rojo project, when Rojo maps it.
    pub client_instance: Option<Vec<String>>,
    pub server_instance: Option<Vec<String>>,
    pub schemas: Vec<SchemaEntry>,
    pub warnings: Vec<String>,
}

/// Where the modules go must be a folder sync may write: inside the project (unless the
/// manifest allows otherwise), outside Wally's folders however it is reached, and not a
/// file the project needs. `key` is the manifest key that names it, for messages.
fn check_output_folder(manifest: &Manifest, output_dir: &Path, key: &str) -> Result<(), ProjectError> {
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
            "`[output] {key}` names `{}`, {what}, as the folder for the generated modules",
            paths::display_relative(output_dir, root)
        ))
        .with_help("point it at a folder of its own, e.g. `src/shared/Net`"));
    }
    if output_dir.is_file() {
        return Err(ProjectError::new(format!(
            "the output folder `{}` is a file",
            paths::display_relative(output_dir, root)
        ))
        .with_help(format!(
            "point `[output] {key}` at a folder (sync creates it when it does not exist)"
        )));
    }
    Ok(())
}

/// The folder a location of `[output]` names: a path relative to the manifest, or an
/// instance path resolved through the Rojo project.
fn resolve_location(
    manifest: &Manifest,
    rojo: Option<&RojoProject>,
    location: &OutputLocation,
    prefix: &str,
) -> Result<PathBuf, ProjectError> {
    match location {
        OutputLocation::Path(path) => Ok(paths::normalize(&manifest.root.join(path))),
        OutputLocation::Instance(instance) => {
            let Some(project) = rojo else {
                return Err(ProjectError::new(format!(
                    "`[output] {prefix}instance = \"{instance}\"` needs a Rojo project, but there is no `default.project.json` next to `{}`",
                    manifest.path.display()
                ))
                .with_help(format!(
                    "set `[rojo] project = \"<file>.project.json\"`, or use `[output] {prefix}path`"
                )));
            };
            project.resolve_instance(instance)
        }
    }
}

/// Services whose contents never replicate to clients.
const SERVER_ONLY_SERVICES: [&str; 2] = ["ServerScriptService", "ServerStorage"];

/// What sync says of where the modules land in the DataModel: Client modules where no
/// client can require them, and Server modules that every client receives.
fn placement_warnings(client: &str, server: Option<&str>) -> Vec<String> {
    fn server_only(instance: &str) -> Option<&str> {
        let service = instance.split('.').next().unwrap_or_default();
        SERVER_ONLY_SERVICES.contains(&service).then_some(service)
    }
    let mut warnings = Vec::new();
    if let Some(service) = server_only(client) {
        warnings.push(format!(
            "the Client modules go to `{client}`, and clients cannot see {service}: no LocalScript can require them there; put `[output]` under ReplicatedStorage (e.g. `ReplicatedStorage.Shared.Net`)"
        ));
    }
    match server {
        Some(server) if server != client && server_only(server).is_none() => warnings.push(format!(
            "the Server modules go to `{server}`, which is replicated to every client: the server's checks and handlers ship to every player; put `[output] server_instance` under ServerScriptService or ServerStorage"
        )),
        None if server_only(client).is_none() => warnings.push(format!(
            "the Server modules go to `{client}` with the Client modules, so every client receives them; set `[output] server_instance` (e.g. `ServerScriptService.Net`) to keep them on the server, or set it to `{client}` to keep them together knowingly"
        )),
        _ => {}
    }
    warnings
}

impl Project {
    pub fn resolve(manifest: Manifest) -> Result<Project, ProjectError> {
        let root = manifest.root.clone();
        let rojo = match rojo::find_project(&root, manifest.rojo_project.as_deref())? {
            Some(path) => Some(RojoProject::load(&path)?),
            None => None,
        };
        let output_dir = resolve_location(&manifest, rojo.as_ref(), &manifest.output.location, "")?;
        check_output_folder(&manifest, &output_dir, &manifest.output.location.key(""))?;
        let server_dir = match &manifest.output.server {
            Some(location) => {
                let dir = resolve_location(&manifest, rojo.as_ref(), location, "server_")?;
                check_output_folder(&manifest, &dir, &location.key("server_"))?;
                dir
            }
            None => output_dir.clone(),
        };
        let manifest_name = paths::display_relative(&manifest.path, &root);
        let (mut client_instance, mut server_instance) = (None, None);
        if let Some(project) = &rojo {
            client_instance = project.instance_names_of(&output_dir)?;
            server_instance = if server_dir == output_dir {
                client_instance.clone()
            } else {
                project.instance_names_of(&server_dir)?
            };
        }
        // The same schemas, with the same folders, that `check` and the editor see.
        let discovered = ProjectSchemas::discover(manifest, manifest_name)?;
        let mut resolved = Project {
            manifest: discovered.manifest,
            rojo,
            output_dir,
            server_dir,
            client_instance,
            server_instance,
            schemas: discovered.schemas,
            warnings: Vec::new(),
        };
        let mut warnings = match &resolved.rojo {
            Some(project) => rojo_warnings(project, &resolved),
            None => Vec::new(),
        };
        warnings.extend(discovered.warnings);
        resolved.warnings = warnings;
        Ok(resolved)
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

    /// The folder of a schema's Client (and Types) modules.
    pub(crate) fn schema_folder(&self, schema: &SchemaEntry) -> PathBuf {
        self.output_dir.join(&schema.out_rel)
    }

    /// The folder a generated file of a schema goes to: the Server module and its
    /// declarations to the server folder, the rest to the output folder.
    pub(crate) fn folder_of(&self, schema: &SchemaEntry, kind: OutputKind) -> PathBuf {
        if is_server_kind(kind) {
            self.server_dir.join(&schema.out_rel)
        } else {
            self.schema_folder(schema)
        }
    }

    /// How game code requires each of a schema's modules, where Rojo places them.
    pub fn requires_of(&self, schema: &SchemaEntry) -> RequirePaths {
        let expression = |instance: &Option<Vec<String>>, module: &str| {
            instance
                .as_ref()
                .map(|instance| module_require(instance, &schema.out_rel, module))
        };
        RequirePaths {
            server: expression(&self.server_instance, "Server"),
            client: expression(&self.client_instance, "Client"),
            types: expression(&self.client_instance, "Types"),
        }
    }

    /// Whether the Server modules have a folder of their own.
    pub fn server_apart(&self) -> bool {
        self.server_dir != self.output_dir
    }

    /// The Server modules' folder as the lockfile records it: only when it is their own.
    pub(crate) fn server_output_rel(&self) -> Option<String> {
        self.server_apart().then(|| self.rel(&self.server_dir))
    }

    /// The project file, recorded in the lockfile when the output went through it.
    pub(crate) fn locked_project_file(&self) -> Option<FileHash> {
        let output = &self.manifest.output;
        let through_rojo = [Some(&output.location), output.server.as_ref()]
            .into_iter()
            .flatten()
            .any(|location| matches!(location, OutputLocation::Instance(_)));
        match &self.rojo {
            Some(project) if through_rojo => Some(FileHash {
                path: self.rel(&project.path),
                sha256: lockfile::file_hash(&project.path).unwrap_or_default(),
            }),
            _ => None,
        }
    }
}

/// The `require(...)` of `module` (`Client`) of the schema whose folder is `out_rel`
/// (`ui/hud`) under the output folder that becomes `instance`.
pub(crate) fn module_require(instance: &[String], out_rel: &str, module: &str) -> String {
    let mut names: Vec<&str> = instance.iter().map(String::as_str).collect();
    names.extend(out_rel.split('/').filter(|name| !name.is_empty()));
    names.push(module);
    require_expression(&names)
}

/// The Server module and its declarations: what stays on the server.
fn is_server_kind(kind: OutputKind) -> bool {
    matches!(kind, OutputKind::Server | OutputKind::ServerDts)
}

/// What sync says of the output folders as Rojo sees them: a folder Rojo does not map or
/// ignores, and modules placed where the wrong side can see them.
fn rojo_warnings(project: &RojoProject, resolved: &Project) -> Vec<String> {
    let root = resolved.root();
    let mut warnings = Vec::new();
    let mut folders = vec![(&resolved.output_dir, &resolved.client_instance, "path")];
    if resolved.server_apart() {
        folders.push((&resolved.server_dir, &resolved.server_instance, "server_path"));
    }
    for (dir, instance, key) in folders {
        if instance.is_none() {
            warnings.push(format!(
                "the output folder `{}` is not inside any folder `{}` maps into the DataModel, so Rojo will not sync the generated modules; map it with a `$path` or move `[output] {key}` under one",
                paths::display_relative(dir, root),
                paths::display_relative(&project.path, root)
            ));
        }
        if let Some(pattern) = project.ignored_by(dir) {
            warnings.push(format!(
                "`{}` ignores the output folder `{}` (globIgnorePaths `{pattern}`), so Rojo will not sync the generated modules",
                paths::display_relative(&project.path, root),
                paths::display_relative(dir, root)
            ));
        }
    }
    if let Some(client) = &resolved.client_instance {
        let client = client.join(".");
        let server = match &resolved.server_instance {
            _ if resolved.manifest.output.server.is_none() => None,
            Some(server) => Some(server.join(".")),
            None => Some(client.clone()),
        };
        warnings.extend(placement_warnings(&client, server.as_deref()));
    }
    warnings
}
