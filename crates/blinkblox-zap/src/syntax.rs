//! The syntax tree of a zap file, as written: nothing resolved, every node with its span.

use blinkblox_schema::source::Span;

/// Names (quoted keys where zap allows them: struct fields, enumerators, variants), numbers
/// as written and ranges are the schema language's own nodes: zap writes them alike.
pub use blinkblox_schema::ast::{Name, Number, Range};

/// The comments that belong to an item: those on the lines above it, and the one that ends
/// its last line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comments {
    pub leading: Vec<Span>,
    pub trailing: Option<Span>,
}

#[derive(Debug, Clone, Default)]
pub struct File {
    pub opts: Vec<Opt>,
    pub decls: Vec<Decl>,
}

#[derive(Debug, Clone)]
pub struct Opt {
    pub name: Name,
    pub value: OptValue,
    pub span: Span,
    pub comments: Comments,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptValueKind {
    /// The text between the quotes, and the quote character used.
    Str(String, char),
    /// The number as written.
    Num(String),
    Bool(bool),
}

#[derive(Debug, Clone, PartialEq)]
pub struct OptValue {
    pub kind: OptValueKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Decl {
    Type(TypeDecl),
    Event(EventDecl),
    Function(FunctionDecl),
    Namespace(NamespaceDecl),
}

impl Decl {
    pub fn name(&self) -> &Name {
        match self {
            Decl::Type(decl) => &decl.name,
            Decl::Event(decl) => &decl.name,
            Decl::Function(decl) => &decl.name,
            Decl::Namespace(decl) => &decl.name,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Decl::Type(decl) => decl.span,
            Decl::Event(decl) => decl.span,
            Decl::Function(decl) => decl.span,
            Decl::Namespace(decl) => decl.span,
        }
    }

    pub fn comments(&self) -> &Comments {
        match self {
            Decl::Type(decl) => &decl.comments,
            Decl::Event(decl) => &decl.comments,
            Decl::Function(decl) => &decl.comments,
            Decl::Namespace(decl) => &decl.comments,
        }
    }
}

#[derive(Debug, Clone)]
pub struct TypeDecl {
    pub name: Name,
    pub ty: Ty,
    pub span: Span,
    pub comments: Comments,
}

/// `key: value` inside an `event` or `funct` block.
#[derive(Debug, Clone)]
pub struct Field {
    pub key: Name,
    pub value: FieldValue,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum FieldValue {
    /// `Server`, `Reliable`, `ManyAsync`, `Async`…
    Word(Name),
    /// `data`, `args` and `rets`: one type or a parenthesised list.
    Parameters(Parameters),
}

impl FieldValue {
    pub fn span(&self) -> Span {
        match self {
            FieldValue::Word(word) => word.span,
            FieldValue::Parameters(parameters) => parameters.span,
        }
    }
}

/// `T`, or `(a: T, U, …)` where names are optional.
#[derive(Debug, Clone)]
pub struct Parameters {
    pub list: Vec<(Option<Name>, Ty)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EventDecl {
    pub name: Name,
    pub fields: Vec<Field>,
    pub span: Span,
    pub comments: Comments,
}

#[derive(Debug, Clone)]
pub struct FunctionDecl {
    pub name: Name,
    pub fields: Vec<Field>,
    pub span: Span,
    pub comments: Comments,
}

#[derive(Debug, Clone)]
pub struct NamespaceDecl {
    pub name: Name,
    pub decls: Vec<Decl>,
    pub span: Span,
    pub comments: Comments,
}

/// zap's number types are the schema language's, but for `f16`, which zap does not have.
pub use blinkblox_schema::model::NumberKind;

/// The zap number type a word names.
pub fn zap_number(word: &str) -> Option<NumberKind> {
    NumberKind::named(word).filter(|kind| *kind != NumberKind::F16)
}

/// `string`, `string.utf8` or `string.binary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringKind {
    Plain,
    Utf8,
    Binary,
}

#[derive(Debug, Clone)]
pub struct Ty {
    pub kind: TyKind,
    pub span: Span,
}

/// One struct field, enumerator or tagged variant, with its comments.
#[derive(Debug, Clone)]
pub struct Member<T> {
    pub name: Name,
    pub value: T,
    pub comments: Comments,
}

#[derive(Debug, Clone)]
pub enum TyKind {
    Num(NumberKind, Option<Range>),
    Str(StringKind, Option<Range>),
    Buffer(Option<Range>),
    /// `vector` (no components) or `vector(X, Y[, Z])`.
    Vector(Vec<Ty>),
    Array(Box<Ty>, Option<Range>),
    Map(Box<Ty>, Box<Ty>),
    Set(Box<Ty>),
    Optional(Box<Ty>),
    /// A name or a path through namespaces (`NS.Type`); also the built-in names such as
    /// `boolean` and `CFrame`, which are resolved like names in zap.
    Ref(Vec<Name>),
    UnitEnum(Vec<Member<()>>),
    TaggedEnum {
        tag: Name,
        variants: Vec<Member<Vec<Member<Ty>>>>,
    },
    Struct(Vec<Member<Ty>>),
    /// `Instance`, `Instance(Class)`, `Instance (Class)` or `Instance.Class`.
    Instance(Option<Name>),
    /// `(A | B | …)`.
    Or(Vec<Ty>),
}
