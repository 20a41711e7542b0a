//! The checked model: what a schema means, fully resolved.
//!
//! The checker turns the syntax tree of a schema and its imports into a [`Schema`].
//! Everything a code generator needs is here and already decided: names are resolved,
//! generics are instantiated, imports are merged in as scopes, every event, function and
//! stream has its channel and index, every option has its value, and every type carries
//! its wire [`Layout`]. Generators walk this model; they never look at syntax.

use crate::source::Span;

/// A checked schema: one root file with everything it imports.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    pub options: Options,
    /// Named, non-generic type declarations in declaration order (depth-first through
    /// scopes and imports). Generic declarations are templates and do not appear: their
    /// instantiations are inlined where they are used.
    pub types: Vec<TypeDecl>,
    /// Events, functions and streams in declaration order (depth-first through scopes and
    /// imports). Their `index` fields give the wire index on their channel.
    pub events: Vec<EventDecl>,
    pub functions: Vec<FunctionDecl>,
    pub streams: Vec<StreamDecl>,
    /// Scopes (from `scope` blocks and imports) in declaration order, as paths from the
    /// root. Generators turn them into nested tables.
    pub scopes: Vec<ScopePath>,
    pub reliable: ChannelLayout,
    pub unreliable: ChannelLayout,
}

/// A path of scope names from the root, e.g. `["Combat", "Weapons"]`. Empty at the root.
pub type ScopePath = Vec<String>;

/// How indices are written on one channel (one remote).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelLayout {
    /// Declarations on this channel (events, functions and streams together).
    pub count: u32,
    /// 1 while `count <= 256`, 2 beyond.
    pub index_bytes: u8,
}

/// Index of a declaration in [`Schema::types`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

#[derive(Debug, Clone, PartialEq)]
pub struct TypeDecl {
    pub name: String,
    pub scope: ScopePath,
    /// `export`: the modules expose `Read`/`Write` for it.
    pub exported: bool,
    pub ty: Type,
    pub span: Span,
}

impl TypeDecl {
    /// The flattened Luau type name, as Blink writes it: `Scope_Sub_Name`.
    pub fn luau_name(&self) -> String {
        flat_name(&self.scope, &self.name)
    }
}

/// `Scope_Sub_Name`, the flat name of a scoped declaration.
pub fn flat_name(scope: &[String], name: &str) -> String {
    scoped_name(scope, name, '_')
}

/// `name` after each scope, each followed by `separator`.
pub fn scoped_name(scope: &[String], name: &str, separator: char) -> String {
    let mut out = String::new();
    for part in scope {
        out.push_str(part);
        out.push(separator);
    }
    out.push_str(name);
    out
}

/// A type with its wire layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub layout: Layout,
}

/// How a value of a type takes space in the buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// `Some(n)`: every value is exactly `n` bytes in the buffer (Instances and
    /// `unknown` take 0 bytes there: they travel in the side array).
    pub fixed_size: Option<u32>,
    /// The fewest bytes a value can take (used for `MaxPacketSize`/`MaxUnreliableSize`
    /// compile-time checks).
    pub min_size: u32,
    /// Whether values use the side array (Instances, `unknown`), at any depth.
    pub uses_instances: bool,
    /// Type nodes in a value with every named type expanded: the generators inline named
    /// types, so this is what the generated code for one value grows with. Saturates.
    pub inlined_nodes: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    Number {
        kind: NumberKind,
        /// Value bounds; `None` bounds are the type's own limits.
        range: NumberRange,
    },
    /// `f32(-2048..2048 step 1/64)`: a float sent as a whole count of steps from its minimum.
    Quantized(Quantized),
    Boolean,
    /// `string(n)` has `length.min == length.max == Some(n)`: raw bytes, no prefix.
    String {
        length: LengthRange,
    },
    Buffer {
        length: LengthRange,
    },
    Vector {
        component: NumberKind,
        /// `vector<f32(-2048..2048 step 1/64)>`: every axis quantized alike; `component` is
        /// then the float type it names.
        quantized: Option<Quantized>,
        /// Bounds on the magnitude.
        magnitude: NumberRange,
    },
    CFrame {
        position: NumberKind,
        rotation: NumberKind,
    },
    Color3,
    BrickColor,
    DateTime,
    DateTimeMillis,
    Instance {
        /// `Instance(Class)`: checked with `IsA`.
        class: Option<String>,
    },
    Unknown,
    Optional(Box<Type>),
    /// `T[n]` (fixed, no prefix), `T[a..b]`, `T[]`.
    Array {
        element: Box<Type>,
        length: LengthRange,
    },
    Struct(StructType),
    Enum(UnitEnum),
    TaggedEnum(TaggedEnum),
    Map {
        key: Box<Type>,
        value: Box<Type>,
        length: LengthRange,
    },
    Set(SetType),
    /// A reference to a named, non-generic declaration. Its layout is the target's.
    Named(TypeId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberKind {
    U8,
    U16,
    U32,
    I8,
    I16,
    I32,
    F16,
    F32,
    F64,
}

impl NumberKind {
    pub const ALL: [NumberKind; 9] = [
        NumberKind::U8,
        NumberKind::U16,
        NumberKind::U32,
        NumberKind::I8,
        NumberKind::I16,
        NumberKind::I32,
        NumberKind::F16,
        NumberKind::F32,
        NumberKind::F64,
    ];

    /// The number type a word names (`u8`, `f64`).
    pub fn named(word: &str) -> Option<NumberKind> {
        NumberKind::ALL.into_iter().find(|kind| kind.keyword() == word)
    }

    pub fn size(self) -> u32 {
        match self {
            NumberKind::U8 | NumberKind::I8 => 1,
            NumberKind::U16 | NumberKind::I16 | NumberKind::F16 => 2,
            NumberKind::U32 | NumberKind::I32 | NumberKind::F32 => 4,
            NumberKind::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, NumberKind::F16 | NumberKind::F32 | NumberKind::F64)
    }

    /// The type's own limits (for floats, the documented safe range).
    pub fn limits(self) -> (f64, f64) {
        match self {
            NumberKind::U8 => (0.0, 255.0),
            NumberKind::U16 => (0.0, 65535.0),
            NumberKind::U32 => (0.0, 4294967295.0),
            NumberKind::I8 => (-128.0, 127.0),
            NumberKind::I16 => (-32768.0, 32767.0),
            NumberKind::I32 => (-2147483648.0, 2147483647.0),
            NumberKind::F16 => (-65504.0, 65504.0),
            NumberKind::F32 => (-16777216.0, 16777216.0),
            NumberKind::F64 => (-9007199254740992.0, 9007199254740992.0),
        }
    }

    pub fn keyword(self) -> &'static str {
        match self {
            NumberKind::U8 => "u8",
            NumberKind::U16 => "u16",
            NumberKind::U32 => "u32",
            NumberKind::I8 => "i8",
            NumberKind::I16 => "i16",
            NumberKind::I32 => "i32",
            NumberKind::F16 => "f16",
            NumberKind::F32 => "f32",
            NumberKind::F64 => "f64",
        }
    }
}

/// A quantized number: on the wire, `q = round((value - min) / step)` as an unsigned integer
/// of [`Quantized::bytes`] bytes (little-endian); received as `min + q * step`, with a `q`
/// above [`Quantized::steps`] refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized {
    /// The float type written before the range; it only names the type.
    pub kind: NumberKind,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// The step as written (`1/64`), for messages and printing.
    pub step_text: String,
    /// The largest `q`: `(max - min) / step`, a whole number.
    pub steps: u32,
}

impl Quantized {
    /// The fewest whole bytes that hold every `q` from 0 to [`Quantized::steps`].
    pub fn bytes(&self) -> u32 {
        match self.steps {
            0..=0xFF => 1,
            0x100..=0xFFFF => 2,
            0x1_0000..=0xFF_FFFF => 3,
            _ => 4,
        }
    }

    /// Whether every integer of [`Quantized::bytes`] bytes is a valid `q`, so that a receiver
    /// has nothing to check.
    pub fn fills_its_bytes(&self) -> bool {
        u64::from(self.steps) + 1 == 1u64 << (8 * self.bytes())
    }
}

/// Inclusive value bounds; `None` means unbounded on that side (within the type).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NumberRange {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// Inclusive length bounds. `max == None` is unbounded (the receiver still checks the
/// length against the bytes left in the packet before allocating).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LengthRange {
    pub min: u32,
    pub max: Option<u32>,
}

impl LengthRange {
    /// `Some(n)` for an exact length (`T[n]`, `string(n)`): no prefix is written.
    pub fn exact(&self) -> Option<u32> {
        match self.max {
            Some(max) if max == self.min => Some(max),
            _ => None,
        }
    }
}

/// A field name as written: plain identifiers become `name = …` in Luau, quoted names
/// and Luau reserved words become `["name"] = …`.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StructType {
    pub fields: Vec<Field>,
    pub layout: StructLayout,
}

/// Where each field of a struct goes on the wire. BlinkBlox reorders within a struct:
/// first a block of packed bits (booleans and optional flags, 8 to a byte), then the
/// fixed-size fields at constant offsets (so the whole block is one allocation / one
/// bounds check), then the variable-size fields in declaration order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StructLayout {
    /// Bit `i` of the packed block (byte `i / 8`, bit `i % 8`) holds `bits[i]`.
    pub bits: Vec<BitSlot>,
    /// Fixed-size fields and their byte offsets, after the packed bytes.
    pub fixed: Vec<FixedSlot>,
    /// Bytes of the fixed block: packed bytes plus every fixed field.
    pub fixed_block_size: u32,
    /// Variable-size fields (field indices), in declaration order, after the block.
    /// An optional field's value is here (or in `fixed` never); its flag is in `bits`.
    pub variable: Vec<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitSlot {
    pub field: usize,
    pub kind: BitKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitKind {
    /// A `boolean` field's value.
    Boolean,
    /// Presence flag of an optional field (`T?` other than `Instance?`/`unknown`, which
    /// travel as nil in the side array).
    Present,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedSlot {
    pub field: usize,
    pub offset: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct UnitEnum {
    pub variants: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TaggedEnum {
    /// The tag field's name in the Luau table.
    pub tag: String,
    /// Each variant is a struct; the wire holds the variant index (u8, u16 past 256),
    /// then the variant's struct.
    pub variants: Vec<Variant>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub body: StructType,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SetType {
    /// Flag names; flag `i` is bit `i % 8` of byte `i / 8`.
    pub flags: Vec<String>,
}

/// An event, function or stream's payload.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// No `Data`: the listener receives nothing (Blink passes one nil).
    None,
    /// `Data: T`: one value, Luau parameter `Value`.
    Single(Type),
    /// `Data: (A, B)`: a type pack, Luau parameters `Value1..n`. `()` is the empty pack.
    Tuple(Vec<Type>),
}

impl Payload {
    /// The payload's values' types, in order.
    pub fn types(&self) -> &[Type] {
        match self {
            Payload::None => &[],
            Payload::Single(ty) => std::slice::from_ref(ty),
            Payload::Tuple(types) => types,
        }
    }

    /// Type nodes of all its values with named types expanded (`Layout::inlined_nodes`).
    pub fn inlined_nodes(&self) -> u32 {
        self.types()
            .iter()
            .fold(0, |sum, ty| sum.saturating_add(ty.layout.inlined_nodes))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Server,
    Client,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reliability {
    Reliable,
    Unreliable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallMode {
    SingleSync,
    SingleAsync,
    ManySync,
    ManyAsync,
    Polling,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YieldMode {
    Coroutine,
    Future,
    Promise,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EventDecl {
    pub name: String,
    pub scope: ScopePath,
    /// The sending side.
    pub from: Side,
    pub reliability: Reliability,
    /// Already `Polling` when the schema says `Poll: true` or `UsePolling = true`.
    pub call: CallMode,
    pub data: Payload,
    /// Index on its channel (`reliability` picks the channel).
    pub index: u16,
    pub span: Span,
}

/// Functions go client → server and back, on the reliable channel.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionDecl {
    pub name: String,
    pub scope: ScopePath,
    pub yield_mode: YieldMode,
    pub data: Payload,
    pub returns: Payload,
    /// `Timeout: seconds`: `Invoke` raises an error after this long.
    pub timeout: Option<f64>,
    /// Index on the reliable channel.
    pub index: u16,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StreamDecl {
    pub name: String,
    pub scope: ScopePath,
    pub from: Side,
    pub reliability: Reliability,
    /// `Per: Player`: a server stream holding one value per player.
    pub per_player: bool,
    /// `Delta: true`: each flush sends what changed since the value the receiver has (a
    /// reliable server stream of a struct or a map).
    pub delta: bool,
    pub data: Type,
    pub index: u16,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Casing {
    Pascal,
    Camel,
    Snake,
}

impl Casing {
    pub const ALL: [Casing; 3] = [Casing::Pascal, Casing::Camel, Casing::Snake];

    /// The casing as a schema writes it (`Camel`).
    pub fn name(self) -> &'static str {
        self.pick("Pascal", "Camel", "Snake")
    }

    /// The casing a word names, in any case (`camel` is `Camel`).
    pub fn named(word: &str) -> Option<Casing> {
        Casing::ALL
            .into_iter()
            .find(|casing| casing.name().eq_ignore_ascii_case(word))
    }

    /// Picks the spelling of a generated member for this casing.
    pub fn pick(self, pascal: &'static str, camel: &'static str, snake: &'static str) -> &'static str {
        match self {
            Casing::Pascal => pascal,
            Casing::Camel => camel,
            Casing::Snake => snake,
        }
    }
}

/// Every option with its value in effect (defaults filled in).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    // Blink 0.18
    pub server_output: Option<String>,
    pub client_output: Option<String>,
    pub types_output: Option<String>,
    pub typescript: bool,
    pub casing: Casing,
    pub use_polling: bool,
    pub future_library: Option<String>,
    pub promise_library: Option<String>,
    pub sync_validation: bool,
    pub write_validations: bool,
    pub manual_replication: bool,
    pub remote_scope: String,
    // BlinkBlox
    pub max_packet_size: u32,
    pub max_events_per_packet: u32,
    pub inbound_bytes_per_second: u32,
    pub inbound_burst: u32,
    pub max_unreliable_size: u32,
    pub batch_unreliable: bool,
    pub client_flush_rate: u32,
    /// Whether f16/f32/f64 values may be NaN or ±inf on the receiving side.
    pub allow_non_finite: bool,
    /// Whether the modules count records and bytes per declaration (`Stats()`).
    pub stats: bool,
    /// Whether each record's write and read is a microprofiler label.
    pub profile_labels: bool,
    /// The option names the schema itself set (so project-wide defaults from a manifest
    /// apply only to the others).
    pub set_in_schema: Vec<&'static str>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            server_output: None,
            client_output: None,
            types_output: None,
            typescript: false,
            casing: Casing::Pascal,
            use_polling: false,
            future_library: None,
            promise_library: None,
            sync_validation: true,
            write_validations: false,
            manual_replication: false,
            remote_scope: String::new(),
            max_packet_size: 16384,
            max_events_per_packet: 256,
            inbound_bytes_per_second: 32768,
            inbound_burst: 65536,
            max_unreliable_size: 900,
            batch_unreliable: false,
            client_flush_rate: 60,
            allow_non_finite: false,
            stats: false,
            profile_labels: false,
            set_in_schema: Vec::new(),
        }
    }
}
