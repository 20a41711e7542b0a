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
use crate::vocabulary::{self, OPTIONS, OptionKind, OptionSetting};

/// A value for an option, as a project manifest supplies it.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    String(String),
    Bool(bool),
    Number(f64),
    /// A bare word, such as `Camel` for `Casing`.
    Name(String),
}

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

impl Checker<'_> {
    /// Checks and applies one option line. `from_schema` is false for defaults.
    pub(super) fn apply_option(&mut self, item: &ast::OptionItem, from_schema: bool) {
        let name = item.name.text.as_str();
        let Some(spec) = vocabulary::option(name) else {
            let mut diagnostic = Diagnostic::error(
                codes::UNKNOWN_OPTION,
                format!("unknown option `{name}`"),
                item.name.span,
                "no such option",
            );
            match closest(name, OPTIONS.iter().map(|spec| spec.name)) {
                // A default's span is its value in blinkblox.toml: nothing there to replace.
                Some(suggestion) if from_schema => {
                    diagnostic = diagnostic.with_did_you_mean(item.name.span, suggestion)
                }
                Some(suggestion) => diagnostic = diagnostic.with_note(format!("did you mean `{suggestion}`?")),
                None => {}
            }
            let all: Vec<&str> = OPTIONS.iter().map(|spec| spec.name).collect();
            self.report(diagnostic.with_note(format!("the options are {}", all.join(", "))));
            return;
        };
        let canonical = spec.name;
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
        let Some(value) = self.option_value(canonical, spec.kind, &item.value, from_schema) else {
            return;
        };
        let options: &mut Options = &mut self.options;
        (spec.set)(options, value);
        if from_schema && !options.set_in_schema.contains(&canonical) {
            options.set_in_schema.push(canonical);
        }
    }

    fn option_value(
        &mut self,
        name: &str,
        kind: OptionKind,
        literal: &ast::Literal,
        from_schema: bool,
    ) -> Option<OptionSetting> {
        let value = match (kind, &literal.kind) {
            (OptionKind::Text, LiteralKind::String(text)) => OptionSetting::Text(text.clone()),
            (OptionKind::Flag, LiteralKind::Bool(flag)) => OptionSetting::Flag(*flag),
            (OptionKind::Count, LiteralKind::Number { value, .. })
                if value.fract() == 0.0 && *value >= 1.0 && *value <= f64::from(u32::MAX) =>
            {
                OptionSetting::Count(*value as u32)
            }
            (OptionKind::Casing, LiteralKind::Ident(word) | LiteralKind::String(word)) => {
                let Some(casing) = Casing::named(word) else {
                    self.bad_value(name, kind, literal, from_schema);
                    return None;
                };
                if word != casing.name() {
                    self.misspelt_casing(word, casing.name(), literal);
                }
                OptionSetting::Casing(casing)
            }
            (OptionKind::Unused, LiteralKind::Bool(_)) => {
                self.report(
                    Diagnostic::warning(
                        codes::UNUSED_OPTION,
                        format!("option `{name}` has no effect"),
                        literal.span,
                        "ignored",
                    )
                    .with_note("Blink parses it but never used it; remove the line"),
                );
                // Its vocabulary entry sets nothing.
                OptionSetting::Flag(false)
            }
            _ => {
                self.bad_value(name, kind, literal, from_schema);
                return None;
            }
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
    fn bad_value(&mut self, name: &str, kind: OptionKind, literal: &ast::Literal, from_schema: bool) {
        let (expected, value) = match kind {
            OptionKind::Text => ("a string", "\"…\""),
            OptionKind::Flag | OptionKind::Unused => ("`true` or `false`", "true"),
            OptionKind::Count => ("a whole number of at least 1", "1024"),
            OptionKind::Casing if from_schema => ("`Pascal`, `Camel` or `Snake`", "Camel"),
            OptionKind::Casing => ("`Pascal`, `Camel` or `Snake`", "\"Camel\""),
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
