//! `blinkblox.toml`: where the schemas are, where the modules go, project-wide option
//! defaults, the Rojo project file and the Wally `[package]` table.
//!
//! Unknown keys and wrong types are errors that name the key, the line and the valid keys:
//! a typo in a build manifest must never be silently ignored.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use blinkblox_package::PackageTable;
use serde::Deserialize;

use crate::ProjectError;
use crate::paths;
use crate::serde_keys::keys_of;

pub const MANIFEST_NAME: &str = "blinkblox.toml";

/// A loaded and validated manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The manifest file itself.
    pub path: PathBuf,
    /// The folder holding the manifest: every relative path in it is relative to this.
    pub root: PathBuf,
    /// The manifest's exact text (its hash goes into the lockfile).
    pub text: String,
    pub schemas: SchemaGlobs,
    pub output: Output,
    /// `[rojo] project`, relative to `root`; `None` means "find it automatically".
    pub rojo_project: Option<String>,
    /// `[options]`: defaults for every schema, in name order.
    pub options: Vec<ManifestOption>,
    pub package: Option<PackageTable>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaGlobs {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    /// `allow_empty = true`: a project with no schema is intended (otherwise globs that
    /// match nothing are an error, as they would remove every generated module).
    pub allow_empty: bool,
    /// `allow_outside_project = true`: schemas and imports may lie outside the project.
    pub allow_outside_project: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Where each schema's Client module goes (with its Types module and declarations):
    /// a place clients can require from.
    pub location: OutputLocation,
    /// `server_path` / `server_instance`: where each schema's Server module goes, so that
    /// the server's checks and handlers are not replicated to every client. `None` keeps
    /// the Server modules next to the Client modules, as projects made before it do.
    pub server: Option<OutputLocation>,
    /// Emit the Types module for every schema (a schema's `TypesOutput` also asks for it).
    pub types: bool,
    /// Emit `.d.ts` declarations for every schema (a schema's `Typescript` also asks).
    pub typescript: bool,
    /// `allow_outside_project = true`: the output folder may lie outside the project.
    pub allow_outside_project: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutputLocation {
    /// `path = "src/shared/Net"`: a folder relative to the manifest.
    Path(String),
    /// `instance = "ReplicatedStorage.Shared.Net"`: resolved through the Rojo project.
    Instance(String),
}

impl OutputLocation {
    /// The manifest key that names it: `path`/`instance`, after `prefix` (`server_`).
    pub fn key(&self, prefix: &str) -> String {
        match self {
            OutputLocation::Path(_) => format!("{prefix}path"),
            OutputLocation::Instance(_) => format!("{prefix}instance"),
        }
    }
}

/// One `[options]` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestOption {
    pub name: String,
    pub value: OptionValue,
    /// 1-based line in the manifest, for messages.
    pub line: usize,
    /// The value's byte range in the manifest's text.
    pub span: Range<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    Bool(bool),
    Number(f64),
    String(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    schemas: Option<RawSchemas>,
    output: Option<RawOutput>,
    rojo: Option<RawRojo>,
    #[serde(default)]
    options: BTreeMap<String, toml::Spanned<toml::Value>>,
    package: Option<PackageTable>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchemas {
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    allow_empty: bool,
    #[serde(default)]
    allow_outside_project: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutput {
    path: Option<toml::Spanned<String>>,
    instance: Option<toml::Spanned<String>>,
    server_path: Option<toml::Spanned<String>>,
    server_instance: Option<toml::Spanned<String>>,
    #[serde(default)]
    types: bool,
    #[serde(default)]
    typescript: bool,
    #[serde(default)]
    allow_outside_project: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRojo {
    project: Option<String>,
}

/// The keys a table accepts, for "valid keys are …" messages: read from the serde types
/// that parse it, so the list cannot drift from what is accepted. `[options]` takes any
/// option name (the checker names the valid ones).
fn table_keys(table: &str) -> &'static [&'static str] {
    match table {
        "" => keys_of::<RawManifest>(),
        "schemas" => keys_of::<RawSchemas>(),
        "output" => keys_of::<RawOutput>(),
        "rojo" => keys_of::<RawRojo>(),
        "package" => keys_of::<PackageTable>(),
        _ => &[],
    }
}

impl Manifest {
    /// Finds `blinkblox.toml` in `start` or the nearest folder above it, like cargo.
    pub fn find(start: &Path) -> Option<PathBuf> {
        start
            .ancestors()
            .map(|dir| dir.join(MANIFEST_NAME))
            .find(|candidate| candidate.is_file())
    }

    /// Loads the manifest named by `--manifest-path`, or the one found from `cwd`.
    pub fn discover(cwd: &Path, manifest_path: Option<&Path>) -> Result<Manifest, ProjectError> {
        let path = match manifest_path {
            Some(path) => {
                let path = paths::normalize(&cwd.join(path));
                if path.is_dir() { path.join(MANIFEST_NAME) } else { path }
            }
            None => Manifest::find(cwd).ok_or_else(|| {
                ProjectError::new(format!(
                    "could not find `{MANIFEST_NAME}` in `{}` or any folder above it",
                    cwd.display()
                ))
                .with_help("run `blinkblox init` in your Rojo project, or pass `--manifest-path <file>`")
            })?,
        };
        Manifest::load(&path)
    }

    pub fn load(path: &Path) -> Result<Manifest, ProjectError> {
        let text = crate::read_text(path).map_err(|err| ProjectError::io("read", path, &err))??;
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Manifest::parse(path, &root, text)
    }

    /// Parses manifest text; `path` is only used in messages and kept in the result.
    pub fn parse(path: &Path, root: &Path, text: String) -> Result<Manifest, ProjectError> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let raw: RawManifest = toml::from_str(&text).map_err(|err| describe_toml_error(&name, &text, &err))?;
        let at = |span: Range<usize>, message: String| ProjectError::at(&name, line_of(&text, span.start), message);

        let schemas = match raw.schemas {
            Some(schemas) => SchemaGlobs {
                include: schemas.include,
                exclude: schemas.exclude,
                allow_empty: schemas.allow_empty,
                allow_outside_project: schemas.allow_outside_project,
            },
            None => {
                return Err(ProjectError::new(format!("{name}: missing the `[schemas]` table"))
                    .with_help("add `[schemas]` with `include = [\"net/*.blink\"]` (globs relative to the manifest)"));
            }
        };
        if schemas.include.is_empty() {
            return Err(ProjectError::new(format!("{name}: `[schemas] include` is empty"))
                .with_help("list at least one glob, e.g. `include = [\"net/*.blink\"]`"));
        }

        let Some(raw_output) = raw.output else {
            return Err(
                ProjectError::new(format!("{name}: missing the `[output]` table")).with_help(
                    "add `[output]` with `path = \"src/shared/Net\"` or `instance = \"ReplicatedStorage.Shared.Net\"`",
                ),
            );
        };
        let location = match location_of(&at, "", raw_output.path, raw_output.instance)? {
            Some(location) => location,
            None => {
                return Err(
                    ProjectError::new(format!("{name}: `[output]` needs `path` or `instance`"))
                        .with_help("e.g. `path = \"src/shared/Net\"` or `instance = \"ReplicatedStorage.Shared.Net\"`"),
                );
            }
        };
        let server = location_of(&at, "server_", raw_output.server_path, raw_output.server_instance)?;

        let mut options = Vec::new();
        for (option, value) in raw.options {
            let span = value.span();
            let line = line_of(&text, span.start);
            let value = match value.into_inner() {
                toml::Value::Boolean(b) => OptionValue::Bool(b),
                toml::Value::Integer(i) => OptionValue::Number(i as f64),
                toml::Value::Float(f) => OptionValue::Number(f),
                toml::Value::String(s) => OptionValue::String(s),
                other => {
                    return Err(ProjectError::at(
                        &name,
                        line,
                        format!(
                            "option `{option}` has a {} value; options are booleans, numbers or strings",
                            other.type_str()
                        ),
                    ));
                }
            };
            options.push(ManifestOption {
                name: option,
                value,
                line,
                span,
            });
        }

        Ok(Manifest {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
            text,
            schemas,
            output: Output {
                location,
                server,
                types: raw_output.types,
                typescript: raw_output.typescript,
                allow_outside_project: raw_output.allow_outside_project,
            },
            rojo_project: raw.rojo.and_then(|rojo| rojo.project),
            options,
            package: raw.package,
        })
    }
}

/// One output location of `[output]`: `{prefix}path` or `{prefix}instance`, at most one
/// of them; `None` when neither is set.
fn location_of(
    at: &dyn Fn(Range<usize>, String) -> ProjectError,
    prefix: &str,
    path: Option<toml::Spanned<String>>,
    instance: Option<toml::Spanned<String>>,
) -> Result<Option<OutputLocation>, ProjectError> {
    match (path, instance) {
        (Some(path), None) => {
            let span = path.span();
            let value = path.into_inner();
            if value.trim().is_empty() {
                return Err(at(span, format!("`[output] {prefix}path` is empty")));
            }
            Ok(Some(OutputLocation::Path(value)))
        }
        (None, Some(instance)) => {
            let span = instance.span();
            let value = instance.into_inner();
            if value.split('.').any(|segment| segment.trim().is_empty()) {
                return Err(at(
                    span,
                    format!("`[output] {prefix}instance = \"{value}\"` is not an instance path"),
                )
                .with_help("write names separated by dots, e.g. `ReplicatedStorage.Shared.Net`"));
            }
            Ok(Some(OutputLocation::Instance(value)))
        }
        (Some(path), Some(_)) => Err(at(
            path.span(),
            format!("`[output]` sets both `{prefix}path` and `{prefix}instance`"),
        )
        .with_help(format!(
            "keep one: `{prefix}path` is a folder on disk, `{prefix}instance` a Rojo instance path"
        ))),
        (None, None) => Ok(None),
    }
}

/// 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// `offset` moved back to a character boundary of `text` (parser spans should be on one
/// already; this keeps slicing panic-free whatever happens).
fn boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Turns a toml/serde error into "file:line: …" naming the key, its table and the valid keys.
fn describe_toml_error(name: &str, text: &str, err: &toml::de::Error) -> ProjectError {
    let message = err.message().trim();
    let Some(span) = err.span() else {
        return ProjectError::new(format!("{name}: {message}"));
    };
    let line = line_of(text, span.start);
    let table = match header_on_line(text, span.start) {
        // The error is about a `[table]` header itself: its parent is the table in question.
        Some(header) => header
            .rsplit_once('.')
            .map(|(parent, _)| parent.to_string())
            .unwrap_or_default(),
        None => table_at(text, span.start),
    };
    let table_label = if table.is_empty() {
        "the top level".to_string()
    } else {
        format!("[{table}]")
    };
    let keys = table_keys(&table);
    let valid = (!keys.is_empty()).then(|| keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "));
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or(rest);
        let mut message = format!("unknown key `{key}` in {table_label}");
        if let Some(suggestion) = blinkblox_schema::suggest::closest(key, keys.iter().copied()) {
            message.push_str(&format!(": did you mean `{suggestion}`?"));
        }
        let mut error = ProjectError::at(name, line, message);
        if let Some(valid) = valid {
            error = error.with_help(format!("valid keys in {table_label} are {valid}"));
        }
        return error;
    }
    let key = key_on_line(text, span.start).unwrap_or_default();
    // A bare word where TOML wants a quoted string, a number or a boolean (`types = yes`).
    if message.contains("must be quoted") || message.starts_with("invalid string") {
        let word = text[boundary(text, span.start)..]
            .split(|c: char| c.is_whitespace() || c == ',' || c == ']' || c == '}')
            .next()
            .unwrap_or_default();
        let label = if key.is_empty() {
            "a value".to_string()
        } else {
            format!("`{key}`")
        };
        let message = if takes_a_boolean(text, boundary(text, span.start), word) {
            format!("{label} takes a boolean, `true` or `false`, not `{word}`")
        } else {
            format!(
                "{label} = {word}: `{word}` is not a TOML value; write a string in quotes (`\"{word}\"`), a number, `true` or `false`"
            )
        };
        return ProjectError::at(name, line, message);
    }
    if message.starts_with("invalid type") || message.starts_with("invalid value") {
        let what = if key.is_empty() {
            String::new()
        } else {
            format!(" for `{key}`")
        };
        let qualified = if table.is_empty() || key.is_empty() {
            String::new()
        } else {
            format!(" in {table_label}")
        };
        return ProjectError::at(name, line, format!("wrong type{what}{qualified}: {message}"));
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or(rest);
        return ProjectError::at(name, line, format!("{table_label} is missing the key `{key}`"));
    }
    ProjectError::at(name, line, message)
}

/// Whether the key whose value is the bare `word` at `offset` takes a boolean: the manifest is
/// read again with the word quoted, and the types that parse it say what they expected
/// there (no list of boolean keys to keep in step with them).
fn takes_a_boolean(text: &str, offset: usize, word: &str) -> bool {
    let Some(rest) = text
        .get(offset..)
        .filter(|rest| rest.starts_with(word) && !word.is_empty())
    else {
        return false;
    };
    let quoted = format!(
        "{}{}{}",
        &text[..offset],
        toml::Value::String(word.to_string()),
        &rest[word.len()..]
    );
    match toml::from_str::<RawManifest>(&quoted) {
        Ok(_) => false,
        Err(err) => err.message().contains("expected a boolean"),
    }
}

/// The `[table]` header in effect at `offset` ("" at the top level; `[[x]]` counts as `x`).
fn table_at(text: &str, offset: usize) -> String {
    let before = &text[..boundary(text, offset)];
    let mut table = String::new();
    for line in before.lines() {
        let trimmed = line.trim();
        if let Some(inner) = trimmed.strip_prefix('[') {
            let inner = inner.trim_start_matches('[');
            if let Some(end) = inner.find(']') {
                table = inner[..end].trim().trim_matches('"').to_string();
            }
        }
    }
    table
}

/// The table name when the line holding `offset` is a `[table]` header.
fn header_on_line(text: &str, offset: usize) -> Option<String> {
    let offset = boundary(text, offset);
    let start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = text[start..].lines().next().unwrap_or("").trim();
    let inner = line.strip_prefix('[')?.trim_start_matches('[');
    let end = inner.find(']')?;
    Some(inner[..end].trim().to_string())
}

/// The key written before `=` on the line holding `offset`.
fn key_on_line(text: &str, offset: usize) -> Option<String> {
    let offset = boundary(text, offset);
    let start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let end = text[start..].find('\n').map(|i| start + i).unwrap_or(text.len());
    let line = &text[start..end];
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.starts_with('[')).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, ProjectError> {
        Manifest::parse(Path::new("/p/blinkblox.toml"), Path::new("/p"), text.to_string())
    }

    #[test]
    fn reads_every_core_key() {
        let manifest = parse(
            "[schemas]\ninclude = [\"net/*.blink\"]\nexclude = [\"net/old.blink\"]\n\n[output]\npath = \"src/shared/Net\"\ntypes = true\n\n[rojo]\nproject = \"game.project.json\"\n\n[options]\nCasing = \"Camel\"\nMaxPacketSize = 4096\nWriteValidations = true\n\n[package]\nname = \"studio/net\"\nversion = \"0.1.0\"\nrealm = \"shared\"\n",
        )
        .expect("valid manifest");
        assert_eq!(manifest.schemas.include, vec!["net/*.blink"]);
        assert_eq!(manifest.schemas.exclude, vec!["net/old.blink"]);
        assert_eq!(manifest.output.location, OutputLocation::Path("src/shared/Net".into()));
        assert!(manifest.output.types && !manifest.output.typescript);
        assert_eq!(manifest.rojo_project.as_deref(), Some("game.project.json"));
        let names: Vec<&str> = manifest.options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, vec!["Casing", "MaxPacketSize", "WriteValidations"]);
        assert_eq!(manifest.options[0].value, OptionValue::String("Camel".into()));
        assert_eq!(manifest.options[1].value, OptionValue::Number(4096.0));
        assert_eq!(manifest.options[1].line, 14);
        assert_eq!(manifest.package.and_then(|p| p.name).as_deref(), Some("studio/net"));
    }

    #[test]
    fn unknown_key_names_key_line_table_and_valid_keys() {
        let err = parse("[schemas]\ninclude = [\"*.blink\"]\n[output]\npath = \"out\"\nfolder = \"x\"\n").unwrap_err();
        assert_eq!(err.message, "blinkblox.toml:5: unknown key `folder` in [output]");
        let help = err.help.expect("help");
        assert!(help.contains("`path`") && help.contains("`instance`"), "{help}");
    }

    #[test]
    fn a_bare_word_is_called_a_boolean_where_the_types_want_one() {
        let err =
            parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = \"o\"\n[package]\nprivate = yes\n").unwrap_err();
        assert_eq!(
            err.message,
            "blinkblox.toml:6: `private` takes a boolean, `true` or `false`, not `yes`"
        );
        let err = parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = out\n").unwrap_err();
        assert!(
            err.message
                .contains("`out` is not a TOML value; write a string in quotes"),
            "{err}"
        );
    }

    #[test]
    fn every_key_the_types_accept_is_offered() {
        let err = parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = \"o\"\n[package]\nformat = [\"wally\"]\n")
            .unwrap_err();
        assert!(
            err.message
                .ends_with("unknown key `format` in [package]: did you mean `formats`?"),
            "{err}"
        );
        let help = err.help.expect("help");
        assert!(help.contains("`formats`") && help.contains("`pesde_name`"), "{help}");
        let err =
            parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = \"o\"\nserver_instanc = \"A.B\"\n").unwrap_err();
        assert!(err.message.ends_with("did you mean `server_instance`?"), "{err}");
    }

    #[test]
    fn unknown_top_level_table_lists_the_tables() {
        let err =
            parse("[schemas]\ninclude = [\"*.blink\"]\n[output]\npath = \"o\"\n[server]\nport = 1\n").unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:5: unknown key `server` in the top level"),
            "{err}"
        );
        assert!(err.help.expect("help").contains("`schemas`"));
    }

    #[test]
    fn wrong_type_names_the_key_and_line() {
        let err = parse("[schemas]\ninclude = \"net/*.blink\"\n[output]\npath = \"o\"\n").unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:2: wrong type for `include` in [schemas]"),
            "{err}"
        );
        let err = parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = \"o\"\ntypes = \"yes\"\n").unwrap_err();
        assert!(
            err.message
                .starts_with("blinkblox.toml:5: wrong type for `types` in [output]"),
            "{err}"
        );
    }

    #[test]
    fn output_needs_exactly_one_location() {
        let both = parse("[schemas]\ninclude = [\"a\"]\n[output]\npath = \"o\"\ninstance = \"A.B\"\n").unwrap_err();
        assert!(both.message.contains("both `path` and `instance`"), "{both}");
        let none = parse("[schemas]\ninclude = [\"a\"]\n[output]\ntypes = true\n").unwrap_err();
        assert!(none.message.contains("needs `path` or `instance`"), "{none}");
        let bad = parse("[schemas]\ninclude = [\"a\"]\n[output]\ninstance = \"A..B\"\n").unwrap_err();
        assert!(bad.message.starts_with("blinkblox.toml:4:"), "{bad}");
    }

    #[test]
    fn syntax_errors_keep_the_line() {
        let err = parse("[schemas]\ninclude = [\"a\"\n").unwrap_err();
        assert!(err.message.starts_with("blinkblox.toml:"), "{err}");
    }
}
