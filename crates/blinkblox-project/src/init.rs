//! `blinkblox init`: in a Rojo project, writes a commented `blinkblox.toml` whose output is
//! a folder the project maps into ReplicatedStorage, and an example schema. Never
//! overwrites anything.

use std::path::{Path, PathBuf};

use crate::ProjectError;
use crate::manifest::MANIFEST_NAME;
use crate::paths;
use crate::rojo::{self, RojoProject};
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
    let shared = project
        .mappings()?
        .into_iter()
        .filter(|mapping| mapping.instance.first().map(String::as_str) == Some("ReplicatedStorage"))
        .filter(|mapping| paths::wally_folder_in(&mapping.dir, dir).is_none())
        .filter(|mapping| paths::is_inside(&mapping.dir, dir))
        .min_by_key(|mapping| (mapping.instance.len(), mapping.dir.clone()));
    let Some(shared) = shared else {
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
    let instance = instance.join(".");

    let manifest = manifest_text(&output, &instance, &project_name);
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
    })
}

fn manifest_text(output: &str, instance: &str, project_name: &str) -> String {
    format!(
        r#"# blinkblox.toml: how `blinkblox sync` builds this game's networking modules.

[schemas]
# Globs relative to this file. A schema in a subfolder of a glob's base keeps its folder.
include = ["net/*.blink"]
exclude = []

[output]
# Each schema becomes a folder here: net/example.blink -> {output}/example/Server.luau, Client.luau.
# Rojo turns them into ModuleScripts at {instance}.example.Server / .Client.
path = "{output}"
# Or name the instance and let sync find its folder through the Rojo project:
# instance = "{instance}"
# Also write a Types module and roblox-ts declarations for every schema:
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
-- require them from a server script and a client script.

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
    Data: struct {
        author: string(..32),
        text: Message,
    },
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
        let manifest = Manifest::load(&done.manifest).expect("the written manifest loads");
        assert_eq!(manifest.output.location, OutputLocation::Path("src/shared/Net".into()));
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
