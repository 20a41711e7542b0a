//! The compiler itself, stage by stage — lexing, parsing, the whole check (lex, parse, resolve,
//! check), and generating the Server and Client modules — on the benchmark schema and on the
//! many declarations. Each stage runs until it has taken about a tenth of a second (at least
//! five times), and the median is reported. The stages are timed one by one, so this calls
//! them rather than the one compile step.

use std::time::{Duration, Instant};

use crate::many_declarations::{MANY_DECLARATIONS, Sender, blinkblox_schema};
use blinkblox_codegen::{Targets, generate};
use blinkblox_schema::check_source;
use blinkblox_schema::lexer::{Lexer, TokenKind};
use blinkblox_schema::parser::parse;
use blinkblox_schema::source::FileId;

/// How long each stage is repeated for.
const BUDGET: Duration = Duration::from_millis(100);
const MIN_RUNS: usize = 5;
const MAX_RUNS: usize = 2000;

/// The stages timed, in the order the tables show them.
pub const STAGES: [&str; 4] = ["Lex", "Parse", "Check", "Generate"];

/// One schema's medians per stage, in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct CompilerRow {
    pub schema: String,
    pub declarations: usize,
    /// Per stage of [`STAGES`]; an error when the schema does not check.
    pub outcome: Result<[f64; 4], String>,
}

/// The median of `run`'s times, in milliseconds, over runs repeated for [`BUDGET`] (at
/// least [`MIN_RUNS`], at most [`MAX_RUNS`]).
pub(super) fn median_ms(mut run: impl FnMut()) -> f64 {
    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < MAX_RUNS && (samples.len() < MIN_RUNS || started.elapsed() < BUDGET) {
        let begun = Instant::now();
        run();
        samples.push(begun.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Times every stage on `text`.
pub fn time_schema(name: &str, text: &str, declarations: usize) -> CompilerRow {
    let checked = check_source(name, text);
    let Some(schema) = checked.schema else {
        let first = checked
            .diagnostics
            .first()
            .map(|d| format!("{}: {}", d.code, d.message))
            .unwrap_or_default();
        return CompilerRow {
            schema: name.to_string(),
            declarations,
            outcome: Err(format!("the schema does not check ({first})")),
        };
    };
    let lex = median_ms(|| {
        let mut diagnostics = Vec::new();
        let mut lexer = Lexer::new(FileId(0), text);
        while lexer.next_token(&mut diagnostics).kind != TokenKind::Eof {}
        std::hint::black_box(&diagnostics);
    });
    let parse_ms = median_ms(|| {
        std::hint::black_box(parse(FileId(0), text));
    });
    let check = median_ms(|| {
        std::hint::black_box(check_source(name, text));
    });
    let targets = Targets::default();
    let generate_ms = median_ms(|| {
        std::hint::black_box(generate(&schema, &targets));
    });
    CompilerRow {
        schema: name.to_string(),
        declarations,
        outcome: Ok([lex, parse_ms, check, generate_ms]),
    }
}

/// The compiler's stages on Definition.blink (given as text) and the many declarations.
pub fn time_stages(definition_name: &str, definition: &str) -> Vec<CompilerRow> {
    let declarations = definition
        .lines()
        .filter(|line| {
            let line = line.trim_start();
            [
                "event ",
                "function ",
                "struct ",
                "enum ",
                "type ",
                "map ",
                "set ",
                "stream ",
            ]
            .iter()
            .any(|keyword| line.starts_with(keyword))
        })
        .count();
    let many = blinkblox_schema(MANY_DECLARATIONS, Sender::Client);
    vec![
        time_schema(definition_name, definition, declarations),
        // The events and the struct they share.
        time_schema("128 declarations", &many, MANY_DECLARATIONS + 1),
    ]
}
