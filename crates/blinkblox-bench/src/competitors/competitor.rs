//! The [`Competitor`] trait: what the runners, the report and the Studio place ask of a tool,
//! and the code a tool loads into a simulation's worlds.

use std::fmt;
use std::path::{Path, PathBuf};

use blinkblox_luau::World;

use crate::BenchError;
use crate::library::Library;
use crate::tools::{Tool, ToolsFile};

/// One tool the benchmark compares. Each lives in its own file of [`crate::competitors`].
pub trait Competitor: Sync {
    /// The name `--tools` takes. It also names the tool's adapters
    /// (`harness/tools/KEY.luau`, `harness/rivals/KEY.luau`), its folder under
    /// `benchmark/tools/`, its `--source KEY=PATH` and its folder in the Studio place.
    fn key(&self) -> &'static str;

    /// The name the report's tables show.
    fn name(&self) -> &'static str;

    /// Whether it is a runtime library: its source is mounted into every world, and it sends
    /// its packets on a frame event rather than when the harness flushes.
    fn is_library(&self) -> bool {
        false
    }

    /// The most timed frames a runtime row of it runs.
    fn max_frames(&self) -> Option<u32> {
        None
    }

    /// Why it cannot run with what is on disk, and how to get it (the report's "Not run").
    fn missing(&self, _context: &Context) -> Option<String> {
        None
    }

    /// The report's line on its version and where it came from. `runtime_rows`: whether its
    /// runtime rows ran (BlinkBlox's line then says which compiler made their modules).
    fn provenance(&self, context: &Context, runtime_rows: bool) -> String;

    /// What its runtime rows load besides its adapter, for `definitions/Definition.*`. An
    /// error stops the run; modules that could not be made fail the tool's rows instead.
    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError>;

    /// Whether it takes part in the Rivals (the scenarios on every tool).
    fn is_rival(&self) -> bool {
        false
    }

    /// What its Rivals rows load besides their adapter, for each schema the scenarios run on.
    fn rivals_code(&self, _context: &Context) -> Result<RivalsCode, BenchError> {
        Err(BenchError::new(format!("{} takes no part in the Rivals", self.name())))
    }

    /// Its Server and Client modules for `count` declarations of the many-declarations schema
    /// in its language, fired by the client (ModuleLoad's large schema); `None` for a tool
    /// whose code is not generated from such a schema.
    fn declarations_modules(&self, _context: &Context, _count: usize) -> Option<Result<Modules, String>> {
        None
    }

    /// What it puts into the Studio place's `Benchmark.Tools.KEY`.
    fn place_modules(&self, _context: &Context) -> Result<PlaceModules, BenchError> {
        Ok(PlaceModules::Absent)
    }

    /// Its adapter for the runtime benches: the calls it makes to fire, flush and listen.
    fn runtime_adapter(&self, bench_dir: &Path) -> PathBuf {
        bench_dir
            .join("harness")
            .join("tools")
            .join(format!("{}.luau", self.key()))
    }

    /// Its adapter for the Rivals, which also says which scenarios it cannot run and why.
    fn rivals_adapter(&self, bench_dir: &Path) -> PathBuf {
        bench_dir
            .join("harness")
            .join("rivals")
            .join(format!("{}.luau", self.key()))
    }
}

/// Competitors are the same when their keys are.
impl PartialEq for dyn Competitor {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for dyn Competitor {}

impl fmt::Debug for dyn Competitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Where a run finds its competitors.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The `benchmark/` folder: harness, definitions, tools.toml and the downloaded tools.
    pub bench_dir: &'a Path,
    /// `--source NAME=PATH`: a tool taken from a local folder instead of `benchmark/tools/NAME`.
    pub sources: &'a [(String, PathBuf)],
    /// `--local`: BlinkBlox's runtime rows from this checkout's compiler even when tools.toml's
    /// `blink` is a release.
    pub local: bool,
}

impl Context<'_> {
    /// Where tool `key`'s files are: `--source KEY=PATH` (the last given), else
    /// `benchmark/tools/KEY`; and whether they came from `--source`.
    pub fn tool_dir(&self, key: &str) -> (PathBuf, bool) {
        match self.sources.iter().rev().find(|(name, _)| name == key) {
            Some((_, path)) => (path.clone(), true),
            None => (self.bench_dir.join("tools").join(key), false),
        }
    }

    /// `benchmark/definitions/FILE`: a schema the benches compile.
    pub fn definition(&self, file: &str) -> PathBuf {
        self.bench_dir.join("definitions").join(file)
    }

    /// `benchmark/harness/FILE`.
    pub fn harness_file(&self, file: &str) -> PathBuf {
        self.bench_dir.join("harness").join(file)
    }

    /// Tool `key` as benchmark/tools.toml declares it.
    pub(crate) fn declared_tool(&self, key: &str) -> Result<Tool, BenchError> {
        let tools = ToolsFile::read(&self.bench_dir.join("tools.toml"))?;
        tools.tool(key).cloned().ok_or_else(|| {
            BenchError::new(format!("benchmark/tools.toml declares no tool `{key}`"))
                .with_help("restore its [tool.NAME] table (source, entry and patches)")
        })
    }
}

/// A code generator's (or the floor's) Server and Client modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modules {
    pub server: String,
    pub client: String,
    /// A module both sides load first, as `Types` beside Server and Client: NetRay-Compile's
    /// generated types, which its Server and Client require from their parent.
    pub types: Option<String>,
}

impl Modules {
    /// Server and Client, with no third module.
    pub fn pair(server: String, client: String) -> Modules {
        Modules {
            server,
            client,
            types: None,
        }
    }

    /// Loads the Server module into `world` (after `Types`, if there is one) and returns it.
    pub fn load_server(&self, world: &World) -> mlua::Result<mlua::Table> {
        self.load_types(world)?;
        world.load_module("Server", &self.server)
    }

    /// Loads the Client module into `world` (after `Types`, if there is one) and returns it.
    pub fn load_client(&self, world: &World) -> mlua::Result<mlua::Table> {
        self.load_types(world)?;
        world.load_module("Client", &self.client)
    }

    fn load_types(&self, world: &World) -> mlua::Result<()> {
        if let Some(types) = &self.types {
            world.load_module("Types", types)?;
        }
        Ok(())
    }

    /// The modules each side loads, `[server, client]`, `Types` first when there is one: what
    /// a player's device compiles and what the sizes count.
    pub fn side_sources(&self) -> [Vec<&str>; 2] {
        let types = self.types.as_deref();
        [
            types.into_iter().chain([self.server.as_str()]).collect(),
            types.into_iter().chain([self.client.as_str()]).collect(),
        ]
    }
}

/// What a competitor loads into a simulation's worlds besides its adapter.
pub enum Code<M> {
    /// Server and Client modules, loaded as `Server` on the server and `Client` on the clients.
    Modules(M),
    /// A runtime library's source, mounted in every world at the dotted path `at`, where its
    /// adapter requires it from.
    Library { library: Library, at: &'static str },
    /// Nothing: its adapter calls the engine's own API (plain remotes).
    AdapterOnly,
}

/// The runtime benches' code: modules for `definitions/Definition.*`, or why there are none
/// (the tool's rows then fail with that).
pub type RuntimeCode = Code<Result<Modules, String>>;

/// The Rivals' code: modules for each schema the scenarios run on.
pub type RivalsCode = Code<ScenarioModules>;

/// A code generator's modules for each schema the scenarios run on, or why it has none (the
/// rows on that schema then fail with that).
#[derive(Clone, Debug)]
pub struct ScenarioModules {
    /// `definitions/Scenarios.*`.
    pub scenarios: Result<Modules, String>,
    /// Scenarios.blink with `option BatchUnreliable = true` (BlinkBlox's alone).
    pub batched: Result<Modules, String>,
    /// The many declarations of ManyEvents, sent by the server.
    pub many_declarations: Result<Modules, String>,
}

/// What a competitor puts into the Studio place.
pub enum PlaceModules {
    /// Modules this checkout holds or compiles; they come first in `Benchmark.Tools`.
    Checkout(Modules),
    /// Modules the tool's own compiler made.
    Compiled(Modules),
    /// No modules, and a note saying why. Its folder in `benchmark/tools/`, if that holds
    /// Luau, goes in as a source tree like every other downloaded tool's.
    LeftOut(String),
    /// No modules: its downloaded folder, if any, goes in as a source tree.
    Absent,
}

/// The code each competitor of a run loads, for one harness.
pub struct LoadedCode<M> {
    entries: Vec<(&'static dyn Competitor, Code<M>)>,
}

impl<M> Default for LoadedCode<M> {
    fn default() -> Self {
        LoadedCode { entries: Vec::new() }
    }
}

impl<M> LoadedCode<M> {
    /// Adds (or replaces) `tool`'s code.
    pub fn insert(&mut self, tool: &'static dyn Competitor, code: Code<M>) {
        self.entries.retain(|(candidate, _)| *candidate != tool);
        self.entries.push((tool, code));
    }

    /// `tool`'s code, or why there is none: a library that was not loaded says how to get it.
    pub fn get(&self, tool: &dyn Competitor) -> Result<&Code<M>, String> {
        if let Some((_, code)) = self.entries.iter().find(|(candidate, _)| candidate.key() == tool.key()) {
            return Ok(code);
        }
        Err(if tool.is_library() {
            format!(
                "{} is not installed: run `blinkblox bench --download --tools {}` or pass --source {}=PATH",
                tool.name(),
                tool.key(),
                tool.key()
            )
        } else {
            format!("{}'s modules were not loaded", tool.name())
        })
    }
}

/// The version of the copy in `dir`: from the `.blinkblox-origin.toml` the download wrote, else
/// from the package manifest of a checkout given with `--source` (`pesde.toml`, `wally.toml`).
pub(crate) fn origin_version(dir: &Path) -> Option<String> {
    downloaded_version(dir).or_else(|| {
        ["pesde.toml", "wally.toml"].iter().find_map(|manifest| {
            let value: toml::Table = std::fs::read_to_string(dir.join(manifest)).ok()?.parse().ok()?;
            let version = value
                .get("version")
                .or_else(|| value.get("package").and_then(|package| package.get("version")))?
                .as_str()?;
            Some(format!("{version} (its {manifest}, in `{}`)", dir.display()))
        })
    })
}

fn downloaded_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(crate::install::ORIGIN_FILE)).ok()?;
    let value: toml::Table = text.parse().ok()?;
    let version = value.get("version")?.as_str()?;
    let source = value.get("source").and_then(toml::Value::as_str).unwrap_or("");
    Some(if source.is_empty() {
        version.to_string()
    } else {
        format!("{version} ({source})")
    })
}
