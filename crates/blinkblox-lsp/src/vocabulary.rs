//! The words of the language with what they mean: declaration keywords, primitives, the
//! fields of `event`/`function`/`stream` and their values, options and their values. Hover
//! and completion both read these tables.

/// Words that start a declaration.
pub const KEYWORDS: &[(&str, &str)] = &[
    (
        "option",
        "`option Name = value`: a compiler option (before any declaration)",
    ),
    ("type", "`type Name = …`: a name for a type"),
    ("struct", "`struct Name { field: Type, … }`"),
    (
        "enum",
        "`enum Name = { A, B }` or a tagged enum `enum Name = \"Tag\" { A { … } }`",
    ),
    ("map", "`map Name = { [Key]: Value }`"),
    ("set", "`set Name = { FlagA, FlagB }`: flags packed into bits"),
    ("event", "`event Name { From, Type, Call, Data }`"),
    (
        "function",
        "`function Name { Yield, Data, Return }`: client invokes, server answers",
    ),
    (
        "stream",
        "`stream Name { From, Type, Data }`: the latest value, kept in sync",
    ),
    (
        "scope",
        "`scope Name { … }`: a namespace, a nested table in the modules",
    ),
    (
        "import",
        "`import \"file\" [as Name]`: another schema's declarations, as a scope",
    ),
    (
        "export",
        "`export type|struct|enum|map|set …`: the modules expose `Read`/`Write` for it",
    ),
];

/// Built-in types and what they are on the wire.
pub const PRIMITIVES: &[(&str, &str)] = &[
    ("u8", "unsigned integer, 0..255 — 1 byte"),
    ("u16", "unsigned integer, 0..65535 — 2 bytes"),
    ("u32", "unsigned integer, 0..4294967295 — 4 bytes"),
    ("i8", "signed integer, -128..127 — 1 byte"),
    ("i16", "signed integer, -32768..32767 — 2 bytes"),
    ("i32", "signed integer — 4 bytes"),
    ("f16", "half-precision float, within ±65504 — 2 bytes"),
    ("f32", "single-precision float — 4 bytes"),
    ("f64", "double-precision float (a Luau number) — 8 bytes"),
    ("boolean", "1 byte alone; 1 bit inside a struct or an array"),
    (
        "string",
        "text: a length (1–5 bytes), then the bytes; `string(n)` is exactly n bytes, no length",
    ),
    (
        "buffer",
        "raw bytes: a length, then the bytes; `buffer(n)` is exactly n bytes",
    ),
    (
        "vector",
        "a Vector3: `vector<f32>` by default (12 bytes); `vector<i16>` takes 6",
    ),
    ("CFrame", "a CFrame: `CFrame<Position, Rotation>` components"),
    ("Color3", "a Color3 as 3 bytes (RGB)"),
    ("BrickColor", "a BrickColor as its number — 2 bytes"),
    ("DateTime", "a DateTime to the second — 8 bytes"),
    ("DateTimeMillis", "a DateTime to the millisecond — 8 bytes"),
    (
        "Instance",
        "an Instance, sent beside the buffer (0 bytes in it); `Instance(Part)` checks `IsA`",
    ),
    (
        "unknown",
        "any Luau value, sent beside the buffer (0 bytes in it), unchecked",
    ),
];

/// A field of a declaration block and the values it takes (empty: a type, or a number).
pub struct FieldDoc {
    pub key: &'static str,
    pub about: &'static str,
    pub values: &'static [(&'static str, &'static str)],
    pub required: bool,
}

const FROM: &[(&str, &str)] = &[("Server", "the server sends it"), ("Client", "a client sends it")];
const TYPE: &[(&str, &str)] = &[
    ("Reliable", "ordered and never lost, batched each frame"),
    (
        "Unreliable",
        "may be lost or reordered; at most `MaxUnreliableSize` bytes",
    ),
];
const CALL: &[(&str, &str)] = &[
    ("SingleSync", "one listener, run inside the decode (must not yield)"),
    ("SingleAsync", "one listener, run in a thread of its own"),
    ("ManySync", "any number of listeners, run inside the decode"),
    ("ManyAsync", "any number of listeners, each in a thread of its own"),
    ("Polling", "no listener: read what arrived with `Iter()`"),
];
const YIELD: &[(&str, &str)] = &[
    ("Coroutine", "`Invoke` yields and returns the values"),
    ("Future", "`Invoke` returns a Future (needs `option FutureLibrary`)"),
    ("Promise", "`Invoke` returns a Promise (needs `option PromiseLibrary`)"),
];
const BOOLEAN: &[(&str, &str)] = &[("true", ""), ("false", "")];

pub const EVENT_FIELDS: &[FieldDoc] = &[
    FieldDoc {
        key: "From",
        about: "which side sends it",
        values: FROM,
        required: true,
    },
    FieldDoc {
        key: "Type",
        about: "the channel",
        values: TYPE,
        required: true,
    },
    FieldDoc {
        key: "Call",
        about: "how listeners run",
        values: CALL,
        required: true,
    },
    FieldDoc {
        key: "Data",
        about: "what it carries: a type, or a type pack `(A, B)`",
        values: &[],
        required: false,
    },
    FieldDoc {
        key: "Poll",
        about: "Blink's older spelling of `Call: Polling`",
        values: BOOLEAN,
        required: false,
    },
];

pub const FUNCTION_FIELDS: &[FieldDoc] = &[
    FieldDoc {
        key: "Yield",
        about: "what `Invoke` returns",
        values: YIELD,
        required: true,
    },
    FieldDoc {
        key: "Data",
        about: "what the client sends: a type, or a type pack",
        values: &[],
        required: false,
    },
    FieldDoc {
        key: "Return",
        about: "what the server answers: a type, or a type pack",
        values: &[],
        required: false,
    },
    FieldDoc {
        key: "Timeout",
        about: "seconds `Invoke` waits for an answer before raising",
        values: &[],
        required: false,
    },
];

pub const STREAM_FIELDS: &[FieldDoc] = &[
    FieldDoc {
        key: "From",
        about: "which side sets the value",
        values: FROM,
        required: true,
    },
    FieldDoc {
        key: "Type",
        about: "the channel",
        values: TYPE,
        required: true,
    },
    FieldDoc {
        key: "Per",
        about: "`Player`: a server stream with one value per player",
        values: &[("Player", "one value per player")],
        required: false,
    },
    FieldDoc {
        key: "Data",
        about: "the value's type (one type, not a pack)",
        values: &[],
        required: true,
    },
];

/// The fields of a declaration keyword's block.
pub fn fields_of(keyword: &str) -> &'static [FieldDoc] {
    match keyword {
        "event" => EVENT_FIELDS,
        "function" => FUNCTION_FIELDS,
        "stream" => STREAM_FIELDS,
        _ => &[],
    }
}

/// A field by its key, matched as the checker matches keys (ignoring case).
pub fn field(keyword: &str, key: &str) -> Option<&'static FieldDoc> {
    fields_of(keyword)
        .iter()
        .find(|field| field.key.eq_ignore_ascii_case(key))
}

pub fn primitive(name: &str) -> Option<&'static str> {
    PRIMITIVES
        .iter()
        .find(|(word, _)| *word == name)
        .map(|(_, about)| *about)
}
