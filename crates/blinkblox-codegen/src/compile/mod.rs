//! The compile step: a schema and its settings in, generated files or diagnostics out.
//!
//! Everything that turns schemas into modules goes through [`compile`]: `blinkblox check`,
//! `compile`, `sync` and `package`, the benchmark, and the tests. It checks the schema (the
//! front end), generates the outputs asked for, and runs the last check on them, Luau's own
//! compiler (`compile/luau_check.rs`), so that no caller can write a module the game could not load.

mod luau_check;

use std::path::{Path, PathBuf};

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::model::Schema;
use blinkblox_schema::source::{FileId, SourceMap};
use blinkblox_schema::{CheckOutput, CheckSettings, check_file_with, check_source_with};

use crate::generate::{GeneratedFile, Targets, generate};

/// Where the schema's text comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A file on disk; its imports are read relative to it.
    File(&'a Path),
    /// Text held in memory; `name` is shown in diagnostics and is the path imports are
    /// resolved against.
    Text { name: &'a str, text: &'a str },
}

/// What to produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outputs {
    /// Check only (`blinkblox check`): modules are generated only when the schema holds data
    /// large or deep enough that Luau could reject them.
    Check,
    /// The Server and Client modules, and the optional outputs `Targets` asks for. The
    /// schema's own `TypesOutput` and `Typescript` options ask for their outputs too.
    Modules(Targets),
}

/// What compiling one schema gave.
#[derive(Debug)]
pub struct Compiled {
    /// Every file read: the schema first, then its imports, then the defaults' file.
    pub sources: SourceMap,
    /// The settings' defaults file, as added to `sources`.
    pub defaults_file: Option<FileId>,
    /// The checked schema; `None` when the front end found an error.
    pub schema: Option<Schema>,
    /// Errors and warnings, in file and position order; Luau's rejection of a generated
    /// module comes last.
    pub diagnostics: Vec<Diagnostic>,
    /// The generated outputs, in `OutputKind` order; empty when any diagnostic is an error.
    pub files: Vec<GeneratedFile>,
}

impl Compiled {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every file the schema imports, directly or not, as the front end read them.
    pub fn imports(&self) -> Vec<PathBuf> {
        self.sources
            .files()
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(index, file)| {
                Some(FileId(*index as u32)) != self.defaults_file && !file.path.as_os_str().is_empty()
            })
            .map(|(_, file)| file.path.clone())
            .collect()
    }
}

/// Checks the schema and generates what `outputs` asks for. Deterministic: the same schema
/// and settings give the same bytes.
pub fn compile(source: Source<'_>, settings: &CheckSettings, outputs: Outputs) -> Compiled {
    let CheckOutput {
        sources,
        defaults_file,
        schema,
        mut diagnostics,
    } = match source {
        Source::File(path) => check_file_with(path, settings),
        Source::Text { name, text } => check_source_with(name, text, settings),
    };
    let mut files = Vec::new();
    if let Some(schema) = &schema {
        let rejected = match outputs {
            Outputs::Check => luau_check::check_schema(schema),
            Outputs::Modules(targets) => {
                let targets = Targets {
                    types: targets.types || schema.options.types_output.is_some(),
                    typescript: targets.typescript || schema.options.typescript,
                    requires: targets.requires,
                };
                files = generate(schema, &targets);
                luau_check::check(schema, &files)
            }
        };
        if let Some(rejected) = rejected {
            diagnostics.push(rejected);
            files.clear();
        }
    }
    Compiled {
        sources,
        defaults_file,
        schema,
        diagnostics,
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::OutputKind;

    fn kinds(compiled: &Compiled) -> Vec<OutputKind> {
        compiled.files.iter().map(|file| file.kind).collect()
    }

    const EVENT: &str = "event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }\n";

    #[test]
    fn the_schema_asks_for_its_own_outputs_too() {
        let plain = compile(
            Source::Text {
                name: "a.blink",
                text: EVENT,
            },
            &CheckSettings::default(),
            Outputs::Modules(Targets::default()),
        );
        assert_eq!(kinds(&plain), [OutputKind::Server, OutputKind::Client]);
        let text = format!("option TypesOutput = \"Types\"\noption Typescript = true\n{EVENT}");
        let asked = compile(
            Source::Text {
                name: "a.blink",
                text: &text,
            },
            &CheckSettings::default(),
            Outputs::Modules(Targets::default()),
        );
        assert_eq!(
            kinds(&asked),
            [
                OutputKind::Server,
                OutputKind::Client,
                OutputKind::Types,
                OutputKind::ServerDts,
                OutputKind::ClientDts,
                OutputKind::TypesDts
            ]
        );
    }

    #[test]
    fn a_schema_with_errors_generates_nothing_and_check_generates_nothing() {
        let bad = compile(
            Source::Text {
                name: "a.blink",
                text: "event Hit { From: Client, Type: Reliable, Call: SingleSync, Data: Nope }\n",
            },
            &CheckSettings::default(),
            Outputs::Modules(Targets::default()),
        );
        assert!(bad.has_errors() && bad.files.is_empty() && bad.schema.is_none());
        let checked = compile(
            Source::Text {
                name: "a.blink",
                text: EVENT,
            },
            &CheckSettings::default(),
            Outputs::Check,
        );
        assert!(!checked.has_errors() && checked.files.is_empty() && checked.schema.is_some());
    }
}
