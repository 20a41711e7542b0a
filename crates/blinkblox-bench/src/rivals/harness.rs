//! The Rivals' Luau harness: the shared driver (`harness/rivals.luau`), one adapter per tool
//! (`harness/rivals/KEY.luau`) and each tool's code.

use std::path::Path;

use crate::competitors::{Code, Competitor, LoadedCode, Modules, RivalsCode, ScenarioModules};
use crate::scenarios::spec::Schema;
use crate::simulation::adapter_unsupported;
use crate::{BenchError, read_checkout_file};

/// The Rivals harness: the shared driver, the adapters, and each tool's modules or library.
pub struct RivalsHarness {
    pub(super) driver: String,
    adapters: Vec<(&'static str, String)>,
    code: LoadedCode<ScenarioModules>,
}

impl RivalsHarness {
    /// Reads the driver and the adapters of `tools`. A tool without an adapter file is left
    /// out; [`has_adapter`](Self::has_adapter) says which.
    pub fn load(bench_dir: &Path, tools: &[&'static dyn Competitor]) -> Result<RivalsHarness, BenchError> {
        let mut adapters = Vec::new();
        for tool in tools {
            let path = tool.rivals_adapter(bench_dir);
            if path.is_file() {
                adapters.push((tool.key(), read_checkout_file(&path)?));
            }
        }
        Ok(RivalsHarness {
            driver: read_checkout_file(&bench_dir.join("harness").join("rivals.luau"))?,
            adapters,
            code: LoadedCode::default(),
        })
    }

    pub fn has_adapter(&self, tool: &dyn Competitor) -> bool {
        self.adapter(tool).is_some()
    }

    /// Adds (or replaces) what `tool`'s rows load besides their adapter.
    pub fn add(&mut self, tool: &'static dyn Competitor, code: RivalsCode) {
        self.code.insert(tool, code);
    }

    pub(super) fn adapter(&self, tool: &dyn Competitor) -> Option<&str> {
        self.adapters
            .iter()
            .find(|(key, _)| *key == tool.key())
            .map(|(_, source)| source.as_str())
    }

    /// What `tool` loads for `schema`: its Server and Client modules, or its library.
    pub(super) fn code(&self, tool: &dyn Competitor, schema: Schema) -> Result<Loaded<'_>, String> {
        Ok(match self.code.get(tool)? {
            Code::Modules(modules) => Loaded::Modules(schema.modules_in(modules)?),
            Code::Library { library, at } => Loaded::Library(library, at),
            Code::AdapterOnly => Loaded::Nothing,
        })
    }
}

/// What a row loads into its worlds besides the adapter and the driver.
pub(super) enum Loaded<'h> {
    Modules(&'h Modules),
    /// A library, and where it is mounted.
    Library(&'h crate::library::Library, &'static str),
    Nothing,
}

/// Asks the adapter, in a plain Luau state, why the tool cannot run `scenario` (None: it can).
pub(super) fn unsupported(adapter: &str, tool: &dyn Competitor, scenario: &str) -> Result<Option<String>, String> {
    adapter_unsupported(adapter, &format!("harness/rivals/{}.luau", tool.key()), scenario)
}
