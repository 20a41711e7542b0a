//! What the benchmark says while it works: a step begun or done (`     Running Tiny /
//! native: …`), a warning, an error that does not stop the run. The command installs where
//! these lines go ([`set_sink`]), so they follow its `-q` and `--message-format`; with no
//! sink (the library's own tests) they go to stderr, as cargo prints its progress.

use std::sync::OnceLock;

use crate::BenchError;

/// One line of progress.
pub enum Line<'a> {
    /// A step: the verb right-aligned as cargo aligns it (`Running`, `Ran`, `Finished`).
    Step {
        verb: &'a str,
        text: &'a str,
    },
    Warning(&'a str),
    Error(&'a BenchError),
}

type Sink = Box<dyn Fn(Line<'_>) + Send + Sync>;

static SINK: OnceLock<Sink> = OnceLock::new();

/// Where every later line goes; the first sink installed stays.
pub fn set_sink(sink: Sink) {
    let _ = SINK.set(sink);
}

pub fn step(verb: &str, text: &str) {
    emit(Line::Step { verb, text });
}

pub fn warning(text: &str) {
    emit(Line::Warning(text));
}

pub fn error(err: &BenchError) {
    emit(Line::Error(err));
}

fn emit(line: Line<'_>) {
    match SINK.get() {
        Some(sink) => sink(line),
        None => match line {
            Line::Step { verb, text } => eprintln!("{verb:>12} {text}"),
            Line::Warning(text) => eprintln!("warning: {text}"),
            Line::Error(err) => eprintln!("error: {err}"),
        },
    }
}
