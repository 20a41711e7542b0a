//! The Types module: the exported types and their `Read`/`Write`, no remotes.

use blinkblox_schema::model::{Schema, Side};

use super::banner::header;
use super::builder::CodeBuilder;
use super::module::ModuleGen;
use super::runtime::{self, EXPORTED, PRELUDE, STANDALONE};
use super::types::emit_type_block;

pub fn generate(schema: &Schema) -> String {
    let mut mg = ModuleGen::new(schema, Side::Server);
    let mut body = CodeBuilder::new();
    mg.emit_exports(&mut body);
    let mut out = CodeBuilder::new();
    header(&mut out, "Types module");
    emit_type_block(&mut out, schema);
    out.line(format!(
        "local MAX_UNRELIABLE_SIZE = {}",
        schema.options.max_unreliable_size
    ));
    runtime::emit(&mut out, PRELUDE);
    runtime::emit(&mut out, STANDALONE);
    runtime::emit(&mut out, EXPORTED);
    mg.emit_lookups(&mut out);
    out.line("local Exports: { [string]: any } = {}");
    out.line("");
    out.raw(&body.finish());
    mg.api.emit(&mut out, false, "return ", "");
    out.finish()
}
