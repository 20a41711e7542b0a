//! Generation: which outputs a schema gets, what they are called, and [`generate`], which
//! walks the emitters for each.

use blinkblox_schema::model::Schema;

use crate::{luau, typescript};

/// Which optional outputs to produce besides the Server and Client modules.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Targets {
    /// The shared Types module (exported types with `Read`/`Write`).
    pub types: bool,
    /// `.d.ts` declarations next to each Luau output.
    pub typescript: bool,
    /// How game code requires each module where a project places it, written in the
    /// module's header; empty when the place is not known (`blinkblox compile`).
    pub requires: RequirePaths,
}

impl Targets {
    /// These optional outputs, with no place known to write in the headers.
    pub const fn outputs(types: bool, typescript: bool) -> Targets {
        Targets {
            types,
            typescript,
            requires: RequirePaths {
                server: None,
                client: None,
                types: None,
            },
        }
    }
}

/// The `require(...)` expression of each Luau module, where known.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RequirePaths {
    pub server: Option<String>,
    pub client: Option<String>,
    pub types: Option<String>,
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
    pub const ALL: [OutputKind; 6] = [
        OutputKind::Server,
        OutputKind::Client,
        OutputKind::Types,
        OutputKind::ServerDts,
        OutputKind::ClientDts,
        OutputKind::TypesDts,
    ];

    /// What it is, in messages: `Server`, `Client declarations`.
    pub fn describe(self) -> &'static str {
        match self {
            OutputKind::Server => "Server",
            OutputKind::Client => "Client",
            OutputKind::Types => "Types",
            OutputKind::ServerDts => "Server declarations",
            OutputKind::ClientDts => "Client declarations",
            OutputKind::TypesDts => "Types declarations",
        }
    }

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
/// With `targets.typescript` or the schema's `Typescript` option, a `.d.ts` follows
/// each Luau output (`typescript::*_declarations`).
pub fn generate(schema: &Schema, targets: &Targets) -> Vec<GeneratedFile> {
    let requires = &targets.requires;
    let mut files = server_and_client(schema, requires);
    if targets.types {
        files.push(GeneratedFile {
            kind: OutputKind::Types,
            contents: luau::types_module::generate(schema, requires.types.as_deref()),
        });
    }
    if targets.typescript || schema.options.typescript {
        files.push(GeneratedFile {
            kind: OutputKind::ServerDts,
            contents: typescript::server_declarations(schema),
        });
        files.push(GeneratedFile {
            kind: OutputKind::ClientDts,
            contents: typescript::client_declarations(schema),
        });
        if targets.types {
            files.push(GeneratedFile {
                kind: OutputKind::TypesDts,
                contents: typescript::types_declarations(schema),
            });
        }
    }
    files
}

/// The Server and Client modules, every schema's two outputs.
pub fn server_and_client(schema: &Schema, requires: &RequirePaths) -> Vec<GeneratedFile> {
    vec![
        GeneratedFile {
            kind: OutputKind::Server,
            contents: luau::server::generate(schema, requires.server.as_deref()),
        },
        GeneratedFile {
            kind: OutputKind::Client,
            contents: luau::client::generate(schema, requires.client.as_deref()),
        },
    ]
}
