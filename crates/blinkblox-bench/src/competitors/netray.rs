//! NetRay 1.1.5, a runtime library: its `NetRay/` folder (`init.luau` and the folders of its
//! parts), mounted as one tree.

use super::runtime_library::RuntimeLibrary;

/// NetRay, mounted at `ReplicatedStorage.NetRay`.
pub const NETRAY: RuntimeLibrary = RuntimeLibrary {
    key: "netray",
    name: "NetRay",
    mount: "ReplicatedStorage.NetRay",
};
