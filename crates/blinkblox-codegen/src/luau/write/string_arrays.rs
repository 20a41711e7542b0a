//! Writing an array of strings: every length first, then the bytes of all the strings
//! as one run. The run is `table.concat` of the array and one `buffer.writestring`: one
//! builtin call for the whole array instead of one per string, which is most of what a
//! string costs to send.

use super::Writer;

/// The most bytes a LEB128 length of a string takes (lengths under 2^35).
const MAX_LENGTH_BYTES: u32 = 5;

impl Writer<'_> {
    /// The elements of `array` (its count `len` already written, or exact): each string's
    /// LEB128 length, then their bytes in order.
    pub(super) fn write_string_array(&mut self, array: &str, len: &str) {
        let total = self.b.fresh("Total");
        let cursor = self.b.fresh("P");
        let buffer = self.b.fresh("Buffer");
        let position = self.b.fresh("I");
        let length = self.b.fresh("Length");
        self.b.line_fmt(format_args!("local {total} = 0"));
        // Room for the longest lengths, taken once and given back after the loop: the
        // one-byte lengths (strings under 128 bytes) are then written through locals, with
        // no check of the batch's size each.
        self.b
            .line_fmt(format_args!("local {cursor} = Allocate({len} * {MAX_LENGTH_BYTES})"));
        self.b.line_fmt(format_args!("local {buffer} = SendBuffer"));
        self.b.open_fmt(format_args!("for {position} = 1, {len} do"));
        self.b.line_fmt(format_args!("local {length} = #{array}[{position}]"));
        self.b.open_fmt(format_args!("if {length} < 0x80 then"));
        self.b
            .line_fmt(format_args!("buffer.writeu8({buffer}, {cursor}, {length})"));
        self.b.line_fmt(format_args!("{cursor} += 1"));
        self.b.middle("else");
        // A longer length through the runtime's writer, into the room already taken: it
        // allocates from the cursor, which stays inside it, so the buffer is not replaced.
        self.b.line_fmt(format_args!("SendCursor = {cursor}"));
        self.b.line_fmt(format_args!("WriteLength({length})"));
        self.b.line_fmt(format_args!("{cursor} = SendCursor"));
        self.b.close("end");
        self.b.line_fmt(format_args!("{total} += {length}"));
        self.b.close("end");
        self.b.line_fmt(format_args!("SendCursor = {cursor}"));
        let offset = self.b.fresh("O");
        self.b.line_fmt(format_args!("local {offset} = Allocate({total})"));
        // Every element was measured above: `#` raises on anything but a string or a
        // table, and `table.concat` on a table, so the run is `total` bytes.
        self.b.line_fmt(format_args!(
            "buffer.writestring(SendBuffer, {offset}, table.concat({array}, \"\", 1, {len}), {total})"
        ));
    }
}
