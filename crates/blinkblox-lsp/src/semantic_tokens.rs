//! Semantic tokens: every word of the document classified by what it is (a struct, an
//! event, a field, a primitive, a keyword …), as the index resolved it.

use blinkblox_schema::ast::TypeKeyword;
use blinkblox_schema::lexer::{Lexer, TokenKind};
use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend};

use crate::analysis::{Analysis, ROOT};
use crate::index::{OccurrenceKind, SymbolKind};
use crate::positions::Encoding;

const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::TYPE,
    SemanticTokenType::STRUCT,
    SemanticTokenType::ENUM,
    SemanticTokenType::TYPE_PARAMETER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::EVENT,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::VARIABLE,
];

#[derive(Clone, Copy)]
enum Kind {
    Namespace,
    Type,
    Struct,
    Enum,
    TypeParameter,
    Property,
    EnumMember,
    Event,
    Function,
    Keyword,
    String,
    Number,
    Comment,
    Variable,
}

const DECLARATION: u32 = 1;
const DEFAULT_LIBRARY: u32 = 2;
const READONLY: u32 = 4;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::DEFAULT_LIBRARY,
            SemanticTokenModifier::READONLY,
        ],
    }
}

/// Words that are keywords where the grammar has them.
const KEYWORDS: &[&str] = &[
    "option", "type", "struct", "enum", "map", "set", "event", "function", "stream", "scope", "import", "export", "as",
    "true", "false",
];

pub fn tokens(analysis: &Analysis, encoding: Encoding) -> SemanticTokens {
    let text = analysis.text(ROOT);
    let occurrences = analysis.index.occurrences.get(&ROOT).map_or(&[][..], Vec::as_slice);
    // (start, end, kind, modifiers), in order.
    let mut found: Vec<(u32, u32, Kind, u32)> = Vec::new();
    let mut lexer = Lexer::new(ROOT, text);
    let mut sink = Vec::new();
    loop {
        let token = lexer.next_token(&mut sink);
        sink.clear();
        if token.kind == TokenKind::Eof {
            break;
        }
        let (start, end) = (token.span.start, token.span.end);
        let covering = occurrences
            .partition_point(|o| o.span.start <= start)
            .checked_sub(1)
            .map(|i| &occurrences[i])
            .filter(|o| o.span.end >= end);
        let word = &text[start as usize..end as usize];
        let classified = match (covering, token.kind) {
            (Some(occurrence), TokenKind::Ident | TokenKind::String) => {
                classify(analysis, &occurrence.kind, occurrence.declaration, token.kind)
            }
            (_, TokenKind::String) => Some((Kind::String, 0)),
            (_, TokenKind::Number) => Some((Kind::Number, 0)),
            (_, TokenKind::Ident) if KEYWORDS.contains(&word) => Some((Kind::Keyword, 0)),
            _ => None,
        };
        if let Some((kind, modifiers)) = classified {
            found.push((start, end, kind, modifiers));
        }
    }
    for comment in blinkblox_fmt::comments(text) {
        found.push((comment.start, comment.end, Kind::Comment, 0));
    }
    found.sort_by_key(|t| t.0);
    encode(analysis, &found, encoding)
}

fn classify(analysis: &Analysis, kind: &OccurrenceKind, declaration: bool, token: TokenKind) -> Option<(Kind, u32)> {
    let declared = if declaration { DECLARATION } else { 0 };
    Some(match kind {
        OccurrenceKind::Symbol(id) => {
            let kind = match analysis.index.symbols[*id].kind {
                SymbolKind::Type(TypeKeyword::Struct) => Kind::Struct,
                SymbolKind::Type(TypeKeyword::Enum) => Kind::Enum,
                SymbolKind::Type(_) => Kind::Type,
                SymbolKind::Event | SymbolKind::Stream => Kind::Event,
                SymbolKind::Function => Kind::Function,
                SymbolKind::Scope | SymbolKind::Import { .. } => Kind::Namespace,
                SymbolKind::Generic => Kind::TypeParameter,
                SymbolKind::Field => Kind::Property,
                SymbolKind::Variant | SymbolKind::EnumMember | SymbolKind::SetFlag => Kind::EnumMember,
            };
            (kind, declared)
        }
        OccurrenceKind::Primitive => (Kind::Type, DEFAULT_LIBRARY),
        OccurrenceKind::Class => (Kind::Type, DEFAULT_LIBRARY),
        OccurrenceKind::Unresolved => (Kind::Type, 0),
        OccurrenceKind::FieldKey { .. } => (Kind::Property, 0),
        OccurrenceKind::OptionName => (Kind::Variable, READONLY),
        OccurrenceKind::FieldValue { .. } | OccurrenceKind::OptionValue { .. } => match token {
            TokenKind::String => (Kind::String, 0),
            _ => (Kind::EnumMember, 0),
        },
        OccurrenceKind::ImportPath(_) => (Kind::String, 0),
    })
}

/// LSP's relative encoding, one token per line (a block comment over several lines
/// becomes one token a line).
fn encode(analysis: &Analysis, found: &[(u32, u32, Kind, u32)], encoding: Encoding) -> SemanticTokens {
    let text = analysis.text(ROOT);
    let Some(lines) = analysis.files.first().map(|info| &info.lines) else {
        return SemanticTokens::default();
    };
    let mut data = Vec::with_capacity(found.len());
    let (mut previous_line, mut previous_start) = (0u32, 0u32);
    let mut last_end = 0u32;
    for &(start, end, kind, modifiers) in found {
        if start < last_end {
            continue;
        }
        last_end = end;
        let first_line = lines.line_of(start);
        let last_line = lines.line_of(end);
        for line in first_line..=last_line {
            let piece_start = if line == first_line {
                start
            } else {
                lines.line_start(line)
            };
            let line_end = if line + 1 < lines.line_count() {
                lines.line_start(line + 1).saturating_sub(1)
            } else {
                text.len() as u32
            };
            let piece_end = if line == last_line { end } else { line_end };
            if piece_end <= piece_start {
                continue;
            }
            let from = lines.position(text, piece_start, encoding);
            let to = lines.position(text, piece_end, encoding);
            let delta_line = from.line - previous_line;
            let delta_start = if delta_line == 0 {
                from.character - previous_start
            } else {
                from.character
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: to.character.saturating_sub(from.character),
                token_type: kind as u32,
                token_modifiers_bitset: modifiers,
            });
            previous_line = from.line;
            previous_start = from.character;
        }
    }
    SemanticTokens { result_id: None, data }
}
