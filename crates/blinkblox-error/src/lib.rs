//! The one shape of an error a command reports to its user, whichever layer finds it (the
//! project, the packages, the benchmark): a message, the file and line it names when it names
//! one, and what to do about it. The command line prints every one the same way, and
//! `--message-format json` reads the same fields.

use std::fmt;
use std::path::Path;

/// An error worded for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError {
    pub message: String,
    /// What to do about it, when there is something to say.
    pub help: Option<String>,
    /// The file and 1-based line the message names, when it names one (`message` then
    /// starts with `file:line: `), for machine-readable output.
    pub location: Option<(String, usize)>,
}

impl UserError {
    pub fn new(message: impl Into<String>) -> UserError {
        UserError {
            message: message.into(),
            help: None,
            location: None,
        }
    }

    /// An error at a line of a file: `file:line: message`.
    pub fn at(file: &str, line: usize, message: impl fmt::Display) -> UserError {
        UserError {
            location: Some((file.to_string(), line)),
            ..UserError::new(format!("{file}:{line}: {message}"))
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> UserError {
        self.help = Some(help.into());
        self
    }

    /// An I/O failure on `path`, phrased for a user: ``could not write `a.luau`: …``.
    pub fn io(action: &str, path: &Path, err: &std::io::Error) -> UserError {
        UserError::new(format!("could not {action} `{}`: {err}", path.display()))
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UserError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_at_a_line_names_it_and_keeps_it() {
        let err = UserError::at("blinkblox.toml", 4, "unknown key `x`").with_help("remove it");
        assert_eq!(err.location, Some(("blinkblox.toml".to_string(), 4)));
        assert_eq!(
            err.to_string(),
            "blinkblox.toml:4: unknown key `x`\n  = help: remove it"
        );
    }
}
