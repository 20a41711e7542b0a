//! The Performance bench: the compiler itself, stage by stage — lexing, parsing, the whole
//! check (lex, parse, resolve, check), and generating the Server and Client modules — on the
//! benchmark schema and on a schema of 128 event declarations. Each stage runs until it has
//! taken about a tenth of a second (at least five times), and the median is reported.

use std::time::{Duration, Instant};

use crate::codegen::{Targets, generate};
use crate::schema::check_source;
use crate::schema::lexer::{Lexer, TokenKind};
use crate::schema::parser::parse;
use crate::schema::source::FileId;

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

/// A schema of `count` reliable client events over a few struct shapes (the shape of a
/// game with many remotes), for timing the compiler on a large file.
pub fn many_declarations_schema(count: usize) -> String {
    many_declarations_schema_from(count, "Client")
}

/// [`many_declarations_schema`] with the events sent from `from` (`Client` or `Server`).
pub fn many_declarations_schema_from(count: usize, from: &str) -> String {
    let mut text = String::from("option ManualReplication = true\noption RemoteScope = \"MANY\"\n\n");
    text.push_str("struct Unit {\n    id: u16,\n    position: vector,\n    health: u8,\n    alive: boolean,\n}\n\n");
    for index in 0..count {
        let data = match index % 4 {
            0 => "u8",
            1 => "Unit",
            2 => "(u16, string(0..32))",
            _ => "Unit[0..16]",
        };
        text.push_str(&format!(
            "event Event{index} {{\n    From: {from},\n    Type: Reliable,\n    Call: SingleSync,\n    Data: {data},\n}}\n\n"
        ));
    }
    text
}

fn median_ms(mut run: impl FnMut()) -> f64 {
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
    let targets = Targets {
        types: false,
        typescript: false,
    };
    let generate_ms = median_ms(|| {
        std::hint::black_box(generate(&schema, targets));
    });
    CompilerRow {
        schema: name.to_string(),
        declarations,
        outcome: Ok([lex, parse_ms, check, generate_ms]),
    }
}

/// The Performance bench: Definition.blink (given as text) and 128 declarations.
pub fn run_compiler(definition_name: &str, definition: &str) -> Vec<CompilerRow> {
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
    let many = many_declarations_schema(128);
    vec![
        time_schema(definition_name, definition, declarations),
        time_schema("128 declarations", &many, 129),
    ]
}

/// Compiles a schema with Blink's compiler: (Server, Client), or why not.
pub type BlinkCompiler<'a> = dyn Fn(&str) -> Result<(String, String), String> + 'a;

/// The same schema compiled whole by BlinkBlox and by Blink 0.18, in milliseconds (medians).
#[derive(Clone, Debug, PartialEq)]
pub struct CompilerComparison {
    pub schema: String,
    /// Check and generate, in process.
    pub blinkblox_ms: f64,
    /// Loading Blink's modules, parsing and generating both sides, in the embedded Luau VM
    /// (natively compiled); or why it could not run.
    pub blink_ms: Result<f64, String>,
}

/// The 128-declaration schema in Blink 0.18's dialect: no BlinkBlox options, no trailing
/// commas, and the output paths its parser requires.
pub fn many_declarations_schema_for_blink(count: usize) -> String {
    many_declarations_schema(count).replace(",\n}", "\n}").replace(
        "\"MANY\"",
        "\"MANY\"\noption ClientOutput = \"Client.luau\"\noption ServerOutput = \"Server.luau\"",
    )
}

/// Times the whole compile of each (name, BlinkBlox text, Blink text) with both compilers;
/// `blink` compiles Blink's text (see [`crate::bench::run_upstream::compile_upstream`]).
pub fn compare_with_blink(schemas: &[(String, String, String)], blink: &BlinkCompiler<'_>) -> Vec<CompilerComparison> {
    let targets = Targets {
        types: false,
        typescript: false,
    };
    schemas
        .iter()
        .map(|(name, ours, theirs)| {
            let blinkblox_ms = median_ms(|| {
                if let Some(schema) = check_source(name, ours).schema {
                    std::hint::black_box(generate(&schema, targets));
                }
            });
            let blink_ms = match blink(theirs) {
                Err(err) => Err(err),
                Ok(_) => Ok(median_ms(|| {
                    std::hint::black_box(blink(theirs).ok());
                })),
            };
            CompilerComparison {
                schema: name.clone(),
                blinkblox_ms,
                blink_ms,
            }
        })
        .collect()
}
