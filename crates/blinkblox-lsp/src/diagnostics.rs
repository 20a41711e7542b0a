//! The front end's diagnostics as LSP diagnostics (codes, related locations, the fix hints
//! `check` prints), and the set published for each file: a file imported by several open
//! schemas shows what each of their analyses found in it.

use std::collections::{BTreeMap, HashMap};

use blinkblox_project::ProjectError;
use blinkblox_schema::diagnostics::{Diagnostic, Severity};
use lsp_types::{
    Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString, Position, Range, Url,
};

use crate::analysis::{Analysis, ROOT};
use crate::positions::Encoding;
use crate::project::Project;

pub const SOURCE: &str = "blinkblox";

/// Every diagnostic of an analysis, by the file it is in. The analysed document is always
/// present (empty when it is clean), and so is the project's manifest.
pub fn by_file(
    analysis: &Analysis,
    root: &Url,
    project: Option<&Project>,
    encoding: Encoding,
) -> HashMap<Url, Vec<LspDiagnostic>> {
    let mut out: HashMap<Url, Vec<LspDiagnostic>> = HashMap::new();
    out.insert(root.clone(), Vec::new());
    for diagnostic in &analysis.diagnostics {
        let (uri, converted) = convert(analysis, root, diagnostic, encoding);
        out.entry(uri).or_default().push(converted);
    }
    if let Some(project) = project
        && let Ok(manifest_uri) = Url::from_file_path(&project.manifest_path)
    {
        let list = out.entry(manifest_uri).or_default();
        if let Some(problem) = project.problem() {
            list.push(project_problem(problem, &project.text));
        }
    }
    out
}

/// One diagnostic, and the file it belongs to.
pub fn convert(analysis: &Analysis, root: &Url, diagnostic: &Diagnostic, encoding: Encoding) -> (Url, LspDiagnostic) {
    let span = diagnostic.primary.span;
    let (uri, range) = match analysis.location(span, encoding) {
        Some(location) => (location.uri, location.range),
        None => (
            root.clone(),
            analysis.range(blinkblox_schema::source::Span::new(ROOT, 0, 0), encoding),
        ),
    };
    let mut message = diagnostic.message.clone();
    if !diagnostic.primary.message.is_empty() {
        message.push('\n');
        message.push_str(&diagnostic.primary.message);
    }
    for note in &diagnostic.notes {
        message.push_str("\nhelp: ");
        message.push_str(note);
    }
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .secondary
        .iter()
        .filter_map(|label| {
            Some(DiagnosticRelatedInformation {
                location: analysis.location(label.span, encoding)?,
                message: label.message.clone(),
            })
        })
        .collect();
    let converted = LspDiagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    };
    (uri, converted)
}

/// A manifest that does not load, at the line its message names (`blinkblox.toml:7: …`).
pub fn project_problem(problem: &ProjectError, text: &str) -> LspDiagnostic {
    let mut message = problem.message.clone();
    let mut line = 0u32;
    if let Some((place, rest)) = problem.message.split_once(": ")
        && let Some((_, number)) = place.rsplit_once(':')
        && let Ok(number) = number.parse::<u32>()
    {
        line = number.saturating_sub(1);
        message = rest.to_string();
    }
    if let Some(help) = &problem.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let length = text
        .lines()
        .nth(line as usize)
        .map_or(0, |l| l.encode_utf16().count() as u32);
    LspDiagnostic {
        range: Range::new(Position::new(line, 0), Position::new(line, length)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some(SOURCE.to_string()),
        message,
        ..LspDiagnostic::default()
    }
}

/// What has been published: for each file, what each analysed document found in it.
#[derive(Debug, Default)]
pub struct Published {
    by_file: HashMap<Url, BTreeMap<String, Vec<LspDiagnostic>>>,
    files_of: HashMap<Url, Vec<Url>>,
}

impl Published {
    /// Records the findings of `root`'s analysis; returns the files whose diagnostics
    /// changed, each with everything now known about it.
    pub fn update(&mut self, root: &Url, found: HashMap<Url, Vec<LspDiagnostic>>) -> Vec<(Url, Vec<LspDiagnostic>)> {
        let previous = self.files_of.remove(root).unwrap_or_default();
        let mut touched: Vec<Url> = previous;
        for file in found.keys() {
            if !touched.contains(file) {
                touched.push(file.clone());
            }
        }
        let key = root.to_string();
        for file in &touched {
            let entry = self.by_file.entry(file.clone()).or_default();
            match found.get(file) {
                Some(list) => {
                    entry.insert(key.clone(), list.clone());
                }
                None => {
                    entry.remove(&key);
                }
            }
        }
        self.files_of.insert(root.clone(), found.keys().cloned().collect());
        touched.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        touched
            .into_iter()
            .map(|file| {
                let merged = self.merged(&file);
                if merged.is_empty() && self.by_file.get(&file).is_some_and(BTreeMap::is_empty) {
                    self.by_file.remove(&file);
                }
                (file, merged)
            })
            .collect()
    }

    /// Forgets a document's findings (it was closed).
    pub fn forget(&mut self, root: &Url) -> Vec<(Url, Vec<LspDiagnostic>)> {
        self.update(root, HashMap::new())
    }

    fn merged(&self, file: &Url) -> Vec<LspDiagnostic> {
        let mut merged: Vec<LspDiagnostic> = Vec::new();
        for list in self.by_file.get(file).into_iter().flat_map(BTreeMap::values) {
            for diagnostic in list {
                if !merged.contains(diagnostic) {
                    merged.push(diagnostic.clone());
                }
            }
        }
        merged
    }
}
