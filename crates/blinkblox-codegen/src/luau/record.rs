//! Records on the sending side: `[index][header fields][payload]` written at the end of
//! the loaded batch. The fixed part is reserved in one step and `SendCursor` moves before
//! anything is written, so a write that raises leaves it past the last complete record.
//! On the client, the resident batch's packet limits are checked once a run of records
//! (`GrantRecords` in client_batch.luau), not at every record.

use blinkblox_schema::model::Reliability;
use blinkblox_schema::wire::resolve;

use super::builder::CodeBuilder;
use super::layout::{is_byte_number, offset_plus};
use super::module::ModuleGen;
use super::payload::Param;
use super::record_size::fixed_slot_free_size;
use super::stats::{Direction, RecordStats};
use super::write::Writer;

/// Where a record starts, the local holding its offset, and how its fixed part is reserved.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start<'a> {
    /// The buffer grows when the part passes its end.
    Grow(&'a str),
    /// Already, by the grant of records it is written under.
    Granted(&'a str),
}

impl ModuleGen<'_> {
    /// A record into the client's resident batch. Records are granted in runs
    /// (`GrantRecords`): `RecordsLeft` counts down, and a record finding none left, the
    /// scratch batch loaded, or (`SendCursor ~= RecordCursor`) an earlier write that raised
    /// half-way, calls `OpenClientRecord` first. A record of fixed size without side-array
    /// values fits the grant's room by construction, so it starts at `RecordCursor` (over
    /// whatever a failed write left) and has no other check.
    pub fn emit_guarded_record(
        &mut self,
        b: &mut CodeBuilder,
        reliability: Reliability,
        index: u16,
        header: &[(u32, String)],
        params: &[Param],
    ) {
        let schema = self.schema;
        let record = b.fresh("Record");
        if fixed_slot_free_size(schema, params).is_some() {
            let left = b.fresh("Left");
            b.line_fmt(format_args!("local {record} = RecordCursor"));
            b.line_fmt(format_args!("local {left} = RecordsLeft - 1"));
            b.open_fmt(format_args!("if {left} < 0 then"));
            b.line_fmt(format_args!("{record} = OpenClientRecord()"));
            b.line_fmt(format_args!("{left} = RecordsLeft - 1"));
            b.close("end");
            let end = self
                .emit_record_at(b, reliability, index, header, params, Start::Granted(&record))
                .unwrap_or_else(|| "SendCursor".to_string());
            b.line_fmt(format_args!("RecordsLeft = {left}"));
            b.line_fmt(format_args!("RecordCursor = {end}"));
            return;
        }
        let slots = params.iter().any(|p| resolve(schema, p.ty).layout.uses_instances);
        b.line_fmt(format_args!("local {record} = SendCursor"));
        b.line_fmt(format_args!(
            "if {record} ~= RecordCursor or RecordsLeft <= 0 then {record} = OpenClientRecord() end"
        ));
        let left = slots.then(|| {
            let left = b.fresh("Left");
            // Until this record is complete no other starts without opening first, which
            // removes the side-array values of a write that raised half-way.
            b.line_fmt(format_args!("local {left} = RecordsLeft"));
            b.line("RecordsLeft = 0");
            left
        });
        let end = self
            .emit_record_at(b, reliability, index, header, params, Start::Grow(&record))
            .unwrap_or_else(|| "SendCursor".to_string());
        let complete = match &left {
            Some(left) => {
                b.line_fmt(format_args!("RecordsLeft = {left} - 1"));
                // Each side-array value counts 4 bytes of the packet, as the server counts it.
                b.line("RecordRoom -= (SendInstanceCount - RecordInstances) * 4");
                format!("RecordCursor, RecordInstances = {end}, SendInstanceCount")
            }
            None => {
                b.line("RecordsLeft -= 1");
                format!("RecordCursor = {end}")
            }
        };
        // Past the grant's room (or the packet's: RecordRoom is under MAX_PACKET_SIZE), the
        // record is settled out of line: the batch is split or the grant renewed.
        let past = if self.fixed_record_bytes > 0 {
            format!("{end} + RecordsLeft * FIXED_RECORD_BYTES > RecordRoom")
        } else {
            format!("{end} > RecordRoom")
        };
        b.line_fmt(format_args!("if {past} then SettleClientRecord() else {complete} end"));
    }

    /// Writes `[index][extra header bytes][payload]` at the end of the current batch.
    /// `header` lists extra fixed fields after the index as (byte width, Luau value), e.g.
    /// a call id. Fixed-size payloads share one reservation with the index.
    pub fn emit_record(
        &mut self,
        b: &mut CodeBuilder,
        reliability: Reliability,
        index: u16,
        header: &[(u32, String)],
        params: &[Param],
    ) {
        let record = b.fresh("Record");
        b.line_fmt(format_args!("local {record} = SendCursor"));
        let _ = self.emit_record_at(b, reliability, index, header, params, Start::Grow(&record));
    }

    /// A record written alone into the scratch batch, for the caller to send or copy.
    pub fn emit_scratch_record(
        &mut self,
        b: &mut CodeBuilder,
        reliability: Reliability,
        index: u16,
        header: &[(u32, String)],
        params: &[Param],
    ) {
        b.line("BeginScratch()");
        self.emit_record(b, reliability, index, header, params);
        b.line("EndScratch()");
    }

    /// The answer `[index][call id][0]` to an invocation (`CallId`) of the function at
    /// `index`, into `Player`'s batch: the call failed, or was never run.
    pub fn emit_failed_answer(&mut self, b: &mut CodeBuilder, index: u16) {
        let header = [(2, "CallId".to_string()), (1, "0".to_string())];
        self.emit_scratch_record(b, Reliability::Reliable, index, &header, &[]);
        b.line("CopyScratchTo(Player)");
    }

    /// The record at `start` (a local holding its offset). The fixed part is reserved
    /// inline (`Allocate` without the call: this runs once per fire), or already by a
    /// grant of records, and `SendCursor`
    /// moves before anything is written, so a write that raises leaves it past the
    /// last complete record. Returns the local holding the record's end when the whole
    /// record is fixed-size (then `SendCursor` equals it after the writes).
    fn emit_record_at(
        &mut self,
        b: &mut CodeBuilder,
        reliability: Reliability,
        index: u16,
        header: &[(u32, String)],
        params: &[Param],
        start: Start,
    ) -> Option<String> {
        let record = match start {
            Start::Grow(record) | Start::Granted(record) => record,
        };
        let schema = self.schema;
        let index_bytes = self.index_bytes(reliability);
        let header_size: u32 = index_bytes + header.iter().map(|(w, _)| *w).sum::<u32>();
        let fixed_payload: Option<u32> = params
            .iter()
            .map(|p| resolve(schema, p.ty).layout.fixed_size)
            .sum::<Option<u32>>();
        let total = header_size + fixed_payload.unwrap_or(0);
        let stats = RecordStats::new(schema, reliability, index, Direction::Sent);
        stats.begin(b);
        let end = b.fresh("End");
        b.line_fmt(format_args!("local {end} = {record} + {total}"));
        if matches!(start, Start::Grow(_)) {
            b.line_fmt(format_args!("if {end} > SendSize then Grow({end}) end"));
        }
        b.line_fmt(format_args!("SendCursor = {end}"));
        // A one-byte index followed by a u8/i8 payload field: one 16-bit write. bit32
        // converts the value exactly as writeu8 does (truncated to an unsigned 32-bit
        // integer), and the shift keeps its low byte, so the bytes are the same.
        let merged_first = header.is_empty()
            && index_bytes == 1
            && fixed_payload.is_some()
            && params.first().is_some_and(|p| is_byte_number(resolve(schema, p.ty)));
        let index_write = if index_bytes == 2 { "writeu16" } else { "writeu8" };
        let mut at = index_bytes;
        let mut rest = params;
        match params.first() {
            Some(first) if merged_first => {
                b.line_fmt(format_args!(
                    "buffer.writeu16(SendBuffer, {record}, bit32.lshift({}, 8) + {index})",
                    first.name
                ));
                at += 1;
                rest = &params[1..];
            }
            _ => b.line_fmt(format_args!("buffer.{index_write}(SendBuffer, {record}, {index})")),
        }
        for (width, value) in header {
            let call = match width {
                1 => "writeu8",
                2 => "writeu16",
                _ => "writeu32",
            };
            b.line_fmt(format_args!(
                "buffer.{call}(SendBuffer, {}, {value})",
                offset_plus(record, at)
            ));
            at += width;
        }
        let mut writer = self.writer(b, "\"\"".into());
        for param in rest {
            let write = |w: &mut Writer<'_>| match fixed_payload {
                Some(_) => w.write_at(param.ty, &param.name, &offset_plus(record, at)),
                None => w.write(param.ty, &param.name),
            };
            // A tuple's values each end their locals, as a struct's fields do.
            if params.len() > 1 {
                writer.scoped(write)
            } else {
                write(&mut writer)
            }
            at += resolve(schema, param.ty).layout.fixed_size.unwrap_or(0);
        }
        stats.end(b, &format!("SendCursor - {record}"));
        fixed_payload.map(|_| end)
    }
}
