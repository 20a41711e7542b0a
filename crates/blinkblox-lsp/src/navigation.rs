//! Go to definition and find references, across imports: a declaration is known by the
//! file it is declared in and the place of its name there, so the same declaration is
//! found in the analysis of every schema that reads that file.

use std::path::PathBuf;

use blinkblox_schema::source::Span;
use lsp_types::{GotoDefinitionResponse, Location, Position, Range};

use crate::analysis::{Analysis, ROOT};
use crate::index::{OccurrenceKind, SymbolId};
use crate::positions::Encoding;

/// A declaration, independent of any one analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolKey {
    pub path: PathBuf,
    pub start: u32,
    pub end: u32,
}

pub fn key_of(analysis: &Analysis, symbol: SymbolId) -> Option<SymbolKey> {
    let span = analysis.index.symbols.get(symbol)?.span;
    let info = analysis.files.get(span.file.0 as usize)?;
    Some(SymbolKey {
        path: info.path.clone(),
        start: span.start,
        end: span.end,
    })
}

/// The declaration `key` names in `analysis`, if it read that file.
pub fn find(analysis: &Analysis, key: &SymbolKey) -> Option<SymbolId> {
    let file = analysis.file_of(&key.path)?;
    analysis
        .index
        .declared_at(Span::new(file, key.start as usize, key.end as usize))
}

/// Every place the declaration is written: `(file, span, is the declaration)`.
pub fn occurrences(analysis: &Analysis, symbol: SymbolId) -> Vec<(PathBuf, Span, bool)> {
    analysis
        .index
        .occurrences_of(symbol)
        .into_iter()
        .filter_map(|o| {
            let info = analysis.files.get(o.span.file.0 as usize)?;
            Some((info.path.clone(), o.span, o.declaration))
        })
        .collect()
}

pub fn definition(analysis: &Analysis, offset: u32, encoding: Encoding) -> Option<GotoDefinitionResponse> {
    let occurrence = analysis.index.at(ROOT, offset)?;
    let location = match occurrence.kind {
        OccurrenceKind::Symbol(id) => analysis.location(analysis.index.symbols[id].span, encoding)?,
        OccurrenceKind::ImportPath(Some(file)) => {
            let uri = analysis.files.get(file.0 as usize)?.uri.clone()?;
            Location::new(uri, Range::new(Position::new(0, 0), Position::new(0, 0)))
        }
        _ => return None,
    };
    Some(GotoDefinitionResponse::Scalar(location))
}
