//! The generated modules as a pesde package: the same `src/` as the Wally package, with a
//! `pesde.toml` for the Roblox target instead of `wally.toml` and `default.project.json`.
//!
//! pesde forbids a `default.project.json` in a package: the consumer's sync tool maps the
//! package's `build_files` (here `src`, whose `init.luau` makes it the root ModuleScript).
//! The Wally realm picks the target: `shared` (and `dev`, which on pesde is the dependent's
//! choice of `[dev_dependencies]`) is `roblox`, `server` is `roblox_server`.

use std::collections::BTreeMap;

use crate::files::{PackageFiles, SchemaModules};
use crate::spec::{PackageSpec, PesdeName, Realm};
use crate::template::{Values, fill, toml_string, toml_strings};

/// `pesde-template/pesde.toml`.
pub const PESDE_TOML_TEMPLATE: &str = include_str!("../pesde-template/pesde.toml");

/// The public pesde index, written as the package's `default` index.
pub const DEFAULT_INDEX: &str = "https://github.com/pesde-pkg/index";

/// The pesde target environment of a Wally realm.
pub fn environment(realm: Realm) -> &'static str {
    match realm {
        Realm::Shared | Realm::Dev => "roblox",
        Realm::Server => "roblox_server",
    }
}

/// The package's `pesde.toml`.
pub fn pesde_toml(spec: &PackageSpec, name: &PesdeName) -> Result<String, String> {
    let optional = |value: &Option<String>| value.as_deref().map(toml_string);
    let values: Values = BTreeMap::from([
        ("name", Some(toml_string(&name.to_string()))),
        ("version", Some(toml_string(&spec.version))),
        ("description", optional(&spec.description)),
        ("license", optional(&spec.license)),
        ("authors", toml_strings(&spec.authors)),
        ("repository", optional(&spec.repository)),
        ("private", spec.private.then(|| "true".to_string())),
        ("environment", Some(toml_string(environment(spec.realm)))),
        ("index", Some(toml_string(DEFAULT_INDEX))),
    ]);
    let text = fill("pesde-template/pesde.toml", PESDE_TOML_TEMPLATE, &values)?;
    let parsed: toml::Table =
        toml::from_str(&text).map_err(|err| format!("the filled pesde.toml is not TOML: {err}"))?;
    if parsed.get("name").and_then(toml::Value::as_str) != Some(name.to_string().as_str()) {
        return Err("the filled pesde.toml does not name the package in `name`".to_string());
    }
    Ok(text)
}

/// A pesde package built in memory.
#[derive(Debug, Clone)]
pub struct BuiltPesdePackage {
    pub name: PesdeName,
    pub version: String,
    pub files: PackageFiles,
}

impl BuiltPesdePackage {
    /// `scope+name@version`: the package folder's name (`+` is how pesde writes a name in
    /// a path).
    pub fn folder_name(&self) -> String {
        format!("{}+{}@{}", self.name.scope, self.name.name, self.version)
    }
}

/// Builds the pesde package, or `None` when the spec does not ask for one.
pub fn build(spec: &PackageSpec, schemas: &[SchemaModules]) -> Result<Option<BuiltPesdePackage>, String> {
    let Some(name) = &spec.pesde else {
        return Ok(None);
    };
    let mut files = crate::layout::source_files(spec, schemas)?;
    files.insert("pesde.toml".to_string(), pesde_toml(spec, name)?.into_bytes());
    Ok(Some(BuiltPesdePackage {
        name: name.clone(),
        version: spec.version.clone(),
        files,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Locator, PackageTable};

    fn spec(extra: impl FnOnce(&mut PackageTable)) -> Result<PackageSpec, crate::error::Error> {
        let mut table = PackageTable {
            name: Some("studio/net".into()),
            version: Some("1.2.0".into()),
            formats: Some(vec!["wally".into(), "pesde".into()]),
            ..PackageTable::default()
        };
        extra(&mut table);
        let text = "[package]\nname = \"studio/net\"\nversion = \"1.2.0\"\nformats = []\npesde_name = \"x\"\n";
        PackageSpec::check(&table, &Locator::new("blinkblox.toml", text))
    }

    fn schema() -> SchemaModules {
        SchemaModules {
            folder: "combat".into(),
            files: vec![("Server.luau".into(), b"return {}\n".to_vec())],
        }
    }

    #[test]
    fn the_manifest_is_a_roblox_library_with_src_as_its_build_file() {
        let mut spec = spec(|t| {
            t.description = Some("Quotes \" here".into());
            t.authors = vec!["Ada".into()];
        })
        .expect("spec");
        let built = build(&spec, &[schema()]).expect("build").expect("pesde asked for");
        assert_eq!(built.folder_name(), "studio+net@1.2.0");
        let keys: Vec<&str> = built.files.keys().map(String::as_str).collect();
        assert_eq!(keys, ["pesde.toml", "src/combat/Server.luau", "src/init.luau"]);
        let parsed: toml::Table =
            toml::from_str(std::str::from_utf8(&built.files["pesde.toml"]).expect("utf8")).expect("toml");
        assert_eq!(parsed["name"].as_str(), Some("studio/net"));
        assert_eq!(parsed["description"].as_str(), Some("Quotes \" here"));
        assert!(parsed.get("license").is_none() && parsed.get("private").is_none());
        let target = parsed["target"].as_table().expect("[target]");
        assert_eq!(target["environment"].as_str(), Some("roblox"));
        assert_eq!(target["lib"].as_str(), Some("src/init.luau"));
        assert_eq!(target["build_files"].as_array().map(Vec::len), Some(1));
        assert_eq!(parsed["indices"]["default"].as_str(), Some(DEFAULT_INDEX));
        assert!(!built.files.contains_key("default.project.json"));

        spec.realm = Realm::Server;
        let server = build(&spec, &[schema()]).expect("build").expect("pesde");
        assert!(
            std::str::from_utf8(&server.files["pesde.toml"])
                .expect("utf8")
                .contains("environment = \"roblox_server\"")
        );
        spec.pesde = None;
        assert!(build(&spec, &[schema()]).expect("build").is_none());
    }

    #[test]
    fn formats_and_the_pesde_name_are_checked_at_their_line() {
        let only_wally = spec(|t| t.formats = None).expect("default");
        assert!(only_wally.wally && only_wally.pesde.is_none());
        let only_pesde = spec(|t| t.formats = Some(vec!["pesde".into()])).expect("pesde only");
        assert!(!only_pesde.wally && only_pesde.pesde.is_some());
        // Without Wally, `name` follows pesde's rules alone (`_` is not a Wally character).
        let underscored = spec(|t| {
            t.formats = Some(vec!["pesde".into()]);
            t.name = Some("studio/arena_net".into());
        })
        .expect("a pesde name");
        assert_eq!(
            (underscored.scope.as_str(), underscored.name.as_str()),
            ("studio", "arena_net")
        );
        assert!(
            spec(|t| t.name = Some("studio/arena_net".into())).is_err(),
            "Wally still checks it"
        );

        let err = spec(|t| t.formats = Some(vec![])).unwrap_err();
        assert!(
            err.message.starts_with("blinkblox.toml:4: [package] formats is empty"),
            "{err}"
        );
        let err = spec(|t| t.formats = Some(vec!["npm".into()])).unwrap_err();
        assert!(err.message.contains("formats has \"npm\""), "{err}");

        let err = spec(|t| t.name = Some("studio/arena-net".into())).unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:2: [package] name = \"studio/arena-net\" is not a pesde name"),
            "{err}"
        );
        assert!(
            err.help
                .unwrap_or_default()
                .contains("pesde_name = \"studio/arena_net\"")
        );
        let fixed = spec(|t| {
            t.name = Some("studio/arena-net".into());
            t.pesde_name = Some("studio/arena_net".into());
        })
        .expect("pesde_name");
        assert_eq!(fixed.pesde.expect("pesde").to_string(), "studio/arena_net");
        let err = spec(|t| t.pesde_name = Some("st/net".into())).unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:5: [package] pesde_name = \"st/net\" is not valid"),
            "{err}"
        );
        let err = spec(|t| {
            t.formats = None;
            t.pesde_name = Some("studio/net".into());
        })
        .unwrap_err();
        assert!(err.message.contains("formats does not list \"pesde\""), "{err}");
    }
}
