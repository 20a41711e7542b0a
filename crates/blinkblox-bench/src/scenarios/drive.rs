//! A scenario's frames: the frame loop and the receivers' check, shared by the Scenarios
//! (BlinkBlox alone) and the Rivals (every tool). The sender's fires and flush are timed in
//! Luau, each receiver's decode by the simulation's clock (the thread's CPU time); the remote
//! calls a frame are counted from the traffic, summed over every player reached.

use super::spec::{Direction, ScenarioSpec};
use crate::runtime::WARMUP_FRAMES;
use crate::simulation::lua_error;
use crate::stats::Stats;
use crate::turns::Turn;
use blinkblox_luau::{CallKind, Simulation, Traffic};

/// What one scenario row measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenarioFigures {
    /// The sender's fires and flush, per frame.
    pub send: Stats,
    /// One receiver's decode (listeners included), per frame, averaged over the receivers.
    pub decode: Stats,
    /// Remote calls a frame (a FireAllClients is one call, a FireClient per player one each).
    pub calls_per_frame: f64,
    /// Bytes a second reaching each receiver at 60 frames a second: to players, a
    /// FireAllClients' bytes count for every player and a FireClient's for its player, averaged
    /// over the players; to the server, what the sender fired.
    pub bytes_per_second: f64,
    pub players: usize,
    /// The frames timed.
    pub frames: u32,
}

/// When a tool's packets leave: when the harness flushes (generated modules with
/// ManualReplication), or in the sender's next frame (a library flushing on Heartbeat or
/// PostSimulation by itself).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Flush {
    WhenAsked,
    /// `empty_frame`: the seconds the sending world's frame takes with nothing loaded (the
    /// mock's own RunService stages), taken off each frame counted as the library's flush.
    OnFrameEvent {
        empty_frame: f64,
    },
}

/// The sending world's frame with nothing loaded yet: the median over a few steps, in seconds.
pub(crate) fn empty_frame_cost(sim: &mut Simulation, direction: Direction) -> Result<f64, String> {
    let mut samples = Vec::new();
    for _ in 0..9 {
        sim.step().map_err(lua_error("timing an empty frame"))?;
        let timing = sim.last_step_timing();
        samples.push(match direction {
            Direction::ToPlayers => timing.server.frame.as_secs_f64(),
            Direction::ToServer => sender_frame(timing),
        });
    }
    samples.sort_by(f64::total_cmp);
    Ok(samples[samples.len() / 2])
}

/// The first player's frame time in a step (the sender of the client-to-server scenarios).
fn sender_frame(timing: &blinkblox_luau::StepTiming) -> f64 {
    timing
        .clients
        .iter()
        .find(|(index, _)| *index == 0)
        .map_or(0.0, |(_, t)| t.frame.as_secs_f64())
}

/// A scenario row's timed frames, gathered over one simulation or several.
#[derive(Debug, Default)]
pub(crate) struct ScenarioSamples {
    sends: Vec<f64>,
    decodes: Vec<f64>,
    calls: u64,
    /// Bytes reaching one receiver, summed over the timed frames.
    receiver_bytes: f64,
}

impl ScenarioSamples {
    /// Medians and 99th percentiles over every timed frame, and the remote calls a frame.
    pub(crate) fn figures(&self, spec: ScenarioSpec) -> Result<ScenarioFigures, String> {
        let stats = |samples: &[f64]| Stats::of_seconds(samples).ok_or("no frames were timed (--frames 0)");
        Ok(ScenarioFigures {
            send: stats(&self.sends)?,
            decode: stats(&self.decodes)?,
            calls_per_frame: self.calls as f64 / self.sends.len() as f64,
            bytes_per_second: self.receiver_bytes / self.sends.len() as f64 * FRAMES_PER_SECOND,
            players: spec.players,
            frames: self.sends.len() as u32,
        })
    }
}

/// Times `frames` frames after [`WARMUP_FRAMES`] into `samples`: `send_frame` (called in the
/// sending world, returning the seconds its fires and flush took), then the steps that
/// deliver; checks that every receiver got every value intact (`shared.Received` in each
/// receiving world).
///
/// A library flushing on a frame event takes two steps a frame: the sender's frame sends, the
/// next step delivers. The sender's frame time in both counts as its flush, and every
/// receiver's deliveries in both as its decode.
pub(crate) fn drive_into(
    sim: &mut Simulation,
    spec: ScenarioSpec,
    send_frame: &mlua::Function,
    flush: Flush,
    turn: &Turn,
    samples: &mut ScenarioSamples,
) -> Result<u32, String> {
    sim.take_traffic();
    let (steps, empty_frame) = match flush {
        Flush::WhenAsked => (1, None),
        Flush::OnFrameEvent { empty_frame } => (2, Some(empty_frame)),
    };
    let mut frame = 0;
    while frame < WARMUP_FRAMES || !turn.should_stop(frame - WARMUP_FRAMES) {
        let sender = match spec.direction {
            Direction::ToPlayers => Some(sim.server()),
            Direction::ToServer => sim.client(0),
        };
        let sender = sender.ok_or("the sending player left")?;
        let mut send: f64 = sender.call(send_frame, ()).map_err(lua_error("sending"))?;
        let mut decode = 0.0;
        for _ in 0..steps {
            sim.step().map_err(lua_error("delivering"))?;
            let timing = sim.last_step_timing();
            match spec.direction {
                Direction::ToPlayers => {
                    let total: f64 = timing.clients.iter().map(|(_, t)| t.receive.as_secs_f64()).sum();
                    decode += total / timing.clients.len().max(1) as f64;
                    if let Some(empty) = empty_frame {
                        send += (timing.server.frame.as_secs_f64() - empty).max(0.0);
                    }
                }
                Direction::ToServer => {
                    decode += timing.server.receive.as_secs_f64();
                    if let Some(empty) = empty_frame {
                        send += (sender_frame(timing) - empty).max(0.0);
                    }
                }
            }
        }
        let traffic = sim.take_traffic();
        if frame >= WARMUP_FRAMES {
            samples.sends.push(send);
            samples.decodes.push(decode);
            samples.calls += traffic.total().calls;
            samples.receiver_bytes += receiver_bytes(&traffic, spec);
        }
        frame += 1;
    }
    if empty_frame.is_some() {
        // Anything a library held back for its own throttle arrives before the tallies are read.
        sim.steps(2).map_err(lua_error("delivering the last frame"))?;
    }
    check_received(sim, spec, u64::from(frame))?;
    Ok(frame - WARMUP_FRAMES)
}

/// Frames a second the bytes are counted over (Roblox's Heartbeat rate).
const FRAMES_PER_SECOND: f64 = 60.0;

/// The bytes of one frame's remote calls that reach one receiver (the mean over the players).
fn receiver_bytes(traffic: &Traffic, spec: ScenarioSpec) -> f64 {
    match spec.direction {
        Direction::ToPlayers => {
            let everyone = traffic.kind(CallKind::FireAllClients).bytes as f64;
            let personal = traffic.kind(CallKind::FireClient).bytes as f64;
            everyone + personal / spec.players.max(1) as f64
        }
        Direction::ToServer => traffic.kind(CallKind::FireServer).bytes as f64,
    }
}

/// Nothing raised, and every receiver's listeners got every value sent to it intact.
fn check_received(sim: &Simulation, spec: ScenarioSpec, frames: u64) -> Result<(), String> {
    for world in sim.worlds() {
        if let Some(error) = world.errors().first() {
            let side = if world.is_server() { "the server" } else { "a client" };
            return Err(format!("{side} raised: {error}"));
        }
    }
    let expected = spec.received_per_frame * frames;
    let receivers: Vec<(String, &blinkblox_luau::World)> = match spec.direction {
        Direction::ToPlayers => sim
            .clients()
            .map(|(index, client)| (format!("player {}", index + 1), client))
            .collect(),
        Direction::ToServer => vec![("the server".to_string(), sim.server())],
    };
    for (who, world) in receivers {
        // The tally gives the values received intact and, where it checks them, the first
        // that was not.
        let (received, mismatch): (u64, Option<String>) = world
            .eval("return shared.Received()")
            .map_err(lua_error("reading the tally"))?;
        if let Some(mismatch) = mismatch {
            return Err(format!("{who} received a wrong value: {mismatch}"));
        }
        if received != expected {
            return Err(format!(
                "{who} received {received} of the {expected} values sent intact"
            ));
        }
    }
    Ok(())
}
