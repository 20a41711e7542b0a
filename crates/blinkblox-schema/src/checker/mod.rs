//! The checker: parsed files → [`Schema`].
//!
//! Passes, each in its own file:
//! 1. `names`: walk every file depth-first (imports become scopes), build the scope
//!    tree, register declarations, report duplicates, apply options (`options`);
//! 2. `types`: resolve every non-generic type declaration (lazily, so forward
//!    references work and cycles are found), with `primitives` (ranges,
//!    components), `structs` (fields, merges, enums) and `generics` (instantiated
//!    inline), computing each type's wire [`layout`];
//! 3. `declarations`: events, functions and streams: their fields, payloads,
//!    channel indices and size limits.

mod declarations;
mod delta;
mod generics;
pub mod layout;
mod names;
mod options;
mod primitives;
mod quantized;
mod structs;
mod types;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::ast;
use crate::diagnostics::Diagnostic;
use crate::loader::Loaded;
use crate::model::{ChannelLayout, EventDecl, FunctionDecl, Options, Schema, ScopePath, StreamDecl, TypeDecl, TypeId};
use crate::source::Span;
use crate::suggest::Candidates;

pub use options::OptionValue;

/// Resolution steps (nested types, references, instantiations) before a type is
/// reported as too deeply nested. Keeps the recursive resolver well inside the stack.
const MAX_RESOLVE_DEPTH: usize = 160;
/// Type nodes generic instantiation may create in one schema.
const MAX_TYPE_NODES: usize = 500_000;
/// Declarations visited, counting each import of a file separately.
const MAX_ITEMS: usize = 200_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unresolved,
    InProgress,
    Done,
    Failed,
}

struct ScopeNode {
    path: ScopePath,
    /// Lookups go outwards through parents, also out of an imported file into the
    /// scope that imports it (Blink resolves names globally, and schemas rely on it).
    parent: Option<usize>,
    types: HashMap<String, usize>,
    scopes: HashMap<String, usize>,
    /// Events, functions, streams and scopes share one namespace (they share the
    /// generated module's tables).
    values: HashMap<String, Span>,
}

struct TypeEntry<'a> {
    item: &'a ast::TypeItem,
    scope: usize,
    /// `None` for generic declarations (templates, not in `Schema::types`).
    id: Option<TypeId>,
    state: State,
}

#[derive(Clone, Copy)]
enum MemberItem<'a> {
    Event(&'a ast::EventItem),
    Function(&'a ast::FunctionItem),
    Stream(&'a ast::StreamItem),
}

struct Member<'a> {
    item: MemberItem<'a>,
    scope: usize,
}

pub(crate) struct Checker<'a> {
    loaded: &'a Loaded,
    diagnostics: Vec<Diagnostic>,
    scopes: Vec<ScopeNode>,
    entries: Vec<TypeEntry<'a>>,
    /// Resolved declarations, indexed by `TypeId`.
    types: Vec<Option<TypeDecl>>,
    members: Vec<Member<'a>>,
    scope_order: Vec<ScopePath>,
    options: Options,
    /// Where the root file set each option (for duplicates).
    option_spans: HashMap<&'static str, Span>,
    /// Where the project defaults set each option (in the file they come from).
    default_spans: HashMap<&'static str, Span>,
    /// "Did you mean" suggestions still worth making: no more than diagnostics are shown.
    suggestions_left: Cell<usize>,
    /// Each scope's declared type names, indexed for suggestions the first time one is made.
    type_candidates: RefCell<HashMap<usize, Candidates>>,
    /// Entries being resolved, innermost last (to name a cycle).
    resolving: Vec<usize>,
    /// Generic entries being instantiated (a generic that uses itself is recursive).
    instantiating: Vec<usize>,
    depth: usize,
    nodes: usize,
    too_large_reported: bool,
    items_visited: usize,
    events: Vec<EventDecl>,
    functions: Vec<FunctionDecl>,
    streams: Vec<StreamDecl>,
    reliable: ChannelLayout,
    unreliable: ChannelLayout,
}

/// Checks a loaded schema. `defaults` are project-wide option defaults, applied before the
/// root file's own options, which override them.
pub fn check(loaded: &Loaded, defaults: &[ast::OptionItem]) -> (Option<Schema>, Vec<Diagnostic>) {
    let Some(root) = loaded.root else {
        return (None, Vec::new());
    };
    let mut checker = Checker {
        loaded,
        diagnostics: Vec::new(),
        scopes: Vec::new(),
        entries: Vec::new(),
        types: Vec::new(),
        members: Vec::new(),
        scope_order: Vec::new(),
        options: Options::default(),
        option_spans: HashMap::new(),
        default_spans: HashMap::new(),
        suggestions_left: Cell::new(crate::diagnostics::MAX_DIAGNOSTICS),
        type_candidates: RefCell::new(HashMap::new()),
        resolving: Vec::new(),
        instantiating: Vec::new(),
        depth: 0,
        nodes: 0,
        too_large_reported: false,
        items_visited: 0,
        events: Vec::new(),
        functions: Vec::new(),
        streams: Vec::new(),
        reliable: ChannelLayout {
            count: 0,
            index_bytes: 1,
        },
        unreliable: ChannelLayout {
            count: 0,
            index_bytes: 1,
        },
    };
    for default in defaults {
        checker.apply_option(default, false);
    }
    checker.collect_root(root);
    checker.resolve_all_types();
    checker.check_members();
    checker.check_limits(root);
    checker.warn_if_empty(root);
    let has_errors = checker.diagnostics.iter().any(Diagnostic::is_error);
    let Checker {
        diagnostics,
        types,
        options,
        scope_order,
        events,
        functions,
        streams,
        reliable,
        unreliable,
        ..
    } = checker;
    if has_errors {
        return (None, diagnostics);
    }
    let types: Option<Vec<TypeDecl>> = types.into_iter().collect();
    let schema = types.map(|types| Schema {
        options,
        types,
        events,
        functions,
        streams,
        scopes: scope_order,
        reliable,
        unreliable,
    });
    (schema, diagnostics)
}

impl Checker<'_> {
    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }
}
