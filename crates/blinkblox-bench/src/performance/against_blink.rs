//! The same schema compiled whole by BlinkBlox, in process, and by Blink 0.18, its compiler
//! run from source in the embedded VM (see [`crate::competitors::blink`]).

use super::schemas::{SchemaPair, compared_schemas};
use super::stages::median_ms;
use crate::BenchError;
use crate::competitors::blink::{compile, compiler};
use crate::competitors::{Context, Modules};
use crate::many_declarations::{MANY_DECLARATIONS, Sender, blink_schema};
use blinkblox_codegen::{Targets, generate};
use blinkblox_schema::check_source;

/// Compiles a schema with Blink's compiler, or says why not.
pub type BlinkCompile<'a> = dyn Fn(&str) -> Result<Modules, String> + 'a;

/// The same schema compiled whole by BlinkBlox and by Blink 0.18, in milliseconds (medians).
#[derive(Clone, Debug, PartialEq)]
pub struct CompilerComparison {
    pub schema: String,
    /// Check and generate, in process.
    pub blinkblox_ms: f64,
    /// Loading Blink's modules, parsing and generating both sides, in the embedded Luau VM
    /// (natively compiled); or why it could not run.
    pub blink_ms: Result<f64, String>,
}

/// Times the whole compile of each schema with both compilers; `blink` compiles the schema in
/// Blink's dialect. BlinkBlox's time is its check and generation, the stages the compile step
/// runs before the Luau compile check.
pub fn compare_with_blink(schemas: &[SchemaPair], blink: &BlinkCompile<'_>) -> Vec<CompilerComparison> {
    let targets = Targets::default();
    schemas
        .iter()
        .map(|pair| {
            let blinkblox_ms = median_ms(|| {
                if let Some(schema) = check_source(&pair.name, &pair.blinkblox).schema {
                    std::hint::black_box(generate(&schema, &targets));
                }
            });
            let blink_ms = match blink(&pair.theirs) {
                Err(err) => Err(err),
                Ok(_) => Ok(median_ms(|| {
                    std::hint::black_box(blink(&pair.theirs).ok());
                })),
            };
            CompilerComparison {
                schema: pair.name.clone(),
                blinkblox_ms,
                blink_ms,
            }
        })
        .collect()
}

/// Both compilers on the benchmark schema (`definition`, BlinkBlox's) and on the many
/// declarations, each in its own dialect.
pub(super) fn compare_compilers(context: &Context, definition: &str) -> Result<Vec<CompilerComparison>, BenchError> {
    let read =
        |path: std::path::PathBuf| std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err));
    let blink_definition = read(context.definition("Definition.upstream.blink"))?;
    let schemas = compared_schemas(
        definition,
        blink_definition,
        blink_schema(MANY_DECLARATIONS, Sender::Client),
    );
    let compiler = compiler(context)?;
    let blink = |text: &str| compile(&compiler, text).map_err(|err| err.to_string());
    Ok(compare_with_blink(&schemas, &blink))
}
