//! The generated modules as a Wally package and, when the manifest asks, a pesde package,
//! built in memory from `(path, bytes)` pairs.
//!
//! [`spec`] checks a manifest's `[package]` table the way Wally checks `wally.toml`;
//! [`template`] fills `wally-template/` from it; [`layout`] lays the modules out under a root
//! module that exposes them; [`archive`] writes a reproducible zip laid out as
//! `wally package` lays it out; [`pesde`] writes the same modules with a `pesde.toml`.
//! A package is a pure function of the table and the modules: this crate reads and writes
//! no files (`blinkblox-project` does, for `blinkblox package`).

pub mod archive;
pub mod layout;
pub mod pesde;
pub mod pesde_name;
pub mod spec;
pub mod template;

mod error;
mod files;

use sha2::{Digest, Sha256};

pub use error::Error;
pub use files::{PackageFiles, SchemaModules};
pub use spec::{Locator, PackageSpec, PackageTable, PesdeName, Realm};

/// A package built in memory.
#[derive(Debug, Clone)]
pub struct BuiltPackage {
    pub spec: PackageSpec,
    /// The package folder's files (the zip holds these, filtered as Wally filters).
    pub files: PackageFiles,
    pub zip: Vec<u8>,
}

impl BuiltPackage {
    /// `scope_name@version`: the package folder's name, as under Wally's `_Index/`.
    pub fn folder_name(&self) -> String {
        self.spec.index_folder()
    }

    pub fn zip_name(&self) -> String {
        format!("{}.zip", self.folder_name())
    }

    /// sha256 of the zip, lowercase hex.
    pub fn zip_sha256(&self) -> String {
        hex_sha256(&self.zip)
    }
}

pub fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Builds the package from the modules of each schema. Does not check the size limit
/// ([`archive::check_size`]): the lockfile records oversize packages too.
pub fn build(spec: &PackageSpec, schemas: &[SchemaModules]) -> Result<BuiltPackage, String> {
    let mut files = layout::source_files(spec, schemas)?;
    files.insert("wally.toml".to_string(), template::wally_toml(spec)?.into_bytes());
    files.insert(
        "default.project.json".to_string(),
        template::project_json(spec)?.into_bytes(),
    );
    let zip = archive::write_zip(&files, &spec.name, &spec.include, &spec.exclude)?;
    Ok(BuiltPackage {
        spec: spec.clone(),
        files,
        zip,
    })
}
