//! The client's flush refills last frame's packet: in steady state it allocates nothing
//! beyond what the remote call itself costs, as `collectgarbage("count")` around each flush
//! shows against the same remote call made with a packet built ahead of time.

use crate::support::{MODES, compile, start};
use blinkblox_luau::Mode;

const FRAMES: u32 = 200;

/// Runs in the client world: per frame, fires the frame's events, then times the
/// allocation of the module's flush and of a bare `FireServer` of an equal packet.
/// Positive deltas only: a delta below zero means the collector ran mid-call, and that
/// frame says nothing.
const MEASURE: &str = r#"
local Net = require("Net")
local remote = game:GetService("ReplicatedStorage"):WaitForChild("BLINK_RELIABLE_REMOTE")
local bare = buffer.create(200)
local noInstances = {}
local flushKib, bareKib, probeKib, counted = 0, 0, 0, 0
local keep = {}
for frame = 1, FRAMES do
    for i = 1, 100 do
        Net.Tiny.Fire(i)
    end
    local before = collectgarbage("count")
    Net.StepReplication()
    local flushDelta = collectgarbage("count") - before
    before = collectgarbage("count")
    remote:FireServer(bare, noInstances)
    local bareDelta = collectgarbage("count") - before
    -- The control: a 64-slot table must show, or the counter measures nothing.
    before = collectgarbage("count")
    keep[frame % 4 + 1] = table.create(64, frame)
    local probeDelta = collectgarbage("count") - before
    if frame > 2 and flushDelta >= 0 and bareDelta >= 0 and probeDelta >= 0 then
        flushKib += flushDelta
        bareKib += bareDelta
        probeKib += probeDelta
        counted += 1
    end
end
return flushKib, bareKib, probeKib, counted
"#;

fn flush_allocation(mode: Mode) -> (f64, f64, f64, u32) {
    let modules = compile(
        "option ManualReplication = true\noption RemoteScope = \"\"\nevent Tiny { From: Client, Type: Reliable, Call: SingleSync, Data: u8 }",
    );
    let mut sim = start(&modules, mode, 1);
    sim.take_traffic();
    let client = sim.client(0).expect("client 0");
    let source = MEASURE.replace("FRAMES", &FRAMES.to_string());
    let figures = client.eval::<(f64, f64, f64, u32)>(&source).expect("measure");
    // Every frame really flushed: the module's call and the bare one.
    assert_eq!(
        sim.take_traffic().total().calls,
        2 * u64::from(FRAMES),
        "{mode:?}: remote calls"
    );
    figures
}

#[test]
fn flush_allocates_nothing_beyond_the_remote_call() {
    for mode in MODES {
        let (flush_kib, bare_kib, probe_kib, counted) = flush_allocation(mode);
        assert!(counted >= FRAMES / 2, "{mode:?}: too few frames measured ({counted})");
        let probe_per_frame = probe_kib / f64::from(counted) * 1024.0;
        assert!(
            probe_per_frame >= 64.0 * 8.0,
            "{mode:?}: the counter did not see a 64-slot table ({probe_per_frame:.1} bytes a frame)"
        );
        let extra_per_frame = (flush_kib - bare_kib) / f64::from(counted) * 1024.0;
        eprintln!(
            "{mode:?}: flush {flush_kib:.3} KiB, bare call {bare_kib:.3} KiB, control {probe_kib:.1} KiB over {counted} frames"
        );
        assert!(
            extra_per_frame < 16.0,
            "{mode:?}: the flush allocated {extra_per_frame:.1} bytes a frame beyond the remote call \
             ({flush_kib:.2} KiB against {bare_kib:.2} KiB over {counted} frames)"
        );
    }
}
