//! Packet 1.7 (Suphi's), a runtime library. It has no unreliable channel, so its Rivals
//! adapter declines the unreliable scenarios.

use super::runtime_library::RuntimeLibrary;

/// Packet, mounted at `ReplicatedStorage.Packet`.
pub const PACKET: RuntimeLibrary = RuntimeLibrary {
    key: "packet",
    name: "Packet",
    mount: "ReplicatedStorage.Packet",
};
