//! BlinkBlox (`--tools blink`): its modules come from [`blinkblox_codegen::compile`] on the
//! benchmark's `.blink` schemas — `definitions/Definition.blink` for the runtime benches (or,
//! when tools.toml's `blink` is a release, that release's binary: see
//! [`super::blinkblox_release`]), `definitions/Scenarios.blink` and the many declarations for
//! the Scenarios and the Rivals.

use std::path::{Path, PathBuf};

use super::blinkblox_release::{BlinkBloxCompiler, compile_with_blinkblox_binary};
use super::competitor::{Code, Competitor, Context, Modules, PlaceModules, RivalsCode, RuntimeCode, ScenarioModules};
use crate::many_declarations::{MANY_DECLARATIONS, Sender, blinkblox_schema};
use crate::{BenchError, read_checkout_file};
use blinkblox_codegen::{OutputKind, Outputs, Source, Targets, compile};
use blinkblox_schema::CheckSettings;

/// BlinkBlox, this checkout's compiler.
pub struct BlinkBlox;

impl Competitor for BlinkBlox {
    fn key(&self) -> &'static str {
        "blink"
    }

    fn name(&self) -> &'static str {
        "BlinkBlox"
    }

    fn provenance(&self, context: &Context, runtime_rows: bool) -> String {
        if runtime_rows && let Ok(compiler) = BlinkBloxCompiler::choose(context) {
            return compiler.describe();
        }
        format!(
            "BlinkBlox {}, this checkout's compiler, modules generated from benchmark/definitions/Definition.blink",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        let path = definition_path(context.bench_dir);
        let modules = match BlinkBloxCompiler::choose(context)? {
            BlinkBloxCompiler::Checkout { .. } => compile_definition(&path)?,
            BlinkBloxCompiler::Release { binary, .. } => {
                let text = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
                compile_with_blinkblox_binary(&binary, &text)?
            }
        };
        Ok(Code::Modules(Ok(modules)))
    }

    fn is_rival(&self) -> bool {
        true
    }

    fn rivals_code(&self, context: &Context) -> Result<RivalsCode, BenchError> {
        Ok(Code::Modules(scenario_modules(context)?))
    }

    /// Compiled by this checkout's compiler, in process.
    fn declarations_modules(&self, _context: &Context, count: usize) -> Option<Result<Modules, String>> {
        let path = Path::new("many-declarations.blink");
        Some(compile_text(path, &blinkblox_schema(count, Sender::Client)).map_err(|err| err.to_string()))
    }

    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        Ok(PlaceModules::Checkout(compile_definition(&definition_path(
            context.bench_dir,
        ))?))
    }
}

/// `benchmark/definitions/Definition.blink`, the runtime benches' schema.
pub fn definition_path(bench_dir: &Path) -> PathBuf {
    bench_dir.join("definitions").join("Definition.blink")
}

/// The Server and Client modules for the schema at `path`.
pub fn compile_definition(path: &Path) -> Result<Modules, BenchError> {
    compile_text(path, &read_checkout_file(path)?)
}

/// The Server and Client modules for schema `text` (named `path` in messages).
pub fn compile_text(path: &Path, text: &str) -> Result<Modules, BenchError> {
    let name = path.display().to_string();
    let compiled = compile(
        Source::Text { name: &name, text },
        &CheckSettings::default(),
        Outputs::Modules(Targets::default()),
    );
    if compiled.has_errors() {
        let first = compiled
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.is_error())
            .map(|diagnostic| format!("{}: {}", diagnostic.code, diagnostic.message))
            .unwrap_or_default();
        return Err(BenchError::new(format!(
            "`{}` has errors ({} diagnostic(s)); first: {first}",
            path.display(),
            compiled.diagnostics.len()
        ))
        .with_help(format!("run `blinkblox check {}` to see them", path.display())));
    }
    let files = compiled.files;
    let find = |kind: OutputKind| {
        files
            .iter()
            .find(|file| file.kind == kind)
            .map(|file| file.contents.clone())
    };
    match (find(OutputKind::Server), find(OutputKind::Client)) {
        (Some(server), Some(client)) => Ok(Modules::pair(server, client)),
        _ => Err(BenchError::new(format!(
            "compiling `{}` produced no Server or Client module",
            path.display()
        ))),
    }
}

/// The modules the Scenarios and BlinkBlox's Rivals rows run on: `definitions/Scenarios.blink`,
/// the same with BatchUnreliable, and the many declarations sent by the server.
pub fn scenario_modules(context: &Context) -> Result<ScenarioModules, BenchError> {
    let schema_path = context.definition("Scenarios.blink");
    let schema = read_checkout_file(&schema_path)?;
    // Options may come first in any order, so the batched variant only adds a line ahead.
    let batched = format!("option BatchUnreliable = true\n{schema}");
    let many = context.definition("ManyEvents (128 declarations, generated)");
    Ok(ScenarioModules {
        scenarios: Ok(compile_text(&schema_path, &schema)?),
        batched: Ok(compile_text(
            &context.definition("Scenarios.blink (with BatchUnreliable)"),
            &batched,
        )?),
        many_declarations: Ok(compile_text(
            &many,
            &blinkblox_schema(MANY_DECLARATIONS, Sender::Server),
        )?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_schemas_compile_to_both_modules() {
        let bench_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark");
        let definition = compile_definition(&definition_path(&bench_dir)).expect("Definition.blink compiles");
        assert!(!definition.server.is_empty() && !definition.client.is_empty());
        let context = Context {
            bench_dir: &bench_dir,
            sources: &[],
            local: false,
        };
        let modules = scenario_modules(&context).expect("the Scenarios' schemas compile");
        let batched = modules.batched.expect("batched");
        let scenarios = modules.scenarios.expect("scenarios");
        assert_ne!(batched.client, scenarios.client, "BatchUnreliable changes the client");
    }
}
