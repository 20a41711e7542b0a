//! The bridge to the schema front end: how sync checks one schema with the manifest's
//! option defaults, and how the options in effect are written into the lockfile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::manifest::{ManifestOption, OptionValue as ManifestValue};
use crate::{ProjectError, paths};
use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::model::{Casing, Options, Schema};
use blinkblox_schema::source::SourceMap;
use blinkblox_schema::{CheckSettings, OptionValue};

/// The name the front end gives the synthetic file holding project-wide defaults.
const DEFAULTS_FILE_NAME: &str = "<project defaults>";

/// What checking one schema gave.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// Every file read: the schema first, then its imports (and the defaults file).
    pub sources: SourceMap,
    pub schema: Option<Schema>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every file the schema imports, directly or not, normalized.
    pub imports: Vec<PathBuf>,
}

/// The `RemoteScope` sync gives a schema that does not choose one: its folder under the
/// output, so two schemas never share remotes (Blink errors at run time when they do).
pub fn default_remote_scope(out_rel: &str) -> String {
    out_rel
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The front end's settings for one schema: the manifest's `[options]`, plus a
/// `RemoteScope` of its own unless the manifest sets one for every schema.
fn settings_for(defaults: &[ManifestOption], out_rel: &str) -> CheckSettings {
    let mut settings = CheckSettings::default();
    for option in defaults {
        let value = match &option.value {
            // `Casing = "Camel"` in TOML is the bare word `Camel` in a schema.
            ManifestValue::String(text) if option.name == "Casing" => OptionValue::Name(text.clone()),
            ManifestValue::String(text) => OptionValue::String(text.clone()),
            ManifestValue::Bool(flag) => OptionValue::Bool(*flag),
            ManifestValue::Number(number) => OptionValue::Number(*number),
        };
        settings.defaults.push((option.name.clone(), value));
    }
    if !defaults.iter().any(|option| option.name == "RemoteScope") {
        settings.defaults.push((
            "RemoteScope".to_string(),
            OptionValue::String(default_remote_scope(out_rel)),
        ));
    }
    settings
}

/// Checks the schema at `path` with the manifest's `[options]` as defaults. A bad default
/// is reported as an error in the manifest (its line), not in every schema.
pub fn check_schema(
    path: &Path,
    manifest_name: &str,
    defaults: &[ManifestOption],
    out_rel: &str,
) -> Result<Checked, ProjectError> {
    let output = blinkblox_schema::check_file_with(path, &settings_for(defaults, out_rel));
    let defaults_file = output
        .sources
        .files()
        .iter()
        .position(|file| file.name == DEFAULTS_FILE_NAME);
    if let Some(index) = defaults_file {
        let in_defaults = output
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.is_error() && diagnostic.primary.span.file.0 as usize == index);
        if let Some(diagnostic) = in_defaults {
            let (line, _) = output.sources.files()[index].line_col(diagnostic.primary.span.start);
            let (name, manifest_line) = defaults
                .get(line.saturating_sub(1))
                .map(|option| (option.name.as_str(), option.line))
                .unwrap_or(("RemoteScope", 0));
            let mut error = ProjectError::new(format!(
                "{manifest_name}:{manifest_line}: `[options] {name}`: {}",
                diagnostic.message
            ));
            if let Some(note) = diagnostic.notes.first() {
                error = error.with_help(note.clone());
            }
            return Err(error);
        }
    }
    let imports = output
        .sources
        .files()
        .iter()
        .skip(1)
        .filter(|file| file.name != DEFAULTS_FILE_NAME && !file.path.as_os_str().is_empty())
        .map(|file| paths::normalize(&file.path))
        .collect();
    Ok(Checked {
        sources: output.sources,
        schema: output.schema,
        diagnostics: output.diagnostics,
        imports,
    })
}

/// The options in effect for a schema, by their schema spelling, for the lockfile. Output
/// paths are left out: sync places modules itself.
pub fn effective_options(options: &Options) -> BTreeMap<String, toml::Value> {
    use toml::Value;
    // Destructured field by field so that a new option cannot be forgotten here.
    let Options {
        server_output: _,
        client_output: _,
        types_output: _,
        typescript,
        casing,
        use_polling,
        future_library,
        promise_library,
        sync_validation,
        write_validations,
        manual_replication,
        remote_scope,
        max_packet_size,
        max_events_per_packet,
        inbound_bytes_per_second,
        inbound_burst,
        max_unreliable_size,
        batch_unreliable,
        client_flush_rate,
        allow_non_finite,
        set_in_schema: _,
    } = options;
    let casing = match casing {
        Casing::Pascal => "Pascal",
        Casing::Camel => "Camel",
        Casing::Snake => "Snake",
    };
    let text = |value: &str| Value::String(value.to_string());
    let count = |value: &u32| Value::Integer(i64::from(*value));
    [
        ("Casing", text(casing)),
        ("Typescript", Value::Boolean(*typescript)),
        ("UsePolling", Value::Boolean(*use_polling)),
        ("FutureLibrary", text(future_library.as_deref().unwrap_or_default())),
        ("PromiseLibrary", text(promise_library.as_deref().unwrap_or_default())),
        ("SyncValidation", Value::Boolean(*sync_validation)),
        ("WriteValidations", Value::Boolean(*write_validations)),
        ("ManualReplication", Value::Boolean(*manual_replication)),
        ("RemoteScope", text(remote_scope)),
        ("MaxPacketSize", count(max_packet_size)),
        ("MaxEventsPerPacket", count(max_events_per_packet)),
        ("InboundBytesPerSecond", count(inbound_bytes_per_second)),
        ("InboundBurst", count(inbound_burst)),
        ("MaxUnreliableSize", count(max_unreliable_size)),
        ("BatchUnreliable", Value::Boolean(*batch_unreliable)),
        ("ClientFlushRate", count(client_flush_rate)),
        ("AllowNonFinite", Value::Boolean(*allow_non_finite)),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect()
}

/// What `blinkblox check` without arguments checks when a `blinkblox.toml` is found from
/// its folder (walking up): the schemas the manifest lists, each checked as sync checks it.
pub struct ManifestSchemas {
    /// The manifest as messages name it (relative to the folder check runs in).
    pub manifest_name: String,
    defaults: Vec<ManifestOption>,
    /// Each schema and its folder under the output (which gives its default `RemoteScope`).
    pub schemas: Vec<(PathBuf, String)>,
}

impl ManifestSchemas {
    /// Checks one of `schemas` exactly as sync does (`check_schema`): a bad option default
    /// is an error at its line of the manifest.
    pub fn check(&self, path: &Path, out_rel: &str) -> Result<Checked, ProjectError> {
        check_schema(path, &self.manifest_name, &self.defaults, out_rel)
    }
}

/// The manifest's schemas for `blinkblox check`; `None` when there is no manifest.
pub fn manifest_schemas(cwd: &Path) -> Option<Result<ManifestSchemas, ProjectError>> {
    let manifest_path = crate::manifest::Manifest::find(cwd)?;
    Some(crate::manifest::Manifest::load(&manifest_path).and_then(|manifest| {
        let found = crate::schemas::discover(&manifest.root, &manifest.schemas)?;
        Ok(ManifestSchemas {
            manifest_name: paths::display_relative(&manifest.path, cwd),
            schemas: found.into_iter().map(|entry| (entry.path, entry.out_rel)).collect(),
            defaults: manifest.options,
        })
    }))
}
