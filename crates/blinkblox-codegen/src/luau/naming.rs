//! Names in the generated Luau: API members in the schema's casing, table keys that
//! stay valid for any field name, string literals, type names and channel names.

use crate::type_names::type_name_for;
use blinkblox_schema::model::{Casing, Reliability};

/// Luau's reserved words: never valid as `name = …` keys or `.name` accesses.
const RESERVED: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil", "not", "or",
    "repeat", "return", "then", "true", "until", "while",
];

/// Type names a module's own code uses: Luau's, the Roblox API's and the runtime's. A schema type
/// of one of these names would shadow it in the whole module, so it takes a trailing `_`.
const TAKEN_TYPE_NAMES: &[&str] = &[
    "any",
    "boolean",
    "buffer",
    "never",
    "nil",
    "number",
    "string",
    "thread",
    "unknown",
    "userdata",
    "vector",
    "typeof",
    "BrickColor",
    "CFrame",
    "Color3",
    "DateTime",
    "Instance",
    "Player",
    "RBXScriptConnection",
    "RBXScriptSignal",
    "RemoteEvent",
    "UnreliableRemoteEvent",
    "Vector3",
    "Batch",
    "Encoded",
    "IncomingStream",
    "OutgoingStream",
    "Personal",
    "Queue",
];

/// The generated API's member names, in one casing.
#[derive(Debug, Clone, Copy)]
pub struct Members {
    pub fire: &'static str,
    pub fire_all: &'static str,
    pub fire_list: &'static str,
    pub fire_except: &'static str,
    pub on: &'static str,
    pub invoke: &'static str,
    pub iter: &'static str,
    pub next: &'static str,
    pub read: &'static str,
    /// `Read` that returns `false, reason` instead of raising an error.
    pub try_read: &'static str,
    pub write: &'static str,
    pub step_replication: &'static str,
    /// Server: connects the drop hook (packets a client sent that failed the checks).
    pub on_drop: &'static str,
    /// Server: a player's drop counts by reason.
    pub get_drop_counts: &'static str,
    /// Option Stats: the module's counts and rates.
    pub stats: &'static str,
}

impl Members {
    pub fn new(casing: Casing) -> Members {
        Members {
            fire: casing.pick("Fire", "fire", "fire"),
            fire_all: casing.pick("FireAll", "fireAll", "fire_all"),
            fire_list: casing.pick("FireList", "fireList", "fire_list"),
            fire_except: casing.pick("FireExcept", "fireExcept", "fire_except"),
            on: casing.pick("On", "on", "on"),
            invoke: casing.pick("Invoke", "invoke", "invoke"),
            iter: casing.pick("Iter", "iter", "iter"),
            next: casing.pick("Next", "next", "next"),
            read: casing.pick("Read", "read", "read"),
            try_read: casing.pick("TryRead", "tryRead", "try_read"),
            write: casing.pick("Write", "write", "write"),
            step_replication: casing.pick("StepReplication", "stepReplication", "step_replication"),
            on_drop: casing.pick("OnDrop", "onDrop", "on_drop"),
            get_drop_counts: casing.pick("GetDropCounts", "getDropCounts", "get_drop_counts"),
            stats: casing.pick("Stats", "stats", "stats"),
        }
    }
}

/// A channel's name in the module's tables and functions (`ReliableListeners`,
/// `DecodeUnreliable`).
pub fn channel_name(reliability: Reliability) -> &'static str {
    match reliability {
        Reliability::Reliable => "Reliable",
        Reliability::Unreliable => "Unreliable",
    }
}

/// The `require(...)` expression of the ModuleScript at an instance path whose first name is
/// a service (`["ReplicatedStorage", "Shared", "Net", "combat", "Client"]`): names that are
/// not identifiers are indexed with a string.
pub fn require_expression<S: AsRef<str>>(instance: &[S]) -> String {
    let Some((service, rest)) = instance.split_first() else {
        return "require(game)".to_string();
    };
    let mut out = format!("require(game:GetService({})", string_literal(service.as_ref()));
    for name in rest {
        let name = name.as_ref();
        if is_identifier(name) {
            out.push('.');
            out.push_str(name);
        } else {
            out.push_str(&format!("[{}]", string_literal(name)));
        }
    }
    out.push(')');
    out
}

/// Whether `name` can be written bare as a Luau identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
}

/// A Luau string literal for any text (escapes quotes, backslashes and control bytes).
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for byte in text.bytes() {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(byte as char),
            _ => out.push_str(&format!("\\{byte:03}")),
        }
    }
    out.push('"');
    out
}

/// A key in a table constructor: `name` or `["any text"]` (used as `key = value`).
pub fn table_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        format!("[{}]", string_literal(name))
    }
}

/// An index into a table: `.name` or `["any text"]`.
pub fn index(name: &str) -> String {
    if is_identifier(name) {
        format!(".{name}")
    } else {
        format!("[{}]", string_literal(name))
    }
}

/// A property in a Luau table type: `name` or `["any text"]`.
pub fn type_key(name: &str) -> String {
    table_key(name)
}

/// A Luau type name for a declaration's flat name; reserved words and the type names the
/// module itself uses get a trailing `_`, so the output still loads and checks.
pub fn type_name(flat: &str) -> String {
    type_name_for(flat, |name| {
        RESERVED.contains(&name) || TAKEN_TYPE_NAMES.contains(&name)
    })
}

/// A Luau number literal that reads back as exactly `value` (integers without a
/// fraction; `math.huge` for infinities).
pub fn number_literal(value: f64) -> String {
    if value.is_infinite() {
        return if value > 0.0 {
            "math.huge".into()
        } else {
            "-math.huge".into()
        };
    }
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{}", value as i64);
    }
    format!("{value:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn require_expressions_index_odd_names_with_strings() {
        assert_eq!(
            require_expression(&["ReplicatedStorage", "Shared", "Net", "combat", "Client"]),
            r#"require(game:GetService("ReplicatedStorage").Shared.Net.combat.Client)"#
        );
        assert_eq!(
            require_expression(&["ServerStorage", "my shop", "end", "Server"]),
            r#"require(game:GetService("ServerStorage")["my shop"]["end"].Server)"#
        );
    }

    #[test]
    fn keys_quote_reserved_and_odd_names() {
        assert_eq!(table_key("health"), "health");
        assert_eq!(table_key("end"), "[\"end\"]");
        assert_eq!(table_key("two words"), "[\"two words\"]");
        assert_eq!(index("end"), "[\"end\"]");
        assert_eq!(index("x"), ".x");
    }

    #[test]
    fn literals_escape() {
        assert_eq!(string_literal("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(string_literal("\u{0}"), "\"\\000\"");
        assert_eq!(number_literal(3.0), "3");
        assert_eq!(number_literal(-0.5), "-0.5");
        assert_eq!(number_literal(f64::INFINITY), "math.huge");
    }

    #[test]
    fn casings() {
        assert_eq!(Members::new(Casing::Snake).fire_all, "fire_all");
        assert_eq!(Members::new(Casing::Camel).step_replication, "stepReplication");
        assert_eq!(type_name("end"), "end_");
        assert_eq!(type_name("Player"), "Player_");
        assert_eq!(type_name("string"), "string_");
    }
}
