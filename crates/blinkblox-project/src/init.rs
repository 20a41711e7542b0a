//! `blinkblox init`: in a Rojo project, writes a commented `blinkblox.toml` whose Client
//! modules go to a folder the project maps into ReplicatedStorage and whose Server modules go
//! to one it maps into ServerScriptService or ServerStorage (never replicated to clients),
//! and an example schema. Never overwrites anything.

use std::path::{Path, PathBuf};

use crate::ProjectError;
use crate::manifest::MANIFEST_NAME;
use crate::paths;
use crate::project::module_require;
use crate::rojo::{self, Mapping, RojoProject};
use crate::writer;

pub const EXAMPLE_SCHEMA: &str = "net/example.blink";

/// What `init` wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Initialized {
    pub manifest: PathBuf,
    pub schema: PathBuf,
    /// The output folder, relative to the project, `/`-separated.
    pub output: String,
    /// The instance path that folder becomes.
    pub instance: String,
    /// The Server modules' folder and instance path, when the project maps a server-only
    /// folder; `None` keeps them with the Client modules.
    pub server: Option<(String, String)>,
    /// How a server script and a client script require the example schema's modules.
    pub server_require: String,
    pub client_require: String,
}

pub fn init(dir: &Path) -> Result<Initialized, ProjectError> {
    let manifest_path = dir.join(MANIFEST_NAME);
    if manifest_path.exists() {
        return Err(
            ProjectError::new(format!("`{}` already exists", manifest_path.display()))
                .with_help("init never overwrites a manifest: edit it, or delete it and run `blinkblox init` again"),
        );
    }
    let schema_path = dir.join(EXAMPLE_SCHEMA);
    if schema_path.exists() {
        return Err(ProjectError::new(format!("`{}` already exists", schema_path.display()))
            .with_help("init never overwrites a schema: move it away first"));
    }
    let Some(project_path) = rojo::project_file_in(dir) else {
        return Err(ProjectError::new(format!(
            "no `default.project.json` (or `.jsonc`) in `{}`: `blinkblox init` sets up a Rojo project",
            dir.display()
        ))
        .with_help("run it in your Rojo project's folder (or run `rojo init` first)"));
    };
    let project = RojoProject::load(&project_path)?;
    let project_name = paths::display_relative(&project_path, dir);
    let mappings = project.mappings()?;
    let Some(shared) = closest_mapping(&mappings, dir, &["ReplicatedStorage"]) else {
        return Err(ProjectError::new(format!(
            "`{project_name}` maps no folder of this project into ReplicatedStorage, so the client could not require the generated modules"
        ))
        .with_help(
            "add one, e.g. `\"ReplicatedStorage\": { \"Shared\": { \"$path\": \"src/shared\" } }`, then run init again",
        ));
    };
    let output = paths::display_relative(&shared.dir.join("Net"), dir);
    let mut instance = shared.instance.clone();
    instance.push("Net".into());
    // The Server modules go where no client receives them, when the project maps such a folder.
    let server_mapping = closest_mapping(&mappings, dir, &["ServerScriptService", "ServerStorage"]);
    let server_instance = server_mapping.as_ref().map(|mapping| {
        let mut instance = mapping.instance.clone();
        instance.push("Net".into());
        instance
    });
    let server = server_mapping
        .as_ref()
        .zip(server_instance.as_ref())
        .map(|(mapping, instance)| {
            (
                paths::display_relative(&mapping.dir.join("Net"), dir),
                instance.join("."),
            )
        });
    let server_require = module_require(server_instance.as_deref().unwrap_or(&instance), "example", "Server");
    let client_require = module_require(&instance, "example", "Client");
    let instance = instance.join(".");

    let manifest = manifest_text(&output, &instance, server.as_ref(), &project_name);
    if let Some(parent) = schema_path.parent() {
        std::fs::create_dir_all(parent).map_err(|err| ProjectError::io("create", parent, &err))?;
    }
    writer::write_atomic(&schema_path, EXAMPLE_SCHEMA_TEXT.as_bytes())
        .map_err(|err| ProjectError::io("write", &schema_path, &err))?;
    writer::write_atomic(&manifest_path, manifest.as_bytes())
        .map_err(|err| ProjectError::io("write", &manifest_path, &err))?;
    Ok(Initialized {
        manifest: manifest_path,
        schema: schema_path,
        output,
        instance,
        server,
        server_require,
        client_require,
    })
}

/// The project's folder mapped closest to the top of one of `services` (not one of Wally's
/// folders, and inside the project): where init puts a side's modules.
fn closest_mapping(mappings: &[Mapping], dir: &Path, services: &[&str]) -> Option<Mapping> {
    mappings
        .iter()
        .filter(|mapping| {
            mapping
                .instance
                .first()
                .is_some_and(|service| services.contains(&service.as_str()))
        })
        .filter(|mapping| paths::wally_folder_in(&mapping.dir, dir).is_none())
        .filter(|mapping| paths::is_inside(&mapping.dir, dir))
        .min_by_key(|mapping| (mapping.instance.len(), mapping.dir.clone()))
        .cloned()
}

fn manifest_text(output: &str, instance: &str, server: Option<&(String, String)>, project_name: &str) -> String {
    let server_lines = match server {
        Some((server_output, server_instance)) => format!(
            r#"# The Server modules go where no client receives them: the server's checks and
# handlers stay on the server. net/example.blink -> {server_output}/example/Server.luau,
# the ModuleScript {server_instance}.example.Server.
server_path = "{server_output}"
# server_instance = "{server_instance}"
"#
        ),
        None => r#"# The Server modules go with the Client modules, where every client receives them. Map a
# folder into ServerScriptService or ServerStorage and name it here to keep them on the server:
# server_instance = "ServerScriptService.Net"
"#
        .to_string(),
    };
    format!(
        r#"# blinkblox.toml: how `blinkblox sync` builds this game's networking modules.

[schemas]
# Globs relative to this file. A schema in a subfolder of a glob's base keeps its folder.
include = ["net/*.blink"]
exclude = []

[output]
# Each schema becomes a folder here: net/example.blink -> {output}/example/Client.luau.
# Rojo turns it into the ModuleScript {instance}.example.Client, which clients require.
path = "{output}"
# Or name the instance and let sync find its folder through the Rojo project:
# instance = "{instance}"
{server_lines}# Also write a Types module and roblox-ts declarations for every schema:
# types = true
# typescript = true

[rojo]
project = "{project_name}"

[options]
# Defaults for every schema; an `option` line in a schema wins.
# Casing = "Camel"
# MaxPacketSize = 16384
"#
    )
}

const EXAMPLE_SCHEMA_TEXT: &str = r#"-- An example schema. `blinkblox sync` compiles it into a Server and a Client module;
-- require them from a server script and a client script (`blinkblox init` and
-- `blinkblox sync --verbose` print the exact `require` lines, and each module's header has its own).

type Message = string(1..200)

event Chat {
    From: Client,
    Type: Reliable,
    Call: ManyAsync,
    Data: Message,
}

event Announce {
    From: Server,
    Type: Reliable,
    Call: ManyAsync,
    Data: struct { author: string(..32), text: Message },
}

function Ping {
    Yield: Coroutine,
    Data: f64,
    Return: f64,
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{Manifest, OutputLocation};

    #[test]
    fn writes_a_manifest_that_points_into_replicated_storage() {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path();
        std::fs::write(
            dir.join("default.project.json"),
            r#"{"name":"game","tree":{"$className":"DataModel",
                "ReplicatedStorage":{"Packages":{"$path":"Packages"},"Shared":{"$path":"src/shared"}},
                "ServerScriptService":{"Server":{"$path":"src/server"}}}}"#,
        )
        .expect("write");
        for folder in ["src/shared", "src/server", "Packages"] {
            std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
        }
        let done = init(dir).expect("init");
        assert_eq!(done.output, "src/shared/Net");
        assert_eq!(done.instance, "ReplicatedStorage.Shared.Net");
        assert_eq!(
            done.server,
            Some(("src/server/Net".into(), "ServerScriptService.Server.Net".into()))
        );
        assert_eq!(
            done.server_require,
            r#"require(game:GetService("ServerScriptService").Server.Net.example.Server)"#
        );
        assert_eq!(
            done.client_require,
            r#"require(game:GetService("ReplicatedStorage").Shared.Net.example.Client)"#
        );
        let manifest = Manifest::load(&done.manifest).expect("the written manifest loads");
        assert_eq!(manifest.output.location, OutputLocation::Path("src/shared/Net".into()));
        assert_eq!(
            manifest.output.server,
            Some(OutputLocation::Path("src/server/Net".into()))
        );
        assert!(done.schema.is_file());

        let again = init(dir).unwrap_err();
        assert!(again.message.contains("already exists"), "{again}");
    }

    #[test]
    fn refuses_without_a_rojo_project_or_a_shared_folder() {
        let temp = tempfile::tempdir().expect("tempdir");
        let err = init(temp.path()).unwrap_err();
        assert!(err.message.contains("no `default.project.json`"), "{err}");
        std::fs::write(temp.path().join("default.project.json"), r#"{"tree":{"$path":"src"}}"#).expect("write");
        let err = init(temp.path()).unwrap_err();
        assert!(err.message.contains("maps no folder"), "{err}");
        assert!(!temp.path().join(MANIFEST_NAME).exists());
    }
}
