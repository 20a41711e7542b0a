//! Blink 0.18 (`--tools upstream`), the compiler BlinkBlox forked from: its compiler is Luau
//! meant for Lune, so the harness runs it from its source inside a plain embedded Luau state
//! ([`SourceCompiler`], driven by `benchmark/harness/upstream.luau`) and takes the generated
//! Server and Client modules as text, to be timed like BlinkBlox's. Its source comes from
//! `--source upstream=PATH` or from what `--download` put in `benchmark/tools/upstream/`.

use std::path::{Path, PathBuf};

use super::competitor::{
    Code, Competitor, Context, Modules, PlaceModules, RivalsCode, RuntimeCode, ScenarioModules, origin_version,
};
use super::source_compiler::SourceCompiler;
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
        let schema = read_checkout_file(&context.definition("Scenarios.upstream.blink"))?;
        let compiler = compiler(context);
        let compile = |text: &str| {
            let compiler = compiler.as_ref().map_err(|err| err.to_string())?;
            compile(compiler, text).map_err(|err| err.to_string())
        };
        Ok(Code::Modules(ScenarioModules {
            scenarios: compile(&schema),
            batched: Err(format!("{} has no BatchUnreliable modules", self.name())),
            many_declarations: compile(&blink_schema(MANY_DECLARATIONS, Sender::Server)),
        }))
    }

    fn declarations_modules(&self, context: &Context, count: usize) -> Option<Result<Modules, String>> {
        let modules = compiler(context).and_then(|compiler| compile(&compiler, &blink_schema(count, Sender::Client)));
        Some(modules.map_err(|err| err.to_string()))
    }

    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        let dir = source_dir(context);
        if !is_blink_source(&dir) {
            return Ok(PlaceModules::Absent);
        }
        let schema = read_checkout_file(&context.definition("Definition.upstream.blink"))?;
        Ok(
            match compiler(context).and_then(|compiler| compile(&compiler, &schema)) {
                Ok(modules) => PlaceModules::Compiled(modules),
                Err(err) => PlaceModules::LeftOut(format!("{} left out: {err}", self.key())),
            },
        )
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

/// Blink's modules for `definitions/FILE` (in its dialect).
fn compile_definition(context: &Context, file: &str) -> Result<Modules, BenchError> {
    let schema = read_checkout_file(&context.definition(file))?;
    compile(&compiler(context)?, &schema)
}

/// Blink's compiler from its source (see [`source_dir`]), run by `harness/upstream.luau`.
pub fn compiler(context: &Context) -> Result<SourceCompiler, BenchError> {
    let dir = source_dir(context);
    if !is_blink_source(&dir) {
        return Err(BenchError::new(format!(
            "`{}` does not hold Blink's compiler source (src/Parser.luau, src/Generator/)",
            dir.display()
        ))
        .with_help(
            "`blinkblox bench --download --tools upstream`, or pass --source upstream=PATH to a Blink 0.18 checkout",
        ));
    }
    SourceCompiler::read(context, "Blink", &dir, "upstream.luau")
}

/// Compiles `schema` (in Blink's dialect) with Blink's `compiler`.
pub fn compile(compiler: &SourceCompiler, schema: &str) -> Result<Modules, BenchError> {
    let [server, client] = compiler.compile_modules(schema, "Server and Client")?;
    Ok(Modules::pair(server, client))
}
