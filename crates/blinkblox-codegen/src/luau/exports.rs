//! Exported types: a `Read`/`Write` pair each, kept in the module's `Exports` table and
//! added to the API under the type's scope and name.

use blinkblox_schema::model::TypeDecl;

use super::builder::CodeBuilder;
use super::module::ModuleGen;
use super::naming::{string_literal, type_name};
use super::payload::Param;
use super::value_path::ValuePath;

impl ModuleGen<'_> {
    /// Exported types: a Read/Write pair each, in `Exports`, added to the API.
    pub fn emit_exports(&mut self, b: &mut CodeBuilder) {
        let schema = self.schema;
        let exported: Vec<&TypeDecl> = schema.types.iter().filter(|t| t.exported).collect();
        for decl in exported {
            let flat = decl.luau_name();
            let luau = type_name(&flat);
            b.open(format!("Exports[{}] = (function()", string_literal(&flat)));
            b.open(format!("local function Reader(): {luau}"));
            b.line("local B = RecvBuffer");
            let expr = self.reader(b).read(&decl.ty, &ValuePath::root("Value"));
            b.line(format!("return {expr}"));
            b.close("end");
            b.open(format!("local function Writer(Value: {luau})"));
            let param = [Param {
                name: "Value".into(),
                ty: &decl.ty,
            }];
            self.emit_checks(b, &format!("{}.Write", flat), &param);
            let mut writer = self.writer(b, "\"\"".into());
            writer.write(&decl.ty, "Value");
            b.close("end");
            b.open("return table.freeze({");
            b.line(format!(
                "{} = function(Input: buffer, Instances: {{ any }}?): {luau} return ReadExported(Reader, Input, Instances) end,",
                self.members.read
            ));
            b.line(format!(
                "{} = function(Input: unknown, Instances: unknown): (boolean, any) return TryReadExported(Reader, Input, Instances) end,",
                self.members.try_read
            ));
            b.line(format!(
                "{} = function(Value: {luau}): (buffer, {{ any }}) return WriteExported(Writer, Value) end,",
                self.members.write
            ));
            b.close("})");
            b.close("end)()");
            let entry = vec![
                format!(
                    "{} = Exports[{}].{},",
                    self.members.read,
                    string_literal(&flat),
                    self.members.read
                ),
                format!(
                    "{} = Exports[{}].{},",
                    self.members.try_read,
                    string_literal(&flat),
                    self.members.try_read
                ),
                format!(
                    "{} = Exports[{}].{},",
                    self.members.write,
                    string_literal(&flat),
                    self.members.write
                ),
            ];
            self.api.add(&decl.scope, &decl.name, entry.clone(), entry);
        }
    }
}
