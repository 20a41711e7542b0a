//! Exported types: a `Read`/`Write` pair each, kept in the module's `Exports` table and
//! added to the API under the type's scope and name.

use blinkblox_schema::model::TypeDecl;

use super::builder::CodeBuilder;
use super::markers::describe;
use super::module::ModuleGen;
use super::naming::type_name;
use super::payload::Param;
use super::value_path::ValuePath;

impl ModuleGen<'_> {
    /// Exported types: a reader and a writer each (`ReadEntity`, `WriteEntity`), and the API's
    /// `Read`/`TryRead`/`Write` on standalone buffers.
    pub fn emit_exports(&mut self, b: &mut CodeBuilder) {
        let schema = self.schema;
        let exported: Vec<&TypeDecl> = schema.types.iter().filter(|t| t.exported).collect();
        for decl in exported {
            let flat = decl.luau_name();
            let luau = type_name(&flat);
            let reader = self.function_name("Read", &decl.scope, &decl.name);
            let writer_name = self.function_name("Write", &decl.scope, &decl.name);
            b.line_fmt(format_args!("-- {} (type)", describe(&decl.scope, &decl.name)));
            self.open_function(b, &reader, &format!("(): {luau}"));
            b.line("local B = RecvBuffer");
            let expr = self.reader(b).read(&decl.ty, &ValuePath::root("Value"));
            b.line_fmt(format_args!("return {expr}"));
            b.close("end");
            b.line("");
            self.open_function(b, &writer_name, &format!("(Value: {luau})"));
            let param = [Param {
                name: "Value".into(),
                ty: &decl.ty,
            }];
            self.emit_checks(b, &format!("{}.Write", flat), &param);
            let mut writer = self.writer(b, "\"\"".into());
            writer.write(&decl.ty, "Value");
            b.close("end");
            b.line("");
            let m = self.members;
            let entry = vec![
                format!(
                    "{} = @native function(Input: buffer, Instances: {{ any }}?): {luau}\n\treturn ReadExported({reader}, Input, Instances)\nend,",
                    m.read
                ),
                format!(
                    "{} = @native function(Input: unknown, Instances: unknown): (boolean, {luau} | string)\n\treturn TryReadExported({reader}, Input, Instances)\nend,",
                    m.try_read
                ),
                format!(
                    "{} = @native function(Value: {luau}): (buffer, {{ any }})\n\treturn WriteExported({writer_name}, Value)\nend,",
                    m.write
                ),
            ];
            self.api.add(&decl.scope, &decl.name, entry.clone(), entry);
        }
    }
}
