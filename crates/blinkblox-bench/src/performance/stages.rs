//! The Performance bench: the compiler itself, stage by stage — lexing, parsing, the whole
//! check (lex, parse, resolve, check), and generating the Server and Client modules — on the
//! benchmark schema and on a schema of 128 event declarations. Each stage runs until it has
//! taken about a tenth of a second (at least five times), and the median is reported.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::BenchError;
use crate::run_zap::{
    CLIENT_OUTPUT, SERVER_OUTPUT, ScratchDir, ZAP_TIMEOUT, one_line, run_with_timeout, with_scratch_outputs,
};
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
/// `blink` compiles Blink's text (see [`crate::run_upstream::compile_upstream`]).
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

/// The 128-declaration schema in zap 0.6's language: the same events over the same struct
/// shapes. zap 0.6.8 has no tuples, so the `(u16, string(0..32))` payload is a struct of the
/// same two fields (the same bytes on the wire); `vector` is zap's `Vector3` (three f32s).
pub fn many_declarations_schema_for_zap(count: usize) -> String {
    let mut text = String::from("opt manual_event_loop = true\nopt remote_scope = \"MANY\"\n\n");
    text.push_str("type Unit = struct {\n\tid: u16,\n\tposition: Vector3,\n\thealth: u8,\n\talive: boolean,\n}\n\n");
    for index in 0..count {
        let data = match index % 4 {
            0 => "u8",
            1 => "Unit",
            2 => "struct {\n\t\tid: u16,\n\t\tname: string(0..32),\n\t}",
            _ => "Unit[0..16]",
        };
        text.push_str(&format!(
            "event Event{index} = {{\n\tfrom: Client,\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: {data},\n}}\n\n"
        ));
    }
    text
}

/// Whole-process runs timed per schema and compiler, after [`PROCESS_WARMUP`] untimed ones.
pub const PROCESS_RUNS: usize = 30;
/// Untimed runs first: they bring the binaries and the schema into the page cache.
pub const PROCESS_WARMUP: usize = 3;

/// Wall times of whole-process compiles, in milliseconds: the median and the quartiles (the
/// spread between runs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcessTimes {
    pub median_ms: f64,
    pub p25_ms: f64,
    pub p75_ms: f64,
    pub runs: usize,
}

impl ProcessTimes {
    /// From per-run milliseconds; `None` when there are none.
    pub fn of_ms(samples: &[f64]) -> Option<ProcessTimes> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |fraction: f64| sorted[((sorted.len() - 1) as f64 * fraction).round() as usize];
        Some(ProcessTimes {
            median_ms: at(0.5),
            p25_ms: at(0.25),
            p75_ms: at(0.75),
            runs: sorted.len(),
        })
    }
}

/// One schema compiled whole, each compiler as a fresh process: `blinkblox compile` on the
/// schema in BlinkBlox's language, zap's binary on the equivalent zap schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessComparison {
    pub schema: String,
    pub blinkblox: Result<ProcessTimes, String>,
    pub zap: Result<ProcessTimes, String>,
}

/// A compiler run as a process in a scratch folder, with no input and its output discarded.
struct ProcessCompile {
    what: String,
    program: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
    /// The files it writes, removed before every run.
    outputs: [PathBuf; 2],
}

impl ProcessCompile {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    }

    /// One run with a timeout that must succeed: a compiler that fails or hangs is reported,
    /// not timed. The timed runs after it wait without a timeout, so that polling adds
    /// nothing to the figures.
    fn check(&self, scratch: &Path) -> Result<(), String> {
        let (status, stderr) =
            run_with_timeout(self.command(), scratch, &self.what, ZAP_TIMEOUT).map_err(|err| err.to_string())?;
        if status.success() {
            return Ok(());
        }
        let code = status
            .code()
            .map_or_else(|| "a signal".to_string(), |code| format!("code {code}"));
        Err(one_line(&format!("{} failed (exit {code}): {stderr}", self.what)))
    }

    /// Milliseconds from spawning the process to its exit. The last run's outputs are removed
    /// first (untimed), so that every run writes new files: truncating a file that the file
    /// system is still writing back makes a process wait for that write-back, which would time
    /// the disk and the gap between runs rather than the compiler (and BlinkBlox leaves an
    /// identical output alone, which zap does not).
    fn time(&self, command: &mut Command) -> Result<f64, String> {
        for output in &self.outputs {
            match std::fs::remove_file(output) {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("could not remove `{}`: {err}", output.display()));
                }
                _ => {}
            }
        }
        let started = Instant::now();
        let status = command
            .status()
            .map_err(|err| format!("could not start {}: {err}", self.what))?;
        let elapsed = started.elapsed().as_secs_f64() * 1000.0;
        if status.success() {
            Ok(elapsed)
        } else {
            Err(format!("{} failed on a timed run", self.what))
        }
    }
}

/// Where `blinkblox compile` writes in the scratch folder (zap writes in `out/`).
const BLINKBLOX_SERVER: &str = "blinkblox-out/Server.luau";
const BLINKBLOX_CLIENT: &str = "blinkblox-out/Client.luau";

/// `text` with BlinkBlox's output options pointed into the scratch folder (`blinkblox compile`
/// writes where the schema says); any of its own are dropped.
pub(crate) fn blink_with_scratch_outputs(text: &str) -> String {
    let mut out =
        format!("option ServerOutput = \"{BLINKBLOX_SERVER}\"\noption ClientOutput = \"{BLINKBLOX_CLIENT}\"\n");
    for line in text.lines() {
        let mut words = line
            .split(|c: char| c.is_whitespace() || c == '=')
            .filter(|word| !word.is_empty());
        let is_output = words.next() == Some("option")
            && matches!(words.next(), Some("ServerOutput" | "ClientOutput" | "TypesOutput"));
        if !is_output {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Times, as whole processes, `blinkblox` (`compile FILE --quiet`) and zap's binary on each
/// (name, BlinkBlox text, zap text): both checked once, [`PROCESS_WARMUP`] untimed runs each,
/// then `runs` timed runs each, interleaved so that a change in the machine's load falls on
/// both alike.
pub fn compare_with_zap(
    blinkblox: &Path,
    zap: &Path,
    schemas: &[(String, String, String)],
    runs: usize,
) -> Vec<ProcessComparison> {
    schemas
        .iter()
        .map(
            |(name, ours, theirs)| match time_processes(blinkblox, zap, ours, theirs, runs) {
                Ok((blinkblox, zap)) => ProcessComparison {
                    schema: name.clone(),
                    blinkblox,
                    zap,
                },
                Err(err) => ProcessComparison {
                    schema: name.clone(),
                    blinkblox: Err(err.clone()),
                    zap: Err(err),
                },
            },
        )
        .collect()
}

type ProcessOutcome = Result<ProcessTimes, String>;

fn time_processes(
    blinkblox: &Path,
    zap: &Path,
    ours: &str,
    theirs: &str,
    runs: usize,
) -> Result<(ProcessOutcome, ProcessOutcome), String> {
    let scratch = ScratchDir::new("compile-vs-zap").map_err(|err| err.to_string())?;
    let dir = scratch.path();
    let write = |file: &str, text: String| {
        let path = dir.join(file);
        std::fs::write(&path, text).map_err(|err| BenchError::io("write", &path, &err).to_string())
    };
    write("schema.blink", blink_with_scratch_outputs(ours))?;
    write("schema.zap", with_scratch_outputs(theirs))?;
    let compilers = [
        ProcessCompile {
            what: format!("`{} compile`", blinkblox.display()),
            program: blinkblox.to_path_buf(),
            args: vec!["compile".into(), "schema.blink".into(), "--quiet".into()],
            dir: dir.to_path_buf(),
            outputs: [dir.join(BLINKBLOX_SERVER), dir.join(BLINKBLOX_CLIENT)],
        },
        ProcessCompile {
            what: format!("zap's binary `{}`", zap.display()),
            program: zap.to_path_buf(),
            args: vec!["schema.zap".into()],
            dir: dir.to_path_buf(),
            outputs: [dir.join(SERVER_OUTPUT), dir.join(CLIENT_OUTPUT)],
        },
    ];
    let mut outcomes: Vec<Result<Vec<f64>, String>> = compilers
        .iter()
        .map(|compiler| compiler.check(dir).map(|()| Vec::with_capacity(runs)))
        .collect();
    let mut commands: Vec<Command> = compilers.iter().map(ProcessCompile::command).collect();
    for run in 0..PROCESS_WARMUP + runs {
        for ((compiler, command), outcome) in compilers.iter().zip(&mut commands).zip(&mut outcomes) {
            let Ok(samples) = outcome else { continue };
            match compiler.time(command) {
                Ok(ms) if run >= PROCESS_WARMUP => samples.push(ms),
                Ok(_) => {}
                Err(err) => *outcome = Err(err),
            }
        }
    }
    let mut times = outcomes.into_iter().map(|outcome| {
        outcome.and_then(|samples| ProcessTimes::of_ms(&samples).ok_or_else(|| "no runs were timed".to_string()))
    });
    match (times.next(), times.next()) {
        (Some(ours), Some(theirs)) => Ok((ours, theirs)),
        _ => Err("the comparison produced no figures".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_zap_schema_declares_the_same_events_over_the_same_shapes() {
        let ours = many_declarations_schema(128);
        let theirs = many_declarations_schema_for_zap(128);
        assert_eq!(ours.matches("\nevent Event").count(), 128);
        assert_eq!(theirs.matches("\nevent Event").count(), 128);
        assert!(theirs.contains(
            "event Event127 = {\n\tfrom: Client,\n\ttype: Reliable,\n\tcall: SingleSync,\n\tdata: Unit[0..16],\n}"
        ));
        assert!(theirs.contains("name: string(0..32)") && theirs.contains("position: Vector3"));
        assert!(
            theirs.starts_with("opt manual_event_loop = true\n"),
            "zap wants every opt first"
        );
    }

    #[test]
    fn quartiles_and_median_of_process_times() {
        let times = ProcessTimes::of_ms(&[5.0, 1.0, 3.0, 2.0, 4.0]).expect("times");
        assert_eq!(
            (times.p25_ms, times.median_ms, times.p75_ms, times.runs),
            (2.0, 3.0, 4.0, 5)
        );
        assert!(ProcessTimes::of_ms(&[]).is_none());
    }

    #[test]
    fn blinkblox_outputs_are_pointed_into_the_scratch_folder() {
        let text = blink_with_scratch_outputs("option ServerOutput = \"x\"\noption ManualReplication = true\n");
        assert_eq!(
            text,
            "option ServerOutput = \"blinkblox-out/Server.luau\"\noption ClientOutput = \"blinkblox-out/Client.luau\"\n\
             option ManualReplication = true\n"
        );
    }
}
