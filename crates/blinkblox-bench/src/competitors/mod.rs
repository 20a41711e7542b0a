//! The tools the benchmark compares, one file each, every one behind the [`Competitor`] trait:
//! BlinkBlox, Blink 0.18, zap 0.6, NetRay-Compile, the hand-written floor, plain Roblox remotes, and the
//! runtime libraries ByteNet, Packet, QuickNet, Warp, Lync, NetRay and Jolt.

pub mod blink;
pub mod blinkblox;
pub mod blinkblox_release;
pub mod bytenet;
pub mod competitor;
pub mod handwritten;
pub mod jolt;
pub mod lync;
pub mod netray;
pub mod netray_compile;
pub mod packet;
pub mod quicknet;
pub mod roblox;
pub mod runtime_library;
pub mod source_compiler;
pub mod warp;
pub mod zap;

pub use competitor::{
    Code, Competitor, Context, LoadedCode, Modules, PlaceModules, RivalsCode, RuntimeCode, ScenarioModules,
};

/// BlinkBlox, this checkout's compiler (`--tools blink`).
pub const BLINKBLOX: &dyn Competitor = &blinkblox::BlinkBlox;
/// Blink 0.18, its own compiler run from source (`--tools upstream`).
pub const BLINK: &dyn Competitor = &blink::Blink;
/// zap 0.6, its binary.
pub const ZAP: &dyn Competitor = &zap::Zap;
/// The hand-written floor.
pub const HANDWRITTEN: &dyn Competitor = &handwritten::Handwritten;
/// Plain Roblox remotes.
pub const ROBLOX: &dyn Competitor = &roblox::RobloxRemotes;

/// Every competitor, in the order the tables show them when `--tools` names none.
pub const ALL: [&dyn Competitor; 13] = [
    BLINKBLOX,
    BLINK,
    ZAP,
    &netray_compile::NetRayCompile,
    HANDWRITTEN,
    ROBLOX,
    &bytenet::BYTENET,
    &packet::PACKET,
    &quicknet::QUICKNET,
    &warp::WARP,
    &lync::LYNC,
    &netray::NETRAY,
    &jolt::JOLT,
];

/// The competitor `--tools` names `key`.
pub fn from_key(key: &str) -> Option<&'static dyn Competitor> {
    ALL.into_iter().find(|tool| tool.key() == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_those_tools_toml_and_the_adapters_use() {
        let keys: Vec<&str> = ALL.iter().map(|tool| tool.key()).collect();
        assert_eq!(
            keys,
            [
                "blink",
                "upstream",
                "zap",
                "netray-compile",
                "handwritten",
                "roblox",
                "bytenet",
                "packet",
                "quicknet",
                "warp",
                "lync",
                "netray",
                "jolt"
            ]
        );
        let names: Vec<&str> = ALL.iter().map(|tool| tool.name()).collect();
        assert_eq!(
            names,
            [
                "BlinkBlox",
                "Blink",
                "zap",
                "NetRay-Compile",
                "Hand-written",
                "Roblox remotes",
                "ByteNet",
                "Packet",
                "QuickNet",
                "Warp",
                "Lync",
                "NetRay",
                "Jolt"
            ]
        );
        assert_eq!(from_key("upstream"), Some(BLINK));
        assert_eq!(from_key("Blink"), None);
    }

    #[test]
    fn every_competitor_has_a_runtime_adapter_and_every_rival_a_rivals_adapter() {
        let bench_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmark");
        for tool in ALL {
            assert!(tool.runtime_adapter(&bench_dir).is_file(), "{tool:?}");
            assert_eq!(tool.rivals_adapter(&bench_dir).is_file(), tool.is_rival(), "{tool:?}");
        }
    }
}
