//! Warp 1.1.0-pre7, a runtime library.

use super::runtime_library::RuntimeLibrary;

/// Warp, mounted at `ReplicatedStorage.Warp`.
pub const WARP: RuntimeLibrary = RuntimeLibrary {
    key: "warp",
    name: "Warp",
    mount: "ReplicatedStorage.Warp",
};
