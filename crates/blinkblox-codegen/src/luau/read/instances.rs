//! Reading the values that travel in the side array: Instances (checked by `typeof` and
//! their class), `unknown` values, and `Instance?`/`unknown?`, whose nil is a slot too.

use blinkblox_schema::model::{Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Reader;
use crate::luau::naming::string_literal;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// An Instance, of `class` when the schema names one.
    pub(super) fn read_instance(&mut self, class: Option<&str>, path: &ValuePath) -> String {
        let instance = self.local("Instance", "ReadSlot()");
        let fail = self.fail(path, "not an Instance of the declared class");
        match class {
            // Cast: a value refined from `any` by `typeof` is not callable to the new solver.
            Some(class) => self.guard(format!(
                "if typeof({instance}) ~= \"Instance\" or not ({instance} :: Instance):IsA({}) then {fail} end",
                string_literal(class)
            )),
            None => self.guard(format!("if typeof({instance}) ~= \"Instance\" then {fail} end")),
        }
        instance
    }

    /// `Instance?` or `unknown?`: the slot's value, nil included.
    pub(super) fn read_optional_slot(&mut self, inner: &Type, path: &ValuePath) -> String {
        let slot = self.local("Slot", "ReadSlot()");
        if let TypeKind::Instance { class } = &resolve(self.schema, inner).kind {
            // A slot that holds no Instance is nil (Roblox sends nil for an
            // Instance the receiver cannot see); one of the wrong class is an error.
            self.b
                .line_fmt(format_args!("if typeof({slot}) ~= \"Instance\" then {slot} = nil end"));
            if let Some(class) = class {
                let fail = self.fail(path, "not an Instance of the declared class");
                self.b.line_fmt(format_args!(
                    "if {slot} ~= nil and not ({slot} :: Instance):IsA({}) then {fail} end",
                    string_literal(class)
                ));
            }
        }
        slot
    }
}
