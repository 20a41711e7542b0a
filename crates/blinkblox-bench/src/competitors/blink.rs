//! Blink 0.18 ("upstream"): its compiler is Luau meant for Lune, so the harness runs it from
//! its source inside a plain embedded Luau state (`benchmark/harness/upstream.luau` provides
//! the require-by-string loader and the few Lune libraries it touches) and takes the
//! generated Server and Client modules as text, to be timed like BlinkBlox's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::BenchError;

/// Where Blink's source is: `--source upstream=PATH`, else `benchmark/tools/upstream`.
pub fn upstream_dir(bench_dir: &Path, sources: &[(String, PathBuf)]) -> PathBuf {
    sources
        .iter()
        .rev()
        .find(|(name, _)| name == "upstream")
        .map_or_else(|| bench_dir.join("tools").join("upstream"), |(_, path)| path.clone())
}

/// Whether `dir` holds Blink's compiler source (src/Parser.luau and src/Generator/).
pub fn is_blink_source(dir: &Path) -> bool {
    dir.join("src").join("Parser.luau").is_file() && dir.join("src").join("Generator").is_dir()
}

/// The version of the copy in `dir`: from the `.blinkblox-origin.toml` the download wrote, else
/// from the package manifest of a checkout given with `--source` (`pesde.toml`, `wally.toml`).
pub fn origin_version(dir: &Path) -> Option<String> {
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

/// Compiles `schema` with Blink's compiler in `dir`; returns (Server, Client).
pub fn compile_upstream(dir: &Path, driver: &str, schema: &str) -> Result<(String, String), BenchError> {
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
    lua.load(driver)
        .set_name("=harness/upstream.luau")
        .call::<(String, String)>((table, schema))
        .map_err(failed)
}
