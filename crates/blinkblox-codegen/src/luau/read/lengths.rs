//! Lengths and counts: LEB128 prefixes, their bounds, and the bytes they promise checked
//! against what is left of the packet before anything is allocated or looped over; and
//! the values that are a length and bytes, strings and buffers.

use blinkblox_schema::model::LengthRange;

use super::Reader;
use crate::luau::value_path::ValuePath;

impl Reader<'_> {
    /// A string: its length (prefixed unless exact), then its bytes.
    pub(super) fn read_string(&mut self, length: &LengthRange, path: &ValuePath) -> String {
        let cursor = self.cursor;
        let len = self.read_length(length, path);
        self.need_bytes(&len);
        let text = self.local("Text", &format!("buffer.readstring(B, {cursor}, {len})"));
        self.b.line_fmt(format_args!("{cursor} += {len}"));
        text
    }

    /// A buffer: its length (prefixed unless exact), then its bytes copied into a new one.
    pub(super) fn read_buffer(&mut self, length: &LengthRange, path: &ValuePath) -> String {
        let cursor = self.cursor;
        let len = self.read_length(length, path);
        self.need_bytes(&len);
        let data = self.local("Data", &format!("buffer.create({len})"));
        self.b
            .line_fmt(format_args!("buffer.copy({data}, 0, B, {cursor}, {len})"));
        self.b.line_fmt(format_args!("{cursor} += {len}"));
        data
    }

    /// A buffer of exact length at `offset`.
    pub(super) fn read_exact_buffer(&mut self, length: &LengthRange, offset: &str) -> String {
        let n = length.exact().unwrap_or(0);
        let data = self.local("Data", &format!("buffer.create({n})"));
        self.b
            .line_fmt(format_args!("buffer.copy({data}, 0, B, {offset}, {n})"));
        data
    }

    /// A length prefix at the cursor. One byte (below 0x80: lengths up to 127) is read
    /// inline; longer prefixes go through `ReadLength`, which reads and moves
    /// `RecvCursor` (synced around the call when the cursor is the loop's local).
    fn read_length_prefix(&mut self) -> String {
        let cursor = self.cursor;
        self.need_at_cursor(1);
        let len = self.local("Length", &format!("buffer.readu8(B, {cursor})"));
        self.b.open_fmt(format_args!("if {len} < 0x80 then"));
        self.b.line_fmt(format_args!("{cursor} += 1"));
        self.b.middle("else");
        if cursor == "RecvCursor" {
            self.b.line_fmt(format_args!("{len} = ReadLength()"));
        } else {
            self.b.line_fmt(format_args!("RecvCursor = {cursor}"));
            self.b.line_fmt(format_args!("{len} = ReadLength()"));
            self.b.line_fmt(format_args!("{cursor} = RecvCursor"));
        }
        self.b.close("end");
        len
    }

    /// Before allocating or looping: `count` bytes must be left in the packet (inline:
    /// a comparison, no call).
    pub(super) fn need_bytes(&mut self, count: &str) {
        let (size, cursor) = (self.size, self.cursor);
        self.guard(format!("if {count} > {size} - {cursor} then OutOfBytes() end"));
    }

    /// Reads a length prefix (or takes the exact length) and checks its bounds.
    pub(super) fn read_length(&mut self, length: &LengthRange, path: &ValuePath) -> String {
        if let Some(n) = length.exact() {
            return n.to_string();
        }
        let len = self.read_length_prefix();
        let mut conditions = Vec::new();
        if length.min > 0 {
            conditions.push(format!("{len} < {}", length.min));
        }
        if let Some(max) = length.max {
            conditions.push(format!("{len} > {max}"));
        }
        if !conditions.is_empty() {
            let fail = self.fail(path, "length out of bounds");
            self.guard(format!("if {} then {fail} end", conditions.join(" or ")));
        }
        len
    }

    /// Before looping `count` times: each item needs at least `item_min` bytes (or a
    /// side-array slot); an item of no size at all is capped by the packet's size.
    pub(super) fn guard_count(&mut self, count: &str, item_min: u32, uses_instances: bool, path: &ValuePath) {
        if item_min > 0 {
            self.need_bytes(&format!("{count} * {item_min}"));
        } else if uses_instances {
            let fail = self.fail(path, "more items than Instances sent");
            self.guard(format!(
                "if {count} > #RecvInstances - RecvInstanceCursor then {fail} end"
            ));
        } else {
            let fail = self.fail(path, "length out of bounds");
            let size = self.size;
            self.guard(format!("if {count} > {size} then {fail} end"));
        }
    }
}
