//! Writing `T?`: a flag byte, 1 before the value or 0 for nil; `Instance?` and
//! `unknown?` carry no flag, their nil travels in the side array.

use blinkblox_schema::model::Type;
use blinkblox_schema::wire::{optional_has_flag, resolve};

use super::Writer;
use crate::luau::layout::offset_plus;

impl Writer<'_> {
    /// A flagged optional of variable size at the end of the batch.
    pub(super) fn write_optional(&mut self, inner: &Type, value: &str) {
        let value = self.bind(value);
        let inner_ty = resolve(self.schema, inner);
        self.b.open_fmt(format_args!("if {value} ~= nil then"));
        match inner_ty.layout.fixed_size {
            Some(size) => {
                let offset = self.b.fresh("O");
                self.b.line_fmt(format_args!("local {offset} = Allocate({})", size + 1));
                self.b.line_fmt(format_args!("buffer.writeu8(SendBuffer, {offset}, 1)"));
                let at = offset_plus(&offset, 1);
                self.write_at(inner_ty, &value, &at);
            }
            None => {
                self.b.line("buffer.writeu8(SendBuffer, Allocate(1), 1)");
                self.write(inner_ty, &value);
            }
        }
        self.b.middle("else");
        self.b.line("buffer.writeu8(SendBuffer, Allocate(1), 0)");
        self.b.close("end");
    }

    /// An optional of fixed size at `offset`: `Instance?`/`unknown?` as a slot, any other
    /// as a flag before a value of no bytes (it may still carry Instances).
    pub(super) fn write_optional_at(&mut self, inner: &Type, value: &str, offset: &str) {
        if !optional_has_flag(self.schema, inner) {
            // `Instance?`/`unknown?`: nil travels in the side array.
            self.b.line_fmt(format_args!("WriteSlot({value})"));
            return;
        }
        let v = self.bind(value);
        self.b.line_fmt(format_args!(
            "buffer.writeu8(SendBuffer, {offset}, if {v} ~= nil then 1 else 0)"
        ));
        self.b.open_fmt(format_args!("if {v} ~= nil then"));
        let at = offset_plus(offset, 1);
        self.write_at(inner, &v, &at);
        self.b.close("end");
    }
}
