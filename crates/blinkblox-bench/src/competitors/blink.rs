//! Blink 0.18 (`--tools upstream`), the compiler BlinkBlox forked from: its compiler is Luau
//! meant for Lune, so the harness runs it from its source inside a plain embedded Luau state
//! (`benchmark/harness/upstream.luau` provides the require-by-string loader and the few Lune
//! libraries it touches) and takes the generated Server and Client modules as text, to be
//! timed like BlinkBlox's. Its source comes from `--source upstream=PATH` or from what
//! `--download` put in `benchmark/tools/upstream/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::competitor::{
    Code, Competitor, Context, Modules, PlaceModules, RivalsCode, RuntimeCode, ScenarioModules, origin_version,
};
use crate::many_declarations::{MANY_DECLARATIONS, Sender, blink_schema};
use crate::{BenchError, read_checkout_file};

/// Blink 0.18, its own compiler run from source.
pub struct Blink;

impl Competitor for Blink {
    fn key(&self) -> &'static str {
        "upstream"
    }

    fn name(&self) -> &'static str {
        "Blink"
    }

    fn missing(&self, context: &Context) -> Option<String> {
        (!is_blink_source(&source_dir(context))).then(|| {
            "Blink's source is not in benchmark/tools/upstream/: run `blinkblox bench --download --tools upstream`, \
             or pass --source upstream=PATH to a Blink 0.18 checkout"
                .to_string()
        })
    }

    fn provenance(&self, context: &Context, _runtime_rows: bool) -> String {
        let dir = source_dir(context);
        format!(
            "Blink {}, its own compiler run from source in the embedded VM on \
             benchmark/definitions/Definition.upstream.blink",
            origin_version(&dir).unwrap_or_else(|| format!("from `{}`", dir.display()))
        )
    }

    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        let modules = compile_definition(context, "Definition.upstream.blink").map_err(|err| err.to_string());
        Ok(Code::Modules(modules))
    }

    fn is_rival(&self) -> bool {
        true
    }

    /// `definitions/Scenarios.upstream.blink` and the many declarations in its dialect, sent
    /// by the server. A compile that fails fails those rows.
    fn rivals_code(&self, context: &Context) -> Result<RivalsCode, BenchError> {
        let dir = source_dir(context);
        let driver = read_checkout_file(&context.harness_file("upstream.luau"))?;
        let schema = read_checkout_file(&context.definition("Scenarios.upstream.blink"))?;
        let compile = |text: &str| compile(&dir, &driver, text).map_err(|err| err.to_string());
        Ok(Code::Modules(ScenarioModules {
            scenarios: compile(&schema),
            batched: Err(format!("{} has no BatchUnreliable modules", self.name())),
            many_declarations: compile(&blink_schema(MANY_DECLARATIONS, Sender::Server)),
        }))
    }

    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        let dir = source_dir(context);
        if !is_blink_source(&dir) {
            return Ok(PlaceModules::Absent);
        }
        let driver = read_checkout_file(&context.harness_file("upstream.luau"))?;
        let schema = read_checkout_file(&context.definition("Definition.upstream.blink"))?;
        Ok(match compile(&dir, &driver, &schema) {
            Ok(modules) => PlaceModules::Compiled(modules),
            Err(err) => PlaceModules::LeftOut(format!("{} left out: {err}", self.key())),
        })
    }
}

/// Where Blink's source is: `--source upstream=PATH`, else `benchmark/tools/upstream`.
pub fn source_dir(context: &Context) -> PathBuf {
    context.tool_dir("upstream").0
}

/// Whether `dir` holds Blink's compiler source (src/Parser.luau and src/Generator/).
pub fn is_blink_source(dir: &Path) -> bool {
    dir.join("src").join("Parser.luau").is_file() && dir.join("src").join("Generator").is_dir()
}

/// Blink's modules for `definitions/FILE` (in its dialect), compiled by the driver.
fn compile_definition(context: &Context, file: &str) -> Result<Modules, BenchError> {
    let driver = read_checkout_file(&context.harness_file("upstream.luau"))?;
    let schema = read_checkout_file(&context.definition(file))?;
    compile(&source_dir(context), &driver, &schema)
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

/// Compiles `schema` (in Blink's dialect) with Blink's compiler from the source in `dir`, run by
/// `driver` (`harness/upstream.luau`).
pub fn compile(dir: &Path, driver: &str, schema: &str) -> Result<Modules, BenchError> {
    if !is_blink_source(dir) {
        return Err(BenchError::new(format!(
            "`{}` does not hold Blink's compiler source (src/Parser.luau, src/Generator/)",
            dir.display()
        ))
        .with_help(
            "`blinkblox bench --download --tools upstream`, or pass --source upstream=PATH to a Blink 0.18 checkout",
        ));
    }
    let modules = module_sources(dir)?;
    let lua = mlua::Lua::new();
    let failed =
        |err: mlua::Error| BenchError::new(format!("Blink's compiler (from `{}`) failed: {err}", dir.display()));
    let table = lua.create_table().map_err(failed)?;
    for (key, text) in &modules {
        table.set(key.as_str(), text.as_str()).map_err(failed)?;
    }
    let (server, client) = lua
        .load(driver)
        .set_name("=harness/upstream.luau")
        .call::<(String, String)>((table, schema))
        .map_err(failed)?;
    Ok(Modules { server, client })
}
