//! What every name in a schema and its imports refers to: declarations, the references
//! to them, and the other words a schema is made of (primitives, option names, field
//! keys). Hover, navigation, rename, completion, symbols and semantic tokens all read it.
//!
//! Names are looked up as the checker looks them up: generic parameters first, then
//! primitives, then declarations from the innermost scope outwards (out of an imported
//! file into the scope that imports it); `A.B` goes through scopes and imports.

mod build;

use std::collections::HashMap;

use blinkblox_schema::ast::TypeKeyword;
use blinkblox_schema::source::{FileId, Span};

pub use build::build;

pub type SymbolId = usize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Type(TypeKeyword),
    Event,
    Function,
    Stream,
    /// `scope Name { … }`.
    Scope,
    /// `import "…" [as Name]`: a scope holding the imported file's declarations.
    /// `named_by_file` when there is no `as`.
    Import {
        named_by_file: bool,
    },
    /// A generic parameter of a type declaration.
    Generic,
    /// A struct field (also of a tagged-enum variant).
    Field,
    Variant,
    EnumMember,
    SetFlag,
}

impl SymbolKind {
    /// How the kind is named in messages and hovers.
    pub fn describe(self) -> &'static str {
        match self {
            SymbolKind::Type(keyword) => keyword.keyword(),
            SymbolKind::Event => "event",
            SymbolKind::Function => "function",
            SymbolKind::Stream => "stream",
            SymbolKind::Scope | SymbolKind::Import { .. } => "scope",
            SymbolKind::Generic => "generic parameter",
            SymbolKind::Field => "field",
            SymbolKind::Variant => "variant",
            SymbolKind::EnumMember => "enum member",
            SymbolKind::SetFlag => "set flag",
        }
    }

    pub fn is_member(self) -> bool {
        matches!(
            self,
            SymbolKind::Field | SymbolKind::Variant | SymbolKind::EnumMember | SymbolKind::SetFlag
        )
    }
}

#[derive(Debug, Clone)]
pub struct Symbol {
    pub kind: SymbolKind,
    /// The name (without quotes for quoted members).
    pub name: String,
    /// The name as written (with its quotes, for quoted members).
    pub span: Span,
    /// The whole declaration (for a member, the member).
    pub item_span: Span,
    /// The scope it is declared in, as a path from the root.
    pub scope_path: Vec<String>,
    /// The scope node it is declared in (for members, the declaration's).
    pub scope: usize,
    /// The declaration a member or generic parameter belongs to.
    pub parent: Option<SymbolId>,
    /// Members of one list (one struct's fields, one enum's members) share a group.
    pub group: usize,
    /// For an import: the imported file.
    pub file: Option<FileId>,
    /// Whether the name was written quoted (`"a b"` or `["a b"]`).
    pub quoted: bool,
}

/// What a word of the schema is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OccurrenceKind {
    /// A declaration's name, or a reference to it.
    Symbol(SymbolId),
    Primitive,
    /// A type name that resolves to nothing (the checker reports it).
    Unresolved,
    /// The key of an `event`/`function`/`stream` field (`From`, `Data`, …).
    FieldKey {
        owner: SymbolId,
    },
    /// A value such as `Server` or `Reliable`.
    FieldValue {
        owner: SymbolId,
        key: String,
    },
    OptionName,
    OptionValue {
        option: String,
    },
    /// The path of an import, and the file it names when it was found.
    ImportPath(Option<FileId>),
    /// The class of `Instance(Class)`.
    Class,
}

#[derive(Debug, Clone)]
pub struct Occurrence {
    pub span: Span,
    pub kind: OccurrenceKind,
    /// Where the symbol is declared, rather than used.
    pub declaration: bool,
    /// For a one-word type name: the scope it is looked up from.
    pub lookup_scope: Option<usize>,
}

/// One scope: a file's top level, a `scope` block or an import.
#[derive(Debug, Clone, Default)]
pub struct ScopeNode {
    pub parent: Option<usize>,
    pub path: Vec<String>,
    pub types: HashMap<String, SymbolId>,
    /// Child scopes by name: the scope node and the symbol that declares it.
    pub scopes: HashMap<String, (usize, SymbolId)>,
    /// Events, functions, streams and scopes share one namespace.
    pub values: HashMap<String, SymbolId>,
}

#[derive(Debug, Clone, Default)]
pub struct Index {
    pub symbols: Vec<Symbol>,
    pub scopes: Vec<ScopeNode>,
    /// Every occurrence, by file, sorted by position.
    pub occurrences: HashMap<FileId, Vec<Occurrence>>,
    /// The scope node of each file's top level.
    pub file_scopes: HashMap<FileId, usize>,
}

impl Index {
    /// The occurrence under `offset` in `file` (a cursor just after a word counts).
    pub fn at(&self, file: FileId, offset: u32) -> Option<&Occurrence> {
        let list = self.occurrences.get(&file)?;
        let after = list.partition_point(|o| o.span.start <= offset);
        list[..after]
            .iter()
            .rev()
            .take(4)
            .find(|o| o.span.start <= offset && offset <= o.span.end)
    }

    /// The symbol under `offset`, declared or referred to there.
    pub fn symbol_at(&self, file: FileId, offset: u32) -> Option<(SymbolId, &Occurrence)> {
        let occurrence = self.at(file, offset)?;
        match occurrence.kind {
            OccurrenceKind::Symbol(id) => Some((id, occurrence)),
            _ => None,
        }
    }

    /// Every occurrence of a symbol, its declaration included, in every file.
    pub fn occurrences_of(&self, symbol: SymbolId) -> Vec<&Occurrence> {
        let mut files: Vec<&FileId> = self.occurrences.keys().collect();
        files.sort();
        files
            .into_iter()
            .flat_map(|file| &self.occurrences[file])
            .filter(|o| o.kind == OccurrenceKind::Symbol(symbol))
            .collect()
    }

    /// The symbol declared exactly at `span`.
    pub fn declared_at(&self, span: Span) -> Option<SymbolId> {
        self.symbols.iter().position(|s| s.span == span)
    }

    /// The type a one-word name means from `scope`, outwards; `None` when none is declared.
    pub fn lookup_type(&self, scope: usize, name: &str) -> Option<SymbolId> {
        let mut current = Some(scope);
        while let Some(index) = current {
            let node = &self.scopes[index];
            if let Some(&symbol) = node.types.get(name) {
                return Some(symbol);
            }
            current = node.parent;
        }
        None
    }

    /// The scope a name means from `scope`, outwards.
    pub fn lookup_scope(&self, scope: usize, name: &str) -> Option<(usize, SymbolId)> {
        let mut current = Some(scope);
        while let Some(index) = current {
            let node = &self.scopes[index];
            if let Some(&found) = node.scopes.get(name) {
                return Some(found);
            }
            current = node.parent;
        }
        None
    }

    /// The qualified name of a declaration: `Combat.Hit`.
    pub fn qualified_name(&self, symbol: SymbolId) -> String {
        let symbol = &self.symbols[symbol];
        blinkblox_schema::print::dotted_name(&symbol.scope_path, &symbol.name)
    }

    /// The symbols of a member list (fields of one struct, members of one enum).
    pub fn group_members(&self, group: usize) -> impl Iterator<Item = (SymbolId, &Symbol)> {
        self.symbols
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.kind.is_member() && s.group == group)
    }
}
