//! Namespaces and names: which declarations each namespace holds, what a type reference
//! names, and which types contain themselves.
//!
//! References resolve as BlinkBlox resolves them in the translated schema, from the
//! namespace they are written in outwards (`NS.Type` finds `NS` the same way). zap 0.6 only
//! looks inside the current namespace, so everything zap resolves means the same thing
//! here; a namespace may also use the types declared around it, which zap cannot.

use std::collections::HashMap;

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::Span;
use blinkblox_schema::suggest::closest;

use super::Translation;
use crate::codes;
use crate::syntax::{Decl, Name, Ty, TyKind, TypeDecl};

/// zap's built-in type names (resolved before declarations, as zap does), with their
/// BlinkBlox spelling, or `None` when BlinkBlox has no such type.
const BUILTINS: &[(&str, Option<&str>)] = &[
    ("boolean", Some("boolean")),
    ("Color3", Some("Color3")),
    ("BrickColor", Some("BrickColor")),
    ("DateTime", Some("DateTime")),
    ("DateTimeMillis", Some("DateTimeMillis")),
    ("CFrame", Some("CFrame")),
    ("Vector3", Some("vector")),
    ("unknown", Some("unknown")),
    ("Vector2", None),
    ("AlignedCFrame", None),
];

/// BlinkBlox's built-in type names that zap does not have: a zap declaration of that name
/// would be hidden by the built-in in the translation.
const BLINK_ONLY_PRIMITIVES: &[&str] = &["f16"];

pub(crate) struct Scope<'a> {
    pub path: Vec<&'a str>,
    pub parent: Option<usize>,
    pub types: HashMap<&'a str, usize>,
    pub children: HashMap<&'a str, usize>,
    /// Events, functions and namespaces, which share one set of names.
    pub values: HashMap<&'a str, Span>,
}

pub(crate) struct TypeEntry<'a> {
    pub decl: &'a TypeDecl,
    pub scope: usize,
}

pub(crate) enum Resolved<'a> {
    /// A built-in, as BlinkBlox writes it.
    Builtin(&'static str),
    /// A zap built-in BlinkBlox has no equivalent for.
    Unsupported(&'a str),
    Declared(usize),
}

impl<'a> Translation<'a> {
    /// Registers `decls` (and the namespaces inside them) in `scope`.
    pub(super) fn collect(&mut self, decls: &'a [Decl], scope: usize) {
        for decl in decls {
            match decl {
                Decl::Type(item) => self.register_type(item, scope),
                Decl::Event(_) | Decl::Function(_) => {
                    self.register_value(decl.name(), scope);
                }
                Decl::Namespace(namespace) => {
                    if !self.register_value(&namespace.name, scope) {
                        continue;
                    }
                    let mut path = self.scopes[scope].path.clone();
                    path.push(&namespace.name.text);
                    let child = self.new_scope(path, Some(scope));
                    self.scopes[scope].children.insert(&namespace.name.text, child);
                    self.collect(&namespace.decls, child);
                }
            }
        }
    }

    pub(super) fn new_scope(&mut self, path: Vec<&'a str>, parent: Option<usize>) -> usize {
        self.scopes.push(Scope {
            path,
            parent,
            types: HashMap::new(),
            children: HashMap::new(),
            values: HashMap::new(),
        });
        self.scopes.len() - 1
    }

    fn where_is(&self, scope: usize) -> String {
        match self.scopes[scope].path.as_slice() {
            [] => "the file".to_string(),
            path => format!("namespace `{}`", path.join(".")),
        }
    }

    fn register_type(&mut self, item: &'a TypeDecl, scope: usize) {
        let name = &item.name;
        if BLINK_ONLY_PRIMITIVES.contains(&name.text.as_str()) {
            self.report(
                Diagnostic::error(
                    codes::RESERVED_NAME,
                    format!("`{}` is a built-in type in BlinkBlox", name.text),
                    name.span,
                    "this name would mean BlinkBlox's own type",
                )
                .with_note("rename the type (and its uses) in the zap file, then import it again"),
            );
        }
        if let Some(&first) = self.scopes[scope].types.get(name.text.as_str()) {
            let first_span = self.types[first].decl.name.span;
            let place = self.where_is(scope);
            self.report(
                Diagnostic::error(
                    codes::DUPLICATE_DECLARATION,
                    format!("type `{}` is declared twice in {place}", name.text),
                    name.span,
                    "declared again here",
                )
                .with_secondary(first_span, "first declared here")
                .with_note("rename one of them (zap rejects this too)"),
            );
            return;
        }
        self.types.push(TypeEntry { decl: item, scope });
        let index = self.types.len() - 1;
        self.scopes[scope].types.insert(&name.text, index);
    }

    /// Registers an event, function or namespace name; false when it is taken.
    fn register_value(&mut self, name: &'a Name, scope: usize) -> bool {
        if self.scopes[scope].parent.is_none() && name.text == self.reserved_name() {
            let reserved = self.reserved_name();
            self.report(
                Diagnostic::error(
                    codes::RESERVED_NAME,
                    format!("`{reserved}` is reserved in BlinkBlox"),
                    name.span,
                    "the generated modules have a member of this name",
                )
                .with_note(format!(
                    "`{reserved}` is BlinkBlox's `SendEvents`; rename this declaration or move it into a namespace"
                )),
            );
            return false;
        }
        if let Some(&first) = self.scopes[scope].values.get(name.text.as_str()) {
            let place = self.where_is(scope);
            self.report(
                Diagnostic::error(
                    codes::DUPLICATE_DECLARATION,
                    format!("`{}` is declared twice in {place}", name.text),
                    name.span,
                    "declared again here",
                )
                .with_secondary(first, "first declared here")
                .with_note("events, functions and namespaces share one set of names; rename one of them"),
            );
            return false;
        }
        self.scopes[scope].values.insert(&name.text, name.span);
        true
    }

    /// What `path` names, seen from `scope`; reports it when it names nothing.
    pub(super) fn resolve(&mut self, scope: usize, path: &'a [Name], span: Span) -> Option<Resolved<'a>> {
        if let Some(found) = self.lookup(scope, path) {
            return Some(found);
        }
        let shown: Vec<&str> = path.iter().map(|name| name.text.as_str()).collect();
        let mut diagnostic = Diagnostic::error(
            codes::UNKNOWN_TYPE,
            format!("unknown type `{}`", shown.join(".")),
            span,
            "not declared",
        );
        if let [only] = path {
            let mut candidates: Vec<&str> = BUILTINS.iter().map(|(name, _)| *name).collect();
            let mut current = Some(scope);
            while let Some(index) = current {
                let mut declared: Vec<&str> = self.scopes[index].types.keys().copied().collect();
                declared.sort_unstable();
                candidates.extend(declared);
                current = self.scopes[index].parent;
            }
            if let Some(near) = closest(&only.text, candidates) {
                diagnostic = diagnostic.with_note(format!("did you mean `{near}`?"));
            }
        }
        self.report(diagnostic.with_note("declare it with `type`, or write the namespace path (`NS.Type`)"));
        None
    }

    /// [`Translation::resolve`] without reporting.
    pub(super) fn lookup(&self, scope: usize, path: &'a [Name]) -> Option<Resolved<'a>> {
        let (last, leading) = path.split_last()?;
        if leading.is_empty() {
            if let Some((name, blink)) = BUILTINS.iter().find(|(name, _)| *name == last.text) {
                return Some(match blink {
                    Some(blink) => Resolved::Builtin(blink),
                    None => Resolved::Unsupported(name),
                });
            }
            let mut current = Some(scope);
            while let Some(index) = current {
                if let Some(&found) = self.scopes[index].types.get(last.text.as_str()) {
                    return Some(Resolved::Declared(found));
                }
                current = self.scopes[index].parent;
            }
            return None;
        }
        let (first, rest) = leading.split_first()?;
        let mut current = Some(scope);
        let mut target = None;
        while let Some(index) = current {
            if let Some(&child) = self.scopes[index].children.get(first.text.as_str()) {
                target = Some(child);
                break;
            }
            current = self.scopes[index].parent;
        }
        let mut target = target?;
        for segment in rest {
            target = *self.scopes[target].children.get(segment.text.as_str())?;
        }
        self.scopes[target]
            .types
            .get(last.text.as_str())
            .map(|&found| Resolved::Declared(found))
    }

    /// Reports every type that contains itself: BlinkBlox has no recursive types, while zap
    /// allows them through an optional or an array.
    pub(super) fn check_recursion(&mut self) {
        let edges: Vec<Vec<(usize, Span)>> = (0..self.types.len())
            .map(|index| {
                let mut out = Vec::new();
                let entry = &self.types[index];
                self.references(&entry.decl.ty, entry.scope, &mut out);
                out
            })
            .collect();
        // Iterative depth-first search: 0 unvisited, 1 on the path, 2 done.
        let mut state = vec![0u8; self.types.len()];
        for root in 0..self.types.len() {
            if state[root] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
            state[root] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                let Some(&(target, span)) = edges[node].get(*next) else {
                    state[node] = 2;
                    stack.pop();
                    continue;
                };
                *next += 1;
                match state[target] {
                    0 => {
                        state[target] = 1;
                        stack.push((target, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|(n, _)| *n == target).unwrap_or(0);
                        let cycle: Vec<usize> = stack[from..].iter().map(|(n, _)| *n).collect();
                        self.report_cycle(&cycle, span);
                    }
                    _ => {}
                }
            }
        }
    }

    fn report_cycle(&mut self, cycle: &[usize], span: Span) {
        let names: Vec<&str> = cycle.iter().map(|&n| self.types[n].decl.name.text.as_str()).collect();
        let first = &self.types[cycle[0]].decl.name;
        let mut message = format!("type `{}` contains itself", first.text);
        if names.len() > 1 {
            message.push_str(&format!(" (through {} → {})", names.join(" → "), names[0]));
        }
        let diagnostic = Diagnostic::error(codes::RECURSIVE_TYPE, message, span, "used inside itself here")
            .with_secondary(first.span, "declared here")
            .with_note("BlinkBlox has no recursive types: give the data a fixed depth (say, a list of children by index) or send it as `unknown`");
        self.report(diagnostic);
    }

    /// The declared types `ty` refers to, with where.
    fn references(&self, ty: &'a Ty, scope: usize, out: &mut Vec<(usize, Span)>) {
        match &ty.kind {
            TyKind::Ref(path) => {
                if let Some(Resolved::Declared(index)) = self.lookup(scope, path) {
                    out.push((index, ty.span));
                }
            }
            TyKind::Array(inner, _) | TyKind::Optional(inner) | TyKind::Set(inner) => {
                self.references(inner, scope, out);
            }
            TyKind::Map(key, value) => {
                self.references(key, scope, out);
                self.references(value, scope, out);
            }
            TyKind::Vector(items) | TyKind::Or(items) => {
                for item in items {
                    self.references(item, scope, out);
                }
            }
            TyKind::Struct(fields) => {
                for field in fields {
                    self.references(&field.value, scope, out);
                }
            }
            TyKind::TaggedEnum { variants, .. } => {
                for field in variants.iter().flat_map(|variant| &variant.value) {
                    self.references(&field.value, scope, out);
                }
            }
            TyKind::Num(..) | TyKind::Str(..) | TyKind::Buffer(_) | TyKind::UnitEnum(_) | TyKind::Instance(_) => {}
        }
    }
}
