//! The Stats and ProfileLabels options: where each declaration's counts live, and the lines
//! that count a record and label its write or read. Nothing is emitted when both are off.

use blinkblox_schema::model::{Reliability, Schema};
use blinkblox_schema::print::dotted_name;

use super::builder::CodeBuilder;
use super::naming::string_literal;

/// A declaration's slot in `STATS_NAMES` (from 1): the reliable channel's indices, then the
/// unreliable channel's.
fn slot(schema: &Schema, reliability: Reliability, index: u16) -> u32 {
    let before = match reliability {
        Reliability::Reliable => 0,
        Reliability::Unreliable => schema.reliable.count,
    };
    before + u32::from(index) + 1
}

/// Every declaration with its channel, its index there and its dotted name.
fn declarations(schema: &Schema) -> impl Iterator<Item = (Reliability, u16, String)> + '_ {
    let events = schema
        .events
        .iter()
        .map(|e| (e.reliability, e.index, dotted_name(&e.scope, &e.name)));
    let functions = schema
        .functions
        .iter()
        .map(|f| (Reliability::Reliable, f.index, dotted_name(&f.scope, &f.name)));
    let streams = schema
        .streams
        .iter()
        .map(|s| (s.reliability, s.index, dotted_name(&s.scope, &s.name)));
    events.chain(functions).chain(streams)
}

/// Every declaration's dotted name by slot, as a Luau table.
pub fn stats_names(schema: &Schema) -> String {
    let count = (schema.reliable.count + schema.unreliable.count) as usize;
    let mut names = vec![String::new(); count];
    for (reliability, index, name) in declarations(schema) {
        if let Some(entry) = names.get_mut(slot(schema, reliability, index) as usize - 1) {
            *entry = string_literal(&name);
        }
    }
    format!("{{ {} }}", names.join(", "))
}

/// Option Stats: a function counting one record of the declaration at `index` that the runtime
/// sends itself (a delta stream's), `Bytes` long; `nil` without the option.
pub fn sent_counter(schema: &Schema, reliability: Reliability, index: u16) -> String {
    if !schema.options.stats {
        return "nil".to_string();
    }
    let first = 4 * (slot(schema, reliability, index) - 1) + 1;
    format!(
        "function(Bytes: number) StatsCounts[{first}] += 1; StatsCounts[{}] += Bytes end",
        first + 1
    )
}

/// Which way a record goes, for its counts and its label.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Sent,
    Received,
}

/// What the two options add around one record of one declaration.
pub struct RecordStats<'a> {
    schema: &'a Schema,
    reliability: Reliability,
    index: u16,
    direction: Direction,
}

impl<'a> RecordStats<'a> {
    pub fn new(schema: &'a Schema, reliability: Reliability, index: u16, direction: Direction) -> RecordStats<'a> {
        RecordStats {
            schema,
            reliability,
            index,
            direction,
        }
    }

    /// Opens the record's microprofiler label (`Combat.Hit write`).
    pub fn begin(&self, b: &mut CodeBuilder) {
        if !self.schema.options.profile_labels {
            return;
        }
        let name = name_at(self.schema, self.reliability, self.index);
        match self.direction {
            Direction::Sent => b.line_fmt(format_args!(
                "BeginWriteLabel({})",
                string_literal(&format!("{name} write"))
            )),
            Direction::Received => {
                b.line_fmt(format_args!(
                    "debug.profilebegin({})",
                    string_literal(&format!("{name} read"))
                ));
                b.line("OpenReadLabels = 1");
            }
        }
    }

    /// Counts the record, `bytes` (a Luau expression) long, and closes its label.
    pub fn end(&self, b: &mut CodeBuilder, bytes: &str) {
        if self.schema.options.stats {
            let first = 4 * (slot(self.schema, self.reliability, self.index) - 1)
                + match self.direction {
                    Direction::Sent => 1,
                    Direction::Received => 3,
                };
            b.line_fmt(format_args!("StatsCounts[{first}] += 1"));
            b.line_fmt(format_args!("StatsCounts[{}] += {bytes}", first + 1));
        }
        if self.schema.options.profile_labels {
            match self.direction {
                Direction::Sent => b.line("CloseWriteLabel()"),
                Direction::Received => {
                    b.line("debug.profileend()");
                    b.line("OpenReadLabels = 0");
                }
            }
        }
    }

    /// Whether either option is on, so that the caller keeps where the record starts.
    pub fn any(&self) -> bool {
        self.schema.options.stats || self.schema.options.profile_labels
    }
}

/// The dotted name of the declaration at `index` on a channel.
fn name_at(schema: &Schema, reliability: Reliability, index: u16) -> String {
    declarations(schema)
        .find(|(r, i, _)| *r == reliability && *i == index)
        .map(|(_, _, name)| name)
        .unwrap_or_default()
}
