//! The Types module: the exported types and their `Read`/`Write`, no remotes.

use blinkblox_schema::model::{Schema, Side};

use super::builder::CodeBuilder;
use super::module::ModuleGen;
use super::runtime::TYPES;

/// `require` is how game code requires the module, written in its header when known.
pub fn generate<'a>(schema: &'a Schema, require: Option<&'a str>) -> String {
    let mut mg = ModuleGen::new(schema, Side::Server);
    mg.require = require;
    let mut body = CodeBuilder::new();
    mg.emit_exports(&mut body);
    let mut tail = CodeBuilder::new();
    mg.api.emit(&mut tail, false, "return ", "");
    mg.assemble("Types module", TYPES, &body.finish(), &tail.finish())
}
