//! NetRay-Compile (`--tools netray-compile`), an IDL compiler for NetRay's runtime that reads
//! Blink-like schemas. Its compiler is Luau meant for Lune, so the bench runs it from its
//! source in the embedded VM ([`SourceCompiler`], driven by
//! `benchmark/harness/netray-compile.luau`) on `definitions/Definition.netray` and loads the
//! Server, Client and Types modules it generates. Its source comes from
//! `--source netray-compile=PATH` or from what `--download` put in
//! `benchmark/tools/netray-compile/`.

use std::path::{Path, PathBuf};

use super::competitor::{Code, Competitor, Context, Modules, PlaceModules, RuntimeCode, origin_version};
use super::source_compiler::SourceCompiler;
use crate::{BenchError, read_checkout_file};

/// NetRay-Compile, its own compiler run from source.
pub struct NetRayCompile;

impl Competitor for NetRayCompile {
    fn key(&self) -> &'static str {
        "netray-compile"
    }

    fn name(&self) -> &'static str {
        "NetRay-Compile"
    }

    fn missing(&self, context: &Context) -> Option<String> {
        (!is_source(&source_dir(context))).then(|| {
            "NetRay-Compile's source is not in benchmark/tools/netray-compile/: run \
             `blinkblox bench --download --tools netray-compile`, or pass --source netray-compile=PATH \
             to a checkout of AstaWasTaken/NetRay-Compile"
                .to_string()
        })
    }

    fn provenance(&self, context: &Context, _runtime_rows: bool) -> String {
        let dir = source_dir(context);
        format!(
            "NetRay-Compile {}, its own compiler run from source in the embedded VM on \
             benchmark/definitions/Definition.netray (Validate = Basic)",
            origin_version(&dir).unwrap_or_else(|| format!("from `{}`", dir.display()))
        )
    }

    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        Ok(Code::Modules(
            definition_modules(context).map_err(|err| err.to_string()),
        ))
    }

    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        if !is_source(&source_dir(context)) {
            return Ok(PlaceModules::Absent);
        }
        Ok(match definition_modules(context) {
            Ok(modules) => PlaceModules::Compiled(modules),
            Err(err) => PlaceModules::LeftOut(format!("{} left out: {err}", self.key())),
        })
    }
}

/// Where NetRay-Compile's source is: `--source netray-compile=PATH`, else
/// `benchmark/tools/netray-compile`.
fn source_dir(context: &Context) -> PathBuf {
    context.tool_dir("netray-compile").0
}

/// Whether `dir` holds NetRay-Compile's source (src/Compiler.luau and src/generator/).
fn is_source(dir: &Path) -> bool {
    dir.join("src").join("Compiler.luau").is_file() && dir.join("src").join("generator").is_dir()
}

/// Its modules for `definitions/Definition.netray`.
fn definition_modules(context: &Context) -> Result<Modules, BenchError> {
    let dir = source_dir(context);
    if !is_source(&dir) {
        return Err(BenchError::new(format!(
            "`{}` does not hold NetRay-Compile's source (src/Compiler.luau, src/generator/)",
            dir.display()
        )));
    }
    let schema = read_checkout_file(&context.definition("Definition.netray"))?;
    let compiler = SourceCompiler::read(context, "NetRay-Compile", &dir, "netray-compile.luau")?;
    let [server, client, types] = compiler.compile_modules(&schema, "Server, Client and Types")?;
    Ok(Modules {
        server,
        client,
        types: Some(types),
    })
}
