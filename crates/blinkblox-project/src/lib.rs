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

use std::fmt;

/// An error of the project layer: a manifest, project file, lockfile or disk problem.
/// `message` names the file (and place); `help` says how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectError {
    pub message: String,
    pub help: Option<String>,
    /// The file and 1-based line the message names, when it names one (`message` then starts
    /// with `file:line: `), for machine-readable output.
    pub location: Option<(String, usize)>,
}

impl ProjectError {
    pub fn new(message: impl Into<String>) -> ProjectError {
        ProjectError {
            message: message.into(),
            help: None,
            location: None,
        }
    }

    /// An error at a line of a file: `file:line: message`.
    pub fn at(file: &str, line: usize, message: impl std::fmt::Display) -> ProjectError {
        ProjectError {
            location: Some((file.to_string(), line)),
            ..ProjectError::new(format!("{file}:{line}: {message}"))
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> ProjectError {
        self.help = Some(help.into());
        self
    }

    /// An I/O failure on `path`, phrased for a user.
    pub fn io(action: &str, path: &std::path::Path, err: &std::io::Error) -> ProjectError {
        ProjectError::new(format!("could not {action} `{}`: {err}", path.display()))
    }
}

/// Reads a text file the project layer owns (manifest, lockfile, Rojo project file): a
/// leading UTF-8 byte-order mark is dropped, and text that is not UTF-8 is an error naming
/// the file, the line and column, and the byte.
pub fn read_text(path: &std::path::Path) -> std::io::Result<Result<String, ProjectError>> {
    let bytes = read_project_file(path)?;
    Ok(blinkblox_fs::read::decode_text(bytes).map_err(|not_utf8| {
        ProjectError::new(format!("`{}`:{not_utf8}", path.display())).with_help("save the file as UTF-8")
    }))
}

impl fmt::Display for ProjectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ProjectError {}

impl From<blinkblox_package::Error> for ProjectError {
    fn from(err: blinkblox_package::Error) -> ProjectError {
        ProjectError {
            message: err.message,
            help: err.help,
            location: err.location,
        }
    }
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
