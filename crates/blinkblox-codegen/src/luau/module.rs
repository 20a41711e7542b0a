//! What the Server and Client modules share while one is generated: the schema, the
//! side, the member names, the constant tables and the API table ([`ModuleGen`]), and
//! the parts of the module every side emits alike (preamble, tables, checks).
//!
//! Other parts of a module add to `ModuleGen` where they are written: records
//! (`record.rs`), exported types (`exports.rs`), the decode loop (`decode.rs`), delivery
//! to listeners (`listeners.rs`).

use blinkblox_schema::model::{Reliability, Schema, Side};

use super::api::{ApiItem, ApiNode};
use super::banner::header;
use super::builder::CodeBuilder;
use super::lookups::Lookups;
use super::naming::{Members, string_literal};
use super::payload::Param;
use super::read::Reader;
use super::runtime::{self, PRELUDE, RECEIVE};
use super::types::emit_type_block;
use super::value_path::ValuePath;
use super::write::Writer;

/// Shared state while one module is generated.
pub struct ModuleGen<'a> {
    pub schema: &'a Schema,
    pub side: Side,
    pub members: Members,
    pub lookups: Lookups,
    pub api: ApiNode,
}

impl<'a> ModuleGen<'a> {
    pub fn new(schema: &'a Schema, side: Side) -> ModuleGen<'a> {
        ModuleGen {
            schema,
            side,
            members: Members::new(schema.options.casing),
            lookups: Lookups::default(),
            api: ApiNode::default(),
        }
    }

    /// Puts `StepReplication` first in the module's API table (both sides export it).
    pub fn add_step_replication(&mut self) {
        self.api.entries.insert(
            0,
            (
                self.members.step_replication.to_string(),
                ApiItem::Value {
                    real: "StepReplication".into(),
                    noop: "Noop".into(),
                },
            ),
        );
    }

    pub fn writer<'b>(&'b mut self, b: &'b mut CodeBuilder, context: String) -> Writer<'b> {
        Writer {
            schema: self.schema,
            b,
            lookups: &mut self.lookups,
            context,
            allow_non_finite: self.schema.options.allow_non_finite,
            form: Default::default(),
        }
    }

    pub fn reader<'b>(&'b mut self, b: &'b mut CodeBuilder) -> Reader<'b> {
        Reader {
            schema: self.schema,
            b,
            lookups: &mut self.lookups,
            allow_non_finite: self.schema.options.allow_non_finite,
            cursor: "RecvCursor",
            size: "RecvSize",
            form: Default::default(),
            packet_text: None,
        }
    }

    /// The width of a record's index on a channel: 2 bytes past 256 declarations.
    pub fn index_bytes(&self, reliability: Reliability) -> u32 {
        let layout = match reliability {
            Reliability::Reliable => self.schema.reliable,
            Reliability::Unreliable => self.schema.unreliable,
        };
        if layout.index_bytes >= 2 { 2 } else { 1 }
    }

    /// WriteValidations checks for a payload, emitted before anything is written.
    pub fn emit_checks(&mut self, b: &mut CodeBuilder, context: &str, params: &[Param]) {
        if !self.schema.options.write_validations {
            return;
        }
        let mut writer = self.writer(b, string_literal(context));
        for param in params {
            let check = |w: &mut Writer<'_>| w.check(param.ty, &param.name, &ValuePath::root(&param.name));
            // A tuple's values each end their locals, as a struct's fields do.
            if params.len() > 1 {
                writer.scoped(check)
            } else {
                check(&mut writer)
            }
        }
    }

    /// `local Lookups = {}` and its constant tables.
    pub fn emit_lookups(&self, b: &mut CodeBuilder) {
        b.line("local Lookups = {}");
        for definition in self.lookups.definitions() {
            b.line(definition);
        }
        b.line("");
    }

    /// The prefix every module shares: header, services, types, runtime parts.
    pub fn emit_preamble(&self, b: &mut CodeBuilder, what: &str) {
        header(b, what);
        b.line("local ReplicatedStorage = game:GetService(\"ReplicatedStorage\")");
        b.line("local RunService = game:GetService(\"RunService\")");
        b.line("local Players = game:GetService(\"Players\")");
        b.line("");
        emit_type_block(b, self.schema);
        b.line(format!(
            "local MAX_UNRELIABLE_SIZE = {}",
            self.schema.options.max_unreliable_size
        ));
        // Limits on packets from clients (read by `ReceiveFromClient`, server side).
        let options = &self.schema.options;
        b.line(format!("local MAX_PACKET_SIZE = {}", options.max_packet_size));
        b.line(format!(
            "local MAX_EVENTS_PER_PACKET = {}",
            options.max_events_per_packet
        ));
        b.line(format!(
            "local INBOUND_BYTES_PER_SECOND = {}",
            options.inbound_bytes_per_second
        ));
        b.line(format!("local INBOUND_BURST = {}", options.inbound_burst));
        runtime::emit(b, PRELUDE);
        b.line(format!(
            "local SYNC_VALIDATION = {}",
            self.schema.options.sync_validation
        ));
        runtime::emit(b, RECEIVE);
    }

    /// Module-level tables every per-declaration function stores into or reads.
    pub fn emit_tables(&self, b: &mut CodeBuilder) {
        b.line("local ReliableListeners: { any } = {}");
        b.line("local UnreliableListeners: { any } = {}");
        b.line("local ReliableQueues: { Queue } = {}");
        b.line("local UnreliableQueues: { Queue } = {}");
        b.line("local FunctionListeners: { any } = {}");
        b.line("local FunctionQueues: { Queue } = {}");
        b.line("local Responders: { any } = {}");
        b.line("local Invokers: { any } = {}");
        b.line("local Readers: { [string]: any } = {}");
        b.line("local ScratchWriters: { [string]: any } = {}");
        b.line("local Exports: { [string]: any } = {}");
        let reliable = self.schema.reliable.count;
        let unreliable = self.schema.unreliable.count;
        if reliable > 0 {
            b.line(format!(
                "for Slot = 1, {reliable} do ReliableQueues[Slot] = NewQueue() end"
            ));
            b.line(format!(
                "for Slot = 1, {reliable} do FunctionQueues[Slot] = NewQueue() end"
            ));
        }
        if unreliable > 0 {
            b.line(format!(
                "for Slot = 1, {unreliable} do UnreliableQueues[Slot] = NewQueue() end"
            ));
        }
        // Every listener slot exists from the start (false = none), so the slots live
        // in the tables' array parts: a slot filled alone would sit in the hash part
        // and cost the decode loop a hash lookup per record.
        if reliable > 0 {
            b.line(format!(
                "for Slot = 1, {reliable} do ReliableListeners[Slot] = false; FunctionListeners[Slot] = false end"
            ));
        }
        if unreliable > 0 {
            b.line(format!(
                "for Slot = 1, {unreliable} do UnreliableListeners[Slot] = false end"
            ));
        }
        b.line("");
    }
}
