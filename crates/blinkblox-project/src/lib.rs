//! The project layer: `blinkblox.toml`, the Rojo tree, schema discovery, the lockfile and
//! the writer that puts generated modules on disk. `blinkblox sync` is [`sync::run`].

pub mod compile;
pub mod init;
pub mod jsonc;
mod leftovers;
pub mod lockfile;
pub mod manifest;
pub mod package;
pub mod paths;
pub mod plan;
pub mod project;
pub mod project_schemas;
pub mod rojo;
pub mod schema_rules;
pub mod schemas;
mod serde_keys;
pub mod sync;
pub mod wally;
pub mod watch;
pub mod writer;

/// The project layer's errors: the one shape every command reports.
pub use blinkblox_error::UserError as ProjectError;

/// Reads a text file the project layer owns (manifest, lockfile, Rojo project file): a
/// leading UTF-8 byte-order mark is dropped, and text that is not UTF-8 is an error naming
/// the file, the line and column, and the byte.
pub fn read_text(path: &std::path::Path) -> std::io::Result<Result<String, ProjectError>> {
    let bytes = read_project_file(path)?;
    Ok(blinkblox_fs::read::decode_text(bytes).map_err(|not_utf8| {
        ProjectError::new(format!("`{}`:{not_utf8}", path.display())).with_help("save the file as UTF-8")
    }))
}

/// The most a manifest, lockfile or Rojo project file may be.
const MAX_PROJECT_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A project file's bytes, read as `blinkblox_fs::read` reads every file (regular files
/// only, without blocking, bounded); the other problems become I/O errors saying what it is.
fn read_project_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use blinkblox_fs::read::{ReadError, read_file};
    read_file(path, MAX_PROJECT_FILE_BYTES).map_err(|err| match err {
        ReadError::Io(err) => err,
        other => std::io::Error::other(other.to_string()),
    })
}
