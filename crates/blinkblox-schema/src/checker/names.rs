//! Pass 1: the scope tree. Walks the root file and, depth-first, every scope and
//! import; registers type declarations and events/functions/streams in declaration
//! order; reports duplicates; looks names up.

use std::collections::HashMap;

use super::{Checker, MAX_ITEMS, Member, MemberItem, ScopeNode, State, TypeEntry};
use crate::ast::{self, Item};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::TypeId;
use crate::source::Span;
use crate::suggest::Candidates;
use crate::vocabulary::PRIMITIVES;

/// Where a name lookup ended.
pub(super) enum Lookup {
    Found(usize),
    /// The last segment is not declared in the scope the path leads to.
    UnknownType,
    /// A segment before the last is not a scope (its index in the path).
    UnknownScope(usize),
}

impl<'a> Checker<'a> {
    pub(super) fn collect_root(&mut self, root: usize) {
        let scope = self.new_scope(Vec::new(), None);
        let module = &self.loaded.modules[root];
        self.walk(&module.ast.items, scope, true, true);
    }

    fn new_scope(&mut self, path: Vec<String>, parent: Option<usize>) -> usize {
        self.scopes.push(ScopeNode {
            path,
            parent,
            types: HashMap::new(),
            scopes: HashMap::new(),
            values: HashMap::new(),
        });
        self.scopes.len() - 1
    }

    /// Registers `items` in `scope`. `file_top` is true for the top level of a file
    /// (where options may go); `root_file` for the file being checked (whose options
    /// count).
    fn walk(&mut self, items: &'a [Item], scope: usize, file_top: bool, root_file: bool) {
        let mut import_options_reported = false;
        // Options must precede it; `None` while only options and imports were seen.
        let mut first_declaration: Option<Span> = None;
        for item in items {
            self.items_visited += 1;
            if self.items_visited == MAX_ITEMS {
                self.report(
                    Diagnostic::error(
                        codes::TYPE_TOO_LARGE,
                        format!("the schema and its imports hold more than {MAX_ITEMS} declarations"),
                        item.span(),
                        "stopped counting here",
                    )
                    .with_note("a file imported many times over is counted each time; import shared files once"),
                );
            }
            if self.items_visited >= MAX_ITEMS {
                return;
            }
            if !matches!(item, Item::Option(_) | Item::Import(_)) {
                first_declaration.get_or_insert(item.span());
            }
            match item {
                Item::Option(option) => {
                    if !file_top || first_declaration.is_some() {
                        let mut diagnostic = Diagnostic::error(
                            codes::OPTION_AFTER_DECLARATION,
                            format!("option `{}` comes after a declaration", option.name.text),
                            option.span,
                            "options must come first",
                        )
                        .with_note("move every `option` line to the top of the file, before any declaration");
                        if let Some(first) = first_declaration {
                            diagnostic = diagnostic.with_secondary(first, "the first declaration is here");
                        }
                        self.report(diagnostic);
                    } else if root_file {
                        self.apply_option(option, true);
                    } else if !import_options_reported {
                        // One warning per imported file: a schema compiled on its own
                        // and also imported (common with Blink) is not a mistake.
                        import_options_reported = true;
                        self.report(
                            Diagnostic::warning(
                                codes::OPTION_IN_IMPORT,
                                "the options of an imported file have no effect",
                                option.span,
                                "ignored here and below",
                            )
                            .with_note("only the options of the file being compiled count"),
                        );
                    }
                }
                Item::Import(import) => self.walk_import(import, scope),
                Item::Type(type_item) => {
                    self.register_type(type_item, scope);
                }
                Item::Event(event) => self.register_member(&event.name, scope, "event", MemberItem::Event(event)),
                Item::Function(function) => {
                    self.register_member(&function.name, scope, "function", MemberItem::Function(function))
                }
                Item::Stream(stream) => self.register_member(&stream.name, scope, "stream", MemberItem::Stream(stream)),
                Item::Scope(block) => {
                    if let Some(child) = self.open_scope(&block.name, scope) {
                        self.walk(&block.items, child, false, root_file);
                    }
                }
            }
        }
    }

    fn walk_import(&mut self, import: &'a ast::ImportItem, scope: usize) {
        let file = import.path_span.file;
        let Some(&Some(module)) = self.loaded.imports.get(&(file, import.path_span.start)) else {
            return;
        };
        let name = match &import.alias {
            Some(alias) => alias.clone(),
            None => {
                let stem = std::path::Path::new(&import.path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let stem = stem
                    .strip_suffix(".blink")
                    .or_else(|| stem.strip_suffix(".txt"))
                    .unwrap_or(&stem);
                if !is_identifier(stem) {
                    self.report(
                        Diagnostic::error(
                            codes::INVALID_SCOPE_NAME,
                            format!("the file name `{stem}` cannot name a scope"),
                            import.path_span,
                            "imported here",
                        )
                        .with_note(format!("name the scope yourself: `import \"{}\" as Name`", import.path)),
                    );
                    return;
                }
                ast::Name {
                    text: stem.to_string(),
                    span: import.path_span,
                    quoted: false,
                }
            }
        };
        if let Some(child) = self.open_scope(&name, scope) {
            let items = &self.loaded.modules[module].ast.items;
            self.walk(items, child, true, false);
        }
    }

    /// Creates a child scope (a `scope` block or an import), or reports a duplicate.
    fn open_scope(&mut self, name: &ast::Name, parent: usize) -> Option<usize> {
        if !self.register_value(name, parent, "scope") {
            return None;
        }
        let mut path = self.scopes[parent].path.clone();
        path.push(name.text.clone());
        self.scope_order.push(path.clone());
        let child = self.new_scope(path, Some(parent));
        self.scopes[parent].scopes.insert(name.text.clone(), child);
        Some(child)
    }

    /// Registers an event, function or stream. A taken name is reported, but the member is
    /// still checked, so its own errors show up in the same run.
    fn register_member(&mut self, name: &ast::Name, scope: usize, what: &str, item: MemberItem<'a>) {
        self.register_value(name, scope, what);
        self.members.push(Member { item, scope });
    }

    /// Registers an event, function, stream or scope name; false if it is taken.
    fn register_value(&mut self, name: &ast::Name, scope: usize, what: &str) -> bool {
        if self.scopes[scope].parent.is_none() {
            let reserved = self
                .options
                .casing
                .pick("StepReplication", "stepReplication", "step_replication");
            if name.text == reserved {
                self.report(
                    Diagnostic::error(
                        codes::RESERVED_NAME,
                        format!("`{reserved}` is reserved"),
                        name.span,
                        "the generated modules use this name themselves",
                    )
                    .with_note(format!("rename the {what}, or put it in a scope")),
                );
                return false;
            }
        }
        if let Some(&first) = self.scopes[scope].values.get(&name.text) {
            self.report(
                Diagnostic::error(
                    codes::DUPLICATE_DECLARATION,
                    format!("`{}` is declared twice in {}", name.text, self.scope_description(scope)),
                    name.span,
                    "declared again here",
                )
                .with_secondary(first, "first declared here")
                .with_note("events, functions, streams and scopes share one namespace; rename one of them"),
            );
            return false;
        }
        self.scopes[scope].values.insert(name.text.clone(), name.span);
        true
    }

    fn register_type(&mut self, item: &'a ast::TypeItem, scope: usize) {
        if let Some(&first) = self.scopes[scope].types.get(&item.name.text) {
            let first_span = self.entries[first].item.name.span;
            self.report(
                Diagnostic::error(
                    codes::DUPLICATE_DECLARATION,
                    format!(
                        "type `{}` is declared twice in {}",
                        item.name.text,
                        self.scope_description(scope)
                    ),
                    item.name.span,
                    "declared again here",
                )
                .with_secondary(first_span, "first declared here")
                .with_note("rename one of them, or move one into a scope"),
            );
            return;
        }
        let id = if item.generics.is_empty() {
            self.types.push(None);
            Some(TypeId(self.types.len() as u32 - 1))
        } else {
            None
        };
        self.entries.push(TypeEntry {
            item,
            scope,
            id,
            state: State::Unresolved,
        });
        let entry = self.entries.len() - 1;
        self.scopes[scope].types.insert(item.name.text.clone(), entry);
    }

    pub(super) fn scope_description(&self, scope: usize) -> String {
        let path = &self.scopes[scope].path;
        if path.is_empty() {
            "the root scope".to_string()
        } else {
            format!("scope `{}`", path.join("."))
        }
    }

    /// Finds the type a path names, from `scope` outwards.
    pub(super) fn lookup(&self, scope: usize, path: &[ast::Name]) -> Lookup {
        let Some((last, leading)) = path.split_last() else {
            return Lookup::UnknownType;
        };
        let mut target = scope;
        if let Some((first, rest)) = leading.split_first() {
            let Some(found) = self.find_upwards(scope, |node| node.scopes.get(&first.text).copied()) else {
                return Lookup::UnknownScope(0);
            };
            target = found;
            for (i, segment) in rest.iter().enumerate() {
                match self.scopes[target].scopes.get(&segment.text) {
                    Some(&child) => target = child,
                    None => return Lookup::UnknownScope(i + 1),
                }
            }
            return match self.scopes[target].types.get(&last.text) {
                Some(&entry) => Lookup::Found(entry),
                None => Lookup::UnknownType,
            };
        }
        match self.find_upwards(target, |node| node.types.get(&last.text).copied()) {
            Some(entry) => Lookup::Found(entry),
            None => Lookup::UnknownType,
        }
    }

    fn find_upwards<T>(&self, mut scope: usize, find: impl Fn(&ScopeNode) -> Option<T>) -> Option<T> {
        loop {
            let node = &self.scopes[scope];
            if let Some(found) = find(node) {
                return Some(found);
            }
            match node.parent {
                Some(parent) => scope = parent,
                _ => return None,
            }
        }
    }

    /// A "did you mean" for an unknown type name seen from `scope`: the closest of the
    /// primitives, the generic parameters in scope and the types declared in `scope` and
    /// the scopes around it. Each scope's candidates are indexed once, and only as many
    /// suggestions are made as diagnostics can be shown.
    pub(super) fn suggest_type(&self, scope: usize, word: &str, generics: &[String]) -> Option<String> {
        let budget = self.suggestions_left.get();
        if budget == 0 {
            return None;
        }
        self.suggestions_left.set(budget - 1);
        // Primitives and generic parameters first (the first of equally close names wins),
        // then the declared types, indexed once per scope.
        let mut first: Vec<&str> = PRIMITIVES.iter().map(|primitive| primitive.name).collect();
        first.extend(generics.iter().map(String::as_str));
        let first_index = Candidates::new(first);
        let first = first_index.closest_with_distance(word);
        let mut cache = self.type_candidates.borrow_mut();
        let declared = cache.entry(scope).or_insert_with(|| {
            let mut names: Vec<&str> = Vec::new();
            let mut current = Some(scope);
            while let Some(index) = current {
                let node = &self.scopes[index];
                // Sorted, so that the first of equally close names is the same every run.
                let mut declared: Vec<&str> = node.types.keys().map(String::as_str).collect();
                declared.sort_unstable();
                names.extend(declared);
                current = node.parent;
            }
            Candidates::new(names)
        });
        match (first, declared.closest_with_distance(word)) {
            (Some((near, name)), Some((distance, _))) if near <= distance => Some(name.to_string()),
            (_, Some((_, name))) | (Some((_, name)), None) => Some(name.to_string()),
            (None, None) => None,
        }
    }

    pub(super) fn warn_if_empty(&mut self, root: usize) {
        let module = &self.loaded.modules[root];
        let has_declarations = module.ast.items.iter().any(|item| !matches!(item, Item::Option(_)));
        let has_errors = self.diagnostics.iter().any(Diagnostic::is_error);
        if !has_declarations && !has_errors {
            let span = Span::new(module.file, 0, 0);
            self.report(
                Diagnostic::warning(
                    codes::EMPTY_SCHEMA,
                    "this schema declares nothing",
                    span,
                    "empty schema",
                )
                .with_note("declare an `event`, `function`, `stream` or type, or import another schema"),
            );
        }
    }

    /// The type id of an entry once resolved (for `Named`).
    pub(super) fn entry_id(&self, entry: usize) -> Option<TypeId> {
        self.entries[entry].id
    }
}

pub(super) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
