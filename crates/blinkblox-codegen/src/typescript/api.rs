//! The declared API: the same tree as the Luau modules' API tables (`luau::api`),
//! with a TypeScript type for each member, rendered as constants and namespaces.

use crate::luau::naming::Members;
use blinkblox_schema::model::{CallMode, EventDecl, FunctionDecl, ScopePath, Side, StreamDecl, TypeDecl, YieldMode};

use super::types::{TsTypes, is_binding_identifier, property_key, type_alias_name};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Module {
    Server,
    Client,
    Types,
}

impl Module {
    pub fn title(self) -> &'static str {
        match self {
            Module::Server => "Server",
            Module::Client => "Client",
            Module::Types => "Types",
        }
    }
}

/// A scope of the API: its entries in the Luau table's order, and the named types
/// declared in it (`short name`, `flat name`), aliased inside its namespace.
#[derive(Debug, Default)]
pub struct DtsNode {
    entries: Vec<(String, DtsItem)>,
    /// The nested scopes, referred to by index from `entries`.
    children: Vec<DtsNode>,
    types: Vec<(String, String)>,
}

#[derive(Debug)]
enum DtsItem {
    /// A frozen table: `member: type` pairs.
    Members(Vec<(String, String)>),
    /// A single value, e.g. `StepReplication`.
    Value(String),
    /// A nested scope: an index into `children`.
    Scope(usize),
}

impl DtsNode {
    fn scope_mut(&mut self, path: &[String]) -> &mut DtsNode {
        let Some((first, rest)) = path.split_first() else {
            return self;
        };
        let existing = self.entries.iter().find_map(|(name, item)| match item {
            DtsItem::Scope(child) if name == first => Some(*child),
            _ => None,
        });
        let child = match existing {
            Some(child) => child,
            None => {
                self.children.push(DtsNode::default());
                let child = self.children.len() - 1;
                self.entries.push((first.clone(), DtsItem::Scope(child)));
                child
            }
        };
        self.children[child].scope_mut(rest)
    }

    fn add(&mut self, scope: &ScopePath, name: &str, members: Vec<(String, String)>) {
        self.scope_mut(scope)
            .entries
            .push((name.to_string(), DtsItem::Members(members)));
    }

    /// The entries TypeScript sees: a Luau table constructor keeps the last value given
    /// for a key, so a later entry with the same name replaces an earlier one.
    fn visible_entries(&self) -> Vec<&(String, DtsItem)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(i, (name, _))| !self.entries[i + 1..].iter().any(|(later, _)| later == name))
            .map(|(_, entry)| entry)
            .collect()
    }

    /// A namespace can hold this scope when every entry can be declared by name.
    fn fits_namespace(&self) -> bool {
        self.entries.iter().all(|(name, _)| is_binding_identifier(name))
    }

    /// Whether an entry is a scope holding only types: the Luau table has no such key,
    /// so outside a namespace it is not declared at all.
    fn is_type_only_scope(&self, item: &DtsItem) -> bool {
        match item {
            DtsItem::Scope(child) => self
                .children
                .get(*child)
                .is_none_or(|child| child.entries.iter().all(|(_, entry)| child.is_type_only_scope(entry))),
            DtsItem::Members(_) | DtsItem::Value(_) => false,
        }
    }
}

/// Builds the API tree for one module, in the order the Luau emitter fills its table:
/// `StepReplication` (and on the server the drop hook `OnDrop` and `GetDropCounts`),
/// exported types, events, functions, streams.
pub fn build(ts: &TsTypes, module: Module) -> DtsNode {
    let schema = ts.schema;
    let m = Members::new(schema.options.casing);
    let mut root = DtsNode::default();
    for decl in &schema.types {
        root.scope_mut(&decl.scope)
            .types
            .push((type_alias_name(&decl.name), type_alias_name(&decl.luau_name())));
    }
    for decl in schema.types.iter().filter(|decl| decl.exported) {
        root.add(&decl.scope, &decl.name, export_members(ts, &m, decl));
    }
    if module == Module::Types {
        return root;
    }
    let side = if module == Module::Server {
        Side::Server
    } else {
        Side::Client
    };
    for event in &schema.events {
        let members = if event.from == side {
            fire_members(ts, &m, side, event)
        } else {
            receive_members(ts, &m, side, event)
        };
        root.add(&event.scope, &event.name, members);
    }
    for function in &schema.functions {
        let members = match side {
            Side::Server => vec![(m.on.to_string(), respond_type(ts, function))],
            Side::Client => vec![(m.invoke.to_string(), invoke_type(ts, function))],
        };
        root.add(&function.scope, &function.name, members);
    }
    for stream in &schema.streams {
        let members = if stream.from == side {
            stream_sending_members(ts, side, stream)
        } else {
            stream_receiving_members(ts, &m, side, stream)
        };
        root.add(&stream.scope, &stream.name, members);
    }
    let mut top = vec![(m.step_replication.to_string(), DtsItem::Value("() => void".into()))];
    if side == Side::Server {
        let player = ts.global("Player");
        top.push((
            m.on_drop.to_string(),
            DtsItem::Value(format!(
                "(hook: (player: {player}, reason: string, detail: string) => void) => () => void"
            )),
        ));
        top.push((
            m.get_drop_counts.to_string(),
            DtsItem::Value(format!("(player: {player}) => {}<string, number>", ts.global("Map"))),
        ));
    }
    if schema.options.stats {
        top.push((m.stats.to_string(), DtsItem::Value(stats_type(ts))));
    }
    root.entries.splice(0..0, top);
    root
}

/// `Stats()`: totals and rates a second, by declaration and by drop reason.
fn stats_type(ts: &TsTypes) -> String {
    let map = ts.global("ReadonlyMap");
    let numbers = ["Sent", "SentBytes", "Received", "ReceivedBytes"]
        .iter()
        .flat_map(|count| {
            [
                format!("readonly {count}: number"),
                format!("readonly {count}PerSecond: number"),
            ]
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "() => {{ readonly Declarations: {map}<string, {{ {numbers} }}>; readonly Drops: {map}<string, number>; readonly DropsPerSecond: {map}<string, number> }}"
    )
}

/// `Set`/`Get` in the schema's casing (the Luau streams emitter picks them the same way).
fn set_get(ts: &TsTypes) -> (&'static str, &'static str) {
    let casing = ts.schema.options.casing;
    (casing.pick("Set", "set", "set"), casing.pick("Get", "get", "get"))
}

/// The sending side of a stream: `Set(value)` and `Get()`, or with `Per: Player` on the
/// server `Set(player, value)` and `Get(player)`. `Get` is undefined until a value is set.
fn stream_sending_members(ts: &TsTypes, side: Side, stream: &StreamDecl) -> Vec<(String, String)> {
    let (set, get) = set_get(ts);
    let value = ts.ts_type(&stream.data);
    let maybe = optional(&value);
    if stream.per_player && side == Side::Server {
        let player = ts.global("Player");
        vec![
            (set.to_string(), format!("(player: {player}, value: {value}) => void")),
            (get.to_string(), format!("(player: {player}) => {maybe}")),
        ]
    } else {
        vec![
            (set.to_string(), format!("(value: {value}) => void")),
            (get.to_string(), format!("() => {maybe}")),
        ]
    }
}

/// The receiving side of a stream: `On(listener) -> disconnect` and `Get()` (the
/// latest value), with the sending player on the server.
fn stream_receiving_members(ts: &TsTypes, m: &Members, side: Side, stream: &StreamDecl) -> Vec<(String, String)> {
    let (_, get) = set_get(ts);
    let value = ts.ts_type(&stream.data);
    let maybe = optional(&value);
    match side {
        Side::Server => {
            let player = ts.global("Player");
            vec![
                (
                    m.on.to_string(),
                    format!("(listener: (player: {player}, value: {value}) => void) => () => void"),
                ),
                (get.to_string(), format!("(player: {player}) => {maybe}")),
            ]
        }
        Side::Client => vec![
            (
                m.on.to_string(),
                format!("(listener: (value: {value}) => void) => () => void"),
            ),
            (get.to_string(), format!("() => {maybe}")),
        ],
    }
}

/// `T | undefined`, written once when `T` already allows undefined.
fn optional(ty: &str) -> String {
    if ty.ends_with("| undefined") || ty == "unknown" {
        ty.to_string()
    } else if ty.contains(" | ") {
        format!("({ty}) | undefined")
    } else {
        format!("{ty} | undefined")
    }
}

/// `Read(input, instances?) -> T`, `TryRead(input, instances?) -> (true, T) | (false, reason)`
/// and `Write(value) -> (buffer, instances)`.
fn export_members(ts: &TsTypes, m: &Members, decl: &TypeDecl) -> Vec<(String, String)> {
    let name = type_alias_name(&decl.luau_name());
    let buffer = ts.global("buffer");
    let array = ts.global("Array");
    vec![
        (
            m.read.to_string(),
            format!("(input: {buffer}, instances?: {array}<unknown>) => {name}"),
        ),
        (
            m.try_read.to_string(),
            format!(
                "(input: unknown, instances?: unknown) => {}",
                ts.tuple(&["true".to_string(), name.clone()])
            ) + &format!(" | {}", ts.tuple(&["false".to_string(), "string".to_string()])),
        ),
        (
            m.write.to_string(),
            format!(
                "(value: {name}) => {}",
                ts.tuple(&[buffer.clone(), format!("{array}<unknown>")])
            ),
        ),
    ]
}

/// The sending side of an event: `Fire` on the client; on the server `Fire(player, …)`,
/// `FireAll`, `FireList(players, …)` and `FireExcept(player, …)`.
fn fire_members(ts: &TsTypes, m: &Members, side: Side, event: &EventDecl) -> Vec<(String, String)> {
    let params = ts.params(&event.data);
    let signature = |first: Option<String>| {
        let mut all: Vec<String> = first.into_iter().collect();
        all.extend(params.iter().cloned());
        format!("({}) => void", all.join(", "))
    };
    let player = ts.global("Player");
    match side {
        Side::Client => vec![(m.fire.to_string(), signature(None))],
        Side::Server => vec![
            (m.fire.to_string(), signature(Some(format!("player: {player}")))),
            (m.fire_all.to_string(), signature(None)),
            (
                m.fire_list.to_string(),
                signature(Some(format!("players: {}<{player}>", ts.global("Array")))),
            ),
            (m.fire_except.to_string(), signature(Some(format!("except: {player}")))),
        ],
    }
}

/// The receiving side: `On(listener) -> disconnect`, or `Iter`/`Next` for Polling,
/// with the sending player first on the server.
fn receive_members(ts: &TsTypes, m: &Members, side: Side, event: &EventDecl) -> Vec<(String, String)> {
    let values = ts.value_types(&event.data);
    if event.call == CallMode::Polling {
        let mut row = vec!["number".to_string()];
        if side == Side::Server {
            row.push(ts.global("Player"));
        }
        row.extend(values);
        let iterator = format!("() => {}<{}>", ts.global("IterableFunction"), ts.tuple(&row));
        return vec![(m.iter.to_string(), iterator.clone()), (m.next.to_string(), iterator)];
    }
    let mut params = Vec::new();
    if side == Side::Server {
        params.push(format!("player: {}", ts.global("Player")));
    }
    params.extend(value_params(&ts.params(&event.data)));
    vec![(
        m.on.to_string(),
        format!("(listener: ({}) => void) => () => void", params.join(", ")),
    )]
}

/// A listener receives every value (the `?` of omittable trailing parameters is for
/// callers only).
fn value_params(params: &[String]) -> Vec<String> {
    params.iter().map(|p| p.replacen("?:", ":", 1)).collect()
}

/// Server `On(handler)`: the handler gets the player and the data, returns the results.
/// Nothing is returned (no disconnect), as in Blink.
fn respond_type(ts: &TsTypes, function: &FunctionDecl) -> String {
    let mut params = vec![format!("player: {}", ts.global("Player"))];
    params.extend(value_params(&ts.params(&function.data)));
    format!(
        "(handler: ({}) => {}) => void",
        params.join(", "),
        ts.returned(&function.returns)
    )
}

/// Client `Invoke`: the results (Coroutine), a `Promise` of them, or the Future
/// library's value. A Promise settles with every result, but roblox-ts types one: the
/// first (the others reach `andThen` handlers as extra arguments). The Future library
/// has no roblox-ts typing, so its value stays `unknown`.
fn invoke_type(ts: &TsTypes, function: &FunctionDecl) -> String {
    let params = ts.params(&function.data).join(", ");
    let returned = match function.yield_mode {
        YieldMode::Coroutine => ts.returned(&function.returns),
        YieldMode::Promise => {
            let first = ts.value_types(&function.returns).into_iter().next();
            format!("{}<{}>", ts.global("Promise"), first.unwrap_or_else(|| "void".into()))
        }
        YieldMode::Future => "unknown".into(),
    };
    format!("({params}) => {returned}")
}

/// Top-level declarations. A name TypeScript reserves (`function`, `class`…) cannot be
/// declared as a constant, so it is declared under another name and exported as itself.
pub fn render_root(out: &mut String, root: &DtsNode) {
    for (name, item) in root.visible_entries() {
        let as_namespace = is_binding_identifier(name) && root.namespace_of(item).is_some();
        if !as_namespace && root.is_type_only_scope(item) {
            continue;
        }
        if !is_binding_identifier(name) {
            let local = format!("BlinkBlox_{}", type_alias_name(name));
            out.push_str(&format!("declare const {local}: {};\n", root.value_type(item, 0)));
            out.push_str(&format!("export {{ {local} as {} }};\n", property_key(name)));
            continue;
        }
        match root.namespace_of(item) {
            Some(child) => {
                out.push_str(&format!("export declare namespace {name} {{\n"));
                child.render_namespace_body(out, 1);
                out.push_str("}\n");
            }
            None => out.push_str(&format!("export declare const {name}: {};\n", root.value_type(item, 0))),
        }
    }
}

impl DtsNode {
    /// The child scope an entry stands for, when it can be a namespace.
    fn namespace_of(&self, item: &DtsItem) -> Option<&DtsNode> {
        match item {
            DtsItem::Scope(child) => self.children.get(*child).filter(|child| child.fits_namespace()),
            DtsItem::Members(_) | DtsItem::Value(_) => None,
        }
    }

    fn render_namespace_body(&self, out: &mut String, depth: usize) {
        let indent = "\t".repeat(depth);
        for (short, flat) in &self.types {
            out.push_str(&format!("{indent}export type {short} = {flat};\n"));
        }
        for (name, item) in self.visible_entries() {
            if self.namespace_of(item).is_none() && self.is_type_only_scope(item) {
                continue;
            }
            match self.namespace_of(item) {
                Some(child) => {
                    out.push_str(&format!("{indent}export namespace {name} {{\n"));
                    child.render_namespace_body(out, depth + 1);
                    out.push_str(&format!("{indent}}}\n"));
                }
                None => out.push_str(&format!(
                    "{indent}export const {name}: {};\n",
                    self.value_type(item, depth)
                )),
            }
        }
    }

    /// The type of an entry as a value: its function type, or an object type of
    /// readonly members (scopes nest as objects).
    fn value_type(&self, item: &DtsItem, depth: usize) -> String {
        let indent = "\t".repeat(depth);
        let inner = "\t".repeat(depth + 1);
        let lines: Vec<String> = match item {
            DtsItem::Value(ty) => return ty.clone(),
            DtsItem::Members(members) => members
                .iter()
                .map(|(name, ty)| format!("{inner}readonly {}: {ty};", property_key(name)))
                .collect(),
            DtsItem::Scope(child) => {
                let Some(node) = self.children.get(*child) else {
                    return "{}".into();
                };
                node.visible_entries()
                    .into_iter()
                    .filter(|(_, entry)| !node.is_type_only_scope(entry))
                    .map(|(name, entry)| {
                        format!(
                            "{inner}readonly {}: {};",
                            property_key(name),
                            node.value_type(entry, depth + 1)
                        )
                    })
                    .collect()
            }
        };
        if lines.is_empty() {
            return "{}".into();
        }
        format!("{{\n{}\n{indent}}}", lines.join("\n"))
    }
}
