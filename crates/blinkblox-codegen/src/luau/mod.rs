//! The Luau emitters: Server, Client and Types modules.
//!
//! Layout of a generated Server/Client module, top to bottom:
//! 1. directives and banner (`banner.rs`), service locals, `export type`s (`types.rs`);
//! 2. the fixed runtime parts (`runtime.rs`, `src/runtime/*.luau`): buffers, batches,
//!    LEB128 lengths, f16, the side array, queues and listener helpers, flushing;
//! 3. per-declaration code, all of it in functions stored in tables (`Lookups`,
//!    `Readers`, `Responders`) or in the API table, so the module's top-level function
//!    holds no per-declaration locals (1000 declarations load without running out of
//!    registers);
//! 4. one decode function per channel (`DecodeReliable`, `DecodeUnreliable`, in
//!    `decode.rs`): a loop over the packet's records that finds each index by halving the
//!    range down to runs of eight, and delivers inline (`listeners.rs`; Sync listeners run
//!    inside the packet's pcall);
//! 5. the per-packet entry a remote calls (`ReceiveFromClient` on the server: size,
//!    byte budget, then the decode; `ReceivePacket` on the client): one pcall per
//!    packet, no closure per packet;
//! 6. the frozen API table, and the no-op twin returned in edit mode (`api.rs`).
//!
//! `server.rs`, `client.rs` and `types_module.rs` assemble the three modules from the
//! parts `ModuleGen` (`module.rs`) emits; values are written by `write/` and read by
//! `read/`.

mod api;
pub mod banner;
mod builder;
mod byte_runs;
pub(crate) mod client;
mod conditions;
mod decode;
pub mod decode_checks;
mod delta;
mod exports;
mod forms;
mod layout;
mod listeners;
mod lookups;
pub(crate) mod markers;
mod module;
pub(crate) mod naming;
mod payload;
mod quantized;
mod read;
mod record;
mod record_size;
mod remotes;
pub mod runtime;
pub(crate) mod server;
mod stats;
mod streams;
mod types;
pub(crate) mod types_module;
mod value_path;
mod write;
