//! The fixed Luau parts of the modules (`src/runtime/*.luau`), included at build time and
//! copied verbatim into every module that needs them.

use super::builder::CodeBuilder;

/// Send and receive state, batches, LEB128 lengths, the side array, f16, WriteError.
pub const PRELUDE: &str = include_str!("../runtime/prelude.luau");
/// Queues, listeners, and the per-packet entries with their checks.
pub const RECEIVE: &str = include_str!("../runtime/receive.luau");
/// The server's remotes, per-player and broadcast batches, markers and scratch batch.
pub const SERVER: &str = include_str!("../runtime/server.luau");
/// The client's resident batch, its flush and the interleaving of the server's packets.
pub const CLIENT: &str = include_str!("../runtime/client.luau");
/// The server's unreliable batches, skipped broadcasts and outgoing streams.
pub const SEND_SERVER: &str = include_str!("../runtime/send_server.luau");
/// The client's packet limits, unreliable batch and outgoing streams.
pub const SEND_CLIENT: &str = include_str!("../runtime/send_client.luau");
/// The state of the streams a side receives.
pub const STREAMS_RECEIVE: &str = include_str!("../runtime/streams_receive.luau");
/// The Types module's scratch batch, which exported `Write` borrows (no remotes).
pub const STANDALONE: &str = include_str!("../runtime/standalone.luau");
/// `Read`/`Write` of exported types on standalone buffers.
pub const EXPORTED: &str = include_str!("../runtime/exported.luau");

/// Every fixed part by its file name in `src/runtime/`.
pub const PARTS: [(&str, &str); 9] = [
    ("prelude.luau", PRELUDE),
    ("receive.luau", RECEIVE),
    ("server.luau", SERVER),
    ("client.luau", CLIENT),
    ("send_server.luau", SEND_SERVER),
    ("send_client.luau", SEND_CLIENT),
    ("streams_receive.luau", STREAMS_RECEIVE),
    ("standalone.luau", STANDALONE),
    ("exported.luau", EXPORTED),
];

/// Copies a fixed part into the module, followed by a blank line.
pub fn emit(out: &mut CodeBuilder, part: &str) {
    out.raw(part);
    out.line("");
}
