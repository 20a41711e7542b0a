//! Code generation: one emitter per output, all walking the checked model.
//!
//! The Luau emitters live in [`luau`]; the fixed Luau parts of the modules (buffers,
//! batching, queues, dispatch helpers) are real `.luau` files in `runtime/`, included
//! at build time.

pub mod luau;

use crate::schema::model::Schema;

/// Which optional outputs to produce besides the Server and Client modules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Targets {
    /// The shared Types module (exported types with `Read`/`Write`).
    pub types: bool,
    /// `.d.ts` declarations next to each Luau output.
    pub typescript: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OutputKind {
    Server,
    Client,
    Types,
    ServerDts,
    ClientDts,
    TypesDts,
}

impl OutputKind {
    /// The file name `blinkblox sync` gives this output inside a schema's folder.
    pub fn file_name(self) -> &'static str {
        match self {
            OutputKind::Server => "Server.luau",
            OutputKind::Client => "Client.luau",
            OutputKind::Types => "Types.luau",
            OutputKind::ServerDts => "Server.d.ts",
            OutputKind::ClientDts => "Client.d.ts",
            OutputKind::TypesDts => "Types.d.ts",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub kind: OutputKind,
    pub contents: String,
}

/// Generates every requested output for a checked schema, in `OutputKind` order.
/// Deterministic: the same schema gives the same bytes.
///
/// TypeScript declarations (`targets.typescript`) are not generated yet (issue 4).
pub fn generate(schema: &Schema, targets: Targets) -> Vec<GeneratedFile> {
    let mut files = vec![
        GeneratedFile {
            kind: OutputKind::Server,
            contents: luau::server::generate(schema),
        },
        GeneratedFile {
            kind: OutputKind::Client,
            contents: luau::client::generate(schema),
        },
    ];
    if targets.types {
        files.push(GeneratedFile {
            kind: OutputKind::Types,
            contents: luau::types::generate_types_module(schema),
        });
    }
    files
}
