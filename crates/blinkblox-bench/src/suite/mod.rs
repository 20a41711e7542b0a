//! `blinkblox bench --run`: choose the benches and tools from the filters ([`select`]), run
//! them, and write `benchmark/Benchmarks.md` (atomically: a failed run leaves the old file as
//! it was).

pub mod select;

use std::path::PathBuf;

use select::{select_benches, select_tools};

use crate::BenchError;
use crate::competitors::{BLINKBLOX, Code, Competitor, Context, Modules, RuntimeCode, ZAP};
use crate::lock::write_atomically;
use crate::many_declarations::LARGE_SCHEMA_DECLARATIONS;
use crate::module_load::{LARGE_LOAD_RUNS, LOAD_RUNS, ModuleLoadRow, run_module_load};
use crate::performance::stages::CompilerRow;
use crate::performance::{PerformanceRows, run_performance};
use crate::report::{Report, RunContext, cpu_model, os_description, today};
use crate::rivals::NotRun;
use crate::rivals::{RivalOutcome, RivalRow, RivalsPlan, run_rivals_group};
use crate::runtime::RuntimeRow;
use crate::runtime::harness::Harness;
use crate::runtime::rows::{RuntimePlan, RuntimeResults, run_runtime};
use crate::scenarios::{ScenarioHarness, run_scenarios};
use crate::turns::Pace;
use blinkblox_luau::Mode;

/// What `--run` was asked for.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    pub bench_dir: PathBuf,
    /// Bench names or groups (Runtime, Performance, …); a bench runs when its name contains
    /// one of them. Empty: Runtime and Performance.
    pub names: Vec<String>,
    /// `--tools`; empty: every tool that can run.
    pub tools: Vec<String>,
    /// `--frames` and `--row-seconds`.
    pub pace: Pace,
    pub modes: Vec<Mode>,
    /// The command line, for the report.
    pub command: String,
    /// Where to write the report (default `<bench_dir>/Benchmarks.md`).
    pub output: Option<PathBuf>,
    /// `--source NAME=PATH`: tools taken from local folders instead of benchmark/tools/.
    pub sources: Vec<(String, PathBuf)>,
    /// `--local`: BlinkBlox's runtime rows from this checkout's compiler even when tools.toml's
    /// `blink` is a release.
    pub local: bool,
}

/// What the run did.
pub struct SuiteOutcome {
    pub report_path: PathBuf,
    pub runtime: Vec<RuntimeRow>,
    pub compiler: Vec<CompilerRow>,
    pub rivals: Vec<RivalRow>,
    pub failed_rows: usize,
    /// The tools that did not run because they are not on disk, each with why (the report
    /// lists them too).
    pub missing_tools: Vec<NotRun>,
    /// Whether those make the run a failure (see `select_tools`).
    pub incomplete: bool,
}

/// The runtime benches' rows and the work alone's, run side by side with each tool's `code`.
fn run_runtime_benches(
    context: &Context,
    benches: &[&'static str],
    code: Vec<(&'static dyn Competitor, RuntimeCode)>,
    options: &SuiteOptions,
) -> Result<RuntimeResults, BenchError> {
    let mut harness = Harness::load(context.bench_dir)?;
    let tools: Vec<&'static dyn Competitor> = code.iter().map(|(tool, _)| *tool).collect();
    for (tool, code) in code {
        harness.add(tool, code);
    }
    let plan = RuntimePlan {
        benches: benches.to_vec(),
        tools,
        modes: options.modes.clone(),
        pace: options.pace,
    };
    Ok(run_runtime(&harness, &plan))
}

/// ModuleLoad on the large schema, for each tool that generates its modules from one; a tool
/// whose compile failed gets a failed row.
fn large_schema_load(context: &Context, tools: &[&'static dyn Competitor], modes: &[Mode]) -> Vec<ModuleLoadRow> {
    let mut compiled = Vec::new();
    let mut failed = Vec::new();
    for &tool in tools {
        match tool.declarations_modules(context, LARGE_SCHEMA_DECLARATIONS) {
            Some(Ok(modules)) => compiled.push((tool, modules)),
            Some(Err(err)) => failed.push(ModuleLoadRow {
                tool,
                outcome: Err(err),
            }),
            None => {}
        }
    }
    let mut rows = run_module_load(&compiled, modes, LARGE_LOAD_RUNS);
    rows.extend(failed);
    rows
}

/// Runs what the options select and writes the report.
pub fn run_suite(options: &SuiteOptions) -> Result<SuiteOutcome, BenchError> {
    let context = Context {
        bench_dir: &options.bench_dir,
        sources: &options.sources,
        local: options.local,
    };
    let selection = select_benches(&options.names)?;
    let selected = select_tools(&options.tools, &context)?;
    let (tools, mut not_run, missing_tools) = (selected.chosen, selected.not_run, selected.missing);
    let incomplete = selected.incomplete;
    not_run.extend(selection.not_run.iter().cloned());
    if options.pace.frames == 0 {
        return Err(BenchError::new("--frames must be at least 1"));
    }

    // Each tool's modules for the benchmark schema, made once for both the runtime benches and
    // ModuleLoad.
    let mut code = Vec::new();
    if !selection.benches.is_empty() || selection.module_load {
        for &tool in &tools {
            code.push((tool, tool.runtime_code(&context)?));
        }
    }
    let mut module_load = Vec::new();
    if selection.module_load {
        let generated: Vec<(&'static dyn Competitor, Modules)> = code
            .iter()
            .filter_map(|(tool, code)| match code {
                Code::Modules(Ok(modules)) => Some((*tool, modules.clone())),
                _ => None,
            })
            .collect();
        module_load = run_module_load(&generated, &options.modes, LOAD_RUNS);
    }
    let module_load_large = if selection.module_load {
        large_schema_load(&context, &tools, &options.modes)
    } else {
        Vec::new()
    };
    let (mut runtime, mut bounds) = (Vec::new(), Vec::new());
    if !selection.benches.is_empty() && !tools.is_empty() {
        let results = run_runtime_benches(&context, &selection.benches, code, options)?;
        (runtime, bounds) = (results.rows, results.bounds);
        not_run.extend(results.not_run);
    }
    let mut scenarios = Vec::new();
    if !selection.scenarios.is_empty() && tools.contains(&BLINKBLOX) {
        let harness = ScenarioHarness::load(&context)?;
        scenarios = run_scenarios(&harness, &selection.scenarios, &options.modes, options.pace);
    }
    let mut rivals = Vec::new();
    if !selection.rivals.is_empty() {
        let plan = RivalsPlan {
            context: &context,
            scenarios: &selection.rivals,
            tools: &tools,
            modes: &options.modes,
            pace: options.pace,
        };
        let (rows, rivals_not_run) = run_rivals_group(&plan)?;
        rivals = rows;
        not_run.extend(rivals_not_run);
    }
    let mut performance = PerformanceRows::default();
    if selection.performance {
        // zap is among the tools only when its binary was found (see `select_tools`).
        performance = run_performance(&context, tools.contains(&ZAP))?;
    }

    let context_lines = RunContext {
        command: options.command.clone(),
        date: today(),
        cpu: cpu_model(),
        os: os_description(),
        pace: options.pace,
        modes: options.modes.clone(),
        tools: tools
            .iter()
            .map(|tool| {
                let runtime_rows = runtime.iter().any(|row| row.tool == *tool);
                (tool.name().to_string(), tool.provenance(&context, runtime_rows))
            })
            .collect(),
        not_run,
    };
    let PerformanceRows {
        compiler,
        comparison,
        zap_comparison,
    } = performance;
    let text = Report {
        context: &context_lines,
        runtime: &runtime,
        compiler: &compiler,
        comparison: &comparison,
        zap_comparison: &zap_comparison,
        module_load: &module_load,
        module_load_large: &module_load_large,
        scenarios: &scenarios,
        rivals: &rivals,
        bounds: &bounds,
    }
    .render();
    let report_path = options
        .output
        .clone()
        .unwrap_or_else(|| options.bench_dir.join("Benchmarks.md"));
    write_atomically(&report_path, text.as_bytes())?;
    let failed_rows = runtime.iter().filter(|row| row.outcome.is_err()).count()
        + compiler.iter().filter(|row| row.outcome.is_err()).count()
        + comparison.iter().filter(|row| row.blink_ms.is_err()).count()
        + zap_comparison
            .iter()
            .filter(|row| row.blinkblox.is_err() || row.zap.is_err())
            .count()
        + module_load
            .iter()
            .chain(&module_load_large)
            .filter(|row| row.outcome.is_err())
            .count()
        + scenarios.iter().filter(|row| row.outcome.is_err()).count()
        + bounds.iter().filter(|row| row.outcome.is_err()).count()
        + rivals
            .iter()
            .filter(|row| matches!(row.outcome, RivalOutcome::Failed(_)))
            .count();
    Ok(SuiteOutcome {
        report_path,
        runtime,
        compiler,
        rivals,
        failed_rows,
        missing_tools,
        incomplete,
    })
}
