//! The schemas the compilers are compared on, each in BlinkBlox's language and in the
//! competitor's: the benchmark schema and the many declarations.

use crate::many_declarations::{MANY_DECLARATIONS, Sender, blinkblox_schema};

/// One schema in BlinkBlox's language and in a competitor's.
#[derive(Clone, Debug)]
pub struct SchemaPair {
    /// The name the tables show.
    pub name: String,
    pub blinkblox: String,
    pub theirs: String,
}

/// `definitions/Definition.blink` (`blinkblox_definition`) beside the competitor's version of
/// it, and the many declarations, sent by the client, beside `their_many`.
pub(super) fn compared_schemas(
    blinkblox_definition: &str,
    their_definition: String,
    their_many: String,
) -> [SchemaPair; 2] {
    [
        SchemaPair {
            name: "Definition.blink".to_string(),
            blinkblox: blinkblox_definition.to_string(),
            theirs: their_definition,
        },
        SchemaPair {
            name: "128 declarations".to_string(),
            blinkblox: blinkblox_schema(MANY_DECLARATIONS, Sender::Client),
            theirs: their_many,
        },
    ]
}
