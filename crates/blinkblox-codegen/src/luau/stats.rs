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

/// Every declaration with its channel, its index there, its scope and its name.
fn declarations(schema: &Schema) -> impl Iterator<Item = (Reliability, u16, &[String], &str)> + '_ {
    let events = schema
        .events
        .iter()
        .map(|e| (e.reliability, e.index, e.scope.as_slice(), e.name.as_str()));
    let functions = schema
        .functions
        .iter()
        .map(|f| (Reliability::Reliable, f.index, f.scope.as_slice(), f.name.as_str()));
    let streams = schema
        .streams
        .iter()
        .map(|s| (s.reliability, s.index, s.scope.as_slice(), s.name.as_str()));
    events.chain(functions).chain(streams)
}

/// Every declaration's dotted name by slot, as a Luau table.
pub fn stats_names(schema: &Schema) -> String {
    let count = (schema.reliable.count + schema.unreliable.count) as usize;
    let mut names = vec![String::new(); count];
    for (reliability, index, scope, name) in declarations(schema) {
        if let Some(entry) = names.get_mut(slot(schema, reliability, index) as usize - 1) {
            *entry = string_literal(&dotted_name(scope, name));
        }
    }
    format!("{{ {} }}", names.join(", "))
}

/// Where the two counts of one direction of a declaration begin in `StatsCounts`: records,
/// then bytes.
fn first_count(schema: &Schema, reliability: Reliability, index: u16, direction: Direction) -> u32 {
    let within = match direction {
        Direction::Sent => 1,
        Direction::Received => 3,
    };
    4 * (slot(schema, reliability, index) - 1) + within
}

/// Option Stats: a function counting one record of the declaration at `index` that the runtime
/// sends itself (a delta stream's), `Bytes` long; `nil` without the option.
pub fn sent_counter(schema: &Schema, reliability: Reliability, index: u16) -> String {
    if !schema.options.stats {
        return "nil".to_string();
    }
    let first = first_count(schema, reliability, index, Direction::Sent);
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
            let first = first_count(self.schema, self.reliability, self.index, self.direction);
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

    /// Whether the record is counted, so that the caller keeps where it starts.
    pub fn counts(&self) -> bool {
        self.schema.options.stats
    }
}

/// The dotted name of the declaration at `index` on a channel.
fn name_at(schema: &Schema, reliability: Reliability, index: u16) -> String {
    declarations(schema)
        .find(|(r, i, _, _)| *r == reliability && *i == index)
        .map(|(_, _, scope, name)| dotted_name(scope, name))
        .unwrap_or_default()
}
