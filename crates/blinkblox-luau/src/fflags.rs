//! Luau fast flags. The linked Luau compiles them in *off*; Roblox ships most of
//! them on (and the `luau` command-line tool turns every `Luau*` flag on). We
//! turn on the performance and correctness flags of the pinned Luau (0.740),
//! leaving out language extensions Roblox does not have (the `integer` type and
//! library, experimental syntax) and debug flags.

use std::sync::OnceLock;

/// The flags turned on before the first world is created.
pub const ROBLOX_FFLAGS: &[&str] = &[
    "LuauBackedgeHeapCheck",
    "LuauCallFeedback",
    "LuauCallLuauTm",
    "LuauCodeGenFastpcall",
    "LuauCodegenNoLinearFastpcall",
    "LuauCodegenPropagateFallbackTags",
    "LuauCodegenX64IntSpillRestore",
    "LuauCompileCleanBlockDeadClose",
    "LuauCompileConcatTargetTop",
    "LuauCompileIifeInline",
    "LuauCompileLoopUnrollZero",
    "LuauCompileMoveElision",
    "LuauCompileNoFoldVectorEqW",
    "LuauCompileRecursiveAliases",
    "LuauCostModel",
    "LuauEasyStateInit",
    "LuauFastpcall",
    "LuauFastpcallInterrupt",
    "LuauFrozenMetaButterfly",
    "LuauGcTraceUdata",
    "LuauLoadRemapOptionalUserdata",
    "LuauNewPointerEncode",
    "LuauOptimizeStringSplit",
    "LuauPcallOptimize",
    "LuauPromoteProto",
    "LuauSandboxFreezesVectorMetatable",
    "LuauSplitTableLookups",
    "LuauTableArrayAdjustCheck",
    "LuauTableArrayShrinkOrder",
    "LuauTableMoveTimeoutFix",
    "LuauTableRobustOom",
];

static REJECTED: OnceLock<Vec<&'static str>> = OnceLock::new();

/// Turns [`ROBLOX_FFLAGS`] on, once per process, and returns the names the
/// linked Luau did not know (empty when the pinned version matches).
///
/// Luau requires flags to be set before any VM exists; every world goes through
/// here first. Code that makes its own `Lua` states on other threads at the same
/// moment should call this first.
pub fn enable_roblox_fflags() -> &'static [&'static str] {
    REJECTED.get_or_init(|| {
        ROBLOX_FFLAGS
            .iter()
            .copied()
            .filter(|name| mlua::Lua::set_fflag(name, true).is_err())
            .collect()
    })
}
