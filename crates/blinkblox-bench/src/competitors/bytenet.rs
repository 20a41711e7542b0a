//! ByteNet 0.4.3, a runtime library; it flushes on Heartbeat by itself.

use super::runtime_library::RuntimeLibrary;

/// ByteNet, mounted at `ReplicatedStorage.ByteNet`.
pub const BYTENET: RuntimeLibrary = RuntimeLibrary {
    key: "bytenet",
    name: "ByteNet",
    mount: "ReplicatedStorage.ByteNet",
};
