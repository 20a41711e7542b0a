//! Lync 2.1.0, a runtime library: its `src/` folder (`init.luau` and the folders of its parts),
//! mounted as one tree.

use super::runtime_library::RuntimeLibrary;

/// Lync, mounted at `ReplicatedStorage.Lync`.
pub const LYNC: RuntimeLibrary = RuntimeLibrary {
    key: "lync",
    name: "Lync",
    mount: "ReplicatedStorage.Lync",
};
