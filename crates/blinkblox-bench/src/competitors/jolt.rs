//! Jolt (vvacillator/Jolt, no release: commit 5069732), a runtime library: its `src/` folder
//! (`init.luau`, `Client.luau`, `Server.luau` and `Utils/`), mounted as one tree.

use super::runtime_library::RuntimeLibrary;

/// Jolt, mounted at `ReplicatedStorage.Jolt`.
pub const JOLT: RuntimeLibrary = RuntimeLibrary {
    key: "jolt",
    name: "Jolt",
    mount: "ReplicatedStorage.Jolt",
};
