//! The project's Wally package as sync sees it: the `[package]` table checked, and the record
//! the lockfile keeps of the package its modules make (so `--locked` notices a change).

use std::collections::BTreeMap;

use blinkblox_package::{PackageSpec, SchemaModules, build};

use crate::ProjectError;
use crate::manifest::{self, Manifest};
use crate::plan::OutputFile;

/// Reads and checks `manifest`'s `[package]` table.
pub fn spec_of(manifest: &Manifest) -> Result<PackageSpec, ProjectError> {
    let file = manifest
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| manifest::MANIFEST_NAME.to_string());
    let Some(package) = &manifest.package else {
        return Err(ProjectError::new(format!(
            "{file}: there is no `[package]` table, so there is nothing to package"
        ))
        .with_help(
            "add to blinkblox.toml:\n    [package]\n    name = \"your-scope/net\"\n    version = \"0.1.0\"\n    realm = \"shared\"",
        ));
    };
    PackageSpec::check(package, &blinkblox_package::Locator::new(&file, &manifest.text))
}

/// What a sync's lockfile records about the package, for sync to call with the files it
/// generated: `None` when the manifest has no `[package]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageRecord {
    /// `scope/name`.
    pub name: String,
    pub version: String,
    /// sha256 of the zip `blinkblox package` writes from these files.
    pub sha256: String,
}

/// The package record for a sync that generated `files`: a package holds each schema's
/// modules in its schema's folder, wherever the project places its Server modules.
pub fn record_for_sync(manifest: &Manifest, files: &[OutputFile]) -> Result<Option<PackageRecord>, ProjectError> {
    if manifest.package.is_none() {
        return Ok(None);
    }
    let spec = spec_of(manifest)?;
    let mut by_folder: BTreeMap<String, SchemaModules> = BTreeMap::new();
    for file in files {
        let Some(name) = file.path.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        let folder = file.schema_folder.as_str();
        by_folder
            .entry(folder.to_string())
            .or_insert_with(|| SchemaModules {
                folder: folder.to_string(),
                files: Vec::new(),
            })
            .files
            .push((name.to_string(), file.contents.clone().into_bytes()));
    }
    let schemas: Vec<SchemaModules> = by_folder.into_values().map(sorted).collect();
    let built = build(&spec, &schemas).map_err(|message| package_error(&spec, message))?;
    Ok(Some(PackageRecord {
        name: spec.full_name(),
        version: spec.version.clone(),
        sha256: built.zip_sha256(),
    }))
}

pub(crate) fn sorted(mut schema: SchemaModules) -> SchemaModules {
    schema.files.sort();
    schema
}

pub(crate) fn package_error(spec: &PackageSpec, message: String) -> ProjectError {
    ProjectError::new(format!(
        "could not package {} {}: {message}",
        spec.full_name(),
        spec.version
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn manifest(package: &str) -> Manifest {
        let text = format!("[schemas]\ninclude = [\"net/*.blink\"]\n[output]\npath = \"out\"\n{package}");
        Manifest::parse(Path::new("/p/blinkblox.toml"), Path::new("/p"), text).expect("manifest")
    }

    fn outputs() -> Vec<OutputFile> {
        [
            "server/combat/Server.luau",
            "out/combat/Client.luau",
            "server/combat/Server.d.ts",
            "out/chat/Client.luau",
        ]
        .iter()
        .map(|rel| OutputFile {
            path: Path::new("/p").join(rel),
            contents: format!("-- {rel}\nreturn {{}}\n"),
            // Server modules in `/p/server`, the rest in `/p/out`, as a project placing them apart.
            schema_folder: rel.split('/').nth(1).expect("a schema folder").to_string(),
        })
        .collect()
    }

    #[test]
    fn the_sync_record_is_the_hash_of_the_zip_package_writes() {
        let with = manifest("[package]\nname = \"studio/net\"\nversion = \"1.0.0\"\n");
        let record = record_for_sync(&with, &outputs())
            .expect("record")
            .expect("a [package] table");
        assert_eq!((record.name.as_str(), record.version.as_str()), ("studio/net", "1.0.0"));

        let spec = spec_of(&with).expect("spec");
        let schemas = vec![
            SchemaModules {
                folder: "chat".into(),
                files: vec![("Client.luau".into(), b"-- out/chat/Client.luau\nreturn {}\n".to_vec())],
            },
            SchemaModules {
                folder: "combat".into(),
                files: vec![
                    ("Client.luau".into(), b"-- out/combat/Client.luau\nreturn {}\n".to_vec()),
                    (
                        "Server.d.ts".into(),
                        b"-- server/combat/Server.d.ts\nreturn {}\n".to_vec(),
                    ),
                    (
                        "Server.luau".into(),
                        b"-- server/combat/Server.luau\nreturn {}\n".to_vec(),
                    ),
                ],
            },
        ];
        let built = build(&spec, &schemas).expect("build");
        assert_eq!(record.sha256, built.zip_sha256());
        assert_eq!(record.sha256.len(), 64);

        assert_eq!(record_for_sync(&manifest(""), &outputs()).expect("ok"), None);
        let bad = manifest("[package]\nname = \"Studio/net\"\nversion = \"1.0.0\"\n");
        let err = record_for_sync(&bad, &outputs()).unwrap_err();
        assert!(err.message.starts_with("blinkblox.toml:6: [package] name"), "{err}");
    }
}
