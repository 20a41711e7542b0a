//! The project layer: `blinkblox.toml`, the Rojo tree, schema discovery, the lockfile and
//! the writer that puts generated modules on disk. `blinkblox sync` is [`sync::run`].

pub mod compile;
pub mod init;
pub mod jsonc;
pub mod lockfile;
pub mod manifest;
pub mod package;
pub mod paths;
pub mod plan;
pub mod project;
pub mod rojo;
pub mod schemas;
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
}

impl ProjectError {
    pub fn new(message: impl Into<String>) -> ProjectError {
        ProjectError {
            message: message.into(),
            help: None,
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
        }
    }
}
