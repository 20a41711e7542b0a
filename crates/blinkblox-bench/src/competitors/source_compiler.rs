//! Code generators written in Luau for Lune (Blink's, NetRay-Compile's), run from their source
//! inside a plain embedded Luau state: `benchmark/harness/source_loader.luau` loads the source
//! files by require-by-string with Lune's libraries shimmed, and a driver per tool
//! (`harness/upstream.luau`, `harness/netray-compile.luau`) feeds it the schema as text and
//! returns the generated modules as text. Nothing is read or written while compiling.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Context;
use crate::{BenchError, read_checkout_file};

/// A Luau code generator's source, read once, and the harness files that run it.
pub struct SourceCompiler {
    /// The tool's name, for messages.
    name: &'static str,
    dir: PathBuf,
    /// Every `.luau`/`.lua` file under `dir/src`, keyed as the loader requires them.
    modules: BTreeMap<String, String>,
    loader: String,
    driver: String,
    driver_file: String,
}

impl SourceCompiler {
    /// Reads the compiler `name` from `dir` (its `src/` folder) and the loader and `driver`
    /// from the harness.
    pub fn read(context: &Context, name: &'static str, dir: &Path, driver: &str) -> Result<SourceCompiler, BenchError> {
        Ok(SourceCompiler {
            name,
            dir: dir.to_path_buf(),
            modules: module_sources(dir)?,
            loader: read_checkout_file(&context.harness_file("source_loader.luau"))?,
            driver: read_checkout_file(&context.harness_file(driver))?,
            driver_file: format!("=harness/{driver}"),
        })
    }

    /// Runs the driver on `schema` and returns the `N` modules it returns, in its order
    /// (`what` names them for the error when it returns another count).
    pub fn compile_modules<const N: usize>(&self, schema: &str, what: &str) -> Result<[String; N], BenchError> {
        let modules = self.compile(schema)?;
        let count = modules.len();
        <[String; N]>::try_from(modules).map_err(|_| {
            BenchError::new(format!(
                "{} returned {count} modules, not {what}",
                self.driver_file.trim_start_matches('=')
            ))
        })
    }

    /// Runs the driver on `schema` in a fresh Luau state and returns the strings it returns
    /// (the generated modules, in the driver's order).
    fn compile(&self, schema: &str) -> Result<Vec<String>, BenchError> {
        let lua = mlua::Lua::new();
        let failed = |err: mlua::Error| {
            BenchError::new(format!(
                "{}'s compiler (from `{}`) failed: {err}",
                self.name,
                self.dir.display()
            ))
        };
        let table = lua.create_table().map_err(failed)?;
        for (key, text) in &self.modules {
            table.set(key.as_str(), text.as_str()).map_err(failed)?;
        }
        let (load, output) = lua
            .load(&self.loader)
            .set_name("=harness/source_loader.luau")
            .call::<(mlua::Function, mlua::Table)>(table)
            .map_err(failed)?;
        lua.load(&self.driver)
            .set_name(self.driver_file.as_str())
            .call::<mlua::Variadic<String>>((load, output, schema))
            .map(Vec::from)
            .map_err(failed)
    }
}

/// Every `.luau`/`.lua` file under `dir/src`, keyed as the loader requires them: the path from
/// `dir` without its extension, `init` files standing for their folder (`src/Generator`).
fn module_sources(dir: &Path) -> Result<BTreeMap<String, String>, BenchError> {
    let mut modules = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir.join("src")) {
        let entry = entry.map_err(|err| BenchError::new(format!("could not list `{}`: {err}", dir.display())))?;
        let path = entry.path();
        let Some(extension) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !entry.file_type().is_file() || !matches!(extension, "luau" | "lua") {
            continue;
        }
        let Ok(relative) = path.strip_prefix(dir) else { continue };
        let mut key: Vec<String> = relative
            .with_extension("")
            .components()
            .map(|part| part.as_os_str().to_string_lossy().to_string())
            .collect();
        if key.last().is_some_and(|last| last == "init") && key.len() > 1 {
            key.pop();
        }
        let text = std::fs::read_to_string(path).map_err(|err| BenchError::io("read", path, &err))?;
        modules.insert(key.join("/"), text);
    }
    Ok(modules)
}
