//! TypeScript type expressions for schema types, as Blink maps them:
//! numbers and strings as themselves, Roblox datatypes by their roblox-ts names,
//! `T?` as `T | undefined`, arrays as `Array<T>`, maps as `Map<K, V>`, unit enums as
//! string-literal unions, tagged enums as unions of objects, sets as boolean records.
//! Named types are referenced by their flat name (`Scope_Type`), as in Luau.

use std::collections::BTreeSet;

use blinkblox_schema::model::{Field, Payload, Schema, Type, TypeKind};

use crate::type_names::{literal_union, type_name_for};
use blinkblox_schema::wire::resolve;

/// Words TypeScript refuses as a binding (`const x`, `namespace x`, parameter) name.
const RESERVED_WORDS: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Names a type alias may not take (TS2457 and friends), besides the reserved words.
const PREDEFINED_TYPES: &[&str] = &[
    "any",
    "bigint",
    "boolean",
    "never",
    "number",
    "object",
    "string",
    "symbol",
    "undefined",
    "unknown",
];

/// Whether `name` is an identifier TypeScript accepts as a property name without quotes.
fn is_property_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_' || first == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Whether `name` can be declared as `const name` / `namespace name` / a parameter.
pub fn is_binding_identifier(name: &str) -> bool {
    is_property_identifier(name) && !RESERVED_WORDS.contains(&name)
}

/// A TypeScript string literal (JSON escaping is valid TypeScript).
pub fn string_literal(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// A property key in an object type: `name` or `"any text"`.
pub fn property_key(name: &str) -> String {
    if is_property_identifier(name) {
        name.to_string()
    } else {
        string_literal(name)
    }
}

/// The TypeScript name of a declaration's flat name: other characters become `_`, and
/// names TypeScript reserves get a trailing `_` (as the Luau emitter does for Luau's).
pub fn type_alias_name(flat: &str) -> String {
    type_name_for(flat, |name| {
        RESERVED_WORDS.contains(&name) || PREDEFINED_TYPES.contains(&name)
    })
}

/// Turns schema types into TypeScript. Ambient names (`Player`, `Vector3`, `Map`…) that
/// the file itself declares (a schema type called `Player`, say) are written
/// `globalThis.Player` so they still mean Roblox's.
pub struct TsTypes<'a> {
    pub schema: &'a Schema,
    /// Every name the file declares at any level (types, constants, namespaces).
    pub declared: &'a BTreeSet<String>,
}

impl TsTypes<'_> {
    /// An ambient (global) type name, qualified when the file shadows it.
    pub fn global(&self, name: &str) -> String {
        if self.declared.contains(name) {
            format!("globalThis.{name}")
        } else {
            name.to_string()
        }
    }

    pub fn ts_type(&self, ty: &Type) -> String {
        match &ty.kind {
            TypeKind::Number { .. } | TypeKind::Quantized(_) => "number".into(),
            TypeKind::Boolean => "boolean".into(),
            TypeKind::String { .. } => "string".into(),
            TypeKind::Buffer { .. } => self.global("buffer"),
            TypeKind::Vector { .. } => self.global("Vector3"),
            TypeKind::CFrame { .. } => self.global("CFrame"),
            TypeKind::Color3 => self.global("Color3"),
            TypeKind::BrickColor => self.global("BrickColor"),
            TypeKind::DateTime | TypeKind::DateTimeMillis => self.global("DateTime"),
            TypeKind::Instance { class } => match class {
                Some(class) if is_binding_identifier(class) => self.global(class),
                _ => self.global("Instance"),
            },
            TypeKind::Unknown => "unknown".into(),
            TypeKind::Optional(inner) => {
                if matches!(inner.kind, TypeKind::Unknown) {
                    return "unknown".into();
                }
                let inner_type = self.ts_type(inner);
                if inner_type.ends_with("| undefined") {
                    inner_type
                } else {
                    format!("{} | undefined", parenthesize_union(&inner_type))
                }
            }
            TypeKind::Array { element, .. } => format!("{}<{}>", self.global("Array"), self.ts_type(element)),
            TypeKind::Struct(body) => self.object_type(&[], &body.fields),
            TypeKind::Enum(unit) => literal_union(&unit.variants, string_literal),
            TypeKind::TaggedEnum(tagged) => {
                if tagged.variants.is_empty() {
                    return "never".into();
                }
                let variants: Vec<String> = tagged
                    .variants
                    .iter()
                    .map(|variant| {
                        let tag = format!("{}: {}", property_key(&tagged.tag), string_literal(&variant.name));
                        self.object_type(&[tag], &variant.body.fields)
                    })
                    .collect();
                variants.join(" | ")
            }
            TypeKind::Map { key, value, .. } => {
                format!("{}<{}, {}>", self.global("Map"), self.ts_type(key), self.ts_type(value))
            }
            TypeKind::Set(set) => {
                if set.flags.is_empty() {
                    return "{}".into();
                }
                let flags: Vec<String> = set
                    .flags
                    .iter()
                    .map(|flag| format!("{}: boolean", property_key(flag)))
                    .collect();
                format!("{{ {} }}", flags.join("; "))
            }
            TypeKind::Named(id) => match self.schema.types.get(id.0 as usize) {
                Some(decl) => type_alias_name(&decl.luau_name()),
                None => "unknown".into(),
            },
        }
    }

    /// `{ leading; field: T; optional?: T | undefined }`: a field that may be nil
    /// (`T?`, `unknown`, or an alias of one) may be left out, as in Luau.
    fn object_type(&self, leading: &[String], fields: &[Field]) -> String {
        let mut members: Vec<String> = leading.to_vec();
        for field in fields {
            let key = property_key(&field.name);
            if accepts_undefined(self.schema, &field.ty) {
                members.push(format!("{key}?: {}", self.ts_type(&field.ty)));
            } else {
                members.push(format!("{key}: {}", self.ts_type(&field.ty)));
            }
        }
        if members.is_empty() {
            return "{}".into();
        }
        format!("{{ {} }}", members.join("; "))
    }

    /// Parameters for a payload's values: `value: T` or `value1: A, value2: B`. A run
    /// of optional values at the end may be left out, as in Luau.
    pub fn params(&self, payload: &Payload) -> Vec<String> {
        let types: Vec<&Type> = match payload {
            Payload::None => Vec::new(),
            Payload::Single(ty) => vec![ty],
            Payload::Tuple(types) => types.iter().collect(),
        };
        let single = types.len() == 1;
        let mut optional_from = types.len();
        while optional_from > 0 && accepts_undefined(self.schema, types[optional_from - 1]) {
            optional_from -= 1;
        }
        types
            .iter()
            .enumerate()
            .map(|(i, ty)| {
                let name = if single {
                    "value".to_string()
                } else {
                    format!("value{}", i + 1)
                };
                let mark = if i >= optional_from { "?" } else { "" };
                format!("{name}{mark}: {}", self.ts_type(ty))
            })
            .collect()
    }

    /// The types of a payload's values, in order.
    pub fn value_types(&self, payload: &Payload) -> Vec<String> {
        match payload {
            Payload::None => Vec::new(),
            Payload::Single(ty) => vec![self.ts_type(ty)],
            Payload::Tuple(types) => types.iter().map(|ty| self.ts_type(ty)).collect(),
        }
    }

    /// What a call returning this payload gives: `void`, `T`, or `LuaTuple<[A, B]>`.
    pub fn returned(&self, payload: &Payload) -> String {
        let types = self.value_types(payload);
        match types.len() {
            0 => "void".into(),
            1 if matches!(payload, Payload::Single(_)) => types[0].clone(),
            _ => self.tuple(&types),
        }
    }

    /// `LuaTuple<[A, B]>`.
    pub fn tuple(&self, types: &[String]) -> String {
        format!("{}<[{}]>", self.global("LuaTuple"), types.join(", "))
    }
}

/// Whether a value of this type may be nil (so a trailing parameter may be omitted).
fn accepts_undefined(schema: &Schema, ty: &Type) -> bool {
    matches!(resolve(schema, ty).kind, TypeKind::Optional(_) | TypeKind::Unknown)
}

/// Wraps a union in parentheses so `| undefined` or an array suffix applies to all of it.
fn parenthesize_union(text: &str) -> String {
    if text.contains(" | ") && !(text.starts_with('(') && text.ends_with(')')) {
        format!("({text})")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_avoid_reserved_words() {
        assert_eq!(type_alias_name("class"), "class_");
        assert_eq!(type_alias_name("string"), "string_");
        assert_eq!(type_alias_name("Scope_Item"), "Scope_Item");
        assert_eq!(type_alias_name("9lives"), "_9lives");
        assert!(!is_binding_identifier("function"));
        assert!(is_binding_identifier("Fire"));
    }

    #[test]
    fn keys_are_quoted_only_when_needed() {
        assert_eq!(property_key("health"), "health");
        assert_eq!(property_key("class"), "class");
        assert_eq!(property_key("two words"), "\"two words\"");
        assert_eq!(property_key("quote\"d"), "\"quote\\\"d\"");
    }
}
