//! Writing strings and buffers (a LEB128 length unless exact, then the bytes), and the
//! reservation of a length prefix together with the bytes that follow it.

use blinkblox_schema::model::LengthRange;

use super::Writer;

impl Writer<'_> {
    pub(super) fn write_string(&mut self, length: &LengthRange, value: &str) {
        self.write_sized(length, value, true);
    }

    pub(super) fn write_buffer(&mut self, length: &LengthRange, value: &str) {
        self.write_sized(length, value, false);
    }

    pub(super) fn write_exact_string(&mut self, length: &LengthRange, value: &str, offset: &str) {
        let n = length.exact().unwrap_or(0);
        self.b
            .line_fmt(format_args!("buffer.writestring(SendBuffer, {offset}, {value}, {n})"));
    }

    pub(super) fn write_exact_buffer(&mut self, length: &LengthRange, value: &str, offset: &str) {
        let n = length.exact().unwrap_or(0);
        self.b
            .line_fmt(format_args!("buffer.copy(SendBuffer, {offset}, {value}, 0, {n})"));
    }

    /// A string (`is_string`) or a buffer: its length unless exact, then its bytes.
    fn write_sized(&mut self, length: &LengthRange, value: &str, is_string: bool) {
        let value = self.bind(value);
        let len = self.b.fresh("Length");
        let offset = self.b.fresh("O");
        match length.exact() {
            Some(n) => {
                self.b.line_fmt(format_args!("local {len} = {n}"));
                self.b.line_fmt(format_args!("local {offset} = Allocate({len})"));
            }
            None => {
                let measure = if is_string {
                    format!("#{value}")
                } else {
                    format!("buffer.len({value})")
                };
                self.b.line_fmt(format_args!("local {len} = {measure}"));
                self.reserve_with_length(&offset, &len, &len);
            }
        }
        if is_string {
            self.b
                .line_fmt(format_args!("buffer.writestring(SendBuffer, {offset}, {value}, {len})"));
        } else {
            self.b
                .line_fmt(format_args!("buffer.copy(SendBuffer, {offset}, {value}, 0, {len})"));
        }
    }

    /// `local offset`: `bytes` reserved after the LEB128 prefix of `len`, as
    /// `WriteLength(len)` then `Allocate(bytes)` would, with lengths under 2^14 (one or
    /// two prefix bytes) done inline in one reservation: two calls fewer per value.
    pub(super) fn reserve_with_length(&mut self, offset: &str, len: &str, bytes: &str) {
        let at = self.b.fresh("At");
        let stop = self.b.fresh("Stop");
        self.b.line_fmt(format_args!("local {offset}: number"));
        self.b.open_fmt(format_args!("if {len} < 0x4000 then"));
        self.b.line_fmt(format_args!("local {at} = SendCursor"));
        self.b.line_fmt(format_args!(
            "local {stop} = {at} + (if {len} < 0x80 then 1 else 2) + {bytes}"
        ));
        self.b
            .line_fmt(format_args!("if {stop} > SendSize then Grow({stop}) end"));
        self.b.line_fmt(format_args!("SendCursor = {stop}"));
        self.b.open_fmt(format_args!("if {len} < 0x80 then"));
        self.b.line_fmt(format_args!("buffer.writeu8(SendBuffer, {at}, {len})"));
        self.b.line_fmt(format_args!("{offset} = {at} + 1"));
        self.b.middle("else");
        // Low seven bits with the continuation bit, then the rest: little-endian u16.
        self.b.line_fmt(format_args!(
            "buffer.writeu16(SendBuffer, {at}, {len} % 0x80 + 0x80 + {len} // 0x80 * 0x100)"
        ));
        self.b.line_fmt(format_args!("{offset} = {at} + 2"));
        self.b.close("end");
        self.b.middle("else");
        self.b.line_fmt(format_args!("WriteLength({len})"));
        self.b.line_fmt(format_args!("{offset} = Allocate({bytes})"));
        self.b.close("end");
    }
}
