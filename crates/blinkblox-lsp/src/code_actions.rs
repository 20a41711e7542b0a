//! Quick fixes for the diagnostics that have one obvious fix: the comma a list is missing,
//! the name a "did you mean" suggests, the option a `Yield: Future`/`Promise` needs.

use std::collections::HashMap;

use blinkblox_schema::ast::Item;
use blinkblox_schema::codes;
use blinkblox_schema::diagnostics::Diagnostic;
use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, Url, WorkspaceEdit};

use crate::analysis::{Analysis, ROOT};
use crate::diagnostics::convert;
use crate::positions::Encoding;

/// The value a missing library option gets; the user points it at their package.
const LIBRARY_PATHS: &[(&str, &str)] = &[
    ("FutureLibrary", "ReplicatedStorage.Packages.Future"),
    ("PromiseLibrary", "ReplicatedStorage.Packages.Promise"),
];

pub fn actions(analysis: &Analysis, uri: &Url, range: Range, encoding: Encoding) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    for diagnostic in &analysis.diagnostics {
        let span = diagnostic.primary.span;
        if span.file != ROOT {
            continue;
        }
        let at = analysis.range(span, encoding);
        if at.end < range.start || at.start > range.end {
            continue;
        }
        let Some((title, edit)) = fix(analysis, diagnostic, encoding) else {
            continue;
        };
        let (_, lsp_diagnostic) = convert(analysis, uri, diagnostic, encoding);
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp_diagnostic]),
            edit: Some(WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    actions
}

/// The fix of one diagnostic, if it has a single obvious one.
fn fix(analysis: &Analysis, diagnostic: &Diagnostic, encoding: Encoding) -> Option<(String, TextEdit)> {
    let text = analysis.text(ROOT);
    let span = diagnostic.primary.span;
    if diagnostic.code == codes::UNEXPECTED_TOKEN && diagnostic.message.starts_with("expected `,` or") {
        // After the end of what comes before the unexpected token.
        let before = text.get(..span.start as usize)?;
        let at = before.trim_end().len() as u32;
        let range = analysis.range(
            blinkblox_schema::source::Span::new(ROOT, at as usize, at as usize),
            encoding,
        );
        return Some((
            "Insert the missing `,`".to_string(),
            TextEdit::new(range, ",".to_string()),
        ));
    }
    // The front end's own fixes: a missing comma, a "did you mean".
    if let Some(suggestion) = diagnostic.suggestions.first() {
        let title = if suggestion.span.start == suggestion.span.end {
            format!("Insert `{}`", suggestion.replacement)
        } else {
            format!("Replace with `{}`", suggestion.replacement)
        };
        return Some((
            title,
            TextEdit::new(
                analysis.range(suggestion.span, encoding),
                suggestion.replacement.clone(),
            ),
        ));
    }
    if diagnostic.code == codes::MISSING_LIBRARY {
        let (option, value) = LIBRARY_PATHS
            .iter()
            .find(|(option, _)| diagnostic.primary.message.contains(&format!("`{option}`")))?;
        let at = option_insertion_point(analysis);
        let range = analysis.range(blinkblox_schema::source::Span::new(ROOT, at, at), encoding);
        return Some((
            format!("Add `option {option}`"),
            TextEdit::new(range, format!("option {option} = \"{value}\"\n")),
        ));
    }
    None
}

/// `did you mean `X`?` → `X`.
/// Where a new `option` line goes: after the last option, or before the first declaration
/// (options must come first), at the start of its line.
fn option_insertion_point(analysis: &Analysis) -> usize {
    let text = analysis.text(ROOT);
    let Some(ast) = analysis.asts.get(&ROOT) else {
        return 0;
    };
    let line_after = |offset: usize| text[offset..].find('\n').map_or(text.len(), |n| offset + n + 1);
    let line_start = |offset: usize| text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let mut last_option = ast.items.iter().filter_map(|item| match item {
        Item::Option(option) => Some(option.span.end as usize),
        _ => None,
    });
    match last_option.next_back() {
        Some(end) => line_after(end),
        None => ast
            .items
            .first()
            .map_or(0, |item| line_start(item.span().start as usize)),
    }
}
