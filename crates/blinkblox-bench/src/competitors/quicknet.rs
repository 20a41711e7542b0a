//! QuickNet 0.3.4, a runtime library. Its root is a file beside the folder of its parts
//! (`src/QuickNet.luau` and `src/QuickNet/`), mounted as one tree.

use super::runtime_library::RuntimeLibrary;

/// QuickNet, mounted at `ReplicatedStorage.QuickNet`.
pub const QUICKNET: RuntimeLibrary = RuntimeLibrary {
    key: "quicknet",
    name: "QuickNet",
    mount: "ReplicatedStorage.QuickNet",
};
