//! What a package is made of, before and after layout.

use std::collections::BTreeMap;

/// The modules generated for one schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaModules {
    /// The schema's folder under the output, `/`-separated: `combat` or `sub/combat`.
    pub folder: String,
    /// File name (`Server.luau`) and contents.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The package's files, by `/`-separated path relative to the package root.
pub type PackageFiles = BTreeMap<String, Vec<u8>>;
