//! How large a record's fixed parts are on a channel: the index width, and the largest record
//! the client writes with no check but its grant. Read by the module assembler (the
//! `FIXED_RECORD_BYTES` constant) and the record writers alike.

use blinkblox_schema::model::{Reliability, Schema, Side};
use blinkblox_schema::wire::resolve;

use super::payload::{Param, payload_params};

/// The width of a record's index on a channel of `schema`: 2 bytes past 256 declarations.
pub fn index_bytes(schema: &Schema, reliability: Reliability) -> u32 {
    let layout = match reliability {
        Reliability::Reliable => schema.reliable,
        Reliability::Unreliable => schema.unreliable,
    };
    if layout.index_bytes >= 2 { 2 } else { 1 }
}

/// The largest record the client writes with no check but its grant (`FIXED_RECORD_BYTES`):
/// reliable, of fixed size, and without side-array values. 0 when there is none.
pub fn largest_fixed_record(schema: &Schema) -> u32 {
    let index_bytes = index_bytes(schema, Reliability::Reliable);
    let events = schema
        .events
        .iter()
        .filter(|e| e.from == Side::Client && e.reliability == Reliability::Reliable)
        .map(|e| (0, &e.data));
    // An invocation carries a call id after its index.
    let invocations = schema.functions.iter().map(|f| (2, &f.data));
    events
        .chain(invocations)
        .filter_map(|(header, data)| {
            fixed_slot_free_size(schema, &payload_params(data)).map(|size| index_bytes + header + size)
        })
        .max()
        .unwrap_or(0)
}

/// The payload's size when it is fixed and holds no side-array values.
pub fn fixed_slot_free_size(schema: &Schema, params: &[Param]) -> Option<u32> {
    params
        .iter()
        .map(|p| {
            let layout = resolve(schema, p.ty).layout;
            if layout.uses_instances { None } else { layout.fixed_size }
        })
        .sum()
}
