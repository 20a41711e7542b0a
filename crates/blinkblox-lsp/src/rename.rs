//! Rename of types, struct fields and members, generic parameters, events, functions,
//! streams and scopes — refused, with the reason, where the new name would not mean the
//! same declaration everywhere, or where the name comes from an imported file's name.

use blinkblox_schema::source::Span;

use crate::analysis::{Analysis, ROOT};
use crate::index::{Index, OccurrenceKind, SymbolId, SymbolKind};
use blinkblox_schema::vocabulary::is_primitive;

/// The name under the cursor, if it can be renamed: its span.
pub fn target(analysis: &Analysis, offset: u32) -> Result<(SymbolId, Span), String> {
    let Some(occurrence) = analysis.index.at(ROOT, offset) else {
        return Err("nothing to rename here: put the cursor on a declared name".to_string());
    };
    let id = match &occurrence.kind {
        OccurrenceKind::Symbol(id) => *id,
        OccurrenceKind::ImportPath(_) => return Err(import_stem_message(analysis, offset)),
        OccurrenceKind::Primitive => return Err("a primitive type cannot be renamed".to_string()),
        _ => return Err("only declared names can be renamed".to_string()),
    };
    let symbol = &analysis.index.symbols[id];
    if let SymbolKind::Import { named_by_file: true } = symbol.kind {
        return Err(import_stem_message(analysis, offset));
    }
    Ok((id, occurrence.span))
}

fn import_stem_message(analysis: &Analysis, offset: u32) -> String {
    let name = analysis
        .index
        .symbols
        .iter()
        .find(|s| {
            s.kind == SymbolKind::Import { named_by_file: true } && s.span.start <= offset && offset <= s.span.end
        })
        .map_or_else(|| "this scope".to_string(), |s| format!("`{}`", s.name));
    format!(
        "{name} is named after the imported file: renaming it would break the import; \
         write `as NewName` after the import, or rename the file"
    )
}

/// Whether `new_name` may replace the symbol's name in this analysis.
pub fn check(index: &Index, id: SymbolId, new_name: &str) -> Result<(), String> {
    let symbol = &index.symbols[id];
    if symbol.quoted {
        if new_name.is_empty() || new_name.contains(['"', '\'', '\n', '\r']) {
            return Err(format!("`{new_name}` cannot be written as a quoted name"));
        }
    } else if !is_identifier(new_name) {
        return Err(format!(
            "`{new_name}` is not a name: names are letters, digits and `_`, not starting with a digit"
        ));
    }
    if new_name == symbol.name {
        return Ok(());
    }
    let scope = &index.scopes[symbol.scope];
    let place = if symbol.scope_path.is_empty() {
        "the root scope".to_string()
    } else {
        format!("scope `{}`", symbol.scope_path.join("."))
    };
    match symbol.kind {
        SymbolKind::Type(_) => {
            if is_primitive(new_name) {
                return Err(format!(
                    "`{new_name}` is a primitive type: the new name would never refer to this declaration"
                ));
            }
            if scope.types.contains_key(new_name) {
                return Err(format!("a type `{new_name}` is already declared in {place}"));
            }
            for occurrence in index.occurrences_of(id).iter().filter(|o| !o.declaration) {
                if let Some(from) = occurrence.lookup_scope
                    && shadowed(index, from, symbol.scope, new_name)
                {
                    return Err(format!(
                        "another type `{new_name}` is closer to one of the uses: it would refer to that one instead"
                    ));
                }
            }
        }
        SymbolKind::Event
        | SymbolKind::Function
        | SymbolKind::Stream
        | SymbolKind::Scope
        | SymbolKind::Import { .. } => {
            if scope.values.contains_key(new_name) {
                return Err(format!(
                    "`{new_name}` is already declared in {place} (events, functions, streams and scopes share one namespace)"
                ));
            }
            if symbol.scope_path.is_empty()
                && ["StepReplication", "stepReplication", "step_replication"].contains(&new_name)
            {
                return Err(format!("`{new_name}` is used by the generated modules themselves"));
            }
        }
        SymbolKind::Generic
        | SymbolKind::Field
        | SymbolKind::Variant
        | SymbolKind::EnumMember
        | SymbolKind::SetFlag => {
            let taken = index.symbols.iter().any(|other| {
                other.name == new_name
                    && other.kind == symbol.kind
                    && other.parent == symbol.parent
                    && other.group == symbol.group
            });
            if taken {
                return Err(format!("`{new_name}` is already a {} here", symbol.kind.describe()));
            }
        }
    }
    Ok(())
}

/// Whether a type named `name` would be found from `from` before the declaration's own
/// scope `declared_in`.
fn shadowed(index: &Index, from: usize, declared_in: usize, name: &str) -> bool {
    let mut current = Some(from);
    while let Some(scope) = current {
        if scope == declared_in {
            return false;
        }
        if index.scopes[scope].types.contains_key(name) {
            return true;
        }
        current = index.scopes[scope].parent;
    }
    false
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The text replacing a name written as `written`.
pub fn replacement(written: &str, new_name: &str) -> String {
    if let Some(inner) = written.strip_prefix('[') {
        let quote = inner.chars().next().unwrap_or('"');
        format!("[{quote}{new_name}{quote}]")
    } else if let Some(quote) = written.chars().next().filter(|c| *c == '"' || *c == '\'') {
        format!("{quote}{new_name}{quote}")
    } else {
        new_name.to_string()
    }
}
