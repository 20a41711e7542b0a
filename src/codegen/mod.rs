//! Code generation: one emitter per output, all walking the checked model.
//!
//! The Luau emitters live in [`luau`]; the fixed Luau parts of the modules (buffers,
//! batching, queues, dispatch helpers) are real `.luau` files in `runtime/`, included
//! at build time.
//!
//! # Wire format (SPEC §3.2)
//! A packet is a sequence of records `[index][payload]`, with no per-record length.
//! The index is a u8 (u16 LE when the channel has more than 256 declarations) on its
//! channel's remote (`[Scope_]BLINK_RELIABLE_REMOTE` / `…_UNRELIABLE_REMOTE`), whose
//! call arguments are `(buffer, {Instance|unknown})`. Payload values follow the
//! model's `Layout`s: numbers little-endian at their width (f16 as IEEE half, NaN and
//! ±inf kept), lengths and counts LEB128 unless exact, `boolean[]` 8 to a byte, a
//! struct as [packed bits: booleans and optional flags][fixed fields at constant
//! offsets][variable fields in order], a standalone `T?` as a flag byte then the
//! value, enums and variants as a u8 (u16 past 256) index, sets as bits, Instances
//! and `unknown` in the side array (nil as the `NIL_SLOT` marker).
//!
//! Functions use the reliable channel: an invocation is `[index][call id u16][data]`,
//! its answer `[index][call id u16][1][returns]` or `[index][call id][0]` when the
//! server's handler failed.
//!
//! A stream's record is `[index][value]` on its channel; an unreliable stream's is
//! `[index][flush u8][value]`, the sender's flush count mod 256, so the receiver can
//! ignore a late packet.
//!
//! # Batching
//! The client writes a frame's reliable records into one batch and sends it on
//! Heartbeat (or `StepReplication`) as one `FireServer`, refilling last frame's packet
//! buffer when the size matches. The server keeps one batch per player; a reliable
//! `FireAll` is written once into the frame's broadcast batch, sent with one
//! `FireAllClients` after the personal batches. A personal batch written after
//! broadcast records carries markers (a third argument: u32 pairs of positions in
//! both streams) and the client interleaves the two packets, so every player sees the
//! server's fire order. `FireExcept` serializes once into the broadcast batch and gives
//! the excluded player's batch a skip marker (`0xFFFFFFFF`, end, side-array end) that
//! its client jumps over; `FireList` copies the record into each listed player's batch
//! while they are at most half the players, and broadcasts with skip markers beyond.
//! Unreliable events are one remote call each, or with `BatchUnreliable` gathered into
//! per-player and broadcast unreliable batches sent on the flush (split before a call
//! would exceed `MaxUnreliableSize`). A client packet holds at most
//! `MaxEventsPerPacket` records and `MaxPacketSize` bytes: a busy frame goes out in
//! several calls. Streams (`luau/streams.rs`) serialize on `Set` and are written into
//! these batches on the flush. User-level guarantees: `docs/generated-modules.md`.
//!
//! # Receiving
//! One pcall per packet (`ReceivePacket`/`DecodeRange` in `runtime/receive.luau`),
//! no closure per packet; the decode loop finds a record's declaration by halving the
//! index range down to runs of eight and delivers inline (Sync listeners inside that
//! pcall, Async through `task.spawn`). A failed check drops the rest of the packet; a
//! Sync listener's error is reported and decoding resumes after its event.
//!
//! On the server, both remotes enter through `ReceiveFromClient` (SPEC §3.4): the
//! packet's size against `MaxPacketSize`, the player's byte budget (a token bucket on
//! Heartbeat time), then the decode, which also counts records against
//! `MaxEventsPerPacket`. Invocations are capped per player while they wait. Drops are
//! counted per player by reason and reported to the `OnDrop` hooks (docs:
//! `docs/securing-the-server.md`).

pub mod luau;
pub mod typescript;

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
    pub const ALL: [OutputKind; 6] = [
        OutputKind::Server,
        OutputKind::Client,
        OutputKind::Types,
        OutputKind::ServerDts,
        OutputKind::ClientDts,
        OutputKind::TypesDts,
    ];

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
