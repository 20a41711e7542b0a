//! Records on the sending side: `[index][header fields][payload]` written at the end of
//! the loaded batch. The fixed part is reserved in one step and `SendCursor` moves before
//! anything is written, so a write that raises leaves it past the last complete record.

use blinkblox_schema::model::Reliability;
use blinkblox_schema::wire::resolve;

use super::builder::CodeBuilder;
use super::layout::{is_byte_number, offset_plus};
use super::module::ModuleGen;
use super::payload::Param;
use super::write::Writer;

impl ModuleGen<'_> {
    /// A record into the client's resident batch. `RecordCursor` is where the last
    /// complete record ends: a record that raised half-way leaves `SendCursor` past it
    /// (every record reserves its bytes before writing them), and a loaded scratch batch
    /// sets it to -1, so one comparison finds both, and `OpenClientRecord` rolls back.
    pub fn emit_guarded_record(
        &mut self,
        b: &mut CodeBuilder,
        reliability: Reliability,
        index: u16,
        header: &[(u32, String)],
        params: &[Param],
    ) {
        let record = b.fresh("Record");
        b.line(format!("local {record} = SendCursor"));
        // A full packet goes now (MaxEventsPerPacket, send_client.luau).
        b.line(format!(
            "if {record} ~= RecordCursor or ClientRecords >= MAX_EVENTS_PER_PACKET then {record} = OpenClientRecord() end"
        ));
        let fixed_end = self.emit_record_at(b, reliability, index, header, params, &record);
        b.line("ClientRecords += 1");
        // Past MaxPacketSize (side-array values count 4 bytes, as the server counts
        // them): what came before this record goes now. SplitClientBatch reads the
        // record's start from RecordCursor and marks it complete itself; otherwise it is
        // marked here. A fixed-size record ends at its local (no upvalue read).
        let end = fixed_end.unwrap_or_else(|| "SendCursor".to_string());
        let schema = self.schema;
        let complete = if params.iter().any(|p| resolve(schema, p.ty).layout.uses_instances) {
            format!("RecordCursor, RecordInstances = {end}, SendInstanceCount")
        } else {
            // Nothing was added to the side array: RecordInstances is still its count.
            format!("RecordCursor = {end}")
        };
        b.line(format!(
            "if {end} + SendInstanceCount * 4 > MAX_PACKET_SIZE then SplitClientBatch() else {complete} end"
        ));
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
        b.line(format!("local {record} = SendCursor"));
        let _ = self.emit_record_at(b, reliability, index, header, params, &record);
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

    /// The record at `record` (a local holding `SendCursor`). The fixed part is reserved
    /// inline (`Allocate` without the call: this runs once per fire) and `SendCursor`
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
        record: &str,
    ) -> Option<String> {
        let schema = self.schema;
        let index_bytes = self.index_bytes(reliability);
        let header_size: u32 = index_bytes + header.iter().map(|(w, _)| *w).sum::<u32>();
        let fixed_payload: Option<u32> = params
            .iter()
            .map(|p| resolve(schema, p.ty).layout.fixed_size)
            .sum::<Option<u32>>();
        let total = header_size + fixed_payload.unwrap_or(0);
        let end = b.fresh("End");
        b.line(format!("local {end} = {record} + {total}"));
        b.line(format!("if {end} > SendSize then Grow({end}) end"));
        b.line(format!("SendCursor = {end}"));
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
                b.line(format!(
                    "buffer.writeu16(SendBuffer, {record}, bit32.lshift({}, 8) + {index})",
                    first.name
                ));
                at += 1;
                rest = &params[1..];
            }
            _ => b.line(format!("buffer.{index_write}(SendBuffer, {record}, {index})")),
        }
        for (width, value) in header {
            let call = match width {
                1 => "writeu8",
                2 => "writeu16",
                _ => "writeu32",
            };
            b.line(format!(
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
        fixed_payload.map(|_| end)
    }
}
