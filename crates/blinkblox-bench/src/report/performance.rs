//! The report's Performance section: the compiler stage by stage, and against Blink's
//! compiler and zap's binary.

use std::fmt::Write as _;

use super::format::ms;
use crate::performance::against_blink::CompilerComparison;
use crate::performance::against_zap::{PROCESS_WARMUP, ProcessComparison, ProcessTimes};
use crate::performance::stages::{CompilerRow, STAGES};

/// The Performance bench's rows.
pub(super) struct PerformanceTables<'a> {
    pub(super) compiler: &'a [CompilerRow],
    pub(super) comparison: &'a [CompilerComparison],
    pub(super) zap_comparison: &'a [ProcessComparison],
}

impl PerformanceTables<'_> {
    /// The section, when anything of it ran.
    pub(super) fn write(&self, out: &mut String) {
        if !self.compiler.is_empty() {
            out.push_str("## Performance: the compiler\n\n");
            out.push_str(
                "This checkout's compiler, in process, stage by stage, milliseconds (medians of repeated runs). \
                 Lex and Parse are those stages alone; Check is the whole front end (lex, parse, resolve, check); \
                 Generate is the Server and Client modules from the checked schema. The 128-declaration schema \
                 is 128 client events over a few struct shapes.\n\n",
            );
            self.compiler_table(out);
        }
        if !self.comparison.is_empty() {
            out.push_str("### Against Blink's compiler\n\n");
            out.push_str(
                "The same schema compiled whole, milliseconds (medians): BlinkBlox checking and generating in \
                 process; Blink 0.18 loading its modules, parsing and generating the Server and Client modules \
                 from its Luau source in the embedded VM (natively compiled), each on the schema in its own \
                 dialect. Blink normally runs under Lune; process start-up is not counted for either.\n\n",
            );
            out.push_str("| Schema | BlinkBlox | Blink 0.18 | BlinkBlox ÷ Blink |\n|---|---:|---:|---:|\n");
            for row in self.comparison {
                let (blink, ratio) = match &row.blink_ms {
                    Ok(blink) => (ms(*blink), format!("{:.3}×", row.blinkblox_ms / blink)),
                    Err(_) => ("failed".to_string(), "–".to_string()),
                };
                let _ = writeln!(out, "| {} | {} | {blink} | {ratio} |", row.schema, ms(row.blinkblox_ms));
            }
            out.push('\n');
        }

        if !self.zap_comparison.is_empty() {
            self.zap_comparison_table(out);
        }
    }

    fn compiler_table(&self, out: &mut String) {
        out.push_str("| Schema | Declarations |");
        for stage in STAGES {
            let _ = write!(out, " {stage} |");
        }
        out.push_str("\n|---|---:|---:|---:|---:|---:|\n");
        for row in self.compiler {
            let _ = write!(out, "| {} | {} |", row.schema, row.declarations);
            match &row.outcome {
                Ok(stages) => {
                    for value in stages {
                        let _ = write!(out, " {} |", ms(*value));
                    }
                }
                Err(_) => out.push_str(" failed | failed | failed | failed |"),
            }
            out.push('\n');
        }
        out.push('\n');
    }

    fn zap_comparison_table(&self, out: &mut String) {
        let runs = self
            .zap_comparison
            .iter()
            .find_map(|row| row.blinkblox.as_ref().ok().map(|times| times.runs))
            .unwrap_or(0);
        out.push_str("### Against zap's compiler\n\n");
        let _ = write!(
            out,
            "The same schema compiled whole, each compiler as a fresh process: wall time from spawning it to its \
             exit, milliseconds, the median of {runs} runs after {PROCESS_WARMUP} untimed ones (the two compilers' \
             runs interleaved), with the quartiles in brackets as the spread between runs. BlinkBlox is \
             `blinkblox compile` (this executable) on the schema in its language; zap is its binary on the \
             equivalent zap schema (benchmark/definitions/Definition.zap, and the 128 declarations in zap's \
             language). Each reads the schema and writes the Server and Client modules to new files (the last run's \
             are removed first, untimed, so that no run waits on the file system writing back the one before). \
             \"zap ÷ BlinkBlox\" is how many times faster BlinkBlox is.\n\n"
        );
        if cfg!(debug_assertions) {
            out.push_str(
                "This blinkblox is a debug build, so its figures here are not a release's: run the bench from \
                 `cargo build --release`.\n\n",
            );
        }
        out.push_str(link_note());
        out.push_str("| Schema | BlinkBlox | zap | zap ÷ BlinkBlox |\n|---|---:|---:|---:|\n");
        let cell = |outcome: &Result<ProcessTimes, String>| match outcome {
            Ok(times) => format!("{} ({}–{})", ms(times.median_ms), ms(times.p25_ms), ms(times.p75_ms)),
            Err(_) => "failed".to_string(),
        };
        for row in self.zap_comparison {
            let ratio = match (&row.blinkblox, &row.zap) {
                (Ok(ours), Ok(theirs)) if ours.median_ms > 0.0 => {
                    format!("{:.2}×", theirs.median_ms / ours.median_ms)
                }
                _ => "–".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {ratio} |",
                row.schema,
                cell(&row.blinkblox),
                cell(&row.zap)
            );
        }
        out.push('\n');
    }
}

/// How this executable was linked, for the zap comparison: most of a small compile's time is
/// the process starting, and a statically linked binary (as the Linux releases are) loads no
/// shared libraries.
fn link_note() -> &'static str {
    if cfg!(target_feature = "crt-static") {
        "This blinkblox is linked statically, as the Linux release binaries are.\n\n"
    } else {
        "This blinkblox is linked dynamically (a plain `cargo build`): the Linux release binaries are linked \
         statically and start sooner; build with `RUSTFLAGS=\"-C target-feature=+crt-static\"` and `--target` \
         to time what they run.\n\n"
    }
}
