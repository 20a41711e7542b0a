//! The one owner of paths and file access. Every command that reads, writes or removes a
//! user's file goes through here, so each rule holds everywhere at once:
//!
//! - [`path`]: one lexical normalisation, and where a path really is (symbolic links
//!   followed) for every check that decides what may be written or removed.
//! - [`read`]: only regular files are read, opened without blocking (a pipe swapped in
//!   for a schema cannot hang a command), their type checked on the open handle, their
//!   size bounded.
//! - [`write`]: a file is replaced atomically (a temporary file beside it, flushed, then
//!   renamed), through a symbolic link to its target, keeping its permissions and owner;
//!   a read-only file or one with other hard links is refused by name rather than
//!   replaced; temporary files of a run that was stopped are found by their name.
//! - [`remove`]: a file is removed only when its real folder lies inside the folder the
//!   caller owns, so a link cannot lead a removal out of it.

pub mod path;
pub mod read;
pub mod remove;
pub mod write;
