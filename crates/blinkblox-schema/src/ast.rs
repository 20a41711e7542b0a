//! The syntax tree of one schema file, as written (nothing resolved yet).

use crate::source::Span;

/// A name as written. `quoted` names came from `"…"` or `["…"]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
    pub quoted: bool,
}

/// One parsed file.
#[derive(Debug, Clone, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Debug, Clone)]
pub enum Item {
    Option(OptionItem),
    Type(Box<TypeItem>),
    Event(EventItem),
    Function(FunctionItem),
    Stream(StreamItem),
    Scope(ScopeItem),
    Import(ImportItem),
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Option(item) => item.span,
            Item::Type(item) => item.span,
            Item::Event(item) => item.span,
            Item::Function(item) => item.span,
            Item::Stream(item) => item.span,
            Item::Scope(item) => item.span,
            Item::Import(item) => item.span,
        }
    }
}

#[derive(Debug, Clone)]
pub struct OptionItem {
    pub name: Name,
    pub value: Literal,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LiteralKind {
    String(String),
    Number { value: f64, text: String },
    Bool(bool),
    Ident(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    pub kind: LiteralKind,
    pub span: Span,
}

/// Which keyword introduced a type declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKeyword {
    Type,
    Struct,
    Enum,
    Map,
    Set,
}

impl TypeKeyword {
    pub fn keyword(self) -> &'static str {
        match self {
            TypeKeyword::Type => "type",
            TypeKeyword::Struct => "struct",
            TypeKeyword::Enum => "enum",
            TypeKeyword::Map => "map",
            TypeKeyword::Set => "set",
        }
    }
}

/// `[export] type|struct|enum|map|set Name[<T, …>] …`.
#[derive(Debug, Clone)]
pub struct TypeItem {
    pub keyword: TypeKeyword,
    pub exported: Option<Span>,
    pub name: Name,
    pub generics: Vec<Name>,
    /// Where the generic parameter list is, when there is one.
    pub generics_span: Option<Span>,
    pub body: TypeExpr,
    pub span: Span,
}

/// `Key: value` inside `event`, `function` and `stream` blocks.
#[derive(Debug, Clone)]
pub struct DeclField {
    /// As written (case is ignored when matching).
    pub key: Name,
    pub value: DeclValue,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum DeclValue {
    /// `Server`, `Reliable`, `true`, a number …
    Literal(Literal),
    /// `Data: T`.
    Type(TypeExpr),
    /// `Data: (A, B)`.
    Tuple(Vec<TypeExpr>, Span),
}

impl DeclValue {
    pub fn span(&self) -> Span {
        match self {
            DeclValue::Literal(literal) => literal.span,
            DeclValue::Type(ty) => ty.span,
            DeclValue::Tuple(_, span) => *span,
        }
    }
}

#[derive(Debug, Clone)]
pub struct EventItem {
    pub name: Name,
    pub fields: Vec<DeclField>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct FunctionItem {
    pub name: Name,
    pub fields: Vec<DeclField>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct StreamItem {
    pub name: Name,
    pub fields: Vec<DeclField>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ScopeItem {
    pub name: Name,
    pub items: Vec<Item>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ImportItem {
    /// The path as written, without quotes.
    pub path: String,
    pub path_span: Span,
    pub alias: Option<Name>,
    pub span: Span,
}

/// A numeric literal in a range, keeping its text (to tell `1` from `1.0`).
#[derive(Debug, Clone, PartialEq)]
pub struct Number {
    pub value: f64,
    pub text: String,
    pub span: Span,
}

impl Number {
    /// `3` and `3.0` are integers; `3.5` is not.
    pub fn is_integer(&self) -> bool {
        self.value.fract() == 0.0
    }
}

/// `(a..b)`, `(a..)`, `(..b)`, `(n)` or, in array brackets, the same without parens.
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    pub min: Option<Number>,
    pub max: Option<Number>,
    /// `(n)` / `[n]`: exactly `n`.
    pub exact: bool,
    /// `(a..b step s)`: a float type quantized to steps of `s` from `a`.
    pub step: Option<Box<Step>>,
    pub span: Span,
}

/// The step of a quantized number, `0.5` or `1/64` as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub numerator: Number,
    /// `64` in `1/64`.
    pub denominator: Option<Number>,
    pub span: Span,
}

impl Step {
    /// The step's value; a zero denominator gives infinity, which the checker refuses.
    pub fn value(&self) -> f64 {
        match &self.denominator {
            Some(denominator) => self.numerator.value / denominator.value,
            None => self.numerator.value,
        }
    }

    /// The step as written, `1/64`.
    pub fn text(&self) -> String {
        match &self.denominator {
            Some(denominator) => format!("{}/{}", self.numerator.text, denominator.text),
            None => self.numerator.text.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: Span,
}

/// What goes inside the parentheses after a type name.
#[derive(Debug, Clone)]
pub enum TypeArgument {
    Range(Range),
    /// `Instance(Part)`.
    Class(Name),
}

#[derive(Debug, Clone)]
pub struct FieldDef {
    pub name: Name,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum StructMember {
    Field(FieldDef),
    /// `..Other` or `..Generic<u8>`.
    Merge(TypeExpr),
}

#[derive(Debug, Clone)]
pub struct VariantDef {
    pub name: Name,
    pub members: Vec<StructMember>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum TypeExprKind {
    /// A primitive, a declared type or a generic parameter: `u8`, `Scope.Name`,
    /// `Name<A, B>`, `vector<i16>(..100)`, `Instance(Part)`.
    Named {
        path: Vec<Name>,
        /// `<…>`: generic arguments or components.
        arguments: Vec<TypeExpr>,
        arguments_span: Option<Span>,
        argument: Option<TypeArgument>,
    },
    Struct(Vec<StructMember>),
    UnitEnum(Vec<Name>),
    TaggedEnum {
        tag: Name,
        variants: Vec<VariantDef>,
    },
    Map {
        key: Box<TypeExpr>,
        value: Box<TypeExpr>,
        /// `{[K]: V}(a..b)`: bounds on the entry count.
        length: Option<Range>,
    },
    Set(Vec<Name>),
    Optional(Box<TypeExpr>),
    Array {
        element: Box<TypeExpr>,
        /// `None` for `[]`.
        length: Option<Range>,
    },
    /// Stands in for a type the parser could not read (an error is already reported).
    Error,
}
