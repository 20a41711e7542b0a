//! The bridge to the compile step: a schema of the project compiled with the manifest's
//! option defaults, and the options in effect as the lockfile records them.

use std::collections::BTreeMap;
use std::path::Path;

use blinkblox_codegen::{Compiled, Outputs, Source, compile};
use blinkblox_schema::model::Options;
use blinkblox_schema::source::SourceFile;
use blinkblox_schema::vocabulary::{OPTIONS, OptionState};
use blinkblox_schema::{CheckSettings, OptionDefault, OptionValue};

use crate::ProjectError;
use crate::manifest::{Manifest, OptionValue as ManifestValue, line_of};

/// The `RemoteScope` sync gives a schema that does not choose one: its folder under the
/// output, so two schemas never share remotes (Blink errors at run time when they do).
pub fn default_remote_scope(out_rel: &str) -> String {
    out_rel
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The compile step's settings for one schema of `manifest`: its `[options]` as defaults,
/// each with the place it is written, plus a `RemoteScope` of its own unless the manifest
/// sets one for every schema.
pub fn settings_for(manifest: &Manifest, manifest_name: &str, out_rel: &str) -> CheckSettings {
    let mut defaults = Vec::new();
    for option in &manifest.options {
        let value = match &option.value {
            // `Casing = "Camel"` in TOML is the bare word `Camel` in a schema.
            ManifestValue::String(text) if option.name == "Casing" => OptionValue::Name(text.clone()),
            ManifestValue::String(text) => OptionValue::String(text.clone()),
            ManifestValue::Bool(flag) => OptionValue::Bool(*flag),
            ManifestValue::Number(number) => OptionValue::Number(*number),
        };
        defaults.push(OptionDefault {
            span: Some(option.span.clone()),
            ..OptionDefault::new(option.name.clone(), value)
        });
    }
    if !manifest.options.iter().any(|option| option.name == "RemoteScope") {
        defaults.push(OptionDefault::new(
            "RemoteScope",
            OptionValue::String(default_remote_scope(out_rel)),
        ));
    }
    CheckSettings {
        defaults,
        defaults_file: Some(SourceFile::new(
            manifest.path.clone(),
            manifest_name.to_string(),
            manifest.text.clone(),
        )),
    }
}

/// Compiles the schema at `path` as a schema of `manifest`, producing `outputs`. A bad
/// default is an error at its line of the manifest, not in every schema.
pub fn compile_schema(
    path: &Path,
    manifest: &Manifest,
    manifest_name: &str,
    out_rel: &str,
    outputs: Outputs,
) -> Result<Compiled, ProjectError> {
    let compiled = compile(
        Source::File(path),
        &settings_for(manifest, manifest_name, out_rel),
        outputs,
    );
    let in_defaults = compiled
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.is_error() && Some(diagnostic.primary.span.file) == compiled.defaults_file);
    if let Some(diagnostic) = in_defaults {
        let span = diagnostic.primary.span;
        let name = manifest
            .options
            .iter()
            .find(|option| option.span.start <= span.start as usize && span.start as usize <= option.span.end)
            .map_or("RemoteScope", |option| option.name.as_str());
        let line = line_of(&manifest.text, span.start as usize);
        let mut error = ProjectError::at(
            manifest_name,
            line,
            format!("`[options] {name}`: {}", diagnostic.message),
        );
        if let Some(note) = diagnostic.notes.first() {
            error = error.with_help(note.clone());
        }
        return Err(error);
    }
    Ok(compiled)
}

/// The options in effect for a schema, by their schema spelling, for the lockfile: every
/// option the language's table marks as recorded (output paths are left out: sync places
/// modules itself).
pub fn effective_options(options: &Options) -> BTreeMap<String, toml::Value> {
    use toml::Value;
    OPTIONS
        .iter()
        .filter(|spec| spec.locked)
        .filter_map(|spec| {
            let value = match (spec.get)(options)? {
                OptionState::Flag(flag) => Value::Boolean(flag),
                OptionState::Count(count) => Value::Integer(i64::from(count)),
                state @ (OptionState::Text(_) | OptionState::MaybeText(_) | OptionState::Casing(_)) => {
                    Value::String(state.as_written())
                }
            };
            Some((spec.name.to_string(), value))
        })
        .collect()
}
