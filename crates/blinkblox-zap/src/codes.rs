//! The codes of the importer's diagnostics. They are stable (tests and users rely on them) and
//! kept apart from the schema's own `E`/`W` codes by their `Z`:
//!
//! - `Z1xxx`: the file cannot be read as zap (characters, syntax, nesting);
//! - `Z2xxx`: a zap construct that BlinkBlox has no equivalent for (nothing is written);
//! - `Z3xxx`: zap's own rules broken (zap rejects these too);
//! - `Z4xxx`: warnings, for what is translated with a difference or dropped.

// Reading.
pub const STRAY_CHARACTER: &str = "Z1001";
pub const UNTERMINATED_STRING: &str = "Z1002";
pub const UNTERMINATED_COMMENT: &str = "Z1003";
pub const UNEXPECTED_TOKEN: &str = "Z1004";
pub const NESTING_TOO_DEEP: &str = "Z1005";
pub const TOO_MANY_ERRORS: &str = "Z1006";
pub const OPTION_AFTER_DECLARATION: &str = "Z1007";

// No BlinkBlox equivalent.
pub const UNION: &str = "Z2001";
pub const VECTOR2: &str = "Z2002";
pub const VECTOR_COMPONENTS: &str = "Z2003";
pub const ALIGNED_CFRAME: &str = "Z2004";
pub const ORDERED_UNRELIABLE: &str = "Z2005";
pub const RECURSIVE_TYPE: &str = "Z2006";
pub const CONST_ENUM: &str = "Z2007";
pub const ASYNC_LIBRARY: &str = "Z2008";
pub const RESERVED_NAME: &str = "Z2009";

// zap's own rules.
pub const UNKNOWN_TYPE: &str = "Z3001";
pub const DUPLICATE_DECLARATION: &str = "Z3002";
pub const DUPLICATE_MEMBER: &str = "Z3003";
pub const MISSING_FIELD: &str = "Z3004";
pub const UNKNOWN_FIELD: &str = "Z3005";
pub const INVALID_FIELD_VALUE: &str = "Z3006";
pub const INVALID_OPTION_VALUE: &str = "Z3007";
pub const INVALID_RANGE: &str = "Z3008";
pub const EMPTY_ENUM: &str = "Z3009";
pub const TAG_FIELD_CONFLICT: &str = "Z3010";

// Warnings.
pub const OPTION_DROPPED: &str = "Z4001";
pub const UNKNOWN_OPTION: &str = "Z4002";
pub const OPTION_SET_TWICE: &str = "Z4003";
pub const PARAMETER_NAMES: &str = "Z4004";
pub const SYNC_FUNCTION: &str = "Z4005";
pub const UTF8_STRING: &str = "Z4006";
pub const OPTIONAL_IN_MAP: &str = "Z4007";
pub const ASYNC_LIBRARY_UNUSED: &str = "Z4008";

/// Every code with a one-line summary, for the documentation.
pub const TABLE: &[(&str, &str)] = &[
    (STRAY_CHARACTER, "a character that starts no zap token"),
    (UNTERMINATED_STRING, "a string not closed on its line"),
    (
        UNTERMINATED_COMMENT,
        "a `--[[` comment not closed before the end of the file",
    ),
    (UNEXPECTED_TOKEN, "expected one thing, found another"),
    (NESTING_TOO_DEEP, "types or namespaces nested beyond the depth limit"),
    (TOO_MANY_ERRORS, "so many errors that reading stopped"),
    (OPTION_AFTER_DECLARATION, "an `opt` after the first declaration"),
    (UNION, "an OR type `(A | B)`"),
    (VECTOR2, "`Vector2`"),
    (
        VECTOR_COMPONENTS,
        "`vector(…)` whose components are not three of one number type",
    ),
    (ALIGNED_CFRAME, "`AlignedCFrame`"),
    (ORDERED_UNRELIABLE, "`type: OrderedUnreliable`"),
    (RECURSIVE_TYPE, "a type that contains itself"),
    (
        CONST_ENUM,
        "`opt typescript_enum = \"ConstEnum\"` (numbers for enums in Luau)",
    ),
    (
        ASYNC_LIBRARY,
        "`yield_type` future/promise without a usable `async_lib`",
    ),
    (RESERVED_NAME, "a name BlinkBlox reserves for itself"),
    (UNKNOWN_TYPE, "a type name that is not declared"),
    (DUPLICATE_DECLARATION, "a name declared twice in one namespace"),
    (DUPLICATE_MEMBER, "a field, variant or enumerator declared twice"),
    (MISSING_FIELD, "an event or function without a required field"),
    (
        UNKNOWN_FIELD,
        "a field an event or function does not have, or one given twice",
    ),
    (INVALID_FIELD_VALUE, "a field value that is not one of the allowed ones"),
    (
        INVALID_OPTION_VALUE,
        "an option value of the wrong type or not one of its choices",
    ),
    (
        INVALID_RANGE,
        "a range that is reversed, fractional where whole numbers go, or outside the type",
    ),
    (EMPTY_ENUM, "an enum without enumerators or variants"),
    (
        TAG_FIELD_CONFLICT,
        "a tagged-enum variant with a field named like the tag",
    ),
    (OPTION_DROPPED, "an option that only shapes zap's own output, dropped"),
    (UNKNOWN_OPTION, "an option zap does not have, ignored"),
    (
        OPTION_SET_TWICE,
        "an option set twice (the last value counts, as in zap)",
    ),
    (
        PARAMETER_NAMES,
        "names of `data`/`rets` values, dropped (kept in a comment)",
    ),
    (
        SYNC_FUNCTION,
        "a `call: Sync` function, whose handler BlinkBlox runs in its own thread",
    ),
    (
        UTF8_STRING,
        "`string.utf8`, translated as a string of up to 4 bytes a character",
    ),
    (OPTIONAL_IN_MAP, "`?` on a map key or value or a set element, dropped"),
    (
        ASYNC_LIBRARY_UNUSED,
        "`async_lib` while functions yield plainly, dropped",
    ),
];
