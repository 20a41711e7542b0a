//! Completion: what may be written at the cursor, from the tokens before it — a
//! declaration keyword, an option's name or value, a type (primitives, declared and
//! imported types), or a field of an `event`/`function`/`stream` block and its values.

use blinkblox_schema::lexer::{Lexer, Token, TokenKind};
use blinkblox_schema::source::FileId;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

use crate::analysis::{Analysis, ROOT};
use crate::index::{Index, SymbolKind};
use blinkblox_schema::vocabulary::{self, KEYWORDS, OPTIONS, OptionKind, option as vocabulary_option};

/// What the cursor is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Context {
    Keywords,
    OptionNames,
    OptionValue(String),
    /// A type; `qualifier` is the `Scope.` path typed before the cursor.
    Types {
        scopes: Vec<String>,
        qualifier: Vec<String>,
    },
    FieldKeys {
        keyword: &'static str,
        present: Vec<String>,
    },
    FieldValues {
        keyword: &'static str,
        key: String,
    },
    Nothing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    Top,
    Scope,
    Block(&'static str),
    Struct,
    Members,
    Variants,
    Map,
    Parens,
    Angles,
    Brackets,
    Other,
}

struct FrameState<'t> {
    kind: Frame,
    /// The declaration keyword that started the current declaration of a `Top`/`Scope`.
    pending: Option<&'static str>,
    /// The scope's name, for a `Scope` frame.
    name: Option<String>,
    /// Keys written so far, in a `Block`.
    keys: Vec<String>,
    /// The last few tokens of this frame, with their text.
    recent: Vec<(Token, &'t str)>,
}

impl<'t> FrameState<'t> {
    fn new(kind: Frame) -> FrameState<'t> {
        FrameState {
            kind,
            pending: None,
            name: None,
            keys: Vec::new(),
            recent: Vec::new(),
        }
    }

    fn back(&self, n: usize) -> Option<(TokenKind, &'t str)> {
        let len = self.recent.len();
        (n < len).then(|| {
            let (token, text) = self.recent[len - 1 - n];
            (token.kind, text)
        })
    }

    fn push(&mut self, token: Token, text: &'t str) {
        if self.recent.len() == 6 {
            self.recent.remove(0);
        }
        self.recent.push((token, text));
    }
}

const DECLARATION_KEYWORDS: &[&str] = &[
    "type", "struct", "enum", "map", "set", "event", "function", "stream", "scope",
];

/// The context at byte `offset` of `text`.
pub fn context(text: &str, offset: usize) -> Context {
    let offset = crate::positions::floor_boundary(text, offset);
    let mut lexer = Lexer::new(FileId(0), text);
    let mut sink = Vec::new();
    let mut stack: Vec<FrameState<'_>> = vec![FrameState::new(Frame::Top)];
    let mut last_end = 0usize;
    loop {
        let token = lexer.next_token(&mut sink);
        // Lexical errors say nothing about the context; do not keep them.
        sink.clear();
        let (start, end) = (token.span.start as usize, token.span.end as usize);
        if token.kind == TokenKind::Eof || start >= offset {
            break;
        }
        if end >= offset && token.kind == TokenKind::Ident {
            // The word being typed.
            break;
        }
        if end > offset || (end == offset && token.kind == TokenKind::String && !closed_string(&text[start..end])) {
            return Context::Nothing;
        }
        last_end = end;
        step(&mut stack, token, &text[start..end], text);
    }
    let gap = &text[last_end..offset];
    if gap.lines().last().is_some_and(|line| line.contains("--")) {
        return Context::Nothing;
    }
    let word_starts_line = text[..offset]
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .rsplit('\n')
        .next()
        .is_some_and(|line| line.trim().is_empty());
    let scopes: Vec<String> = stack.iter().filter_map(|frame| frame.name.clone()).collect();
    let Some(frame) = stack.last() else {
        return Context::Nothing;
    };
    let qualifier = qualifier(frame);
    let types = |qualifier: Vec<String>| Context::Types {
        scopes: scopes.clone(),
        qualifier,
    };
    if !qualifier.is_empty() {
        return types(qualifier);
    }
    let back0 = frame.back(0);
    let back1 = frame.back(1);
    match frame.kind {
        Frame::Top | Frame::Scope => match (back0, back1, frame.back(2)) {
            (Some((TokenKind::Ident, "option")), _, _) => Context::OptionNames,
            (Some((TokenKind::Equals, _)), Some((TokenKind::Ident, name)), Some((TokenKind::Ident, "option"))) => {
                Context::OptionValue(name.to_string())
            }
            (Some((TokenKind::Equals, _)), _, _) => types(Vec::new()),
            (Some((TokenKind::Ident, "import" | "as")), _, _) => Context::Nothing,
            _ if word_starts_line || back0.is_none() => Context::Keywords,
            (Some((TokenKind::Ident, "export")), _, _) => Context::Keywords,
            _ => Context::Nothing,
        },
        Frame::Block(keyword) => match (back0, back1) {
            (Some((TokenKind::Colon, _)), Some((TokenKind::Ident, key))) => {
                if key.eq_ignore_ascii_case("data") || key.eq_ignore_ascii_case("return") {
                    types(Vec::new())
                } else {
                    Context::FieldValues {
                        keyword,
                        key: key.to_string(),
                    }
                }
            }
            _ => {
                let mut present = frame.keys.clone();
                present.extend(keys_after(&text[offset..]));
                Context::FieldKeys { keyword, present }
            }
        },
        Frame::Struct => match back0 {
            Some((TokenKind::Colon | TokenKind::DotDot, _)) => types(Vec::new()),
            _ => Context::Nothing,
        },
        Frame::Parens | Frame::Angles | Frame::Map | Frame::Brackets => types(Vec::new()),
        Frame::Members | Frame::Variants | Frame::Other => Context::Nothing,
    }
}

/// The keys written after the cursor, up to the end of the block.
fn keys_after(rest: &str) -> Vec<String> {
    let mut lexer = Lexer::new(FileId(0), rest);
    let mut sink = Vec::new();
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut previous: Option<(TokenKind, &str)> = None;
    loop {
        let token = lexer.next_token(&mut sink);
        sink.clear();
        let word = &rest[token.span.start as usize..token.span.end as usize];
        match token.kind {
            TokenKind::Eof => break,
            TokenKind::LBrace | TokenKind::LParen | TokenKind::LBracket | TokenKind::Less => depth += 1,
            TokenKind::RBrace | TokenKind::RParen | TokenKind::RBracket | TokenKind::Greater => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            TokenKind::Colon if depth == 0 => {
                if let Some((TokenKind::Ident, key)) = previous {
                    keys.push(key.to_string());
                }
            }
            _ => {}
        }
        previous = Some((token.kind, word));
    }
    keys
}

fn closed_string(text: &str) -> bool {
    text.len() >= 2 && text.as_bytes()[0] == text.as_bytes()[text.len() - 1]
}

/// `A.B.` just before the cursor: `["A", "B"]`.
fn qualifier(frame: &FrameState<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut n = 0;
    while let (Some((TokenKind::Dot, _)), Some((TokenKind::Ident, name))) = (frame.back(n), frame.back(n + 1)) {
        names.insert(0, name.to_string());
        n += 2;
    }
    names
}

fn step<'t>(stack: &mut Vec<FrameState<'t>>, token: Token, word: &'t str, text: &str) {
    let Some(frame) = stack.last_mut() else {
        return;
    };
    match token.kind {
        TokenKind::LBrace => {
            let kind = opened_by(frame);
            let mut child = FrameState::new(kind);
            if kind == Frame::Scope {
                child.name = frame.back(0).map(|(_, name)| name.to_string());
            }
            frame.pending = None;
            frame.push(token, word);
            stack.push(child);
        }
        TokenKind::LParen | TokenKind::LBracket | TokenKind::Less => {
            frame.push(token, word);
            stack.push(FrameState::new(match token.kind {
                TokenKind::LParen => Frame::Parens,
                TokenKind::LBracket => Frame::Brackets,
                _ => Frame::Angles,
            }));
        }
        TokenKind::RBrace | TokenKind::RParen | TokenKind::RBracket | TokenKind::Greater => {
            if stack.len() > 1 {
                stack.pop();
            }
            if let Some(parent) = stack.last_mut() {
                parent.push(token, word);
            }
        }
        TokenKind::Colon => {
            if let (Frame::Block(_), Some((TokenKind::Ident, key))) = (frame.kind, frame.back(0)) {
                frame.keys.push(key.to_string());
            }
            frame.push(token, word);
        }
        TokenKind::Ident => {
            if matches!(frame.kind, Frame::Top | Frame::Scope) {
                let starts_item = match frame.back(0) {
                    None | Some((TokenKind::RBrace, _)) | Some((TokenKind::Ident, "export")) => true,
                    Some(_) => text[..token.span.start as usize]
                        .rsplit('\n')
                        .next()
                        .is_some_and(|line| line.trim().is_empty()),
                };
                if starts_item && let Some(keyword) = DECLARATION_KEYWORDS.iter().find(|k| **k == word) {
                    frame.pending = Some(*keyword);
                }
            }
            frame.push(token, word);
        }
        _ => frame.push(token, word),
    }
}

/// What a `{` opens, from the tokens before it.
fn opened_by(frame: &FrameState<'_>) -> Frame {
    match (frame.back(0), frame.back(1)) {
        (Some((TokenKind::Ident, "struct")), _) => Frame::Struct,
        (Some((TokenKind::Ident, "enum" | "set")), _) => Frame::Members,
        (Some((TokenKind::Ident, "map")), _) => Frame::Map,
        (Some((TokenKind::String, _)), Some((TokenKind::Ident, "enum") | (TokenKind::Equals, _))) => Frame::Variants,
        _ if frame.kind == Frame::Variants => Frame::Struct,
        (Some((TokenKind::Colon, _)), _) => Frame::Map,
        (Some((TokenKind::Equals, _)), _) => match frame.pending {
            Some("enum" | "set") => Frame::Members,
            Some("struct") => Frame::Struct,
            _ => Frame::Map,
        },
        (Some((TokenKind::Ident | TokenKind::Greater, _)), _) => match frame.pending {
            Some(keyword @ ("event" | "function" | "stream")) => Frame::Block(keyword),
            Some("scope") => Frame::Scope,
            Some("struct") => Frame::Struct,
            _ => Frame::Other,
        },
        _ => Frame::Other,
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        documentation: (!detail.is_empty()).then(|| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: detail.to_string(),
            })
        }),
        ..CompletionItem::default()
    }
}

/// Completions at `offset` of `text`. `analysis` (possibly of an earlier version) gives
/// the declared names.
pub fn complete(text: &str, analysis: Option<&Analysis>, offset: usize) -> Vec<CompletionItem> {
    match context(text, offset) {
        Context::Keywords => KEYWORDS
            .iter()
            .map(|keyword| item(keyword.word, CompletionItemKind::KEYWORD, keyword.about))
            .collect(),
        Context::OptionNames => OPTIONS
            .iter()
            .map(|option| {
                let mut completion = item(option.name, CompletionItemKind::PROPERTY, option.about);
                let default = option.default_text();
                if !default.is_empty() {
                    completion.detail = Some(format!("default {default}"));
                }
                completion
            })
            .collect(),
        Context::OptionValue(name) => {
            let Some(option) = vocabulary_option(&name) else {
                return Vec::new();
            };
            let mut values: Vec<CompletionItem> = option
                .kind
                .values()
                .iter()
                .map(|value| item(value, CompletionItemKind::VALUE, ""))
                .collect();
            if option.kind == OptionKind::Count {
                values.push(item(&option.default_text(), CompletionItemKind::VALUE, "the default"));
            }
            values
        }
        Context::FieldKeys { keyword, present } => vocabulary::fields_of(keyword)
            .iter()
            .filter(|field| !present.iter().any(|key| key.eq_ignore_ascii_case(field.key)))
            .map(|field| {
                let mut completion = item(field.key, CompletionItemKind::PROPERTY, field.about);
                completion.insert_text = Some(format!("{}: ", field.key));
                if field.required {
                    completion.detail = Some("required".to_string());
                }
                completion
            })
            .collect(),
        Context::FieldValues { keyword, key } => vocabulary::field(keyword, &key)
            .map(|field| {
                field
                    .takes
                    .words()
                    .into_iter()
                    .map(|(value, about)| item(value, CompletionItemKind::ENUM_MEMBER, about))
                    .collect()
            })
            .unwrap_or_default(),
        Context::Types { scopes, qualifier } => types(analysis.map(|a| &a.index), &scopes, &qualifier),
        Context::Nothing => Vec::new(),
    }
}

fn types(index: Option<&Index>, scopes: &[String], qualifier: &[String]) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    if qualifier.is_empty() {
        for primitive in vocabulary::PRIMITIVES {
            items.push(item(primitive.name, CompletionItemKind::KEYWORD, primitive.about));
        }
        for keyword in ["struct", "enum", "map", "set"] {
            items.push(item(keyword, CompletionItemKind::KEYWORD, "an inline type"));
        }
    }
    let Some(index) = index else {
        return items;
    };
    let Some(&root) = index.file_scopes.get(&ROOT) else {
        return items;
    };
    // The scope the cursor is in, then the one the qualifier names from there.
    let mut node = root;
    for name in scopes {
        match index.scopes[node].scopes.get(name) {
            Some(&(child, _)) => node = child,
            None => break,
        }
    }
    let mut visible = Vec::new();
    if let Some((first, rest)) = qualifier.split_first() {
        let Some((mut target, _)) = index.lookup_scope(node, first) else {
            return items;
        };
        for name in rest {
            match index.scopes[target].scopes.get(name) {
                Some(&(child, _)) => target = child,
                None => return items,
            }
        }
        visible.push(target);
    } else {
        let mut current = Some(node);
        while let Some(scope) = current {
            visible.push(scope);
            current = index.scopes[scope].parent;
        }
    }
    let mut seen = std::collections::HashSet::new();
    for scope in visible {
        let node = &index.scopes[scope];
        let mut names: Vec<(&String, &usize)> = node.types.iter().collect();
        names.sort();
        for (name, &symbol) in names {
            if !seen.insert(name.clone()) {
                continue;
            }
            let kind = match index.symbols[symbol].kind {
                SymbolKind::Type(blinkblox_schema::ast::TypeKeyword::Struct) => CompletionItemKind::STRUCT,
                SymbolKind::Type(blinkblox_schema::ast::TypeKeyword::Enum) => CompletionItemKind::ENUM,
                _ => CompletionItemKind::CLASS,
            };
            let mut completion = item(name, kind, "");
            completion.detail = Some(index.qualified_name(symbol));
            items.push(completion);
        }
        let mut children: Vec<&String> = node.scopes.keys().collect();
        children.sort();
        for name in children {
            if seen.insert(name.clone()) {
                items.push(item(name, CompletionItemKind::MODULE, "a scope"));
            }
        }
    }
    items
}
