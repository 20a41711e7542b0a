//! The Performance bench: this checkout's compiler stage by stage ([`stages`]), and the same
//! schemas compiled whole against Blink's compiler ([`against_blink`], when its source is
//! there) and zap's binary ([`against_zap`], when zap runs).

pub mod against_blink;
pub mod against_zap;
pub mod schemas;
pub mod stages;

use against_blink::{CompilerComparison, compare_compilers};
use against_zap::{ProcessComparison, compare_processes_with_zap};
use stages::{CompilerRow, time_stages};

use crate::BenchError;
use crate::competitors::Context;
use crate::competitors::blink::{is_blink_source, source_dir};
use crate::competitors::blinkblox::definition_path;
use crate::progress;

/// What the Performance bench measured.
#[derive(Default)]
pub struct PerformanceRows {
    pub compiler: Vec<CompilerRow>,
    pub comparison: Vec<CompilerComparison>,
    /// Whole-process compiles against zap's binary.
    pub zap_comparison: Vec<ProcessComparison>,
}

/// Times the compiler, and compares it with Blink's when Blink's source is there and with
/// zap's when `with_zap` (zap's binary was found for the run). Reports progress on stderr.
pub fn run_performance(context: &Context, with_zap: bool) -> Result<PerformanceRows, BenchError> {
    let path = definition_path(context.bench_dir);
    let text = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
    let mut rows = PerformanceRows::default();
    progress::step("Running", "Performance (the compiler)");
    rows.compiler = time_stages("Definition.blink", &text);
    if is_blink_source(&source_dir(context)) {
        progress::step("Running", "Performance against Blink's compiler");
        rows.comparison = compare_compilers(context, &text)?;
    }
    if with_zap {
        progress::step("Running", "Performance against zap's compiler (whole processes)");
        rows.zap_comparison = compare_processes_with_zap(context, &text)?;
    }
    Ok(rows)
}
