//! Reading an array of strings as `write/string_arrays.rs` lays it out: every length first,
//! each checked against its bounds and kept in the array's own slot, then, once their sum
//! is checked against the bytes left, each slot replaced by its string.

use blinkblox_schema::model::LengthRange;

use super::Reader;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// The `len` strings (of `length` each) at the cursor, into a new table `array`.
    pub(super) fn read_string_array(&mut self, array: &str, len: &str, length: &LengthRange, item_path: &ValuePath) {
        self.b
            .line_fmt(format_args!("local {array}: {{ any }} = table.create({len})"));
        let total = self.local("Total", "0");
        let position = self.b.fresh("I");
        self.b.open_fmt(format_args!("for {position} = 1, {len} do"));
        let item_len = self.read_length(length, item_path);
        self.b.line_fmt(format_args!("{array}[{position}] = {item_len}"));
        self.b.line_fmt(format_args!("{total} += {item_len}"));
        self.b.close("end");
        self.need_bytes(&total);
        let cursor = self.cursor;
        self.b.open_fmt(format_args!("for {position} = 1, {len} do"));
        let item_len = self.local("Length", &format!("{array}[{position}]"));
        self.b.line_fmt(format_args!(
            "{array}[{position}] = buffer.readstring(B, {cursor}, {item_len})"
        ));
        self.b.line_fmt(format_args!("{cursor} += {item_len}"));
        self.b.close("end");
    }
}
