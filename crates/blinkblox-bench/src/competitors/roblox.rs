//! Plain Roblox remotes: one `RemoteEvent:FireServer` per event, no buffer, through the
//! embedded runtime's mock. They are the runtime benches' baseline, not a rival.

use super::competitor::{Code, Competitor, Context, RuntimeCode};
use crate::BenchError;

/// The timed frames a plain-remotes row runs at most: every value goes through the mock's
/// network as a call of its own, which makes their frames slow, so their rows are capped to
/// keep a full run short.
pub const ROBLOX_MAX_FRAMES: u32 = 20;

/// Plain Roblox remotes.
pub struct RobloxRemotes;

impl Competitor for RobloxRemotes {
    fn key(&self) -> &'static str {
        "roblox"
    }

    fn name(&self) -> &'static str {
        "Roblox remotes"
    }

    fn max_frames(&self) -> Option<u32> {
        Some(ROBLOX_MAX_FRAMES)
    }

    fn provenance(&self, _context: &Context, _runtime_rows: bool) -> String {
        format!(
            "RemoteEvent:FireServer per event, in the embedded runtime's mock (at most {ROBLOX_MAX_FRAMES} timed \
             frames a row: a value a call through the mock's network takes about a second a frame)"
        )
    }

    fn runtime_code(&self, _context: &Context) -> Result<RuntimeCode, BenchError> {
        Ok(Code::AdapterOnly)
    }
}
