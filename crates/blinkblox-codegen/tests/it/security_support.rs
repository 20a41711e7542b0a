//! Shared by the security tests: a schema covering every checked kind, a server whose
//! listeners record whether each value respects the schema, a valid packet for the
//! honest player, and one attack case run and judged.
#![allow(dead_code)]

use blinkblox_luau::{Mode, RemoteValue, Simulation};

use crate::support::{Modules, assert_no_errors, compile, start_with};

/// Reliable indices follow declaration order (functions share the reliable channel).
pub const DECLARATIONS: &str = r#"
enum Kind = { A, B, C }
struct Entity { id: u8, x: f32, hp: u8(0..100) }
event Str { From: Client, Type: Reliable, Call: ManySync, Data: string(..64) }
event Num { From: Client, Type: Reliable, Call: ManySync, Data: u8(0..5) }
event Flag { From: Client, Type: Reliable, Call: ManySync, Data: boolean }
event List { From: Client, Type: Reliable, Call: ManySync, Data: u16[..8] }
event Float { From: Client, Type: Reliable, Call: ManySync, Data: f32 }
event Pick { From: Client, Type: Reliable, Call: ManySync, Data: Kind }
event Part { From: Client, Type: Reliable, Call: ManySync, Data: Instance(BasePart) }
event Blob { From: Client, Type: Reliable, Call: ManySync, Data: buffer }
function Ask { Yield: Coroutine, Data: u8(0..9), Return: u8 }
event Move { From: Client, Type: Unreliable, Call: ManySync, Data: Entity }
event Names { From: Client, Type: Reliable, Call: ManySync, Data: string(..3)[..4] }
event Lines { From: Client, Type: Reliable, Call: ManySync, Data: string[] }
"#;

pub const STR: u8 = 0;
pub const NUM: u8 = 1;
pub const FLAG: u8 = 2;
pub const LIST: u8 = 3;
pub const FLOAT: u8 = 4;
pub const PICK: u8 = 5;
pub const PART: u8 = 6;
pub const BLOB: u8 = 7;
pub const ASK: u8 = 8;
pub const MOVE: u8 = 0;
pub const NAMES: u8 = 9;
pub const LINES: u8 = 10;

pub const RELIABLE: &str = "BLINK_RELIABLE_REMOTE";
pub const UNRELIABLE: &str = "BLINK_UNRELIABLE_REMOTE";

/// Every reason the drop hook may report for a packet a decoder rejected.
pub const DECODE_REASONS: &[&str] = &["Malformed", "UnknownEvent", "TooManyEvents"];

/// The attack suite raises the byte budget (the budget has its own tests), as the
/// benchmark schema does: every other check still runs.
pub fn attack_schema() -> String {
    format!("option InboundBurst = 1000000000\noption InboundBytesPerSecond = 1000000000\n{DECLARATIONS}")
}

/// A valid packet with one record of each reliable event (the Part's slot is 1).
pub fn valid_reliable() -> Vec<u8> {
    let mut packet = vec![STR, 2, b'h', b'i', NUM, 4, FLAG, 1, LIST, 2, 1, 0, 2, 0, FLOAT];
    packet.extend(1.5f32.to_le_bytes());
    packet.extend([PICK, 1, PART, BLOB, 3, 9, 9, 9]);
    packet
}

/// Where each record of [`valid_reliable`] ends (a truncation there is a valid packet).
pub fn valid_record_ends() -> Vec<usize> {
    vec![0, 4, 6, 8, 14, 19, 21, 22, 27]
}

/// What the honest player's listeners record for one [`valid_reliable`] packet.
pub fn valid_records(player: &str) -> Vec<String> {
    [
        "Str hi",
        "Num 4",
        "Flag true",
        "List 2",
        "Float 1.5",
        "Pick B",
        "Part Target",
        "Blob 3",
    ]
    .iter()
    .map(|r| format!("{player} {r}"))
    .collect()
}

/// Listeners that check every value against the schema (`shared.Bad` collects the
/// violations), the drop hook (`shared.Drops`), and Instances for the side array.
pub const SERVER_SETUP: &str = r#"
local part = Instance.new("Part")
part.Name = "Target"
part.Parent = workspace
local folder = Instance.new("Folder")
folder.Name = "WrongClass"
folder.Parent = game:GetService("ReplicatedStorage")
"#;

pub const LISTENERS: &str = r#"
local Net = require("Net")
shared.Bad, shared.Good, shared.Drops, shared.Asked = {}, {}, {}, 0
local function record(p, name, ok, v)
    table.insert(if ok then shared.Good else shared.Bad, `{p.Name} {name} {tostring(v)}`)
end
local function int(v, lo, hi) return type(v) == "number" and v // 1 == v and v >= lo and v <= hi end
local function finite(v) return type(v) == "number" and v == v and v - v == 0 end
Net.Str.On(function(p, v) record(p, "Str", type(v) == "string" and #v <= 64, v) end)
Net.Num.On(function(p, v) record(p, "Num", int(v, 0, 5), v) end)
Net.Flag.On(function(p, v) record(p, "Flag", type(v) == "boolean", v) end)
Net.List.On(function(p, v)
    local ok = type(v) == "table" and #v <= 8
    if ok then for _, x in v do ok = ok and int(x, 0, 65535) end end
    record(p, "List", ok, if type(v) == "table" then #v else v)
end)
Net.Float.On(function(p, v) record(p, "Float", finite(v), v) end)
Net.Pick.On(function(p, v) record(p, "Pick", v == "A" or v == "B" or v == "C", v) end)
Net.Part.On(function(p, v) record(p, "Part", typeof(v) == "Instance" and v:IsA("BasePart"), v) end)
Net.Blob.On(function(p, v) record(p, "Blob", type(v) == "buffer", if type(v) == "buffer" then buffer.len(v) else v) end)
Net.Names.On(function(p, v)
    local ok = type(v) == "table" and #v <= 4
    if ok then for _, x in v do ok = ok and type(x) == "string" and #x <= 3 end end
    record(p, "Names", ok, if ok then table.concat(v, ",") else v)
end)
Net.Lines.On(function(p, v)
    local ok = type(v) == "table"
    if ok then for _, x in v do ok = ok and type(x) == "string" end end
    record(p, "Lines", ok, if ok then #v else v)
end)
Net.Move.On(function(p, v)
    local ok = type(v) == "table" and int(v.id, 0, 255) and finite(v.x) and int(v.hp, 0, 100)
    record(p, "Move", ok, if type(v) == "table" then v.id else v)
end)
Net.Ask.On(function(p, v)
    record(p, "Ask", int(v, 0, 9), v)
    shared.Asked += 1
    if v == 9 then task.wait(1e6) end
    return v + 1
end)
Net.OnDrop(function(p, reason, detail)
    table.insert(shared.Drops, `{p.Name} {reason}`)
end)
shared.reset = function() shared.Bad, shared.Good, shared.Drops = {}, {}, {} end
"#;

pub struct Arena {
    pub sim: Simulation,
    pub mode: Mode,
    pub target: u64,
    pub wrong_class: u64,
}

impl Arena {
    pub fn new(modules: &Modules, mode: Mode) -> Arena {
        let sim = start_with(modules, mode, 2, SERVER_SETUP);
        sim.server().exec(LISTENERS).expect("listeners");
        let id = |path: &str| {
            sim.server()
                .instance_id(path)
                .expect("lookup")
                .unwrap_or_else(|| panic!("no {path}"))
        };
        let target = id("Workspace.Target");
        let wrong_class = id("ReplicatedStorage.WrongClass");
        Arena {
            sim,
            mode,
            target,
            wrong_class,
        }
    }

    pub fn reset(&self) {
        self.sim.server().exec("shared.reset()").expect("reset");
    }

    /// The honest player's packet: client 1 sends [`valid_reliable`].
    pub fn inject_valid(&mut self) {
        let slots = RemoteValue::array([RemoteValue::instance(self.target)]);
        self.sim
            .inject_fire_server(1, RELIABLE, vec![RemoteValue::buffer(valid_reliable()), slots])
            .expect("inject valid");
    }

    pub fn inject(&mut self, remote: &str, packet: &[u8], slots: Vec<RemoteValue>) {
        self.sim
            .inject_fire_server(
                0,
                remote,
                vec![RemoteValue::buffer(packet.to_vec()), RemoteValue::array(slots)],
            )
            .expect("inject attack");
    }

    /// Heap in bytes after a full collection.
    pub fn settled_heap(&self) -> f64 {
        self.sim.server().lua().gc_collect().expect("gc");
        self.sim.server().memory_kib().expect("memory") * 1024.0
    }

    pub fn lists(&self) -> (Vec<String>, Vec<String>, Vec<String>) {
        self.sim
            .server()
            .eval("return shared.Bad, shared.Good, shared.Drops")
            .expect("lists")
    }
}

/// What the drop hook must report for the attacker's packet.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Exactly one drop, with this reason.
    Reason(&'static str),
    /// Exactly one drop, with one of these reasons.
    OneOf(&'static [&'static str]),
    /// The packet is valid: no drop.
    Nothing,
}

/// Runs one attack from client 0 in the same frame as the honest client 1's valid
/// packet, and asserts what every case must hold: no error escapes, listeners see only
/// valid data, the honest player's events arrive, the heap stays bounded, the drop hook
/// names the reason.
pub fn run_case(arena: &mut Arena, name: &str, remote: &str, packet: &[u8], slots: Vec<RemoteValue>, expect: Expect) {
    let mode = arena.mode;
    arena.reset();
    let errors_before = arena.sim.server().errors().len();
    let before = arena.settled_heap();
    let slot_count = slots.len();
    arena.inject(remote, packet, slots);
    arena.inject_valid();
    arena.sim.step().expect("step");
    let after = arena.sim.server().memory_kib().expect("memory") * 1024.0;
    let (bad, good, drops) = arena.lists();
    assert!(
        bad.is_empty(),
        "{mode:?} {name}: a listener saw data outside the schema: {bad:?}"
    );
    // The listeners never raise: an error reported here is a failed record taken for a
    // listener's (its read raised before it was checked).
    let errors = arena.sim.server().errors();
    assert_eq!(
        errors.len(),
        errors_before,
        "{mode:?} {name}: a drop reported as a listener's error: {:?}",
        &errors[errors_before..]
    );
    let honest: Vec<String> = good.iter().filter(|g| g.starts_with("Player2 ")).cloned().collect();
    assert_eq!(
        honest,
        valid_records("Player2"),
        "{mode:?} {name}: the other player's packet"
    );
    let attacker: Vec<&String> = drops.iter().filter(|d| d.starts_with("Player1 ")).collect();
    assert!(
        drops.iter().all(|d| d.starts_with("Player1 ")),
        "{mode:?} {name}: drops charged to the honest player: {drops:?}"
    );
    match &expect {
        Expect::Nothing => assert!(attacker.is_empty(), "{mode:?} {name}: unexpected drops {drops:?}"),
        Expect::Reason(reason) => {
            assert_eq!(
                attacker,
                [&format!("Player1 {reason}")],
                "{mode:?} {name}: the hook's report"
            )
        }
        Expect::OneOf(reasons) => {
            assert_eq!(attacker.len(), 1, "{mode:?} {name}: one drop: {drops:?}");
            let reason = attacker[0].trim_start_matches("Player1 ");
            assert!(
                reasons.contains(&reason),
                "{mode:?} {name}: reason {reason}, expected one of {reasons:?}"
            );
        }
    }
    // What arrives (the buffer, and the side array at 16 bytes a Luau slot) is in the
    // VM once; anything a decoder allocated for it (or failed to) must stay under twice
    // that, beside a frame's fixed costs (the honest packet, the hook's thread,
    // Heartbeat: about 6 KiB measured) and what the test's listeners keep for each
    // event they were given (a string and the value: under 256 bytes).
    let arrived = packet.len() + 16 * slot_count;
    let delivered = good.len() - honest.len();
    let growth = after - before;
    let bound = 2.0 * arrived as f64 + FRAME_OVERHEAD_BYTES + 256.0 * delivered as f64;
    assert!(
        growth < bound,
        "{mode:?} {name}: heap grew {growth} bytes for a packet of {} bytes, {slot_count} slots, {delivered} events delivered",
        packet.len()
    );
    assert_no_errors(&arena.sim);
}

/// The heap a frame with one honest packet costs whatever the attacker sends.
pub const FRAME_OVERHEAD_BYTES: f64 = 16.0 * 1024.0;

/// Deterministic bytes (a linear congruential generator).
pub fn noise(length: usize, seed: u32) -> Vec<u8> {
    let mut state = seed;
    (0..length)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (state >> 16) as u8
        })
        .collect()
}

pub fn modules() -> Modules {
    compile(&attack_schema())
}
