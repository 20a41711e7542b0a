//! `blinkblox init`: set up blinkblox in a Rojo project.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::output::Output;
use blinkblox_project::{init, paths};

/// Write a commented blinkblox.toml and an example schema into a Rojo project.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The Rojo project folder (default: the current folder).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(args: InitArgs, out: &Output) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let dir = args.dir.map(|dir| cwd.join(dir)).unwrap_or(cwd);
    match init::init(&dir) {
        Ok(done) => {
            out.status(&format!("created {}", paths::display_relative(&done.manifest, &dir)));
            out.status(&format!("created {}", paths::display_relative(&done.schema, &dir)));
            let server = match &done.server {
                Some((folder, instance)) => format!("Server modules to {folder} ({instance})"),
                None => "Server modules with them".to_string(),
            };
            out.status(&format!(
                "Client modules will go to {} ({}), {server}; run `blinkblox sync`, then require them:",
                done.output, done.instance
            ));
            out.status(&format!("  in a server script: local Net = {}", done.server_require));
            out.status(&format!("  in a client script: local Net = {}", done.client_require));
            out.exit_code(false)
        }
        Err(err) => {
            out.error(&err);
            out.exit_code(true)
        }
    }
}
