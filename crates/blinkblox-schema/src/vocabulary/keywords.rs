//! The words that start a declaration, with what each declares: the parser's, the
//! formatter's and the language server's one list.

/// A word that starts a declaration.
pub struct Keyword {
    pub word: &'static str,
    /// Its form and what it declares (hover, completion).
    pub about: &'static str,
}

/// Every declaration keyword, in the order completion offers them.
pub const KEYWORDS: &[Keyword] = &[
    Keyword {
        word: "option",
        about: "`option Name = value`: a compiler option (before any declaration)",
    },
    Keyword {
        word: "type",
        about: "`type Name = …`: a name for a type",
    },
    Keyword {
        word: "struct",
        about: "`struct Name { field: Type, … }`",
    },
    Keyword {
        word: "enum",
        about: "`enum Name = { A, B }` or a tagged enum `enum Name = \"Tag\" { A { … } }`",
    },
    Keyword {
        word: "map",
        about: "`map Name = { [Key]: Value }`",
    },
    Keyword {
        word: "set",
        about: "`set Name = { FlagA, FlagB }`: flags packed into bits",
    },
    Keyword {
        word: "event",
        about: "`event Name { From, Type, Call, Data }`",
    },
    Keyword {
        word: "function",
        about: "`function Name { Yield, Data, Return }`: client invokes, server answers",
    },
    Keyword {
        word: "stream",
        about: "`stream Name { From, Type, Data }`: the latest value, kept in sync",
    },
    Keyword {
        word: "scope",
        about: "`scope Name { … }`: a namespace, a nested table in the modules",
    },
    Keyword {
        word: "import",
        about: "`import \"file\" [as Name]`: another schema's declarations, as a scope",
    },
    Keyword {
        word: "export",
        about: "`export type|struct|enum|map|set …`: the modules expose `Read`/`Write` for it",
    },
];

/// Whether `word` starts a declaration.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|keyword| keyword.word == word)
}

/// The word between a number type's range and its step, `f32(-2048..2048 step 1/64)`: not a
/// declaration keyword, so a field or type may still be named `step`.
pub const STEP: &str = "step";
