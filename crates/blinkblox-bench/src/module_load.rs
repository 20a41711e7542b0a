//! The ModuleLoad bench: what a player pays on joining, before the first event, for every tool
//! whose code is a pair of generated modules. For the Server and the Client module it times the
//! Luau compile alone, and the first `require` in a fresh world (the compile again, native code
//! generation in native mode, and running the module's body until it returns).

use blinkblox_luau::{Mode, TimingClock, roblox_compiler};

use crate::competitors::{Competitor, Modules};
use crate::progress;
use crate::simulation::{lua_error, new_simulation};

/// The bench's name, for `--run ModuleLoad`.
pub const MODULE_LOAD: &str = "ModuleLoad";

/// How many times each module is compiled, and required in a fresh world, per mode.
pub const LOAD_RUNS: usize = 31;

/// The same for the large schema, whose modules take a hundred times longer.
pub const LARGE_LOAD_RUNS: usize = 5;

/// What loading one module costs, in milliseconds (medians over [`LOAD_RUNS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleCost {
    pub lines: usize,
    pub bytes: usize,
    /// The Luau compile to bytecode alone, at Roblox's settings.
    pub compile_ms: f64,
    /// The first `require`, per mode of the run.
    pub require_ms: Vec<(Mode, f64)>,
}

/// One tool's Server and Client modules.
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleLoadRow {
    pub tool: &'static dyn Competitor,
    pub outcome: Result<[ModuleCost; 2], String>,
}

/// Times each tool's modules `runs` times. Runs are interleaved, tool by tool and mode by
/// mode, so a busy moment of the machine falls on every tool alike.
pub fn run_module_load(
    tools: &[(&'static dyn Competitor, Modules)],
    modes: &[Mode],
    runs: usize,
) -> Vec<ModuleLoadRow> {
    progress::step(
        "Running",
        &format!("{MODULE_LOAD} ({} tools, {runs} runs)", tools.len()),
    );
    let mut samples: Vec<Samples> = tools.iter().map(|_| Samples::new(modes)).collect();
    let mut failures: Vec<Option<String>> = tools.iter().map(|_| None).collect();
    let compiler = roblox_compiler();
    for _ in 0..runs {
        for (index, (_, modules)) in tools.iter().enumerate() {
            if failures[index].is_some() {
                continue;
            }
            for (side, sources) in modules.side_sources().iter().enumerate() {
                let started = TimingClock::ThreadCpu.now();
                let compiled: Result<Vec<_>, _> = sources.iter().map(|source| compiler.compile(source)).collect();
                samples[index].compile[side].push((TimingClock::ThreadCpu.now() - started).as_secs_f64());
                if let Err(err) = compiled {
                    failures[index] = Some(format!("the Luau compile failed: {err}"));
                }
            }
            for (slot, &mode) in modes.iter().enumerate() {
                if failures[index].is_some() {
                    break;
                }
                match time_first_requires(modules, mode) {
                    Ok([server, client]) => {
                        samples[index].require[slot].1[0].push(server);
                        samples[index].require[slot].1[1].push(client);
                    }
                    Err(err) => failures[index] = Some(err),
                }
            }
        }
    }
    tools
        .iter()
        .zip(samples)
        .zip(failures)
        .map(|(((tool, modules), samples), failure)| ModuleLoadRow {
            tool: *tool,
            outcome: match failure {
                Some(err) => Err(err),
                None => {
                    let [server, client] = modules.side_sources();
                    Ok([samples.cost(0, &server), samples.cost(1, &client)])
                }
            },
        })
        .collect()
}

/// Seconds per run, `[server, client]`; for `require` per mode.
struct Samples {
    compile: [Vec<f64>; 2],
    require: Vec<(Mode, [Vec<f64>; 2])>,
}

impl Samples {
    fn new(modes: &[Mode]) -> Samples {
        Samples {
            compile: [Vec::new(), Vec::new()],
            require: modes.iter().map(|&mode| (mode, [Vec::new(), Vec::new()])).collect(),
        }
    }

    fn cost(&self, side: usize, sources: &[&str]) -> ModuleCost {
        ModuleCost {
            lines: sources.iter().map(|source| source.lines().count()).sum(),
            bytes: sources.iter().map(|source| source.len()).sum(),
            compile_ms: median_ms(&self.compile[side]),
            require_ms: self
                .require
                .iter()
                .map(|(mode, sides)| (*mode, median_ms(&sides[side])))
                .collect(),
        }
    }
}

fn median_ms(seconds: &[f64]) -> f64 {
    let mut sorted = seconds.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).map_or(0.0, |median| median * 1000.0)
}

/// The first `require` of the Server module on a fresh server, then of the Client module on a
/// client once the server's remotes have reached it, in seconds of the thread's CPU time.
fn time_first_requires(modules: &Modules, mode: Mode) -> Result<[f64; 2], String> {
    let mut sim = new_simulation(mode, 1)?;
    let started = TimingClock::ThreadCpu.now();
    modules
        .load_server(sim.server())
        .map_err(lua_error("requiring the Server module"))?;
    let server = (TimingClock::ThreadCpu.now() - started).as_secs_f64();
    sim.step().map_err(lua_error("replicating the remotes"))?;
    let client_world = sim.client(0).ok_or("the client left")?;
    let started = TimingClock::ThreadCpu.now();
    modules
        .load_client(client_world)
        .map_err(lua_error("requiring the Client module"))?;
    let client = (TimingClock::ThreadCpu.now() - started).as_secs_f64();
    Ok([server, client])
}
