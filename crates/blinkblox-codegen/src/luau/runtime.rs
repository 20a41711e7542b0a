//! The fixed Luau parts of the modules (`src/runtime/*.luau`), included at build time. A
//! module holds only the parts its own code uses: [`needed`] follows the names each part
//! defines from the rest of the module, and from part to part.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::builder::CodeBuilder;

/// A fixed part: its file name in `src/runtime/` and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! part {
    ($name:literal) => {
        Part {
            name: $name,
            text: include_str!(concat!("../runtime/", $name)),
        }
    };
}

/// The send and receive state, batches and Load/Save.
pub const BATCHES: Part = part!("batches.luau");
pub const RECV_STATE: Part = part!("recv_state.luau");
pub const WRITE_LENGTH: Part = part!("write_length.luau");
pub const READ_LENGTH: Part = part!("read_length.luau");
pub const SLOTS: Part = part!("slots.luau");
pub const F16: Part = part!("f16.luau");
pub const WRITE_ERROR: Part = part!("write_error.luau");
pub const QUANTIZE_OUTSIDE: Part = part!("quantize_outside.luau");
pub const WRITE_LABELS: Part = part!("write_labels.luau");
pub const TWO_FORMS: Part = part!("two_forms.luau");
pub const BOOLEAN_WORDS: Part = part!("boolean_words.luau");
pub const BOOLEAN_ROWS: Part = part!("boolean_rows.luau");
pub const PACKET_STRINGS: Part = part!("packet_strings.luau");
pub const UNRELIABLE_SIZE: Part = part!("unreliable_size.luau");
pub const APPEND: Part = part!("append.luau");
pub const DROPS: Part = part!("drops.luau");
pub const STATS: Part = part!("stats.luau");
pub const QUEUES: Part = part!("queues.luau");
pub const DELIVER: Part = part!("deliver.luau");
pub const CONNECT_SINGLE: Part = part!("connect_single.luau");
pub const CONNECT_MANY: Part = part!("connect_many.luau");
pub const POLLING: Part = part!("polling.luau");
pub const NOOP: Part = part!("noop.luau");
pub const DECODE_RANGE: Part = part!("decode_range.luau");
pub const RECEIVE_PACKET: Part = part!("receive_packet.luau");
pub const CLIENT_PACKETS: Part = part!("client_packets.luau");
pub const INVOCATIONS: Part = part!("invocations.luau");
pub const SERVER_BATCHES: Part = part!("server_batches.luau");
pub const SERVER_SCRATCH: Part = part!("server_scratch.luau");
pub const SERVER_UNRELIABLE: Part = part!("server_unreliable.luau");
pub const ENCODED: Part = part!("encoded.luau");
pub const SERVER_UNRELIABLE_BATCHES: Part = part!("server_unreliable_batches.luau");
pub const BROADCAST_SKIPS: Part = part!("broadcast_skips.luau");
pub const PLAYERS_LEFT: Part = part!("players_left.luau");
pub const SERVER_STREAMS: Part = part!("server_streams.luau");
pub const DELTA_STREAMS: Part = part!("delta_streams.luau");
pub const CLIENT_BATCH: Part = part!("client_batch.luau");
pub const CLIENT_SCRATCH: Part = part!("client_scratch.luau");
pub const CLIENT_UNRELIABLE: Part = part!("client_unreliable.luau");
pub const CLIENT_UNRELIABLE_BATCH: Part = part!("client_unreliable_batch.luau");
pub const CLIENT_CALLS: Part = part!("client_calls.luau");
pub const INTERLEAVE: Part = part!("interleave.luau");
pub const CLIENT_STREAMS: Part = part!("client_streams.luau");
pub const STREAMS_RECEIVE: Part = part!("streams_receive.luau");
pub const STANDALONE: Part = part!("standalone.luau");
pub const EXPORTED: Part = part!("exported.luau");

/// The parts a Server module may hold, in the order they are written (each after those it uses).
pub const SERVER: &[Part] = &[
    BATCHES,
    RECV_STATE,
    WRITE_LENGTH,
    READ_LENGTH,
    SLOTS,
    F16,
    WRITE_ERROR,
    QUANTIZE_OUTSIDE,
    WRITE_LABELS,
    TWO_FORMS,
    BOOLEAN_WORDS,
    BOOLEAN_ROWS,
    PACKET_STRINGS,
    UNRELIABLE_SIZE,
    APPEND,
    DROPS,
    STATS,
    QUEUES,
    DELIVER,
    CONNECT_SINGLE,
    CONNECT_MANY,
    NOOP,
    POLLING,
    DECODE_RANGE,
    RECEIVE_PACKET,
    CLIENT_PACKETS,
    INVOCATIONS,
    SERVER_BATCHES,
    SERVER_SCRATCH,
    SERVER_UNRELIABLE,
    ENCODED,
    SERVER_UNRELIABLE_BATCHES,
    BROADCAST_SKIPS,
    STREAMS_RECEIVE,
    PLAYERS_LEFT,
    SERVER_STREAMS,
    DELTA_STREAMS,
    EXPORTED,
];

/// The parts a Client module may hold, in order.
pub const CLIENT: &[Part] = &[
    BATCHES,
    RECV_STATE,
    WRITE_LENGTH,
    READ_LENGTH,
    SLOTS,
    F16,
    WRITE_ERROR,
    QUANTIZE_OUTSIDE,
    WRITE_LABELS,
    TWO_FORMS,
    BOOLEAN_WORDS,
    BOOLEAN_ROWS,
    PACKET_STRINGS,
    UNRELIABLE_SIZE,
    APPEND,
    DROPS,
    STATS,
    QUEUES,
    DELIVER,
    CONNECT_SINGLE,
    CONNECT_MANY,
    NOOP,
    POLLING,
    DECODE_RANGE,
    RECEIVE_PACKET,
    CLIENT_BATCH,
    CLIENT_SCRATCH,
    CLIENT_UNRELIABLE,
    ENCODED,
    CLIENT_UNRELIABLE_BATCH,
    CLIENT_CALLS,
    INTERLEAVE,
    STREAMS_RECEIVE,
    CLIENT_STREAMS,
    EXPORTED,
];

/// The parts a Types module may hold, in order.
pub const TYPES: &[Part] = &[
    BATCHES,
    RECV_STATE,
    WRITE_LENGTH,
    READ_LENGTH,
    SLOTS,
    F16,
    WRITE_ERROR,
    QUANTIZE_OUTSIDE,
    WRITE_LABELS,
    TWO_FORMS,
    BOOLEAN_WORDS,
    BOOLEAN_ROWS,
    PACKET_STRINGS,
    STANDALONE,
    EXPORTED,
];

/// Every fixed part, once each: the Server's, then those only a Client or a Types module holds.
pub fn all_parts() -> impl Iterator<Item = &'static Part> {
    let mut parts: Vec<&'static Part> = Vec::new();
    for part in SERVER.iter().chain(CLIENT).chain(TYPES) {
        if !parts.iter().any(|seen| seen.name == part.name) {
            parts.push(part);
        }
    }
    parts.into_iter()
}

/// The names a part's top-level lines define: `local function Name` (`@native` or not),
/// `local Name`, `type Name`.
pub fn defined_names(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let line = line.strip_prefix("@native ").unwrap_or(line);
            let rest = line
                .strip_prefix("local function ")
                .or_else(|| line.strip_prefix("local "))
                .or_else(|| line.strip_prefix("type "))?;
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (end > 0).then(|| &rest[..end])
        })
        .collect()
}

/// Names a module's own lines define rather than a part: the services, the schema's limits
/// and the module-level tables. Whether a module uses them is found in the same pass as the
/// parts' names.
pub const MODULE_NAMES: &[&str] = &[
    "ReplicatedStorage",
    "RunService",
    "Players",
    "MAX_UNRELIABLE_SIZE",
    "MAX_PACKET_SIZE",
    "MAX_EVENTS_PER_PACKET",
    "INBOUND_BYTES_PER_SECOND",
    "INBOUND_BURST",
    "SYNC_VALIDATION",
    "CLIENT_FLUSH_RATE",
    "FIXED_RECORD_BYTES",
    "STATS_NAMES",
    "ReliableListeners",
    "UnreliableListeners",
    "FunctionListeners",
    "ReliableQueues",
    "UnreliableQueues",
    "FunctionQueues",
    "Functions",
];

/// Every name the parts define and every one of [`MODULE_NAMES`], once each, with the parts
/// that define it.
struct Vocabulary {
    /// Each word's index in `owners`. A module's text is looked through word by word, so the
    /// map hashes with FxHash, several times faster than the standard SipHash on short names.
    index: FxHashMap<&'static str, usize>,
    /// For each word, the parts (by file name) defining it: none for a module name.
    owners: Vec<Vec<&'static str>>,
    /// The bytes a word may begin with: most of a module's identifiers (keywords, builtins,
    /// fields) begin with none of them and are passed over without a lookup.
    first_bytes: [bool; 256],
}

fn vocabulary() -> &'static Vocabulary {
    static VOCABULARY: OnceLock<Vocabulary> = OnceLock::new();
    VOCABULARY.get_or_init(|| {
        let mut index: FxHashMap<&'static str, usize> = FxHashMap::default();
        let mut owners: Vec<Vec<&'static str>> = Vec::new();
        let mut add = |word: &'static str, owner: Option<&'static str>| {
            let at = *index.entry(word).or_insert_with(|| {
                owners.push(Vec::new());
                owners.len() - 1
            });
            if let Some(owner) = owner
                && !owners[at].contains(&owner)
            {
                owners[at].push(owner);
            }
        };
        for part in all_parts() {
            for name in defined_names(part.text) {
                add(name, Some(part.name));
            }
        }
        for name in MODULE_NAMES {
            add(name, None);
        }
        let mut first_bytes = [false; 256];
        for word in index.keys() {
            first_bytes[usize::from(word.as_bytes()[0])] = true;
        }
        Vocabulary {
            index,
            owners,
            first_bytes,
        }
    })
}

/// Whether `name` is one the runtime parts define or one of [`MODULE_NAMES`]: generated
/// functions take other names.
pub fn is_taken(name: &str) -> bool {
    vocabulary().index.contains_key(name)
}

/// The known names (the parts' and [`MODULE_NAMES`]) a text uses: each as a whole word, not a
/// field (`.name`, `:name`), and not in a `--` comment (a comment naming a function is no use
/// of it). A `--` inside a string on its line is taken for a comment too: that only ever
/// leaves out a name used after it on that line, which the generated lines never do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    found: Vec<bool>,
}

impl Words {
    pub fn in_text(text: &str) -> Words {
        let vocabulary = vocabulary();
        let mut found = vec![false; vocabulary.owners.len()];
        let bytes = text.as_bytes();
        let is_word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
        let mut at = 0;
        while at < bytes.len() {
            let byte = bytes[at];
            if byte == b'-' && bytes.get(at + 1) == Some(&b'-') {
                // The rest of the line is a comment.
                at = line_end(bytes, at);
                continue;
            }
            if !is_word(byte) {
                at += 1;
                continue;
            }
            let start = at;
            while at < bytes.len() && is_word(bytes[at]) {
                at += 1;
            }
            let field = start > 0 && matches!(bytes[start - 1], b'.' | b':');
            if !field
                && vocabulary.first_bytes[usize::from(byte)]
                && let Some(&index) = vocabulary.index.get(&text[start..at])
            {
                found[index] = true;
            }
        }
        Words { found }
    }

    /// Whether the text used `name` (one of the parts' names or [`MODULE_NAMES`]).
    pub fn contains(&self, name: &str) -> bool {
        vocabulary().index.get(name).is_some_and(|&index| self.found[index])
    }

    /// Adds the names `other` found.
    pub fn extend(&mut self, other: &Words) {
        for (found, also) in self.found.iter_mut().zip(&other.found) {
            *found |= *also;
        }
    }

    /// The parts (by file name) that define a name found.
    fn parts(&self) -> Vec<&'static str> {
        let mut parts = Vec::new();
        for (index, owners) in vocabulary().owners.iter().enumerate() {
            if self.found[index] {
                for owner in owners {
                    if !parts.contains(owner) {
                        parts.push(*owner);
                    }
                }
            }
        }
        parts
    }
}

/// The names `part`'s own code uses, and the parts defining them, read once.
pub fn part_words(part: &Part) -> &'static Words {
    &part_uses(part).0
}

/// Each part's uses are read the first time a module reaches that part.
fn part_uses(part: &Part) -> &'static (Words, Vec<&'static str>) {
    type Uses = OnceLock<(Words, Vec<&'static str>)>;
    static USES: OnceLock<Vec<(&'static str, Uses)>> = OnceLock::new();
    let uses = USES.get_or_init(|| all_parts().map(|part| (part.name, OnceLock::new())).collect());
    let (_, found) = uses
        .iter()
        .find(|(name, _)| *name == part.name)
        .expect("every part is among all_parts");
    found.get_or_init(|| {
        let words = Words::in_text(part.text);
        let parts = words.parts();
        (words, parts)
    })
}

/// The parts of `candidates` that the rest of the module uses (`code`, the names found in it),
/// directly or through the parts it uses, in the candidates' order.
pub fn needed(candidates: &[Part], code: &Words) -> Vec<Part> {
    let mut included = vec![false; candidates.len()];
    let named_by_code = code.parts();
    let mut pending: Vec<&[&'static str]> = vec![&named_by_code];
    while let Some(named) = pending.pop() {
        for (position, part) in candidates.iter().enumerate() {
            if !included[position] && named.contains(&part.name) {
                included[position] = true;
                pending.push(&part_uses(part).1);
            }
        }
    }
    candidates
        .iter()
        .zip(included)
        .filter_map(|(part, used)| used.then_some(*part))
        .collect()
}

/// Where the line holding `at` ends (its newline, or the end of the text).
fn line_end(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|&byte| byte == b'\n')
        .map_or(bytes.len(), |offset| at + offset)
}

/// Writes each part into the module, each followed by a blank line.
pub fn emit(out: &mut CodeBuilder, parts: &[Part]) {
    for part in parts {
        out.raw(part.text);
        out.line("");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mentions(text: &str, name: &str) -> bool {
        Words::in_text(text).contains(name)
    }

    #[test]
    fn parts_are_followed_from_the_code_and_from_each_other() {
        let code = "local Offset = Allocate(4)\nF16Bits(Value)";
        let parts = needed(SERVER, &Words::in_text(code));
        assert!(parts.contains(&BATCHES) && parts.contains(&F16));
        assert!(!parts.contains(&SERVER_STREAMS) && !parts.contains(&EXPORTED));
        // ReadLength is named by no code here.
        assert!(!parts.contains(&READ_LENGTH));
    }

    #[test]
    fn a_name_counts_only_as_a_whole_word() {
        assert!(mentions("x = Load(Target)", "Load"));
        assert!(!mentions("x = LoadAll(Target)", "Load"));
        assert!(!mentions("Preload", "Load"));
        assert!(!mentions("Target.Players[1]", "Players"));
        assert!(!mentions("Target:Grow(4)", "Grow"));
        // A longer name is not taken for the shorter one it starts with, nor the other way.
        assert!(mentions("SendBuffer = nil", "SendBuffer"));
        assert!(!mentions("SendBufferCopy = nil", "SendBuffer"));
        assert!(mentions("XAllocate Allocate(1)", "Allocate"));
    }

    #[test]
    fn a_name_in_a_comment_is_no_use() {
        assert!(!mentions("-- Grow doubles the buffer\nlocal x = 1", "Grow"));
        assert!(!mentions("local x = 1 -- then Grow(4)", "Grow"));
        assert!(mentions("-- a comment\nGrow(4)", "Grow"));
        assert!(mentions("Grow(4) -- grows", "Grow"));
    }

    #[test]
    fn module_names_are_found_with_the_parts_names() {
        let words = Words::in_text("local Target = Players:GetPlayers()\nif n > MAX_PACKET_SIZE then end");
        assert!(words.contains("Players") && words.contains("MAX_PACKET_SIZE"));
        assert!(!words.contains("RunService") && !words.contains("ReliableQueues"));
    }

    #[test]
    fn every_part_defines_names() {
        for part in all_parts() {
            assert!(!defined_names(part.text).is_empty(), "{}", part.name);
        }
    }
}
