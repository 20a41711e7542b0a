//! Reading `T?` with a presence flag: a byte 1 before the value, 0 for nil, anything
//! else refused. (`Instance?` and `unknown?` carry no flag: `instances.rs`.)

use blinkblox_schema::model::Type;

use super::Reader;
use crate::luau::layout::offset_plus;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// A flagged optional at the cursor.
    pub(super) fn read_optional(&mut self, inner: &Type, path: &ValuePath) -> String {
        let cursor = self.cursor;
        self.need_at_cursor(1);
        let flag = self.local("Flag", &format!("buffer.readu8(B, {cursor})"));
        self.b.line_fmt(format_args!("{cursor} += 1"));
        self.read_flagged(&flag, path, |reader| reader.read(inner, path))
    }

    /// A flagged optional of fixed size at `offset`: a flag before a value of no bytes
    /// (it may still carry Instances).
    pub(super) fn read_optional_at(&mut self, inner: &Type, offset: &str, path: &ValuePath) -> String {
        let flag = self.local("Flag", &format!("buffer.readu8(B, {offset})"));
        self.read_flagged(&flag, path, |reader| {
            reader.read_at(inner, &offset_plus(offset, 1), path)
        })
    }

    /// The value `read_inner` reads when the local `flag` is 1, nil when it is 0.
    fn read_flagged(&mut self, flag: &str, path: &ValuePath, read_inner: impl FnOnce(&mut Self) -> String) -> String {
        let value = self.b.fresh("Maybe");
        self.b.line_fmt(format_args!("local {value}: any = nil"));
        self.b.open_fmt(format_args!("if {flag} == 1 then"));
        let inner_value = read_inner(self);
        self.b.line_fmt(format_args!("{value} = {inner_value}"));
        self.b.middle(format!("elseif {flag} ~= 0 then"));
        let fail = self.fail(path, "optional flag is not 0 or 1");
        self.b.line(fail);
        self.b.close("end");
        value
    }
}
