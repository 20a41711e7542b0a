//! What the Server and Client modules share while one is generated: the schema, the
//! side, the member names, the constant tables and the API table ([`ModuleGen`]), and
//! the parts of the module every side emits alike (preamble, tables, checks).
//!
//! Other parts of a module add to `ModuleGen` where they are written: records
//! (`record.rs`), exported types (`exports.rs`), the decode loop (`decode.rs`), delivery
//! to listeners (`listeners.rs`).

use std::collections::BTreeSet;

use blinkblox_schema::model::{Reliability, Schema, Side, flat_name};

use super::api::{ApiItem, ApiNode};
use super::banner::header;
use super::builder::CodeBuilder;
use super::lookups::Lookups;
use super::naming::{Members, string_literal, type_name};
use super::payload::Param;
use super::read::Reader;
use super::record_size::{index_bytes, largest_fixed_record};
use super::runtime::{self, Part, Words};
use super::stats::stats_names;
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
    /// The per-declaration functions' names so far.
    function_names: BTreeSet<String>,
    /// The server's responder of each function (`RespondTrade`), in the schema's order.
    pub responders: Vec<String>,
    /// Whether they are fields of the `Functions` table rather than locals (a large schema: a
    /// function may have 200 locals, the module's top level included).
    functions_in_table: bool,
    /// `FIXED_RECORD_BYTES` on the client (`record_size::largest_fixed_record`); 0 on the server.
    pub fixed_record_bytes: u32,
    /// How game code requires the module, for its header, when the place is known.
    pub require: Option<&'a str>,
}

/// Past this many declarations, the per-declaration functions are fields of one table.
const LOCAL_FUNCTION_DECLARATIONS: usize = 24;

impl<'a> ModuleGen<'a> {
    pub fn new(schema: &'a Schema, side: Side) -> ModuleGen<'a> {
        ModuleGen {
            schema,
            side,
            members: Members::new(schema.options.casing),
            lookups: Lookups::default(),
            api: ApiNode::default(),
            function_names: BTreeSet::new(),
            responders: Vec::new(),
            functions_in_table: schema.events.len()
                + schema.functions.len()
                + schema.streams.len()
                + schema.types.iter().filter(|t| t.exported).count()
                > LOCAL_FUNCTION_DECLARATIONS,
            fixed_record_bytes: match side {
                Side::Client => largest_fixed_record(schema),
                Side::Server => 0,
            },
            require: None,
        }
    }

    /// Puts `StepReplication` first in the module's API table (both sides export it), then
    /// `Stats` when the option asks for it.
    pub fn add_step_replication(&mut self) {
        if self.schema.options.stats {
            self.api.entries.insert(
                0,
                (
                    self.members.stats.to_string(),
                    ApiItem::Value {
                        real: "GetStats".into(),
                        noop: "GetStats".into(),
                    },
                ),
            );
        }
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
            finite_sum: None,
        }
    }

    /// The width of a record's index on a channel: 2 bytes past 256 declarations.
    pub fn index_bytes(&self, reliability: Reliability) -> u32 {
        index_bytes(self.schema, reliability)
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

    /// The reference to a per-declaration function, `WriteHit` (`Functions.WriteHit` in a large
    /// schema), its name made of `verb` and the declaration's full name, unique in the module.
    pub fn function_name(&mut self, verb: &str, scope: &[String], name: &str) -> String {
        let mut base = format!("{verb}{}", type_name(&flat_name(scope, name)));
        if base.ends_with('_') {
            base.pop();
        }
        let mut unique = base.clone();
        let mut count = 1;
        // The runtime's names are taken: a declaration named `Exported` gets `ReadExported2`.
        while runtime::is_taken(&unique) || !self.function_names.insert(unique.clone()) {
            count += 1;
            unique = format!("{base}{count}");
        }
        if self.functions_in_table {
            format!("Functions.{unique}")
        } else {
            unique
        }
    }

    /// Opens the definition of the function `reference` ([`ModuleGen::function_name`]) with its
    /// parameters and return types (`(Value: number): boolean`).
    pub fn open_function(&self, b: &mut CodeBuilder, reference: &str, signature: &str) {
        if self.functions_in_table {
            b.open_function(format!("{reference} = @native function{signature}"));
        } else {
            b.open_function(format!("@native local function {reference}{signature}"));
        }
    }

    /// Assembles a module: header, the services and constants used, the exported types, the
    /// runtime parts among `candidates` that the rest uses, the constant and module tables, then
    /// `body` (per-declaration functions) and `tail` (flush, `Start`, the API table).
    pub fn assemble(&self, what: &str, candidates: &[Part], body: &str, tail: &str) -> String {
        let mut words = Words::in_text(body);
        words.extend(&Words::in_text(tail));
        let mut tables = CodeBuilder::new();
        self.lookups.emit(&mut tables);
        self.emit_tables(&mut tables, &words);
        let tables = tables.finish();
        words.extend(&Words::in_text(&tables));
        let parts = runtime::needed(candidates, &words);
        let used =
            |name: &str| words.contains(name) || parts.iter().any(|part| runtime::part_words(part).contains(name));
        let runtime_bytes: usize = parts.iter().map(|part| part.text.len()).sum();
        let mut out = CodeBuilder::with_capacity(tables.len() + body.len() + tail.len() + runtime_bytes + 4096);
        header(&mut out, what, self.require);
        let mut services = false;
        for service in ["ReplicatedStorage", "RunService", "Players"] {
            if used(service) {
                out.line_fmt(format_args!("local {service} = game:GetService(\"{service}\")"));
                services = true;
            }
        }
        if services {
            out.line("");
        }
        emit_type_block(&mut out, self.schema);
        if !candidates.contains(&runtime::STANDALONE) {
            // Set by Start; every send and receive part uses them.
            out.line("local Reliable: RemoteEvent = nil :: any");
            out.line("local Unreliable: UnreliableRemoteEvent = nil :: any");
            out.line("");
        }
        let mut any_constant = false;
        for (name, value) in self.constants() {
            if used(name) {
                out.line_fmt(format_args!("local {name} = {value}"));
                any_constant = true;
            }
        }
        if any_constant {
            out.line("");
        }
        runtime::emit(&mut out, &parts);
        for code in [tables.as_str(), body, tail] {
            out.raw(code);
        }
        out.finish()
    }

    /// The schema's limits, as module constants.
    fn constants(&self) -> [(&'static str, String); 9] {
        let options = &self.schema.options;
        [
            ("MAX_UNRELIABLE_SIZE", options.max_unreliable_size.to_string()),
            ("MAX_PACKET_SIZE", options.max_packet_size.to_string()),
            ("MAX_EVENTS_PER_PACKET", options.max_events_per_packet.to_string()),
            ("INBOUND_BYTES_PER_SECOND", options.inbound_bytes_per_second.to_string()),
            ("INBOUND_BURST", options.inbound_burst.to_string()),
            ("SYNC_VALIDATION", options.sync_validation.to_string()),
            ("CLIENT_FLUSH_RATE", options.client_flush_rate.to_string()),
            ("FIXED_RECORD_BYTES", self.fixed_record_bytes.to_string()),
            ("STATS_NAMES", stats_names(self.schema)),
        ]
    }

    /// The module-level tables the code uses (`code`, the names found in it): listeners and
    /// queues by channel slot, and `Functions` in a large schema.
    fn emit_tables(&self, b: &mut CodeBuilder, code: &Words) {
        let reliable = self.schema.reliable.count;
        let unreliable = self.schema.unreliable.count;
        // Every listener slot exists from the start (false: none), so the slots live in the
        // tables' array parts and the decode loop finds them by index.
        let tables = [
            (
                "ReliableListeners",
                "{ any }",
                format!("table.create({reliable}, false)"),
            ),
            (
                "UnreliableListeners",
                "{ any }",
                format!("table.create({unreliable}, false)"),
            ),
            (
                "FunctionListeners",
                "{ any }",
                format!("table.create({reliable}, false)"),
            ),
            ("ReliableQueues", "{ Queue }", "{}".to_string()),
            ("UnreliableQueues", "{ Queue }", "{}".to_string()),
            ("FunctionQueues", "{ Queue }", "{}".to_string()),
            ("Functions", "{ [string]: any }", "{}".to_string()),
        ];
        let mut any = false;
        for (name, luau_type, value) in tables {
            if code.contains(name) {
                b.line_fmt(format_args!("local {name}: {luau_type} = {value}"));
                any = true;
            }
        }
        for (name, count) in [
            ("ReliableQueues", reliable),
            ("UnreliableQueues", unreliable),
            ("FunctionQueues", reliable),
        ] {
            if count > 0 && code.contains(name) {
                b.line_fmt(format_args!("for Slot = 1, {count} do {name}[Slot] = NewQueue() end"));
            }
        }
        if any {
            b.line("");
        }
    }
}
