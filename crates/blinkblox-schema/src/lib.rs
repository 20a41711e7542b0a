//! The schema front end: lexer → parser → checker → [`model::Schema`].
//!
//! Entry points: [`check_file`] and [`check_source`] (and their `_with` forms taking
//! project-wide option defaults, as data: [`CheckSettings`]). Each returns every diagnostic found and, when there
//! was no error, the checked [`model::Schema`].

pub mod ast;
pub mod checker;
pub mod codes;
pub mod diagnostics;
pub mod dump;
pub mod lexer;
pub mod loader;
pub mod model;
pub mod parser;
pub mod print;
pub mod scan;
pub mod source;
pub mod suggest;
pub mod vocabulary;
pub mod wire;

use std::collections::HashSet;
use std::path::Path;

use crate::diagnostics::Diagnostic;
use loader::{Loader, SourceText};
use source::{FileId, SourceFile, SourceMap, Span};

pub use checker::OptionValue;

/// A fingerprint of this crate's sources (see `build.rs`): part of the generator's identity in
/// `blinkblox.lock`.
pub const SOURCE_FINGERPRINT: &str = env!("BLINKBLOX_SOURCE_FINGERPRINT");

/// What checking a schema produced.
#[derive(Debug)]
pub struct CheckOutput {
    /// Every file read (the schema, then its imports, then the defaults' file if any):
    /// diagnostics point into these.
    pub sources: SourceMap,
    /// [`CheckSettings::defaults_file`], once added to `sources`.
    pub defaults_file: Option<FileId>,
    /// The checked schema; `None` when any diagnostic is an error.
    pub schema: Option<model::Schema>,
    /// Errors and warnings, in file and position order.
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckOutput {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Settings from outside the schema.
#[derive(Debug, Clone, Default)]
pub struct CheckSettings {
    /// Option defaults (for instance a project manifest's `[options]`). The schema's own
    /// `option` lines override them; they are not listed in [`model::Options::set_in_schema`].
    pub defaults: Vec<OptionDefault>,
    /// The file the defaults are written in, when they come from one: a bad default is
    /// reported there, at its [`OptionDefault::span`]. Without it, at the schema's start.
    pub defaults_file: Option<SourceFile>,
}

/// A project-wide default for one option.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDefault {
    /// The option's name as a schema writes it (`MaxPacketSize`).
    pub name: String,
    pub value: OptionValue,
    /// Where the value is written in [`CheckSettings::defaults_file`], as a byte range.
    pub span: Option<std::ops::Range<usize>>,
}

impl OptionDefault {
    pub fn new(name: impl Into<String>, value: OptionValue) -> OptionDefault {
        OptionDefault {
            name: name.into(),
            value,
            span: None,
        }
    }
}

/// Checks the schema at `path` and everything it imports.
pub fn check_file(path: &Path) -> CheckOutput {
    check_file_with(path, &CheckSettings::default())
}

pub fn check_file_with(path: &Path, settings: &CheckSettings) -> CheckOutput {
    run(settings, |loader| loader.load_root_file(path))
}

/// Checks schema text held in memory. `name` is shown in diagnostics and is the path
/// imports are resolved against.
pub fn check_source(name: &str, text: &str) -> CheckOutput {
    check_source_with(name, text, &CheckSettings::default())
}

pub fn check_source_with(name: &str, text: &str, settings: &CheckSettings) -> CheckOutput {
    run(settings, |loader| {
        loader.load_root_text(Path::new(name), name.to_string(), SourceText::Text(text.to_string()))
    })
}

fn run(settings: &CheckSettings, load: impl FnOnce(&mut Loader<'_>)) -> CheckOutput {
    let mut sources = SourceMap::default();
    let mut diagnostics = Vec::new();
    let loaded = {
        let mut loader = Loader::new(&mut sources, &mut diagnostics);
        load(&mut loader);
        loader.finish()
    };
    let defaults_file = settings.defaults_file.clone().map(|file| sources.add(file));
    let root_start = loaded.root.map(|root| Span::new(loaded.modules[root].file, 0, 0));
    let defaults: Vec<ast::OptionItem> = match root_start {
        Some(root_start) => settings
            .defaults
            .iter()
            .map(|default| {
                let span = match (defaults_file, &default.span) {
                    (Some(file), Some(range)) => Span::new(file, range.start, range.end),
                    _ => root_start,
                };
                default.value.to_item(&default.name, span)
            })
            .collect(),
        None => Vec::new(),
    };
    let (schema, check_diagnostics) = checker::check(&loaded, &defaults);
    diagnostics.extend(check_diagnostics);
    diagnostics.sort_by_key(|d| (d.primary.span.file, d.primary.span.start));
    // The same problem can be found twice (a declaration checked from two uses), and not
    // always next to itself after sorting: keep the first of each.
    let mut seen = HashSet::new();
    diagnostics.retain(|d| seen.insert((d.primary.span, d.code, d.message.clone())));
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    if has_errors {
        // "Declares nothing" is noise when the declarations failed to parse.
        diagnostics.retain(|d| d.code != codes::EMPTY_SCHEMA);
    }
    if diagnostics.len() > diagnostics::MAX_DIAGNOSTICS {
        let hidden = diagnostics.split_off(diagnostics::MAX_DIAGNOSTICS);
        let span = diagnostics[diagnostics::MAX_DIAGNOSTICS - 1].primary.span;
        // The summary is only an error when it hides one: hidden warnings must not make a
        // valid schema (which still gets its `schema`) look failed.
        let message = format!("{} more problems are not shown", hidden.len());
        let summary = if hidden.iter().any(Diagnostic::is_error) {
            Diagnostic::error(codes::TOO_MANY_ERRORS, message, span, "the last one shown")
        } else {
            Diagnostic::warning(codes::TOO_MANY_WARNINGS, message, span, "the last one shown")
        };
        diagnostics.push(summary.with_note("fix the problems above and check again"));
    }
    CheckOutput {
        sources,
        defaults_file,
        schema: if has_errors { None } else { schema },
        diagnostics,
    }
}
