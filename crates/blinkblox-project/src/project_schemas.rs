//! A project's schemas and the settings each is compiled with: the one answer `sync`,
//! `check` and the language server share. The manifest's `[schemas]` globs are resolved
//! once, each schema gets its folder under the output (which names its default
//! `RemoteScope`), and a schema is checked or compiled with the manifest's `[options]` as
//! defaults, a bad one reported at its line of the manifest.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use blinkblox_codegen::{Compiled, Outputs};
use blinkblox_schema::CheckSettings;
use blinkblox_schema::loader::Loader;
use blinkblox_schema::source::SourceMap;

use crate::compile::{compile_schema, settings_for};
use crate::manifest::Manifest;
use crate::schemas::{SchemaEntry, discover};
use crate::{ProjectError, paths};

/// The schemas a manifest lists.
#[derive(Debug)]
pub struct ProjectSchemas {
    pub manifest: Manifest,
    /// The manifest as messages name it.
    pub manifest_name: String,
    pub schemas: Vec<SchemaEntry>,
    /// Patterns of the manifest that matched nothing, or excluded nothing.
    pub warnings: Vec<String>,
}

impl ProjectSchemas {
    /// The schemas `manifest` lists; an include that matches nothing is an error.
    pub fn discover(manifest: Manifest, manifest_name: String) -> Result<ProjectSchemas, ProjectError> {
        let discovery = discover(&manifest.root, &manifest.schemas)?;
        discovery.require_schemas(&manifest.schemas, &manifest_name)?;
        Ok(ProjectSchemas {
            warnings: discovery.warnings(&manifest_name),
            schemas: discovery.schemas,
            manifest,
            manifest_name,
        })
    }

    /// The project a command run in `cwd` with no paths works on: the manifest found from
    /// `cwd` (walking up) and its schemas; `None` when there is no manifest.
    pub fn found_from(cwd: &Path) -> Option<Result<ProjectSchemas, ProjectError>> {
        let manifest_path = Manifest::find(cwd)?;
        Some(ProjectSchemas::load(&manifest_path, cwd))
    }

    /// Loads the manifest at `manifest_path`, naming it relative to `names_from`.
    pub fn load(manifest_path: &Path, names_from: &Path) -> Result<ProjectSchemas, ProjectError> {
        let manifest = Manifest::load(manifest_path)?;
        let manifest_name = paths::display_relative(&manifest.path, names_from);
        ProjectSchemas::discover(manifest, manifest_name)
    }

    /// What `blinkblox fmt` formats in the project: every schema the manifest lists and every
    /// file they import that lies inside the project (imports are read, not checked), sorted.
    pub fn files_to_format(&self) -> Vec<PathBuf> {
        let root = &self.manifest.root;
        let mut files = BTreeSet::new();
        for path in self.paths() {
            let (mut sources, mut diagnostics) = (SourceMap::default(), Vec::new());
            let mut loader = Loader::new(&mut sources, &mut diagnostics);
            loader.load_root_file(&path);
            loader.finish();
            let imported = sources
                .files()
                .iter()
                .map(|file| paths::normalize(&file.path))
                .filter(|file| !file.as_os_str().is_empty() && paths::is_really_inside(file, root));
            files.extend(imported);
            files.insert(path);
        }
        files.into_iter().collect()
    }

    /// The schemas' paths (normalised when they were found).
    pub fn paths(&self) -> Vec<PathBuf> {
        self.schemas.iter().map(|entry| entry.path.clone()).collect()
    }

    /// The folder under the output of the schema at `path`; a file the manifest does not
    /// list (an editor's unsaved or excluded file) is taken by its name, as a listed one at
    /// the top of its glob would be.
    pub fn out_rel_of(&self, path: &Path) -> String {
        let path = paths::normalize(path);
        self.schemas
            .iter()
            .find(|entry| entry.path == path)
            .map(|entry| entry.out_rel.clone())
            .unwrap_or_else(|| {
                path.file_stem()
                    .map(|stem| stem.to_string_lossy().into_owned())
                    .unwrap_or_default()
            })
    }

    /// The settings the schema at `path` is compiled with.
    pub fn settings_for(&self, path: &Path) -> CheckSettings {
        settings_for(&self.manifest, &self.manifest_name, &self.out_rel_of(path))
    }

    /// Compiles one of the manifest's schemas (producing `outputs`) as sync compiles it.
    pub fn compile(&self, entry: &SchemaEntry, outputs: Outputs) -> Result<Compiled, ProjectError> {
        compile_schema(
            &entry.path,
            &self.manifest,
            &self.manifest_name,
            &entry.out_rel,
            outputs,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blinkblox_schema::OptionValue;

    #[test]
    fn a_schema_gets_its_folder_and_remote_scope_whoever_asks() {
        let temp = tempfile::tempdir().expect("tempdir");
        let root = temp.path();
        std::fs::create_dir_all(root.join("net/combat")).expect("mkdir");
        std::fs::write(root.join("net/combat/hit.blink"), "").expect("write");
        std::fs::write(
            root.join("blinkblox.toml"),
            "[schemas]\ninclude = [\"net/**/*.blink\"]\n\n[output]\npath = \"out\"\n",
        )
        .expect("write");
        let schemas = ProjectSchemas::load(&root.join("blinkblox.toml"), root).expect("load");
        assert_eq!(schemas.manifest_name, "blinkblox.toml");
        let listed = root.join("net/combat/hit.blink");
        assert_eq!(schemas.paths(), [paths::normalize(&listed)]);
        assert_eq!(schemas.out_rel_of(&listed), "combat/hit");
        assert_eq!(schemas.out_rel_of(&root.join("scratch.blink")), "scratch");
        let scope = schemas
            .settings_for(&listed)
            .defaults
            .into_iter()
            .find(|default| default.name == "RemoteScope")
            .map(|default| default.value);
        assert_eq!(scope, Some(OptionValue::String("combat_hit".to_string())));

        std::fs::write(
            root.join("blinkblox.toml"),
            "[schemas]\ninclude = [\"nowhere/*.blink\"]\n\n[output]\npath = \"out\"\n",
        )
        .expect("write");
        let err = ProjectSchemas::load(&root.join("blinkblox.toml"), root).unwrap_err();
        assert!(err.message.contains("nowhere/*.blink"), "{err}");
    }
}
