//! Choosing what `--run` runs: the benches and groups the names select, and the tools
//! `--tools` selects among those that can run.

use std::path::Path;

use crate::BenchError;
use crate::competitors::{ALL, BLINKBLOX, Competitor, Context, from_key};
use crate::module_load::MODULE_LOAD;
use crate::place::PROBE_IN_STUDIO;
use crate::rivals::{NotRun, RIVALS};
use crate::runtime::RUNTIME_BENCHES;
use crate::scenarios::SCENARIOS;
use crate::tools::ToolsFile;

/// The groups that `--run` does not run, with why: Probe measures Roblox
/// itself, so it is built into the Studio place (`--place`, `--studio`) instead.
pub(super) const GROUPS_STUDIO_ONLY: [(&str, &str); 1] = [("Probe", PROBE_IN_STUDIO)];

/// The benches, scenarios and groups the names select.
pub(super) struct Selection {
    pub(super) benches: Vec<&'static str>,
    pub(super) scenarios: Vec<&'static str>,
    /// The Rivals scenarios (every tool).
    pub(super) rivals: Vec<&'static str>,
    pub(super) performance: bool,
    /// The ModuleLoad bench.
    pub(super) module_load: bool,
    pub(super) not_run: Vec<(String, String)>,
}

pub(super) fn select_benches(names: &[String]) -> Result<Selection, BenchError> {
    if names.is_empty() {
        return Ok(Selection {
            benches: RUNTIME_BENCHES.to_vec(),
            scenarios: SCENARIOS.to_vec(),
            rivals: RIVALS.to_vec(),
            performance: true,
            module_load: true,
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
        module_load: false,
        not_run: Vec::new(),
    };
    for name in names {
        let lower = name.to_ascii_lowercase();
        if lower == "runtime" {
            selection.benches = RUNTIME_BENCHES.to_vec();
        } else if lower == "performance" {
            selection.performance = true;
        } else if lower == MODULE_LOAD.to_ascii_lowercase() {
            selection.module_load = true;
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
        } else if let Some(rival) = RIVALS.iter().find(|rival| rival.eq_ignore_ascii_case(name)) {
            // A scenario only the Rivals have (ManyEvents, Positions) runs across tools.
            if !selection.rivals.contains(rival) {
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
                        "the benches are {}, {MODULE_LOAD}; the scenarios are {}; the groups are Runtime, Performance, Scenarios, Rivals, {}",
                        RUNTIME_BENCHES.join(", "),
                        SCENARIOS
                            .iter()
                            .chain(RIVALS.iter().filter(|rival| !SCENARIOS.contains(rival)))
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", "),
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

/// Why a tool tools.toml declares, which the bench does not know, does not run.
fn why_not_run(name: &str, bench_dir: &Path) -> String {
    let what = "the harness has no adapter for its API yet (an adapter in `benchmark/harness/tools/`, and the Roblox API it needs in the mock)";
    if bench_dir.join("tools").join(name).is_dir() {
        format!("downloaded to benchmark/tools/{name}/ but not run: {what}")
    } else {
        format!("not downloaded, and not run in this version: {what}")
    }
}

/// The competitors `--tools` names (every one when it names none) that can run with what is
/// on disk, and everything else it names or tools.toml declares, with why it does not run.
/// The tools a run uses, and those it does not, with why.
pub(super) struct SelectedTools {
    pub chosen: Vec<&'static dyn Competitor>,
    /// Every tool that does not run, for the report.
    pub not_run: Vec<NotRun>,
    /// Of those, the ones missing from disk (not downloaded, no `--source`).
    pub missing: Vec<NotRun>,
    /// Whether the missing ones make the run fail: one was named with `--tools`, or none was
    /// named and no competitor is here at all.
    pub incomplete: bool,
}

pub(super) fn select_tools(requested: &[String], context: &Context) -> Result<SelectedTools, BenchError> {
    let declared: Vec<String> = match ToolsFile::read(&context.bench_dir.join("tools.toml")) {
        Ok(file) => file.names().into_iter().map(str::to_string).collect(),
        Err(_) => Vec::new(),
    };
    let mut chosen: Vec<&'static dyn Competitor> = Vec::new();
    let mut not_run = Vec::new();
    if requested.is_empty() {
        chosen = ALL.to_vec();
        for name in declared.iter().filter(|name| from_key(name).is_none()) {
            not_run.push((name.clone(), why_not_run(name, context.bench_dir)));
        }
    }
    for name in requested {
        let key = name.trim().to_ascii_lowercase();
        if let Some(tool) = from_key(&key) {
            if !chosen.contains(&tool) {
                chosen.push(tool);
            }
        } else if declared.contains(&key) {
            not_run.push((key.clone(), why_not_run(&key, context.bench_dir)));
        } else {
            // The keys are tools.toml's: `blink` is this checkout's compiler (BlinkBlox) and
            // `upstream` is Blink 0.18, so a tool's shown name is accepted in the help only.
            if let Some(tool) = ALL.iter().find(|tool| tool.name().eq_ignore_ascii_case(&key)) {
                return Err(
                    BenchError::new(format!("--tools names an unknown tool `{name}`")).with_help(format!(
                        "{} is `--tools {}`",
                        tool.name(),
                        tool.key()
                    )),
                );
            }
            let mut known: Vec<String> = ALL
                .iter()
                .map(|tool| match tool.name().eq_ignore_ascii_case(tool.key()) {
                    true => tool.key().to_string(),
                    false => format!("{} ({})", tool.key(), tool.name()),
                })
                .collect();
            known.extend(declared.iter().filter(|name| from_key(name).is_none()).cloned());
            return Err(BenchError::new(format!("--tools names an unknown tool `{name}`"))
                .with_help(format!("the tools are {}", known.join(", "))));
        }
    }
    // A tool runs only when what it needs is on disk; otherwise the report says how to get it.
    let mut missing: Vec<NotRun> = Vec::new();
    chosen.retain(|tool| match tool.missing(context) {
        None => true,
        Some(why) => {
            missing.push((tool.key().to_string(), why));
            false
        }
    });
    // A run without what was asked for is a failed run (after the report is written): a tool
    // named with --tools that is not here, or, with none named, no competitor at all.
    let compared = chosen
        .iter()
        .any(|tool| tool.key() != BLINKBLOX.key() && declared.iter().any(|name| name == tool.key()));
    let incomplete = !missing.is_empty() && (!requested.is_empty() || !compared);
    not_run.extend(missing.iter().cloned());
    Ok(SelectedTools {
        chosen,
        not_run,
        missing,
        incomplete,
    })
}
