//! The built-in types: the names the checker resolves before any declaration, and what each
//! is on the wire (hover, completion, did-you-mean).

/// A type built into the language.
pub struct Primitive {
    pub name: &'static str,
    /// What it is and what it costs on the wire.
    pub about: &'static str,
}

/// Every built-in type. Names take precedence over declarations; of two equally close
/// did-you-mean candidates the earlier wins.
pub const PRIMITIVES: &[Primitive] = &[
    Primitive {
        name: "u8",
        about: "unsigned integer, 0..255 — 1 byte",
    },
    Primitive {
        name: "u16",
        about: "unsigned integer, 0..65535 — 2 bytes",
    },
    Primitive {
        name: "u32",
        about: "unsigned integer, 0..4294967295 — 4 bytes",
    },
    Primitive {
        name: "i8",
        about: "signed integer, -128..127 — 1 byte",
    },
    Primitive {
        name: "i16",
        about: "signed integer, -32768..32767 — 2 bytes",
    },
    Primitive {
        name: "i32",
        about: "signed integer — 4 bytes",
    },
    Primitive {
        name: "f16",
        about: "half-precision float, within ±65504 — 2 bytes",
    },
    Primitive {
        name: "f32",
        about: "single-precision float — 4 bytes",
    },
    Primitive {
        name: "f64",
        about: "double-precision float (a Luau number) — 8 bytes",
    },
    Primitive {
        name: "boolean",
        about: "1 byte alone; 1 bit inside a struct or an array",
    },
    Primitive {
        name: "string",
        about: "text: a length (1–5 bytes), then the bytes; `string(n)` is exactly n bytes, no length",
    },
    Primitive {
        name: "buffer",
        about: "raw bytes: a length, then the bytes; `buffer(n)` is exactly n bytes",
    },
    Primitive {
        name: "vector",
        about: "a Vector3: `vector<f32>` by default (12 bytes); `vector<i16>` takes 6",
    },
    Primitive {
        name: "CFrame",
        about: "a CFrame: `CFrame<Position, Rotation>` components",
    },
    Primitive {
        name: "Color3",
        about: "a Color3 as 3 bytes (RGB)",
    },
    Primitive {
        name: "BrickColor",
        about: "a BrickColor as its number — 2 bytes",
    },
    Primitive {
        name: "DateTime",
        about: "a DateTime to the second — 8 bytes",
    },
    Primitive {
        name: "DateTimeMillis",
        about: "a DateTime to the millisecond — 8 bytes",
    },
    Primitive {
        name: "Instance",
        about: "an Instance, sent beside the buffer (0 bytes in it); `Instance(Part)` checks `IsA`",
    },
    Primitive {
        name: "unknown",
        about: "any Luau value, sent beside the buffer (0 bytes in it), unchecked",
    },
];

/// The built-in type named `name`.
pub fn primitive(name: &str) -> Option<&'static Primitive> {
    PRIMITIVES.iter().find(|primitive| primitive.name == name)
}

/// Whether `name` is a built-in type.
pub fn is_primitive(name: &str) -> bool {
    primitive(name).is_some()
}
