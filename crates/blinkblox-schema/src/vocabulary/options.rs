//! Every `option` of the language, declared once: its name, the kind of value it takes, what
//! it does, and how it reads and sets the checked schema's [`Options`]. The checker, the
//! schema dump, the lockfile, the language server's completion and hover, and the docs'
//! option table all read this table; adding an option is one entry here plus its effect in
//! the code generator.

use crate::model::{Casing, Options};

/// What an option's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// A string (`"…"`).
    Text,
    /// `true` or `false`.
    Flag,
    /// A whole number of at least 1.
    Count,
    /// `Pascal`, `Camel` or `Snake`.
    Casing,
    /// Parsed and ignored, as Blink does (`UseColon`).
    Unused,
}

impl OptionKind {
    /// The values an option of this kind takes, where they are few (for completion).
    pub fn values(self) -> &'static [&'static str] {
        match self {
            OptionKind::Flag | OptionKind::Unused => &["true", "false"],
            OptionKind::Casing => &["Pascal", "Camel", "Snake"],
            OptionKind::Text | OptionKind::Count => &[],
        }
    }
}

/// A checked option value, as the checker hands it to [`OptionSpec::set`].
#[derive(Debug, Clone, PartialEq)]
pub enum OptionSetting {
    Text(String),
    Flag(bool),
    Count(u32),
    Casing(Casing),
}

/// An option's value in a checked schema, as [`OptionSpec::get`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionState {
    /// A string option that may be absent (an output path, a library).
    MaybeText(Option<String>),
    /// A string option that always has a value (`RemoteScope`, empty when unset).
    Text(String),
    Flag(bool),
    Count(u32),
    Casing(Casing),
}

impl OptionState {
    /// The value as a schema writes it (`16384`, `Camel`, a string's text; empty when absent).
    pub fn as_written(&self) -> String {
        match self {
            OptionState::MaybeText(text) => text.clone().unwrap_or_default(),
            OptionState::Text(text) => text.clone(),
            OptionState::Flag(flag) => flag.to_string(),
            OptionState::Count(count) => count.to_string(),
            OptionState::Casing(casing) => casing.name().to_string(),
        }
    }
}

/// One option of the language.
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// What it does, in a line (hover, completion, the docs' option table).
    pub about: &'static str,
    /// Whether the lockfile records it: every option but the output paths, which sync decides.
    pub locked: bool,
    /// Its value in checked options; `None` for an option that has no effect.
    pub get: fn(&Options) -> Option<OptionState>,
    /// Applies a checked value of the option's kind (a value of another kind changes nothing).
    pub set: fn(&mut Options, OptionSetting),
}

impl OptionSpec {
    /// The value in effect when neither the schema nor the manifest sets it, as a schema
    /// would write it (empty for a string option that is absent by default).
    pub fn default_text(&self) -> String {
        match (self.get)(&Options::default()) {
            Some(state) => state.as_written(),
            // An option with no effect reads as its Blink default, `false`.
            None => "false".to_string(),
        }
    }
}

/// A string option that may be absent.
macro_rules! maybe_text {
    ($name:literal, $field:ident, locked: $locked:literal, $about:literal) => {
        OptionSpec {
            name: $name,
            kind: OptionKind::Text,
            about: $about,
            locked: $locked,
            get: |options| Some(OptionState::MaybeText(options.$field.clone())),
            set: |options, setting| {
                if let OptionSetting::Text(text) = setting {
                    options.$field = Some(text);
                }
            },
        }
    };
}

/// An option of one of the kinds that always has a value: `Text` (`String`), `Flag` (`bool`),
/// `Count` (`u32`) or `Casing`.
macro_rules! valued {
    ($name:literal, $field:ident, $kind:ident, $about:literal) => {
        OptionSpec {
            name: $name,
            kind: OptionKind::$kind,
            about: $about,
            locked: true,
            get: |options| Some(OptionState::$kind(options.$field.clone())),
            set: |options, setting| {
                if let OptionSetting::$kind(value) = setting {
                    options.$field = value;
                }
            },
        }
    };
}

/// Every option, in the order completion offers them and the dump lists them.
pub const OPTIONS: &[OptionSpec] = &[
    // Blink 0.18's.
    maybe_text!("ServerOutput", server_output, locked: false, "where `blinkblox compile` writes the Server module"),
    maybe_text!("ClientOutput", client_output, locked: false, "where `blinkblox compile` writes the Client module"),
    maybe_text!("TypesOutput", types_output, locked: false, "where the Types module goes (asks for it)"),
    valued!("Typescript", typescript, Flag, "also write `.d.ts` declarations"),
    valued!(
        "Casing",
        casing,
        Casing,
        "the generated API's casing: `FireAll`, `fireAll` or `fire_all`"
    ),
    valued!("UsePolling", use_polling, Flag, "every event is `Call: Polling`"),
    maybe_text!("FutureLibrary", future_library, locked: true, "the Future library `Yield: Future` functions use"),
    maybe_text!("PromiseLibrary", promise_library, locked: true, "the Promise library `Yield: Promise` functions use"),
    valued!(
        "SyncValidation",
        sync_validation,
        Flag,
        "warn when a Sync listener yields"
    ),
    valued!(
        "WriteValidations",
        write_validations,
        Flag,
        "check values when they are sent, naming the bad field"
    ),
    valued!(
        "ManualReplication",
        manual_replication,
        Flag,
        "send only when you call `StepReplication()`"
    ),
    valued!(
        "RemoteScope",
        remote_scope,
        Text,
        "a prefix for the remotes, so several schemas can coexist"
    ),
    OptionSpec {
        name: "UseColon",
        kind: OptionKind::Unused,
        about: "parsed and ignored, as Blink does",
        locked: false,
        get: |_| None,
        set: |_, _| {},
    },
    // BlinkBlox's.
    valued!(
        "MaxPacketSize",
        max_packet_size,
        Count,
        "the largest packet (bytes) the server accepts from a client"
    ),
    valued!(
        "MaxEventsPerPacket",
        max_events_per_packet,
        Count,
        "the most records the server reads from one client packet"
    ),
    valued!(
        "InboundBytesPerSecond",
        inbound_bytes_per_second,
        Count,
        "each client's byte budget per second"
    ),
    valued!(
        "InboundBurst",
        inbound_burst,
        Count,
        "how far a client may exceed its budget at once"
    ),
    valued!(
        "MaxUnreliableSize",
        max_unreliable_size,
        Count,
        "the largest unreliable call, in bytes"
    ),
    valued!(
        "BatchUnreliable",
        batch_unreliable,
        Flag,
        "batch unreliable events into one call per frame"
    ),
    valued!(
        "ClientFlushRate",
        client_flush_rate,
        Count,
        "the most times a second a client sends"
    ),
    valued!(
        "AllowNonFinite",
        allow_non_finite,
        Flag,
        "let floats be NaN or ±inf on the receiving side"
    ),
    valued!(
        "Stats",
        stats,
        Flag,
        "count records and bytes per declaration and direction: the modules' `Stats()`"
    ),
    valued!(
        "ProfileLabels",
        profile_labels,
        Flag,
        "a microprofiler label around each record's write and read"
    ),
];

/// The option named `name` (exactly, as the checker matches it).
pub fn option(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|option| option.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_sets_what_it_reads() {
        for spec in OPTIONS {
            let setting = match spec.kind {
                OptionKind::Text => OptionSetting::Text("x".into()),
                OptionKind::Flag => OptionSetting::Flag(!matches!(
                    (spec.get)(&Options::default()),
                    Some(OptionState::Flag(true))
                )),
                OptionKind::Count => OptionSetting::Count(7),
                OptionKind::Casing => OptionSetting::Casing(Casing::Snake),
                OptionKind::Unused => continue,
            };
            let mut options = Options::default();
            (spec.set)(&mut options, setting);
            assert_ne!((spec.get)(&options), (spec.get)(&Options::default()), "{}", spec.name);
        }
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        assert!(OPTIONS.iter().all(|spec| seen.insert(spec.name)));
    }
}
