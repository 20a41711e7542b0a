//! `blinkblox bench --run`: choose the benches and tools from the filters, run them, and
//! write `benchmark/Benchmarks.md` (atomically: a failed run leaves the old file as it was).

use std::path::{Path, PathBuf};

use crate::BenchError;
use crate::library::{installed_entry, load_tool_library, tool_dir};
use crate::lock::write_atomically;
use crate::place::PROBE_IN_STUDIO;
use crate::report::{Report, RunContext, cpu_model, os_description, today};
use crate::run::{Harness, ROBLOX_MAX_FRAMES, RUNTIME_BENCHES, RuntimeRow, RuntimeTool, definition_path};
use crate::run_compiler::{
    CompilerComparison, CompilerRow, compare_with_blink, many_declarations_schema, many_declarations_schema_for_blink,
    run_compiler,
};
use crate::run_compiler::{PROCESS_RUNS, ProcessComparison, compare_with_zap, many_declarations_schema_for_zap};
use crate::run_release::{BlinkCompiler, compile_with_blinkblox_binary};
use crate::run_rivals::{RIVALS, RivalOutcome, RivalRow, RivalsPlan, run_rivals_group};
use crate::run_row::{RuntimePlan, run_runtime};
use crate::run_scenarios::{SCENARIOS, ScenarioHarness, run_scenarios};
use crate::run_upstream::{compile_upstream, is_blink_source, origin_version, upstream_dir};
use crate::run_zap::{compile_with_zap, find_zap, one_line, zap_version};
use crate::tools::ToolsFile;
use blinkblox_luau::Mode;

/// The groups of the seed page that `--run` does not run, with why: Probe measures Roblox
/// itself, so it is built into the Studio place (`--place`, `--studio`) instead.
const GROUPS_STUDIO_ONLY: [(&str, &str); 1] = [("Probe", PROBE_IN_STUDIO)];

/// What `--run` was asked for.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    pub bench_dir: PathBuf,
    /// Bench names or groups (Runtime, Performance, …); a bench runs when its name contains
    /// one of them. Empty: Runtime and Performance.
    pub names: Vec<String>,
    /// `--tools`; empty: every tool that can run.
    pub tools: Vec<String>,
    pub frames: u32,
    pub modes: Vec<Mode>,
    /// The command line, for the report.
    pub command: String,
    /// Where to write the report (default `<bench_dir>/Benchmarks.md`).
    pub output: Option<PathBuf>,
    /// `--source NAME=PATH`: tools taken from local folders instead of benchmark/tools/.
    pub sources: Vec<(String, PathBuf)>,
    /// `--local`: BlinkBlox's runtime rows from this checkout's compiler even when tools.toml's
    /// `blink` is a release (see [`BlinkCompiler`]).
    pub local: bool,
}

/// What the run did.
pub struct SuiteOutcome {
    pub report_path: PathBuf,
    pub runtime: Vec<RuntimeRow>,
    pub compiler: Vec<CompilerRow>,
    pub rivals: Vec<RivalRow>,
    pub failed_rows: usize,
}

struct Selection {
    benches: Vec<&'static str>,
    scenarios: Vec<&'static str>,
    /// The Rivals scenarios (every tool).
    rivals: Vec<&'static str>,
    performance: bool,
    not_run: Vec<(String, String)>,
}

fn select_benches(names: &[String]) -> Result<Selection, BenchError> {
    if names.is_empty() {
        return Ok(Selection {
            benches: RUNTIME_BENCHES.to_vec(),
            scenarios: SCENARIOS.to_vec(),
            rivals: RIVALS.to_vec(),
            performance: true,
            not_run: GROUPS_STUDIO_ONLY
                .iter()
                .map(|(group, why)| (group.to_string(), why.to_string()))
                .collect(),
        });
    }
    let mut selection = Selection {
        benches: Vec::new(),
        scenarios: Vec::new(),
        rivals: Vec::new(),
        performance: false,
        not_run: Vec::new(),
    };
    for name in names {
        let lower = name.to_ascii_lowercase();
        if lower == "runtime" {
            selection.benches = RUNTIME_BENCHES.to_vec();
        } else if lower == "performance" {
            selection.performance = true;
        } else if lower == "scenarios" {
            selection.scenarios = SCENARIOS.to_vec();
        } else if lower == "rivals" {
            selection.rivals = RIVALS.to_vec();
        } else if let Some(scenario) = SCENARIOS.iter().find(|s| s.eq_ignore_ascii_case(name)) {
            if !selection.scenarios.contains(scenario) {
                selection.scenarios.push(scenario);
            }
            // A scenario's name also runs it across tools, when the Rivals have it.
            if let Some(rival) = RIVALS.iter().find(|rival| *rival == scenario)
                && !selection.rivals.contains(rival)
            {
                selection.rivals.push(rival);
            }
        } else if let Some((group, why)) = GROUPS_STUDIO_ONLY
            .iter()
            .find(|(group, _)| group.eq_ignore_ascii_case(name))
        {
            selection.not_run.push((group.to_string(), why.to_string()));
        } else {
            let matching: Vec<&'static str> = RUNTIME_BENCHES
                .into_iter()
                .filter(|bench| bench.to_ascii_lowercase().contains(&lower))
                .collect();
            if matching.is_empty() {
                return Err(
                    BenchError::new(format!("no bench is named like `{name}`")).with_help(format!(
                        "the benches are {}; the scenarios are {}; the groups are Runtime, Performance, Scenarios, Rivals, {}",
                        RUNTIME_BENCHES.join(", "),
                        SCENARIOS.join(", "),
                        GROUPS_STUDIO_ONLY.map(|(group, _)| group).join(", ")
                    )),
                );
            }
            for bench in matching {
                if !selection.benches.contains(&bench) {
                    selection.benches.push(bench);
                }
            }
        }
    }
    selection
        .benches
        .sort_by_key(|bench| RUNTIME_BENCHES.iter().position(|b| b == bench));
    Ok(selection)
}

/// Something the seed page lists that this run did not do, and why.
type NotRun = (String, String);

/// Why a tool of tools.toml has no runtime row in this version.
fn why_not_run(name: &str, bench_dir: &Path) -> String {
    if name == "upstream" {
        return "Blink's source is not in benchmark/tools/upstream/: run `blinkblox bench --download --tools upstream`, \
                or pass --source upstream=PATH to a Blink 0.18 checkout"
            .to_string();
    }
    let what = "the harness has no adapter for its API and mock surface yet (competitors.md §7)";
    if bench_dir.join("tools").join(name).is_dir() {
        format!("downloaded to benchmark/tools/{name}/ but not run: {what}")
    } else {
        format!("not downloaded, and not run in this version: {what}")
    }
}

fn select_tools(
    requested: &[String],
    bench_dir: &Path,
    upstream_available: bool,
    sources: &[(String, PathBuf)],
) -> Result<(Vec<RuntimeTool>, Vec<NotRun>), BenchError> {
    let (mut runnable, mut not_run) = select_declared_tools(requested, bench_dir, upstream_available)?;
    // zap runs only when its binary is there; otherwise the report says why and how to get it.
    runnable.retain(|tool| {
        if *tool != RuntimeTool::Zap {
            return true;
        }
        match find_zap(bench_dir, sources) {
            Ok(_) => true,
            Err(err) => {
                let help = err.help.map(|help| format!(": {help}")).unwrap_or_default();
                not_run.push((tool.key().to_string(), format!("{}{help}", err.message)));
                false
            }
        }
    });
    // A runtime library runs only when its source is there; otherwise the report says why.
    runnable.retain(|tool| {
        if !tool.is_library() || installed_entry(bench_dir, sources, *tool).is_some() {
            return true;
        }
        let (dir, _) = tool_dir(bench_dir, sources, tool.key());
        not_run.push((
            tool.key().to_string(),
            format!(
                "not installed (no library in `{}`): run `blinkblox bench --download --tools {}`, or pass --source {}=PATH",
                dir.display(),
                tool.key(),
                tool.key()
            ),
        ));
        false
    });
    Ok((runnable, not_run))
}

fn select_declared_tools(
    requested: &[String],
    bench_dir: &Path,
    upstream_available: bool,
) -> Result<(Vec<RuntimeTool>, Vec<NotRun>), BenchError> {
    let declared: Vec<String> = match ToolsFile::read(&bench_dir.join("tools.toml")) {
        Ok(file) => file.names().into_iter().map(str::to_string).collect(),
        Err(_) => Vec::new(),
    };
    let mut runnable = Vec::new();
    let mut not_run = Vec::new();
    if requested.is_empty() {
        runnable = RuntimeTool::ALL.to_vec();
        if !upstream_available {
            runnable.retain(|tool| *tool != RuntimeTool::Upstream);
        }
        for name in &declared {
            if RuntimeTool::from_key(name).is_none() || (name == "upstream" && !upstream_available) {
                not_run.push((name.clone(), why_not_run(name, bench_dir)));
            }
        }
        return Ok((runnable, not_run));
    }
    for name in requested {
        let key = name.trim().to_ascii_lowercase();
        if key == "upstream" && !upstream_available {
            not_run.push((key.clone(), why_not_run(&key, bench_dir)));
        } else if let Some(tool) = RuntimeTool::from_key(&key) {
            if !runnable.contains(&tool) {
                runnable.push(tool);
            }
        } else if declared.contains(&key) {
            not_run.push((key.clone(), why_not_run(&key, bench_dir)));
        } else {
            let mut known: Vec<String> = RuntimeTool::ALL.iter().map(|tool| tool.key().to_string()).collect();
            known.extend(
                declared
                    .iter()
                    .filter(|name| RuntimeTool::from_key(name).is_none())
                    .cloned(),
            );
            return Err(BenchError::new(format!("--tools names an unknown tool `{name}`"))
                .with_help(format!("the tools are {}", known.join(", "))));
        }
    }
    Ok((runnable, not_run))
}

fn tool_versions(
    tools: &[RuntimeTool],
    upstream: &Path,
    bench_dir: &Path,
    sources: &[(String, PathBuf)],
) -> Vec<(String, String)> {
    tools
        .iter()
        .map(|tool| {
            let version = match tool {
                RuntimeTool::Blink => format!(
                    "BlinkBlox {}, this checkout's compiler, modules generated from benchmark/definitions/Definition.blink",
                    env!("CARGO_PKG_VERSION")
                ),
                RuntimeTool::Handwritten => "benchmark/handwritten/ in this checkout".to_string(),
                RuntimeTool::Upstream => format!(
                    "Blink {}, its own compiler run from source in the embedded VM on \
                     benchmark/definitions/Definition.upstream.blink",
                    origin_version(upstream).unwrap_or_else(|| format!("from `{}`", upstream.display()))
                ),
                RuntimeTool::ByteNet | RuntimeTool::Packet | RuntimeTool::QuickNet | RuntimeTool::Warp => {
                    let (dir, from_source) = tool_dir(bench_dir, sources, tool.key());
                    let version = origin_version(&dir).unwrap_or_else(|| format!("from `{}`", dir.display()));
                    let patched = if from_source {
                        "tools.toml's patches applied as it was read"
                    } else {
                        "patched by --download"
                    };
                    format!("{version}, its source mounted as a ModuleScript tree ({patched})")
                }
                RuntimeTool::Zap => match find_zap(bench_dir, sources) {
                    Ok(binary) => format!(
                        "zap {} (`{}`), its binary run on benchmark/definitions/Definition.zap",
                        zap_version(&binary).unwrap_or_else(|| "of unknown version".to_string()),
                        binary.display()
                    ),
                    Err(err) => err.message,
                },
                RuntimeTool::Roblox => format!(
                    "RemoteEvent:FireServer per event, in the embedded runtime's mock (at most {ROBLOX_MAX_FRAMES} timed \
                     frames a row: a value a call through the mock's network takes about a second a frame)"
                ),
            };
            (tool.display().to_string(), version)
        })
        .collect()
}

/// zap's Server and Client modules for `definitions/Definition.zap`, or why there are none.
fn compile_zap_definition(bench_dir: &Path, sources: &[(String, PathBuf)]) -> Result<(String, String), String> {
    let binary = find_zap(bench_dir, sources).map_err(|err| one_line(&err.to_string()))?;
    let path = bench_dir.join("definitions").join("Definition.zap");
    let schema = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err).to_string())?;
    compile_with_zap(&binary, &schema).map_err(|err| one_line(&err.to_string()))
}

/// `blinkblox compile` (this executable) and zap's binary, each as a whole process, on the
/// benchmark schema and on 128 declarations, each in its own language.
fn compare_processes_with_zap(
    bench_dir: &Path,
    sources: &[(String, PathBuf)],
    definition: &str,
) -> Result<Vec<ProcessComparison>, BenchError> {
    let zap = find_zap(bench_dir, sources)?;
    let blinkblox = std::env::current_exe()
        .map_err(|err| BenchError::new(format!("could not find the running blinkblox executable: {err}")))?;
    let path = bench_dir.join("definitions").join("Definition.zap");
    let zap_definition = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
    let schemas = [
        ("Definition.blink".to_string(), definition.to_string(), zap_definition),
        (
            "128 declarations".to_string(),
            many_declarations_schema(128),
            many_declarations_schema_for_zap(128),
        ),
    ];
    Ok(compare_with_zap(&blinkblox, &zap, &schemas, PROCESS_RUNS))
}

/// Both compilers on the benchmark schema and on 128 declarations, each in its own dialect.
fn compare_compilers(
    bench_dir: &Path,
    upstream: &Path,
    definition: &str,
) -> Result<Vec<CompilerComparison>, BenchError> {
    let read = |path: PathBuf| std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err));
    let driver = read(bench_dir.join("harness").join("upstream.luau"))?;
    let upstream_definition = read(bench_dir.join("definitions").join("Definition.upstream.blink"))?;
    let schemas = [
        (
            "Definition.blink".to_string(),
            definition.to_string(),
            upstream_definition,
        ),
        (
            "128 declarations".to_string(),
            many_declarations_schema(128),
            many_declarations_schema_for_blink(128),
        ),
    ];
    let blink = |text: &str| compile_upstream(upstream, &driver, text).map_err(|err| err.to_string());
    Ok(compare_with_blink(&schemas, &blink))
}

/// Runs what the options select and writes the report.
pub fn run_suite(options: &SuiteOptions) -> Result<SuiteOutcome, BenchError> {
    let selection = select_benches(&options.names)?;
    let upstream = upstream_dir(&options.bench_dir, &options.sources);
    let upstream_available = is_blink_source(&upstream);
    let (tools, mut not_run) = select_tools(&options.tools, &options.bench_dir, upstream_available, &options.sources)?;
    not_run.extend(selection.not_run.iter().cloned());
    if options.frames == 0 {
        return Err(BenchError::new("--frames must be at least 1"));
    }

    let mut runtime = Vec::new();
    let mut bounds = Vec::new();
    if !selection.benches.is_empty() && !tools.is_empty() {
        let upstream_for_harness = tools.contains(&RuntimeTool::Upstream).then_some(upstream.as_path());
        let mut harness = Harness::load(&options.bench_dir, upstream_for_harness)?;
        for &tool in tools.iter().filter(|tool| tool.is_library()) {
            harness.add_library(tool, load_tool_library(&options.bench_dir, &options.sources, tool)?);
        }
        if tools.contains(&RuntimeTool::Zap) {
            harness.set_zap(compile_zap_definition(&options.bench_dir, &options.sources));
        }
        if tools.contains(&RuntimeTool::Blink)
            && let BlinkCompiler::Release { binary, .. } =
                BlinkCompiler::choose(&options.bench_dir, &options.sources, options.local)?
        {
            let path = definition_path(&options.bench_dir);
            let text = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
            harness.set_blink(compile_with_blinkblox_binary(&binary, &text)?);
        }
        let plan = RuntimePlan {
            benches: selection.benches.clone(),
            tools: tools.clone(),
            modes: options.modes.clone(),
            frames: options.frames,
        };
        (runtime, bounds) = run_runtime(&harness, &plan);
    }
    let mut scenarios = Vec::new();
    if !selection.scenarios.is_empty() && tools.contains(&RuntimeTool::Blink) {
        let harness = ScenarioHarness::load(&options.bench_dir)?;
        scenarios = run_scenarios(&harness, &selection.scenarios, &options.modes, options.frames);
    }
    let mut rivals = Vec::new();
    if !selection.rivals.is_empty() {
        let plan = RivalsPlan {
            bench_dir: &options.bench_dir,
            sources: &options.sources,
            upstream: tools.contains(&RuntimeTool::Upstream).then_some(upstream.as_path()),
            scenarios: &selection.rivals,
            tools: &tools,
            modes: &options.modes,
            frames: options.frames,
        };
        let (rows, rivals_not_run) = run_rivals_group(&plan)?;
        rivals = rows;
        not_run.extend(rivals_not_run);
    }
    let mut compiler = Vec::new();
    let mut comparison = Vec::new();
    let mut zap_comparison = Vec::new();
    if selection.performance {
        let path = definition_path(&options.bench_dir);
        let text = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
        eprintln!("{:>12} Performance (the compiler)", "Running");
        compiler = run_compiler("Definition.blink", &text);
        if upstream_available {
            eprintln!("{:>12} Performance against Blink's compiler", "Running");
            comparison = compare_compilers(&options.bench_dir, &upstream, &text)?;
        }
        // zap is in `tools` only when its binary was found (see select_tools).
        if tools.contains(&RuntimeTool::Zap) {
            eprintln!("{:>12} Performance against zap's compiler (whole processes)", "Running");
            zap_comparison = compare_processes_with_zap(&options.bench_dir, &options.sources, &text)?;
        }
    }

    // Which BlinkBlox compiled the runtime rows' modules: this checkout, or a release.
    let blink_line = BlinkCompiler::choose(&options.bench_dir, &options.sources, options.local)
        .ok()
        .filter(|_| runtime.iter().any(|row| row.tool == RuntimeTool::Blink))
        .map(|blink| blink.describe());
    let context = RunContext {
        command: options.command.clone(),
        date: today(),
        cpu: cpu_model(),
        os: os_description(),
        frames: options.frames,
        modes: options.modes.clone(),
        tools: tool_versions(&tools, &upstream, &options.bench_dir, &options.sources)
            .into_iter()
            .map(|(name, version)| match &blink_line {
                Some(line) if name == RuntimeTool::Blink.display() => (name, line.clone()),
                _ => (name, version),
            })
            .collect(),
        not_run,
    };
    let text = Report {
        context: &context,
        runtime: &runtime,
        compiler: &compiler,
        comparison: &comparison,
        zap_comparison: &zap_comparison,
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
    })
}
