//! `option Name = value`: Blink's options and BlinkBlox's, with their types.
//!
//! Project-wide defaults (from a manifest) arrive as [`OptionValue`]s with the place they
//! are written; each is checked as an `option` line would be, so a bad default gets the
//! same diagnostics as a bad line in a schema, pointing at the default.

use super::Checker;
use crate::ast::{self, LiteralKind};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{Casing, Options};
use crate::source::Span;
use crate::suggest::closest;

/// A value for an option, as a project manifest supplies it.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    String(String),
    Bool(bool),
    Number(f64),
    /// A bare word, such as `Camel` for `Casing`.
    Name(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ValueKind {
    Text,
    Flag,
    Count,
    Casing,
    /// Parsed and ignored, as Blink does (`UseColon`).
    Unused,
}

const OPTIONS: &[(&str, ValueKind)] = &[
    ("ServerOutput", ValueKind::Text),
    ("ClientOutput", ValueKind::Text),
    ("TypesOutput", ValueKind::Text),
    ("Typescript", ValueKind::Flag),
    ("Casing", ValueKind::Casing),
    ("UsePolling", ValueKind::Flag),
    ("FutureLibrary", ValueKind::Text),
    ("PromiseLibrary", ValueKind::Text),
    ("SyncValidation", ValueKind::Flag),
    ("WriteValidations", ValueKind::Flag),
    ("ManualReplication", ValueKind::Flag),
    ("RemoteScope", ValueKind::Text),
    ("UseColon", ValueKind::Unused),
    ("MaxPacketSize", ValueKind::Count),
    ("MaxEventsPerPacket", ValueKind::Count),
    ("InboundBytesPerSecond", ValueKind::Count),
    ("InboundBurst", ValueKind::Count),
    ("MaxUnreliableSize", ValueKind::Count),
    ("BatchUnreliable", ValueKind::Flag),
    ("ClientFlushRate", ValueKind::Count),
    ("AllowNonFinite", ValueKind::Flag),
];

impl OptionValue {
    /// The default as the `option` line it stands for, placed at `span`.
    pub(crate) fn to_item(&self, name: &str, span: Span) -> ast::OptionItem {
        let kind = match self {
            OptionValue::String(text) => LiteralKind::String(text.clone()),
            OptionValue::Bool(flag) => LiteralKind::Bool(*flag),
            OptionValue::Number(value) => LiteralKind::Number {
                value: *value,
                text: format!("{value}"),
            },
            OptionValue::Name(word) => LiteralKind::Ident(word.clone()),
        };
        ast::OptionItem {
            name: ast::Name {
                text: name.to_string(),
                span,
                quoted: false,
            },
            value: ast::Literal { kind, span },
            span,
        }
    }
}

enum Value {
    Text(String),
    Flag(bool),
    Count(u32),
    Casing(Casing),
    None,
}

impl Checker<'_> {
    /// Checks and applies one option line. `from_schema` is false for defaults.
    pub(super) fn apply_option(&mut self, item: &ast::OptionItem, from_schema: bool) {
        let name = item.name.text.as_str();
        let Some(&(canonical, kind)) = OPTIONS.iter().find(|(known, _)| *known == name) else {
            let mut diagnostic = Diagnostic::error(
                codes::UNKNOWN_OPTION,
                format!("unknown option `{name}`"),
                item.name.span,
                "no such option",
            );
            match closest(name, OPTIONS.iter().map(|(known, _)| *known)) {
                // A default's span is its value in blinkblox.toml: nothing there to replace.
                Some(suggestion) if from_schema => {
                    diagnostic = diagnostic.with_did_you_mean(item.name.span, suggestion)
                }
                Some(suggestion) => diagnostic = diagnostic.with_note(format!("did you mean `{suggestion}`?")),
                None => {}
            }
            let all: Vec<&str> = OPTIONS.iter().map(|(known, _)| *known).collect();
            self.report(diagnostic.with_note(format!("the options are {}", all.join(", "))));
            return;
        };
        if from_schema {
            if let Some(&first) = self.option_spans.get(canonical) {
                self.report(
                    Diagnostic::error(
                        codes::DUPLICATE_OPTION,
                        format!("option `{canonical}` is set twice"),
                        item.span,
                        "set again here",
                    )
                    .with_secondary(first, "first set here")
                    .with_note("keep one of the two lines"),
                );
                return;
            }
            self.option_spans.insert(canonical, item.span);
        } else {
            self.default_spans.insert(canonical, item.span);
        }
        let Some(value) = self.option_value(canonical, kind, &item.value, from_schema) else {
            return;
        };
        let options: &mut Options = &mut self.options;
        match (canonical, value) {
            ("ServerOutput", Value::Text(text)) => options.server_output = Some(text),
            ("ClientOutput", Value::Text(text)) => options.client_output = Some(text),
            ("TypesOutput", Value::Text(text)) => options.types_output = Some(text),
            ("FutureLibrary", Value::Text(text)) => options.future_library = Some(text),
            ("PromiseLibrary", Value::Text(text)) => options.promise_library = Some(text),
            ("RemoteScope", Value::Text(text)) => options.remote_scope = text,
            ("Typescript", Value::Flag(flag)) => options.typescript = flag,
            ("UsePolling", Value::Flag(flag)) => options.use_polling = flag,
            ("SyncValidation", Value::Flag(flag)) => options.sync_validation = flag,
            ("WriteValidations", Value::Flag(flag)) => options.write_validations = flag,
            ("ManualReplication", Value::Flag(flag)) => options.manual_replication = flag,
            ("BatchUnreliable", Value::Flag(flag)) => options.batch_unreliable = flag,
            ("AllowNonFinite", Value::Flag(flag)) => options.allow_non_finite = flag,
            ("Casing", Value::Casing(casing)) => options.casing = casing,
            ("MaxPacketSize", Value::Count(n)) => options.max_packet_size = n,
            ("MaxEventsPerPacket", Value::Count(n)) => options.max_events_per_packet = n,
            ("InboundBytesPerSecond", Value::Count(n)) => options.inbound_bytes_per_second = n,
            ("InboundBurst", Value::Count(n)) => options.inbound_burst = n,
            ("MaxUnreliableSize", Value::Count(n)) => options.max_unreliable_size = n,
            ("ClientFlushRate", Value::Count(n)) => options.client_flush_rate = n,
            _ => {}
        }
        if from_schema && !options.set_in_schema.contains(&canonical) {
            options.set_in_schema.push(canonical);
        }
    }

    fn option_value(
        &mut self,
        name: &str,
        kind: ValueKind,
        literal: &ast::Literal,
        from_schema: bool,
    ) -> Option<Value> {
        let value = match (kind, &literal.kind) {
            (ValueKind::Text, LiteralKind::String(text)) => Value::Text(text.clone()),
            (ValueKind::Flag, LiteralKind::Bool(flag)) => Value::Flag(*flag),
            (ValueKind::Count, LiteralKind::Number { value, .. })
                if value.fract() == 0.0 && *value >= 1.0 && *value <= f64::from(u32::MAX) =>
            {
                Value::Count(*value as u32)
            }
            (ValueKind::Casing, LiteralKind::Ident(word) | LiteralKind::String(word)) => {
                let (casing, spelling) = match word.to_ascii_lowercase().as_str() {
                    "pascal" => (Casing::Pascal, "Pascal"),
                    "camel" => (Casing::Camel, "Camel"),
                    "snake" => (Casing::Snake, "Snake"),
                    _ => return self.bad_value(name, kind, literal, from_schema),
                };
                if word != spelling {
                    self.misspelt_casing(word, spelling, literal);
                }
                Value::Casing(casing)
            }
            (ValueKind::Unused, LiteralKind::Bool(_)) => {
                self.report(
                    Diagnostic::warning(
                        codes::UNUSED_OPTION,
                        format!("option `{name}` has no effect"),
                        literal.span,
                        "ignored",
                    )
                    .with_note("Blink parses it but never used it; remove the line"),
                );
                Value::None
            }
            _ => return self.bad_value(name, kind, literal, from_schema),
        };
        Some(value)
    }

    /// A casing written in another case (`camel`): BlinkBlox takes it, Blink stops on it.
    fn misspelt_casing(&mut self, word: &str, spelling: &str, literal: &ast::Literal) {
        let replacement = match literal.kind {
            LiteralKind::String(_) => format!("\"{spelling}\""),
            _ => spelling.to_string(),
        };
        self.report(
            Diagnostic::warning(
                codes::CASING_SPELLING,
                format!("`{word}` is spelt `{spelling}`"),
                literal.span,
                "taken as this casing",
            )
            .with_note("Blink accepts only `Pascal`, `Camel` and `Snake`, with capitals")
            .with_suggestion(literal.span, replacement),
        );
    }

    /// A value the option does not take. The example is written as the value was: an
    /// `option` line in a schema, or a key of `[options]` in blinkblox.toml for a default.
    fn bad_value(&mut self, name: &str, kind: ValueKind, literal: &ast::Literal, from_schema: bool) -> Option<Value> {
        let (expected, value) = match kind {
            ValueKind::Text => ("a string", "\"…\""),
            ValueKind::Flag | ValueKind::Unused => ("`true` or `false`", "true"),
            ValueKind::Count => ("a whole number of at least 1", "1024"),
            ValueKind::Casing if from_schema => ("`Pascal`, `Camel` or `Snake`", "Camel"),
            ValueKind::Casing => ("`Pascal`, `Camel` or `Snake`", "\"Camel\""),
        };
        let example = if from_schema {
            format!("option {name} = {value}")
        } else {
            format!("{name} = {value}` under `[options]")
        };
        let found = match &literal.kind {
            LiteralKind::String(_) => "a string".to_string(),
            LiteralKind::Number { text, .. } => format!("`{text}`"),
            LiteralKind::Bool(flag) => format!("`{flag}`"),
            LiteralKind::Ident(word) => format!("`{word}`"),
        };
        self.report(
            Diagnostic::error(
                codes::INVALID_OPTION_VALUE,
                format!("option `{name}` takes {expected}, not {found}"),
                literal.span,
                format!("expected {expected}"),
            )
            .with_note(format!("for example: `{example}`")),
        );
        None
    }

    /// Limits on packets from clients that contradict each other: a packet of
    /// `MaxPacketSize` bytes must fit in a full byte budget (`InboundBurst`), or the
    /// server would drop every packet near the size it allows.
    pub(super) fn check_limits(&mut self, root: usize) {
        let (burst, packet) = (self.options.inbound_burst, self.options.max_packet_size);
        if burst >= packet {
            return;
        }
        let burst_span = self.option_spans.get("InboundBurst").copied();
        let packet_span = self.option_spans.get("MaxPacketSize").copied();
        // Set only by project defaults: point at the default, which sync reports at its
        // manifest line; left at the built-in default: at the schema itself.
        let default_span = || {
            let defaults = &self.default_spans;
            defaults.get("InboundBurst").or(defaults.get("MaxPacketSize")).copied()
        };
        let file_start = Span::new(self.loaded.modules[root].file, 0, 0);
        let mut diagnostic = Diagnostic::error(
            codes::LIMITS_CONTRADICT,
            format!("`InboundBurst` ({burst}) is smaller than `MaxPacketSize` ({packet})"),
            burst_span.or(packet_span).or_else(default_span).unwrap_or(file_start),
            "a packet of `MaxPacketSize` bytes could never fit in the byte budget",
        );
        if let (Some(_), Some(packet_span)) = (burst_span, packet_span) {
            diagnostic = diagnostic.with_secondary(packet_span, "the largest packet a client may send");
        }
        self.report(diagnostic.with_note(
            "raise `option InboundBurst` to at least `MaxPacketSize` (by default it is 4 times as large), or lower `option MaxPacketSize`",
        ));
    }
}
