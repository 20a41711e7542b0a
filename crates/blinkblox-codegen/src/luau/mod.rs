//! The Luau emitters: Server, Client and Types modules.
//!
//! Layout of a generated Server/Client module, top to bottom:
//! 1. directives and banner, service locals, `export type`s;
//! 2. the fixed runtime parts (`src/codegen/runtime/*.luau`): buffers, batches,
//!    LEB128 lengths, f16, the side array, queues and listener helpers, flushing;
//! 3. per-declaration code, all of it in functions stored in tables (`Lookups`,
//!    `Readers`, `Responders`) or in the API table, so the module's top-level function
//!    holds no per-declaration locals (1000 declarations load without running out of
//!    registers);
//! 4. one decode function per channel (`DecodeReliable`, `DecodeUnreliable`): a loop
//!    over the packet's records that finds each index by halving the range down to
//!    runs of eight, and delivers inline (Sync listeners run inside the packet's pcall);
//! 5. the per-packet entry a remote calls (`ReceiveFromClient` on the server: size,
//!    byte budget, then the decode; `ReceivePacket` on the client): one pcall per
//!    packet, no closure per packet;
//! 6. the frozen API table, and the no-op twin returned in edit mode.

pub mod builder;
pub mod check;
pub mod client;
pub mod compiles;
pub mod decode;
mod forms;
pub mod module;
pub mod naming;
pub mod read;
mod read_bytes;
pub mod server;
pub mod streams;
pub mod types;
pub mod write;
mod write_bytes;

use std::collections::BTreeMap;

use blinkblox_schema::model::{Schema, Type, TypeKind};

use naming::{is_identifier, string_literal};

/// Past this many fields, a struct is read into a table made first, each field stored as
/// it is read: a constructor at the end needs a local a field until then, and Luau allows
/// a function 200. Narrower structs keep the faster form (one constructor from locals).
pub const WIDE_STRUCT_FIELDS: usize = 16;

/// Follows `Named` references to the type they stand for.
pub fn resolve<'a>(schema: &'a Schema, ty: &'a Type) -> &'a Type {
    let mut current = ty;
    // Named types cannot be recursive; the bound only guards a malformed model.
    for _ in 0..256 {
        match &current.kind {
            TypeKind::Named(id) => match schema.types.get(id.0 as usize) {
                Some(decl) => current = &decl.ty,
                None => return current,
            },
            _ => return current,
        }
    }
    current
}

/// Constant tables shared by serializers (enum names and indices), emitted once as
/// fields of the module-level `Lookups` table and deduplicated by content.
#[derive(Debug, Default)]
pub struct Lookups {
    definitions: Vec<String>,
    by_content: BTreeMap<String, String>,
}

impl Lookups {
    /// Returns the Luau expression naming a constant table with this constructor.
    pub fn intern(&mut self, constructor: String) -> String {
        if let Some(name) = self.by_content.get(&constructor) {
            return name.clone();
        }
        let name = format!("Lookups.L{}", self.definitions.len() + 1);
        self.definitions.push(format!("{name} = table.freeze({constructor})"));
        self.by_content.insert(constructor, name.clone());
        name
    }

    /// Enum variant names by index (1-based Luau array).
    pub fn enum_names(&mut self, variants: &[String]) -> String {
        let names: Vec<String> = variants.iter().map(|v| string_literal(v)).collect();
        self.intern(format!("{{ {} }}", names.join(", ")))
    }

    /// Enum variant name -> wire index.
    pub fn enum_indices(&mut self, variants: &[String]) -> String {
        let entries: Vec<String> = variants
            .iter()
            .enumerate()
            .map(|(i, v)| format!("[{}] = {i}", string_literal(v)))
            .collect();
        self.intern(format!("{{ {} }}", entries.join(", ")))
    }

    pub fn definitions(&self) -> &[String] {
        &self.definitions
    }
}

/// Where a value sits, for WriteValidations errors ("Value.items[3].hp") and decode
/// errors ("Value.items[].hp").
#[derive(Debug, Clone)]
pub struct ValuePath {
    parts: Vec<PathPart>,
}

#[derive(Debug, Clone)]
enum PathPart {
    Text(String),
    /// A Luau loop variable holding an index or key.
    Dynamic(String),
}

impl ValuePath {
    pub fn root(name: &str) -> ValuePath {
        ValuePath {
            parts: vec![PathPart::Text(name.to_string())],
        }
    }

    pub fn field(&self, name: &str) -> ValuePath {
        let mut parts = self.parts.clone();
        let piece = if is_identifier(name) {
            format!(".{name}")
        } else {
            format!("[{name:?}]")
        };
        parts.push(PathPart::Text(piece));
        ValuePath { parts }
    }

    pub fn element(&self, variable: &str) -> ValuePath {
        let mut parts = self.parts.clone();
        parts.push(PathPart::Text("[".into()));
        parts.push(PathPart::Dynamic(variable.to_string()));
        parts.push(PathPart::Text("]".into()));
        ValuePath { parts }
    }

    /// A Luau expression building the path text at run time.
    pub fn luau(&self) -> String {
        let mut pieces: Vec<String> = Vec::new();
        let mut text = String::new();
        for part in &self.parts {
            match part {
                PathPart::Text(t) => text.push_str(t),
                PathPart::Dynamic(var) => {
                    if !text.is_empty() {
                        pieces.push(string_literal(&text));
                        text.clear();
                    }
                    pieces.push(format!("tostring({var})"));
                }
            }
        }
        if !text.is_empty() || pieces.is_empty() {
            pieces.push(string_literal(&text));
        }
        pieces.join(" .. ")
    }

    /// The path with loop positions left out, as a constant.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            if let PathPart::Text(t) = part {
                out.push_str(t);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_static_and_dynamic_parts() {
        let path = ValuePath::root("Value").field("items").element("I1").field("hp");
        assert_eq!(path.luau(), "\"Value.items[\" .. tostring(I1) .. \"].hp\"");
        assert_eq!(path.text(), "Value.items[].hp");
    }

    #[test]
    fn lookups_are_deduplicated() {
        let mut lookups = Lookups::default();
        let a = lookups.enum_names(&["A".into(), "B".into()]);
        let b = lookups.enum_names(&["A".into(), "B".into()]);
        assert_eq!(a, b);
        assert_eq!(lookups.definitions().len(), 1);
    }
}
