//! Every diagnostic code the front end emits. Codes are stable: users search for them
//! and golden tests pin them. New codes are appended, never renumbered.
//!
//! `E1xxx` lexer and source files, `E2xxx` parser, `E3xxx` names, types and imports,
//! `E4xxx` options, declarations and limits; `W` + the same ranges for warnings.

// Lexer and source files.
pub const STRAY_CHARACTER: &str = "E1001";
pub const UNTERMINATED_STRING: &str = "E1002";
pub const UNTERMINATED_COMMENT: &str = "E1003";
pub const INVALID_NUMBER: &str = "E1004";
pub const NOT_UTF8: &str = "E1005";
pub const UNREADABLE_FILE: &str = "E1006";

// Parser.
pub const UNEXPECTED_TOKEN: &str = "E2001";
pub const UNCLOSED_BLOCK: &str = "E2002";
pub const UNMATCHED_BRACE: &str = "E2003";
pub const EXPECTED_DECLARATION: &str = "E2004";
pub const NESTING_TOO_DEEP: &str = "E2005";
pub const TOO_MANY_ERRORS: &str = "E2006";
pub const MISPLACED_EXPORT: &str = "E2007";
pub const MISSING_SEPARATOR: &str = "E2008";

// Names, types and imports.
pub const UNKNOWN_TYPE: &str = "E3001";
pub const DUPLICATE_DECLARATION: &str = "E3002";
pub const DUPLICATE_MEMBER: &str = "E3003";
pub const OPTIONAL_MAP_KEY: &str = "E3004";
pub const REVERSED_RANGE: &str = "E3005";
pub const FRACTIONAL_BOUND: &str = "E3006";
pub const BOUND_OUT_OF_LIMITS: &str = "E3007";
pub const RANGE_NOT_ALLOWED: &str = "E3008";
pub const INVALID_COMPONENT: &str = "E3009";
pub const GENERIC_ARITY: &str = "E3010";
pub const NOT_GENERIC: &str = "E3011";
pub const MISSING_GENERIC_ARGUMENTS: &str = "E3012";
pub const DUPLICATE_GENERIC_PARAMETER: &str = "E3013";
pub const GENERICS_NOT_ALLOWED: &str = "E3014";
pub const GENERIC_EXPORT: &str = "E3015";
pub const RECURSIVE_TYPE: &str = "E3016";
pub const IMPORT_NOT_FOUND: &str = "E3017";
pub const IMPORT_CYCLE: &str = "E3018";
pub const UNKNOWN_SCOPE: &str = "E3019";
pub const MERGE_NOT_STRUCT: &str = "E3020";
pub const WRONG_KIND: &str = "E3021";
pub const TAG_FIELD_CONFLICT: &str = "E3022";
pub const EMPTY_ENUM: &str = "E3023";
pub const TYPE_TOO_LARGE: &str = "E3024";
pub const RESERVED_NAME: &str = "E3025";
pub const IMPORT_UNREADABLE: &str = "E3026";
pub const IMPORT_TOO_DEEP: &str = "E3027";
pub const INVALID_SCOPE_NAME: &str = "E3028";
pub const INVALID_STEP: &str = "E3029";

// Options, declarations and limits.
pub const UNKNOWN_OPTION: &str = "E4001";
pub const OPTION_AFTER_DECLARATION: &str = "E4002";
pub const DUPLICATE_OPTION: &str = "E4003";
pub const INVALID_OPTION_VALUE: &str = "E4004";
pub const MISSING_FIELD: &str = "E4005";
pub const UNKNOWN_FIELD: &str = "E4006";
pub const DUPLICATE_FIELD: &str = "E4007";
pub const INVALID_FIELD_VALUE: &str = "E4008";
pub const INVALID_PER: &str = "E4009";
pub const STREAM_TUPLE: &str = "E4010";
pub const UNRELIABLE_TOO_LARGE: &str = "E4011";
pub const PACKET_TOO_LARGE: &str = "E4012";
pub const CHANNEL_FULL: &str = "E4013";
pub const INVALID_TIMEOUT: &str = "E4014";
pub const LIMITS_CONTRADICT: &str = "E4015";
pub const TUPLE_TOO_LONG: &str = "E4016";
pub const DATA_TOO_LARGE: &str = "E4017";
pub const GENERATED_CODE_REJECTED: &str = "E4018";
pub const MISSING_LIBRARY: &str = "E4019";
pub const INVALID_DELTA: &str = "E4020";

// Warnings.
pub const TOO_MANY_WARNINGS: &str = "W2001";
pub const RANGE_HAS_NO_EFFECT: &str = "W3001";
pub const OPTION_IN_IMPORT: &str = "W4001";
// W4002 is retired: it was `MISSING_LIBRARY` as a warning, but the generated client would
// call a library that does not exist.
pub const EMPTY_SCHEMA: &str = "W4003";
pub const UNUSED_OPTION: &str = "W4004";
pub const CASING_SPELLING: &str = "W4005";

/// Every code with a one-line summary, for documentation and the code table.
pub const TABLE: &[(&str, &str)] = &[
    (STRAY_CHARACTER, "a character that starts no token"),
    (UNTERMINATED_STRING, "a string not closed on its line"),
    (
        UNTERMINATED_COMMENT,
        "a block comment not closed before the end of the file",
    ),
    (INVALID_NUMBER, "a malformed number (exponent, hex, letters)"),
    (NOT_UTF8, "the file is not UTF-8"),
    (UNREADABLE_FILE, "the file could not be read"),
    (UNEXPECTED_TOKEN, "expected one thing, found another"),
    (
        UNCLOSED_BLOCK,
        "a `{`, `(`, `[` or `<` still open at the end of the file",
    ),
    (UNMATCHED_BRACE, "a `}` with no `{`"),
    (
        EXPECTED_DECLARATION,
        "something other than a declaration keyword at the top of a file or scope",
    ),
    (NESTING_TOO_DEEP, "types or scopes nested beyond the depth limit"),
    (TOO_MANY_ERRORS, "the file has so many errors that checking stopped"),
    (
        TOO_MANY_WARNINGS,
        "so many warnings that the rest are summarised in one line",
    ),
    (
        MISPLACED_EXPORT,
        "`export` before something other than a type declaration",
    ),
    (MISSING_SEPARATOR, "a missing `,` between the elements of a list"),
    (UNKNOWN_TYPE, "a type name that is not declared"),
    (DUPLICATE_DECLARATION, "a name declared twice in one scope"),
    (DUPLICATE_MEMBER, "a field, variant, member or flag declared twice"),
    (OPTIONAL_MAP_KEY, "an optional map key or value"),
    (REVERSED_RANGE, "a range whose minimum exceeds its maximum"),
    (FRACTIONAL_BOUND, "a fractional bound on an integer or a length"),
    (BOUND_OUT_OF_LIMITS, "a bound outside the type's own limits"),
    (RANGE_NOT_ALLOWED, "a range or argument on a type that takes none"),
    (INVALID_COMPONENT, "a bad `vector<…>`/`CFrame<…>` component"),
    (
        INVALID_STEP,
        "a step on a type other than a bounded float, or one the range is not a whole number of",
    ),
    (GENERIC_ARITY, "the wrong number of generic arguments"),
    (NOT_GENERIC, "generic arguments given to a type that takes none"),
    (MISSING_GENERIC_ARGUMENTS, "a generic type used without arguments"),
    (DUPLICATE_GENERIC_PARAMETER, "a generic parameter named twice"),
    (
        GENERICS_NOT_ALLOWED,
        "generic parameters on a declaration that cannot have them",
    ),
    (GENERIC_EXPORT, "`export` on a generic declaration"),
    (RECURSIVE_TYPE, "a type that contains itself"),
    (IMPORT_NOT_FOUND, "an import whose file does not exist"),
    (IMPORT_CYCLE, "files that import each other"),
    (UNKNOWN_SCOPE, "a path through a scope that does not exist"),
    (MERGE_NOT_STRUCT, "`..X` where X is not a struct"),
    (WRONG_KIND, "a `map`/`enum`/`set`/`struct` declared as something else"),
    (TAG_FIELD_CONFLICT, "a tagged-enum field with the tag's name"),
    (EMPTY_ENUM, "an enum without variants"),
    (
        TYPE_TOO_LARGE,
        "generic instantiation that expands beyond the size limit",
    ),
    (RESERVED_NAME, "a name the generated modules use themselves"),
    (IMPORT_UNREADABLE, "an imported file that exists but cannot be read"),
    (IMPORT_TOO_DEEP, "imports nested beyond the depth limit"),
    (
        INVALID_SCOPE_NAME,
        "an imported file whose name is not an identifier, imported without `as`",
    ),
    (UNKNOWN_OPTION, "an option name that does not exist"),
    (OPTION_AFTER_DECLARATION, "an `option` after the first declaration"),
    (DUPLICATE_OPTION, "an option set twice"),
    (INVALID_OPTION_VALUE, "an option value of the wrong type"),
    (MISSING_FIELD, "a required `From`/`Type`/`Call`/`Yield`/`Data` missing"),
    (UNKNOWN_FIELD, "a field key the declaration does not have"),
    (DUPLICATE_FIELD, "a field key given twice"),
    (INVALID_FIELD_VALUE, "a field value that is not one of the allowed ones"),
    (INVALID_PER, "`Per` other than `Player`, or on a client stream"),
    (
        INVALID_DELTA,
        "`Delta: true` on a stream other than a reliable server stream of a struct or a map",
    ),
    (STREAM_TUPLE, "a stream whose `Data` is a tuple"),
    (
        UNRELIABLE_TOO_LARGE,
        "unreliable data whose minimum size exceeds `MaxUnreliableSize`",
    ),
    (
        PACKET_TOO_LARGE,
        "client data whose minimum size exceeds `MaxPacketSize`",
    ),
    (CHANNEL_FULL, "more than 65536 declarations on one channel"),
    (INVALID_TIMEOUT, "a `Timeout` that is not a positive number of seconds"),
    (
        LIMITS_CONTRADICT,
        "inbound limits that contradict each other (`InboundBurst` below `MaxPacketSize`)",
    ),
    (TUPLE_TOO_LONG, "a type pack of more than 32 values"),
    (
        DATA_TOO_LARGE,
        "data of more than 4096 types once its named types are written out",
    ),
    (
        GENERATED_CODE_REJECTED,
        "data nested so deeply that Luau cannot compile the generated code",
    ),
    (
        MISSING_LIBRARY,
        "`Yield: Future`/`Promise` without `FutureLibrary`/`PromiseLibrary`",
    ),
    (RANGE_HAS_NO_EFFECT, "a range that changes nothing (`boolean(0..1)`)"),
    (
        OPTION_IN_IMPORT,
        "an option in an imported file (only the root file's options count)",
    ),
    (EMPTY_SCHEMA, "a schema with no declarations"),
    (
        UNUSED_OPTION,
        "an option Blink parses but that does nothing (`UseColon`)",
    ),
    (
        CASING_SPELLING,
        "a `Casing` spelt in another case (`camel` for `Camel`), which Blink rejects",
    ),
];

#[cfg(test)]
mod tests {
    use super::TABLE;

    #[test]
    fn codes_are_unique_and_in_their_ranges() {
        let mut seen = std::collections::HashSet::new();
        for (code, summary) in TABLE {
            assert!(seen.insert(*code), "{code} listed twice");
            assert!(!summary.is_empty());
            let (letter, digits) = code.split_at(1);
            assert!(letter == "E" || letter == "W", "{code}");
            assert!(
                digits.len() == 4 && matches!(&digits[..1], "1" | "2" | "3" | "4"),
                "{code}"
            );
        }
    }
}
