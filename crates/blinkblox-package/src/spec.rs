//! The manifest's `[package]` table checked the way Wally checks `wally.toml`
//! `name = "scope/name"` with each part lowercase ASCII
//! letters, digits and `-`, 1 to 64 characters; a semver `version`; `realm` one of
//! `shared`, `server`, `dev`. Every failure names the field and its manifest line, so a
//! typo is fixed in `blinkblox.toml`, not discovered at `wally publish`.

use std::fmt;

use serde::Deserialize;

use crate::error::Error;

/// `[package]` as written in `blinkblox.toml` (Wally's `[package]` fields), before checking.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackageTable {
    pub name: Option<String>,
    pub version: Option<String>,
    pub realm: Option<String>,
    pub registry: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    #[serde(default)]
    pub authors: Vec<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    #[serde(default)]
    pub private: bool,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The packages `blinkblox package` writes: `"wally"`, `"pesde"` or both; `["wally"]`
    /// when unset.
    pub formats: Option<Vec<String>>,
    /// The package's pesde name, for a `name` pesde does not accept (pesde names use `_`
    /// where Wally names use `-`); `name` when unset.
    pub pesde_name: Option<String>,
}

/// The official Wally index, used when `[package] registry` is not set.
pub const DEFAULT_REGISTRY: &str = "https://github.com/UpliftGames/wally-index";

/// Longest scope or name Wally accepts.
pub const MAX_NAME_PART: usize = 64;

/// The Wally realms: where `wally install` puts a package (`Packages/`, `ServerPackages/`,
/// `DevPackages/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Realm {
    Shared,
    Server,
    Dev,
}

impl Realm {
    pub fn as_str(self) -> &'static str {
        match self {
            Realm::Shared => "shared",
            Realm::Server => "server",
            Realm::Dev => "dev",
        }
    }

    /// The folder of a Wally project this realm installs into.
    pub fn packages_folder(self) -> &'static str {
        match self {
            Realm::Shared => "Packages",
            Realm::Server => "ServerPackages",
            Realm::Dev => "DevPackages",
        }
    }
}

impl fmt::Display for Realm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `[package]` table that Wally would accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageSpec {
    pub scope: String,
    pub name: String,
    /// Normalised by the semver parser (same text as written for any valid version).
    pub version: String,
    pub realm: Realm,
    pub registry: String,
    pub description: Option<String>,
    pub license: Option<String>,
    pub authors: Vec<String>,
    pub homepage: Option<String>,
    pub repository: Option<String>,
    pub private: bool,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    /// Whether `blinkblox package` writes the Wally package.
    pub wally: bool,
    /// The pesde package's name, when `blinkblox package` writes one.
    pub pesde: Option<PesdeName>,
}

/// A `scope/name` pesde accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PesdeName {
    pub scope: String,
    pub name: String,
}

impl fmt::Display for PesdeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.scope, self.name)
    }
}

impl PackageSpec {
    /// `scope/name`, as in `wally.toml` and a dependency line.
    pub fn full_name(&self) -> String {
        format!("{}/{}", self.scope, self.name)
    }

    /// `scope_name@version`: the folder Wally installs the package into under `_Index/`.
    pub fn index_folder(&self) -> String {
        format!("{}_{}@{}", self.scope, self.name, self.version)
    }

    /// Checks a `[package]` table; `locator` turns a key into `file:line` for messages.
    pub fn check(package: &PackageTable, locator: &Locator<'_>) -> Result<PackageSpec, Error> {
        let Some(full_name) = package.name.as_deref() else {
            return Err(locator
                .error("name", "[package] is missing `name`")
                .with_help("set `name = \"scope/name\"`, e.g. `name = \"studio/net\"`"));
        };
        let (wally, pesde) = check_formats(package, full_name, locator)?;
        // A package for pesde alone needs a name pesde accepts, not one Wally does.
        let (scope, name) = match (&pesde, wally) {
            (Some(pesde), false) => (pesde.scope.clone(), pesde.name.clone()),
            _ => check_name(full_name).map_err(|problem| {
                locator
                    .error("name", &format!("[package] name = \"{full_name}\": {problem}"))
                    .with_help(
                        "Wally names are `scope/name`, each part 1 to 64 of `a-z`, `0-9` and `-`, e.g. `studio/net`",
                    )
            })?,
        };

        let Some(version_text) = package.version.as_deref() else {
            return Err(locator
                .error("version", "[package] is missing `version`")
                .with_help("set `version = \"0.1.0\"` (a semantic version: MAJOR.MINOR.PATCH)"));
        };
        let version = semver::Version::parse(version_text.trim()).map_err(|err| {
            locator
                .error(
                    "version",
                    &format!("[package] version = \"{version_text}\" is not a semantic version: {err}"),
                )
                .with_help("write MAJOR.MINOR.PATCH, optionally with a pre-release: `1.2.0`, `0.3.1-rc.1`")
        })?;

        let realm = match package.realm.as_deref() {
            // Networking modules are required by both server and client code.
            None => Realm::Shared,
            Some("shared") => Realm::Shared,
            Some("server") => Realm::Server,
            Some("dev") => Realm::Dev,
            Some(other) => {
                return Err(locator
                    .error("realm", &format!("[package] realm = \"{other}\" is not a Wally realm"))
                    .with_help(
                        "use `shared` (installed in Packages/, for server and client code), `server` (ServerPackages/) or `dev` (DevPackages/)",
                    ));
            }
        };

        let registry = package.registry.clone().unwrap_or_else(|| DEFAULT_REGISTRY.to_string());
        if !looks_like_url(&registry) {
            return Err(locator
                .error("registry", &format!("[package] registry = \"{registry}\" is not a URL"))
                .with_help(format!(
                    "use the git URL of a Wally index, e.g. `{DEFAULT_REGISTRY}` (the default when unset)"
                )));
        }

        for (key, value) in [
            ("description", &package.description),
            ("license", &package.license),
            ("homepage", &package.homepage),
            ("repository", &package.repository),
        ] {
            if value.as_deref().is_some_and(|v| v.trim().is_empty()) {
                return Err(locator
                    .error(key, &format!("[package] {key} is empty"))
                    .with_help(format!("remove `{key}` or give it a value")));
            }
        }
        if let Some(index) = package.authors.iter().position(|author| author.trim().is_empty()) {
            return Err(locator
                .error("authors", &format!("[package] authors[{index}] is empty"))
                .with_help("list authors as strings, e.g. `authors = [\"Ada <ada@example.com>\"]`"));
        }
        for (key, globs) in [("include", &package.include), ("exclude", &package.exclude)] {
            for glob in globs {
                if let Err(err) = globset::Glob::new(glob) {
                    return Err(locator
                        .error(key, &format!("[package] {key} has the invalid glob \"{glob}\": {err}"))
                        .with_help("globs are relative to the package folder, e.g. `src/**/*.d.ts`"));
                }
            }
        }
        // Files an installed Wally package cannot do without: excluding one is a mistake in
        // the manifest, so it is reported at `exclude`'s line rather than when zipping.
        if wally {
            let required: crate::files::PackageFiles = crate::archive::REQUIRED_FILES
                .iter()
                .map(|path| (path.to_string(), Vec::new()))
                .collect();
            let kept = crate::archive::entries(&required, &package.include, &package.exclude)
                .map_err(|message| locator.error("exclude", &message))?;
            if let Some(left_out) = required
                .keys()
                .find(|path| !kept.iter().any(|entry| entry.path() == path.as_str()))
            {
                return Err(locator
                    .error(
                        "exclude",
                        &format!(
                            "[package] exclude leaves `{left_out}` out of the package, and an installed package needs it"
                        ),
                    )
                    .with_help(format!(
                        "narrow the pattern, or add `include = [\"{left_out}\"]` to keep it"
                    )));
            }
        }

        Ok(PackageSpec {
            scope,
            name,
            version: version.to_string(),
            realm,
            registry,
            description: package.description.clone(),
            license: package.license.clone(),
            authors: package.authors.clone(),
            homepage: package.homepage.clone(),
            repository: package.repository.clone(),
            private: package.private,
            include: package.include.clone(),
            exclude: package.exclude.clone(),
            wally,
            pesde,
        })
    }
}

/// `formats` and, when it asks for pesde, the pesde name (`pesde_name`, else `name`).
fn check_formats(
    package: &PackageTable,
    full_name: &str,
    locator: &Locator<'_>,
) -> Result<(bool, Option<PesdeName>), Error> {
    let formats = package.formats.clone().unwrap_or_else(|| vec!["wally".to_string()]);
    if formats.is_empty() {
        return Err(locator
            .error("formats", "[package] formats is empty, so there is nothing to package")
            .with_help("list `\"wally\"`, `\"pesde\"` or both, or remove `formats` for Wally only"));
    }
    if let Some(other) = formats.iter().find(|f| !matches!(f.as_str(), "wally" | "pesde")) {
        return Err(locator
            .error(
                "formats",
                &format!("[package] formats has \"{other}\", which is not a package format"),
            )
            .with_help("the formats are `\"wally\"` and `\"pesde\"`, e.g. `formats = [\"wally\", \"pesde\"]`"));
    }
    let wally = formats.iter().any(|f| f == "wally");
    if !formats.iter().any(|f| f == "pesde") {
        if package.pesde_name.is_some() {
            return Err(locator
                .error(
                    "pesde_name",
                    "[package] pesde_name is set, but formats does not list \"pesde\"",
                )
                .with_help("add `\"pesde\"` to `formats`, or remove `pesde_name`"));
        }
        return Ok((wally, None));
    }
    let (key, pesde_full) = match &package.pesde_name {
        Some(given) => ("pesde_name", given.as_str()),
        None => ("name", full_name),
    };
    let (scope, name) = crate::pesde_name::check_name(pesde_full).map_err(|problem| {
        let suggestion = pesde_full.replace('-', "_");
        let help = if key == "name" && crate::pesde_name::check_name(&suggestion).is_ok() {
            format!("pesde names use `_` where Wally names use `-`: add `pesde_name = \"{suggestion}\"`")
        } else {
            "pesde names are `scope/name`: a scope of 3 to 32 and a name of 1 to 32 of `a-z`, `0-9` and `_`, not starting or ending with `_`".to_string()
        };
        let what = if key == "name" { "is not a pesde name" } else { "is not valid" };
        locator
            .error(key, &format!("[package] {key} = \"{pesde_full}\" {what}: {problem}"))
            .with_help(help)
    })?;
    Ok((wally, Some(PesdeName { scope, name })))
}

/// Splits and checks `scope/name`; the error says which part is wrong and why.
pub fn check_name(full_name: &str) -> Result<(String, String), String> {
    let Some((scope, name)) = full_name.split_once('/') else {
        return Err("a package name is `scope/name`, with exactly one `/`".to_string());
    };
    if name.contains('/') {
        return Err("a package name is `scope/name`, with exactly one `/`".to_string());
    }
    check_part("scope", scope)?;
    check_part("name", name)?;
    Ok((scope.to_string(), name.to_string()))
}

fn check_part(what: &str, part: &str) -> Result<(), String> {
    if part.is_empty() {
        return Err(format!("the {what} is empty"));
    }
    if let Some(bad) = part
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        let hint = if bad.is_ascii_uppercase() {
            " (uppercase letters are not allowed)".to_string()
        } else {
            String::new()
        };
        return Err(format!(
            "the {what} \"{part}\" contains {bad:?}; only lowercase ASCII letters, digits and `-` are allowed{hint}"
        ));
    }
    if part.len() > MAX_NAME_PART {
        return Err(format!(
            "the {what} \"{part}\" is {} characters long; Wally allows at most {MAX_NAME_PART}",
            part.len()
        ));
    }
    Ok(())
}

fn looks_like_url(text: &str) -> bool {
    match text.split_once("://") {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && !rest.trim().is_empty()
                && !text.contains(char::is_whitespace)
        }
        None => false,
    }
}

/// Finds where a `[package]` key is written, for `file:line:` prefixes.
pub struct Locator<'a> {
    file: &'a str,
    text: &'a str,
}

impl<'a> Locator<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Locator<'a> {
        Locator { file, text }
    }

    /// An error prefixed with the line of `key` in `[package]` (or of the `[package]`
    /// header when the key is missing; the bare file name when neither is found).
    pub fn error(&self, key: &str, message: &str) -> Error {
        match self.key_line(key).or_else(|| self.header_line()) {
            Some(line) => Error {
                location: Some((self.file.to_string(), line)),
                ..Error::new(format!("{}:{line}: {message}", self.file))
            },
            None => Error::new(format!("{}: {message}", self.file)),
        }
    }

    /// 1-based line of `key = …` inside `[package]`, or of `package.key = …` / a
    /// `package = { … key = … }` inline table at the top level.
    pub fn key_line(&self, key: &str) -> Option<usize> {
        let mut table = String::new();
        for (index, line) in self.text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('[') {
                let inner = trimmed.trim_start_matches('[');
                table = inner
                    .split(']')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .trim_matches('"')
                    .to_string();
                continue;
            }
            let Some((lhs, rhs)) = trimmed.split_once('=') else {
                continue;
            };
            let lhs = lhs.trim().trim_matches('"');
            let found = (table == "package" && lhs == key)
                || (table.is_empty() && lhs == format!("package.{key}"))
                || (table.is_empty() && lhs == "package" && inline_has_key(rhs, key));
            if found {
                return Some(index + 1);
            }
        }
        None
    }

    fn header_line(&self) -> Option<usize> {
        self.text
            .lines()
            .position(|line| line.trim().trim_start_matches('[').starts_with("package]"))
            .map(|index| index + 1)
    }
}

/// Whether an inline table `{ a = 1, key = … }` names `key` (a quick textual check).
fn inline_has_key(rhs: &str, key: &str) -> bool {
    rhs.trim_start().starts_with('{')
        && rhs.split([',', '{']).any(|part| {
            part.split_once('=')
                .is_some_and(|(k, _)| k.trim().trim_matches('"') == key)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(name: &str, version: &str, realm: &str) -> PackageTable {
        PackageTable {
            name: Some(name.into()),
            version: Some(version.into()),
            realm: Some(realm.into()),
            ..PackageTable::default()
        }
    }

    const TEXT: &str =
        "[schemas]\ninclude = [\"*.blink\"]\n\n[package]\nname = \"X/y\"\nversion = \"1\"\nrealm = \"client\"\n";

    fn check(package: &PackageTable) -> Result<PackageSpec, Error> {
        PackageSpec::check(package, &Locator::new("blinkblox.toml", TEXT))
    }

    #[test]
    fn accepts_wally_names_versions_and_realms() {
        let spec = check(&package("studio-1/net-2", "1.2.3-rc.1+build.5", "server")).expect("valid");
        assert_eq!(spec.full_name(), "studio-1/net-2");
        assert_eq!(spec.index_folder(), "studio-1_net-2@1.2.3-rc.1+build.5");
        assert_eq!(spec.realm, Realm::Server);
        assert_eq!(spec.registry, DEFAULT_REGISTRY);
        let long = "a".repeat(64);
        assert!(check(&package(&format!("{long}/{long}"), "0.1.0", "dev")).is_ok());
        let mut no_realm = package("a/b", "0.1.0", "shared");
        no_realm.realm = None;
        assert_eq!(check(&no_realm).expect("default realm").realm, Realm::Shared);
    }

    #[test]
    fn rejects_bad_names_naming_the_line_and_part() {
        let err = check(&package("Studio/net", "0.1.0", "shared")).unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:5: [package] name = \"Studio/net\""),
            "{err}"
        );
        assert!(err.message.contains("scope \"Studio\" contains 'S'"), "{err}");
        assert!(err.message.contains("uppercase"), "{err}");
        for (bad, needle) in [
            ("studio", "exactly one `/`"),
            ("a/b/c", "exactly one `/`"),
            ("/net", "scope is empty"),
            ("studio/", "name is empty"),
            ("studio/my_net", "contains '_'"),
            ("stüdio/net", "contains 'ü'"),
        ] {
            let err = check(&package(bad, "0.1.0", "shared")).unwrap_err();
            assert!(err.message.contains(needle), "{bad}: {err}");
        }
        let long = "n".repeat(65);
        let err = check(&package(&format!("studio/{long}"), "0.1.0", "shared")).unwrap_err();
        assert!(
            err.message.contains("65 characters long; Wally allows at most 64"),
            "{err}"
        );
    }

    #[test]
    fn rejects_bad_versions_realms_and_registries() {
        for bad in ["1", "1.2", "v1.2.3", "01.2.3", "1.2.3.4", ""] {
            let err = check(&package("a/b", bad, "shared")).unwrap_err();
            assert!(
                err.message.starts_with("blinkblox.toml:6: [package] version"),
                "{bad}: {err}"
            );
            assert!(err.message.contains("not a semantic version"), "{err}");
        }
        let err = check(&package("a/b", "1.0.0", "client")).unwrap_err();
        assert_eq!(
            err.message,
            "blinkblox.toml:7: [package] realm = \"client\" is not a Wally realm"
        );
        assert!(err.help.unwrap_or_default().contains("shared"));
        let mut bad_registry = package("a/b", "1.0.0", "shared");
        bad_registry.registry = Some("github.com/me/index".into());
        let err = check(&bad_registry).unwrap_err();
        assert!(
            err.message.contains("registry = \"github.com/me/index\" is not a URL"),
            "{err}"
        );
    }

    #[test]
    fn missing_fields_point_at_the_package_header() {
        let header_only = Locator::new("blinkblox.toml", "[schemas]\ninclude = []\n[package]\n");
        let err = PackageSpec::check(&PackageTable::default(), &header_only).unwrap_err();
        assert_eq!(err.message, "blinkblox.toml:3: [package] is missing `name`");
        let text = "[package]\nname = \"a/b\"\n";
        let err = PackageSpec::check(
            &PackageTable {
                name: Some("a/b".into()),
                ..PackageTable::default()
            },
            &Locator::new("blinkblox.toml", text),
        )
        .unwrap_err();
        assert_eq!(err.message, "blinkblox.toml:1: [package] is missing `version`");
    }

    #[test]
    fn locator_finds_dotted_and_inline_keys() {
        let dotted = Locator::new("m", "package.name = \"x\"\npackage.version = \"1\"\n");
        assert_eq!(dotted.key_line("version"), Some(2));
        let inline = Locator::new(
            "m",
            "# m\npackage = { name = \"x\", realm = \"y\" }\n[schemas]\nrealm = 1\n",
        );
        assert_eq!(inline.key_line("realm"), Some(2));
        assert_eq!(inline.key_line("version"), None);
    }
}
