//! Building the [`Index`]: declarations first, file by file through the imports (so
//! forward references resolve), then every type expression and `Key: value` field.

use std::collections::HashMap;

use blinkblox_schema::ast::{self, DeclField, DeclValue, Item, StructMember, TypeExpr, TypeExprKind};
use blinkblox_schema::source::{FileId, Span};

use super::{Index, Occurrence, OccurrenceKind, ScopeNode, Symbol, SymbolId, SymbolKind};
use blinkblox_schema::vocabulary::is_primitive;

/// `imports` maps `(importing file, start of the import's path)` to the file imported.
pub fn build(files: &HashMap<FileId, &ast::File>, root: FileId, imports: &HashMap<(FileId, u32), FileId>) -> Index {
    let mut builder = Builder {
        index: Index::default(),
        files,
        imports,
        types: Vec::new(),
        members: Vec::new(),
        groups: 0,
        occurrences: Vec::new(),
    };
    if let Some(ast) = files.get(&root) {
        let scope = builder.new_scope(None, Vec::new());
        builder.index.file_scopes.insert(root, scope);
        builder.walk(&ast.items, scope);
    }
    let types = std::mem::take(&mut builder.types);
    for (item, scope, symbol) in types {
        builder.type_item(item, scope, symbol);
    }
    let members = std::mem::take(&mut builder.members);
    for (fields, scope, owner) in members {
        builder.fields(fields, scope, owner);
    }
    let Builder {
        mut index, occurrences, ..
    } = builder;
    for occurrence in occurrences {
        index
            .occurrences
            .entry(occurrence.span.file)
            .or_default()
            .push(occurrence);
    }
    for list in index.occurrences.values_mut() {
        list.sort_by_key(|o| (o.span.start, o.span.end));
        list.dedup_by_key(|o| (o.span.start, o.span.end));
    }
    index
}

struct Builder<'a> {
    index: Index,
    files: &'a HashMap<FileId, &'a ast::File>,
    imports: &'a HashMap<(FileId, u32), FileId>,
    types: Vec<(&'a ast::TypeItem, usize, SymbolId)>,
    members: Vec<(&'a [DeclField], usize, SymbolId)>,
    groups: usize,
    occurrences: Vec<Occurrence>,
}

/// The generic parameters in force in a type declaration's body.
type Generics = [(String, SymbolId)];

impl<'a> Builder<'a> {
    fn new_scope(&mut self, parent: Option<usize>, path: Vec<String>) -> usize {
        self.index.scopes.push(ScopeNode {
            parent,
            path,
            ..ScopeNode::default()
        });
        self.index.scopes.len() - 1
    }

    fn new_group(&mut self) -> usize {
        self.groups += 1;
        self.groups
    }

    fn occurrence(&mut self, span: Span, kind: OccurrenceKind, declaration: bool) {
        self.occurrences.push(Occurrence {
            span,
            kind,
            declaration,
            lookup_scope: None,
        });
    }

    fn symbol(
        &mut self,
        kind: SymbolKind,
        name: &ast::Name,
        item_span: Span,
        scope: usize,
        parent: Option<SymbolId>,
    ) -> SymbolId {
        self.index.symbols.push(Symbol {
            kind,
            name: name.text.clone(),
            span: name.span,
            item_span,
            scope_path: self.index.scopes[scope].path.clone(),
            scope,
            parent,
            group: 0,
            file: None,
            quoted: name.quoted,
        });
        self.index.symbols.len() - 1
    }

    fn declare(
        &mut self,
        kind: SymbolKind,
        name: &ast::Name,
        item_span: Span,
        scope: usize,
        parent: Option<SymbolId>,
    ) -> SymbolId {
        let id = self.symbol(kind, name, item_span, scope, parent);
        self.occurrence(name.span, OccurrenceKind::Symbol(id), true);
        id
    }

    fn walk(&mut self, items: &'a [Item], scope: usize) {
        for item in items {
            match item {
                Item::Option(option) => {
                    self.occurrence(option.name.span, OccurrenceKind::OptionName, false);
                    let kind = OccurrenceKind::OptionValue {
                        option: option.name.text.clone(),
                    };
                    self.occurrence(option.value.span, kind, false);
                }
                Item::Type(type_item) => {
                    let kind = SymbolKind::Type(type_item.keyword);
                    let id = self.declare(kind, &type_item.name, type_item.span, scope, None);
                    self.index.scopes[scope]
                        .types
                        .entry(type_item.name.text.clone())
                        .or_insert(id);
                    self.types.push((type_item, scope, id));
                }
                Item::Event(event) => self.member(SymbolKind::Event, &event.name, event.span, &event.fields, scope),
                Item::Function(function) => self.member(
                    SymbolKind::Function,
                    &function.name,
                    function.span,
                    &function.fields,
                    scope,
                ),
                Item::Stream(stream) => {
                    self.member(SymbolKind::Stream, &stream.name, stream.span, &stream.fields, scope)
                }
                Item::Scope(block) => {
                    let id = self.declare(SymbolKind::Scope, &block.name, block.span, scope, None);
                    let mut path = self.index.scopes[scope].path.clone();
                    path.push(block.name.text.clone());
                    let child = self.new_scope(Some(scope), path);
                    self.register_scope(scope, &block.name.text, child, id);
                    self.walk(&block.items, child);
                }
                Item::Import(import) => self.import(import, scope),
            }
        }
    }

    fn member(&mut self, kind: SymbolKind, name: &ast::Name, span: Span, fields: &'a [DeclField], scope: usize) {
        let id = self.declare(kind, name, span, scope, None);
        self.index.scopes[scope].values.entry(name.text.clone()).or_insert(id);
        self.members.push((fields, scope, id));
    }

    fn register_scope(&mut self, parent: usize, name: &str, child: usize, id: SymbolId) {
        let node = &mut self.index.scopes[parent];
        node.values.entry(name.to_string()).or_insert(id);
        node.scopes.entry(name.to_string()).or_insert((child, id));
    }

    fn import(&mut self, import: &'a ast::ImportItem, scope: usize) {
        let target = self
            .imports
            .get(&(import.path_span.file, import.path_span.start))
            .copied();
        self.occurrence(import.path_span, OccurrenceKind::ImportPath(target), false);
        let name = match &import.alias {
            Some(alias) => alias.clone(),
            None => match scope_name_of_file(&import.path) {
                Some(stem) => ast::Name {
                    text: stem,
                    span: import.path_span,
                    quoted: false,
                },
                None => return,
            },
        };
        let kind = SymbolKind::Import {
            named_by_file: import.alias.is_none(),
        };
        let id = if import.alias.is_some() {
            self.declare(kind, &name, import.span, scope, None)
        } else {
            self.symbol(kind, &name, import.span, scope, None)
        };
        self.index.symbols[id].file = target;
        let existing = target.and_then(|file| self.index.file_scopes.get(&file).copied());
        let child = match existing {
            Some(child) => child,
            None => {
                let mut path = self.index.scopes[scope].path.clone();
                path.push(name.text.clone());
                let child = self.new_scope(Some(scope), path);
                if let Some(file) = target {
                    self.index.file_scopes.insert(file, child);
                    if let Some(ast) = self.files.get(&file) {
                        self.walk(&ast.items, child);
                    }
                }
                child
            }
        };
        self.register_scope(scope, &name.text, child, id);
    }

    fn type_item(&mut self, item: &'a ast::TypeItem, scope: usize, symbol: SymbolId) {
        let generics: Vec<(String, SymbolId)> = item
            .generics
            .iter()
            .map(|name| {
                let id = self.declare(SymbolKind::Generic, name, name.span, scope, Some(symbol));
                (name.text.clone(), id)
            })
            .collect();
        self.ty(&item.body, scope, &generics, symbol);
    }

    fn fields(&mut self, fields: &'a [DeclField], scope: usize, owner: SymbolId) {
        for field in fields {
            self.occurrence(field.key.span, OccurrenceKind::FieldKey { owner }, false);
            match &field.value {
                DeclValue::Literal(literal) => {
                    let kind = OccurrenceKind::FieldValue {
                        owner,
                        key: field.key.text.clone(),
                    };
                    self.occurrence(literal.span, kind, false);
                }
                DeclValue::Type(ty) => self.ty(ty, scope, &[], owner),
                DeclValue::Tuple(types, _) => {
                    for ty in types {
                        self.ty(ty, scope, &[], owner);
                    }
                }
            }
        }
    }

    fn ty(&mut self, ty: &'a TypeExpr, scope: usize, generics: &Generics, parent: SymbolId) {
        match &ty.kind {
            TypeExprKind::Named {
                path,
                arguments,
                argument,
                ..
            } => {
                self.path(path, scope, generics);
                for argument in arguments {
                    self.ty(argument, scope, generics, parent);
                }
                if let Some(ast::TypeArgument::Class(class)) = argument {
                    self.occurrence(class.span, OccurrenceKind::Class, false);
                }
            }
            TypeExprKind::Struct(members) => self.struct_members(members, scope, generics, parent),
            TypeExprKind::UnitEnum(names) => self.names(names, SymbolKind::EnumMember, scope, parent),
            TypeExprKind::Set(names) => self.names(names, SymbolKind::SetFlag, scope, parent),
            TypeExprKind::TaggedEnum { variants, .. } => {
                let group = self.new_group();
                for variant in variants {
                    let id = self.declare(SymbolKind::Variant, &variant.name, variant.span, scope, Some(parent));
                    self.index.symbols[id].group = group;
                    self.struct_members(&variant.members, scope, generics, parent);
                }
            }
            TypeExprKind::Map { key, value, .. } => {
                self.ty(key, scope, generics, parent);
                self.ty(value, scope, generics, parent);
            }
            TypeExprKind::Optional(inner) => self.ty(inner, scope, generics, parent),
            TypeExprKind::Array { element, .. } => self.ty(element, scope, generics, parent),
            TypeExprKind::Error => {}
        }
    }

    fn struct_members(&mut self, members: &'a [StructMember], scope: usize, generics: &Generics, parent: SymbolId) {
        let group = self.new_group();
        for member in members {
            match member {
                StructMember::Field(field) => {
                    let id = self.declare(SymbolKind::Field, &field.name, field.span, scope, Some(parent));
                    self.index.symbols[id].group = group;
                    self.ty(&field.ty, scope, generics, parent);
                }
                StructMember::Merge(ty) => self.ty(ty, scope, generics, parent),
            }
        }
    }

    fn names(&mut self, names: &[ast::Name], kind: SymbolKind, scope: usize, parent: SymbolId) {
        let group = self.new_group();
        for name in names {
            let id = self.declare(kind, name, name.span, scope, Some(parent));
            self.index.symbols[id].group = group;
        }
    }

    /// A type name: `T`, `Name` or `Scope.Sub.Name`.
    fn path(&mut self, path: &[ast::Name], scope: usize, generics: &Generics) {
        let Some((last, leading)) = path.split_last() else {
            return;
        };
        if leading.is_empty() {
            let mut lookup_scope = None;
            let kind = if let Some((_, id)) = generics.iter().find(|(name, _)| *name == last.text) {
                OccurrenceKind::Symbol(*id)
            } else if is_primitive(&last.text) {
                OccurrenceKind::Primitive
            } else {
                lookup_scope = Some(scope);
                match self.index.lookup_type(scope, &last.text) {
                    Some(id) => OccurrenceKind::Symbol(id),
                    None => OccurrenceKind::Unresolved,
                }
            };
            self.occurrence(last.span, kind, false);
            if let Some(occurrence) = self.occurrences.last_mut() {
                occurrence.lookup_scope = lookup_scope;
            }
            return;
        }
        let mut target: Option<usize> = None;
        for (position, segment) in leading.iter().enumerate() {
            let found = match (position, target) {
                (0, _) => self.index.lookup_scope(scope, &segment.text),
                (_, Some(node)) => self.index.scopes[node].scopes.get(&segment.text).copied(),
                (_, None) => None,
            };
            target = found.map(|(node, _)| node);
            let kind = found.map_or(OccurrenceKind::Unresolved, |(_, id)| OccurrenceKind::Symbol(id));
            self.occurrence(segment.span, kind, false);
        }
        let kind = target
            .and_then(|node| self.index.scopes[node].types.get(&last.text).copied())
            .map_or(OccurrenceKind::Unresolved, OccurrenceKind::Symbol);
        self.occurrence(last.span, kind, false);
    }
}

/// The scope an import without `as` gets: the file's name without its extension, when
/// that is an identifier (otherwise the checker asks for `as`).
pub fn scope_name_of_file(path: &str) -> Option<String> {
    let stem = std::path::Path::new(path).file_stem()?.to_string_lossy().into_owned();
    let stem = stem
        .strip_suffix(".blink")
        .or_else(|| stem.strip_suffix(".txt"))
        .unwrap_or(&stem)
        .to_string();
    let mut chars = stem.chars();
    let valid = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some(stem)
}
