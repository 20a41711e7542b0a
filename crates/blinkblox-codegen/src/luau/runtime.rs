//! The fixed Luau parts of the modules (`src/runtime/*.luau`), included at build time. A
//! module holds only the parts its own code uses: [`needed`] follows the names each part
//! defines from the rest of the module, and from part to part.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

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
pub const TWO_FORMS: Part = part!("two_forms.luau");
pub const PACKET_STRINGS: Part = part!("packet_strings.luau");
pub const UNRELIABLE_SIZE: Part = part!("unreliable_size.luau");
pub const APPEND: Part = part!("append.luau");
pub const DROPS: Part = part!("drops.luau");
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
pub const SERVER_STREAMS: Part = part!("server_streams.luau");
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
    TWO_FORMS,
    PACKET_STRINGS,
    UNRELIABLE_SIZE,
    APPEND,
    DROPS,
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
    SERVER_STREAMS,
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
    TWO_FORMS,
    PACKET_STRINGS,
    UNRELIABLE_SIZE,
    APPEND,
    DROPS,
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
    TWO_FORMS,
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

/// The names a part's top-level lines define: `local function Name`, `local Name`, `type Name`.
pub fn defined_names(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
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

/// Whether `text` uses the local `name`: the whole word, not a field (`.name`, `:name`).
pub fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name)
        .any(|(at, _)| is_whole_word(text, at, at + name.len()))
}

/// The parts of `candidates` that `code` (everything else in the module) uses, directly or
/// through the parts it uses, in the candidates' order.
pub fn needed(candidates: &[Part], code: &str) -> Vec<Part> {
    let mut included = vec![false; candidates.len()];
    let named_by_code = parts_named_in(&without_comments(code));
    let mut pending: Vec<&[&'static str]> = vec![&named_by_code];
    while let Some(named) = pending.pop() {
        for (position, part) in candidates.iter().enumerate() {
            if !included[position] && named.contains(&part.name) {
                included[position] = true;
                pending.push(parts_used_by(part));
            }
        }
    }
    candidates
        .iter()
        .zip(included)
        .filter_map(|(part, used)| used.then_some(*part))
        .collect()
}

/// The parts `part`'s own code names, read once.
fn parts_used_by(part: &Part) -> &'static [&'static str] {
    static USES: OnceLock<Vec<(&'static str, Vec<&'static str>)>> = OnceLock::new();
    let uses = USES.get_or_init(|| {
        all_parts()
            .map(|part| (part.name, parts_named_in(&without_comments(part.text))))
            .collect()
    });
    uses.iter()
        .find(|(name, _)| *name == part.name)
        .map_or(&[], |(_, named)| named.as_slice())
}

/// The parts (by file name) one of whose names `text` uses as a whole word, found in one pass
/// over the text for all the parts' names at once.
fn parts_named_in(text: &str) -> Vec<&'static str> {
    static NAMES: OnceLock<(AhoCorasick, Vec<&'static str>)> = OnceLock::new();
    let (automaton, owners) = NAMES.get_or_init(|| {
        let mut names = Vec::new();
        let mut owners = Vec::new();
        for part in all_parts() {
            for name in defined_names(part.text) {
                names.push(name);
                owners.push(part.name);
            }
        }
        let automaton = AhoCorasick::new(&names).expect("the runtime's names make an automaton");
        (automaton, owners)
    });
    let mut named: Vec<&'static str> = Vec::new();
    for found in automaton.find_overlapping_iter(text) {
        let owner = owners[found.pattern().as_usize()];
        if !named.contains(&owner) && is_whole_word(text, found.start(), found.end()) {
            named.push(owner);
        }
    }
    named
}

/// Whether `text[start..end]` is a whole word and not a field (`.name`, `:name`).
fn is_whole_word(text: &str, start: usize, end: usize) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    !before.is_some_and(|c| is_word(c) || c == '.' || c == ':') && !after.is_some_and(is_word)
}

/// `text` without its `--` comments (a comment naming a function is no use of it). A `--`
/// inside a string on its line is taken for a comment too: that only ever leaves a part out
/// whose name is used after it on that line, which the runtime's lines never do.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(line.split("--").next().unwrap_or(""));
        out.push('\n');
    }
    out
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

    #[test]
    fn parts_are_followed_from_the_code_and_from_each_other() {
        let code = "local Offset = Allocate(4)\nF16Bits(Value)";
        let parts = needed(SERVER, code);
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
    }

    #[test]
    fn every_part_defines_names() {
        for part in all_parts() {
            assert!(!defined_names(part.text).is_empty(), "{}", part.name);
        }
    }
}
