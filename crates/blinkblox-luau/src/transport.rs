//! The network between the server world and the client worlds: ordered queues of
//! packets (remote calls and replication), the registry of remotes, and the
//! traffic counters.
//!
//! A packet sent during frame N is delivered at the network stage of frame N+1,
//! in send order per receiving world (which keeps every remote in order, and
//! keeps replication ordered with remote calls, as on Roblox).

use std::collections::{BTreeMap, HashMap};

use super::value::RemoteValue;

/// Which method made a remote call. The numbers are shared with
/// `mock/services.luau` and `mock/functions.luau`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CallKind {
    FireServer,
    FireClient,
    FireAllClients,
    /// A RemoteFunction's `InvokeServer`: a call id and the arguments, to the server.
    InvokeServer,
    /// A RemoteFunction's `InvokeClient`: a call id and the arguments, to one client.
    InvokeClient,
    /// The server's answer to an `InvokeServer`, to the client that invoked.
    AnswerClient,
    /// A client's answer to an `InvokeClient`, to the server.
    AnswerServer,
}

impl CallKind {
    pub(crate) fn code(self) -> u8 {
        match self {
            CallKind::FireServer => 1,
            CallKind::FireClient => 2,
            CallKind::FireAllClients => 3,
            CallKind::InvokeServer => 4,
            CallKind::InvokeClient => 5,
            CallKind::AnswerClient => 6,
            CallKind::AnswerServer => 7,
        }
    }

    pub(crate) fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(CallKind::FireServer),
            2 => Some(CallKind::FireClient),
            3 => Some(CallKind::FireAllClients),
            4 => Some(CallKind::InvokeServer),
            5 => Some(CallKind::InvokeClient),
            6 => Some(CallKind::AnswerClient),
            7 => Some(CallKind::AnswerServer),
            _ => None,
        }
    }
}

/// What the server told us about a remote (by its server id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RemoteInfo {
    pub class_name: String,
    pub name: String,
}

/// One remote call as recorded by the counters.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteCall {
    /// The frame the call was made in: the number of [`step`](super::Simulation::step)s
    /// begun so far (0 before the first step).
    pub frame: u64,
    /// The remote's `Name`.
    pub remote: String,
    /// `true` for an `UnreliableRemoteEvent`.
    pub unreliable: bool,
    pub kind: CallKind,
    /// The client index that fired (`FireServer`) or is fired at (`FireClient`).
    pub client: Option<usize>,
    /// Estimated payload size (see [`RemoteValue::estimated_size`]).
    pub bytes: usize,
    /// Exact total length of the buffers passed.
    pub buffer_bytes: usize,
    /// Number of Instances passed.
    pub instances: usize,
}

/// Sums over a set of remote calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallTally {
    pub calls: u64,
    pub bytes: u64,
    pub buffer_bytes: u64,
}

impl CallTally {
    fn add(&mut self, call: &RemoteCall) {
        self.calls += 1;
        self.bytes += call.bytes as u64;
        self.buffer_bytes += call.buffer_bytes as u64;
    }
}

/// The remote calls recorded since the last [`take_traffic`](super::Simulation::take_traffic).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Traffic {
    calls: Vec<RemoteCall>,
}

impl Traffic {
    /// Every call, in the order made.
    pub fn calls(&self) -> &[RemoteCall] {
        &self.calls
    }

    /// Totals over the calls `include` accepts.
    pub fn tally(&self, include: impl Fn(&RemoteCall) -> bool) -> CallTally {
        let mut tally = CallTally::default();
        for call in self.calls.iter().filter(|call| include(call)) {
            tally.add(call);
        }
        tally
    }

    /// Totals over all calls.
    pub fn total(&self) -> CallTally {
        self.tally(|_| true)
    }

    /// Totals for the remote named `name`.
    pub fn remote(&self, name: &str) -> CallTally {
        self.tally(|call| call.remote == name)
    }

    /// Totals for the calls made in `frame`.
    pub fn frame(&self, frame: u64) -> CallTally {
        self.tally(|call| call.frame == frame)
    }

    /// Totals for calls of one kind (`FireServer`, `FireClient`, `FireAllClients`).
    pub fn kind(&self, kind: CallKind) -> CallTally {
        self.tally(|call| call.kind == kind)
    }

    /// Totals per frame, then per remote name.
    pub fn per_frame(&self) -> BTreeMap<u64, BTreeMap<String, CallTally>> {
        let mut frames: BTreeMap<u64, BTreeMap<String, CallTally>> = BTreeMap::new();
        for call in &self.calls {
            frames
                .entry(call.frame)
                .or_default()
                .entry(call.remote.clone())
                .or_default()
                .add(call);
        }
        frames
    }
}

/// Where a server packet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Audience {
    /// The client whose Player has this server id.
    Player(u64),
    AllClients,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Packet {
    Remote {
        remote_id: u64,
        kind: CallKind,
        args: Vec<RemoteValue>,
    },
    Replication {
        op: String,
        args: Vec<RemoteValue>,
    },
}

/// Shared by every world's host functions (through `Rc<RefCell<_>>`); never
/// borrowed while Luau code runs.
#[derive(Debug, Default)]
pub(crate) struct Network {
    /// Frame number used to tag new calls.
    pub frame: u64,
    /// Packets for the server: (sending player's server id, packet).
    pub to_server: Vec<(u64, Packet)>,
    pub to_clients: Vec<(Audience, Packet)>,
    pub remotes: HashMap<u64, RemoteInfo>,
    /// Server Player id → client index.
    pub players: HashMap<u64, usize>,
    pub traffic: Traffic,
    /// Kick requests (server Player id, message) applied at the next step.
    pub kicks: Vec<(u64, String)>,
}

impl Network {
    pub fn record(&mut self, remote_id: u64, kind: CallKind, client: Option<usize>, args: &[RemoteValue]) {
        let (remote, unreliable) = match self.remotes.get(&remote_id) {
            Some(info) => (info.name.clone(), info.class_name == "UnreliableRemoteEvent"),
            None => (format!("<remote {remote_id}>"), false),
        };
        self.traffic.calls.push(RemoteCall {
            frame: self.frame,
            remote,
            unreliable,
            kind,
            client,
            bytes: args.iter().map(RemoteValue::estimated_size).sum(),
            buffer_bytes: args.iter().map(RemoteValue::buffer_bytes).sum(),
            instances: args.iter().map(RemoteValue::instance_count).sum(),
        });
    }

    pub fn take_traffic(&mut self) -> Traffic {
        std::mem::take(&mut self.traffic)
    }
}
