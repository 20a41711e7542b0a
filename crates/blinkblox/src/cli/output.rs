//! What every command prints, and where: the conventions of the tools BlinkBlox sits beside.
//!
//! - Diagnostics, errors and warnings go to stderr (as rustc and cargo print them), progress
//!   and results to stdout; `-q` keeps only diagnostics, errors and warnings, `-v` adds detail
//!   (each file written, left or removed).
//! - `--message-format json` prints every diagnostic *and* every other error or warning
//!   (manifest, lockfile, project file) as one JSON object per line on stdout, and nothing
//!   else there.
//! - `--color auto|always|never`: `auto` colours a terminal, unless `NO_COLOR` is set;
//!   `CLICOLOR_FORCE` forces colour when `auto`.
//! - `--deny-warnings`: any warning makes the command fail (exit 1), for CI.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use blinkblox_project::ProjectError;
use blinkblox_schema::diagnostics::{Diagnostic, json, render};
use blinkblox_schema::source::SourceMap;
use serde_json::json;

use crate::cli::exit::EXIT_USER_ERROR;

/// How diagnostics and errors are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum MessageFormat {
    /// rustc-style text on stderr.
    #[default]
    Human,
    /// One JSON object per line on stdout.
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset (`CLICOLOR_FORCE` forces it).
    #[default]
    Auto,
    Always,
    Never,
}

/// The options every command takes.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OutputArgs {
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN")]
    pub color: ColorChoice,
    /// How to print diagnostics and errors: rustc-style text, or one JSON object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human, global = true, value_name = "FORMAT")]
    pub message_format: MessageFormat,
    /// Print only errors, warnings and diagnostics.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more: every file written, left unchanged or removed.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Fail (exit 1) when there is any warning.
    #[arg(long, global = true)]
    pub deny_warnings: bool,
}

/// Prints for one command, and counts what it printed for the exit code. Clones share the
/// counts, so a library reporting from anywhere (the benchmark's progress) counts too.
#[derive(Clone)]
pub struct Output {
    args: OutputArgs,
    color: bool,
    errors: Arc<AtomicUsize>,
    warnings: Arc<AtomicUsize>,
}

impl Output {
    pub fn new(args: &OutputArgs) -> Output {
        Output {
            color: color_wanted(args.color, args.message_format),
            args: args.clone(),
            errors: Arc::new(AtomicUsize::new(0)),
            warnings: Arc::new(AtomicUsize::new(0)),
        }
    }

    pub fn json(&self) -> bool {
        self.args.message_format == MessageFormat::Json
    }

    /// Diagnostics of schemas (errors and warnings).
    pub fn diagnostics(&self, diagnostics: &[Diagnostic], sources: &SourceMap) {
        for diagnostic in diagnostics {
            self.count(diagnostic.is_error());
            if self.json() {
                self.stdout_line(&json::to_json_line(diagnostic, sources));
            } else {
                eprintln!("{}", render::render(diagnostic, sources, self.color));
            }
        }
    }

    /// An error that is not a schema's: the manifest, the lockfile, the disk.
    pub fn error(&self, err: &ProjectError) {
        self.count(true);
        self.message("error", &err.message, err.help.as_deref(), err.location.as_ref());
    }

    /// An error with a message and an optional fix.
    pub fn error_text(&self, message: &str, help: Option<&str>) {
        self.count(true);
        self.message("error", message, help, None);
    }

    pub fn warning(&self, message: &str) {
        self.count(false);
        self.message("warning", message, None, None);
    }

    /// A result a user reads (`synced 3 schemas …`): stdout, unless `-q` or JSON.
    pub fn status(&self, text: &str) {
        if !self.args.quiet && !self.json() {
            self.stdout_line(text);
        }
    }

    /// A step of a long command (`     Running Tiny / native: …`), on stderr as cargo prints
    /// its progress, so that stdout keeps only results; not with `-q` or JSON output.
    #[cfg_attr(not(feature = "bench"), allow(dead_code))]
    pub fn step(&self, verb: &str, text: &str) {
        if !self.args.quiet && !self.json() {
            eprintln!("{verb:>12} {text}");
        }
    }

    /// Detail shown with `-v` only.
    pub fn detail(&self, text: &str) {
        if self.args.verbose && !self.json() {
            self.stdout_line(text);
        }
    }

    /// 0 when nothing failed (and, with `--deny-warnings`, nothing warned); 1 otherwise.
    pub fn exit_code(&self, failed: bool) -> ExitCode {
        if failed
            || self.errors.load(Ordering::Relaxed) > 0
            || (self.args.deny_warnings && self.warnings.load(Ordering::Relaxed) > 0)
        {
            ExitCode::from(EXIT_USER_ERROR)
        } else {
            ExitCode::SUCCESS
        }
    }

    pub fn warning_count(&self) -> usize {
        self.warnings.load(Ordering::Relaxed)
    }

    /// Whether `--deny-warnings` turns the warnings printed so far into a failure.
    pub fn denied(&self) -> bool {
        self.args.deny_warnings && self.warnings.load(Ordering::Relaxed) > 0
    }

    fn count(&self, error: bool) {
        let counter = if error { &self.errors } else { &self.warnings };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn message(&self, severity: &str, message: &str, help: Option<&str>, location: Option<&(String, usize)>) {
        if self.json() {
            let (file, line) = match location {
                Some((file, line)) => (json!(file), json!(line)),
                None => (json!(null), json!(null)),
            };
            let notes: Vec<&str> = help.into_iter().collect();
            let value = json!({
                "code": null,
                "severity": severity,
                "message": message,
                "file": file,
                "line": line,
                "column": null,
                "end_line": null,
                "end_column": null,
                "labels": [],
                "notes": notes,
            });
            self.stdout_line(&value.to_string());
            return;
        }
        let label = if self.color {
            let code = if severity == "error" {
                "\u{1b}[1;31m"
            } else {
                "\u{1b}[1;33m"
            };
            format!("{code}{severity}\u{1b}[0m")
        } else {
            severity.to_string()
        };
        eprintln!("{label}: {message}");
        if let Some(help) = help {
            eprintln!("  = help: {help}");
        }
    }

    fn stdout_line(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
    }
}

/// Whether to colour, from the flag and the environment.
fn color_wanted(choice: ColorChoice, format: MessageFormat) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty() && value != "0");
    match choice {
        _ if format == MessageFormat::Json => false,
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto => set("CLICOLOR_FORCE") || std::io::stderr().is_terminal(),
    }
}
