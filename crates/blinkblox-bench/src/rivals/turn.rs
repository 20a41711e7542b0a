//! One turn of a Rivals row: a fresh simulation with the tool's code, its adapter and the
//! driver loaded into every world, driven by the Scenarios' frame loop
//! ([`drive_into`]).

use super::harness::{Loaded, RivalsHarness};
use crate::competitors::Competitor;
use crate::scenarios::drive::{Flush, ScenarioSamples, drive_into, empty_frame_cost};
use crate::scenarios::spec::{Direction, ScenarioSpec};
use crate::simulation::{CLIENT_SETUP_STEPS, client_setup_timed_out, install_clock, lua_error, new_simulation};
use crate::turns::Turn;
use blinkblox_luau::{Mode, Simulation, TimingClock};

/// Loads the tool, the adapter and the driver into every world and returns the function that
/// sends one frame, once every receiver's listeners are connected.
fn set_up(
    sim: &mut Simulation,
    harness: &RivalsHarness,
    adapter: &str,
    tool: &dyn Competitor,
    scenario: &str,
    spec: ScenarioSpec,
) -> Result<mlua::Function, String> {
    let loaded = harness.code(tool, spec.schema)?;
    let modules = match loaded {
        Loaded::Modules(modules) => Some(modules),
        Loaded::Library(..) | Loaded::Nothing => None,
    };
    let mut send_frame = None;
    {
        let server = sim.server();
        let setup = lua_error("server set-up");
        install_clock(server).map_err(&setup)?;
        if let Some(modules) = modules {
            modules.load_server(server).map_err(&setup)?;
        }
        if let Loaded::Library(library, at) = loaded {
            library.mount(server, at).map_err(&setup)?;
        }
        server.load_module("RivalsAdapter", adapter).map_err(&setup)?;
        server.load_module("Rivals", &harness.driver).map_err(&setup)?;
        match spec.direction {
            Direction::ToPlayers => {
                let function = server
                    .eval(&format!("return require('Rivals').server('{scenario}')"))
                    .map_err(&setup)?;
                send_frame = Some(function);
            }
            Direction::ToServer => server
                .exec(&format!(
                    "shared.Received = require('Rivals').serverReceiver('{scenario}')"
                ))
                .map_err(&setup)?,
        }
    }
    // The remotes (and a library's tree) the server made reach the clients.
    sim.step().map_err(lua_error("replicating the remotes"))?;
    for (index, client) in sim.clients() {
        let setup = lua_error("client set-up");
        install_clock(client).map_err(&setup)?;
        if let Some(modules) = modules {
            modules.load_client(client).map_err(&setup)?;
        }
        client.load_module("RivalsAdapter", adapter).map_err(&setup)?;
        client.load_module("Rivals", &harness.driver).map_err(&setup)?;
        // In a task thread: a library's client may wait for the server (an attribute, a
        // handshake) before it can listen or fire, which takes simulation steps.
        match spec.direction {
            Direction::ToPlayers => client
                .spawn(&format!("shared.Received = require('Rivals').client('{scenario}')"))
                .map_err(&setup)?,
            Direction::ToServer if index == 0 => client
                .spawn(&format!(
                    "shared.RivalsFrame = require('Rivals').clientSender('{scenario}')"
                ))
                .map_err(&setup)?,
            Direction::ToServer => {}
        }
    }
    await_clients(sim, spec)?;
    if let Some(function) = send_frame {
        return Ok(function);
    }
    let sender = sim.client(0).ok_or("no player joined to send from")?;
    sender
        .eval("return shared.RivalsFrame")
        .map_err(lua_error("client set-up"))
}

/// Steps until every client's set-up thread has finished (its tally, or the sender's frame).
fn await_clients(sim: &mut Simulation, spec: ScenarioSpec) -> Result<(), String> {
    let probe = match spec.direction {
        Direction::ToPlayers => "return shared.Received ~= nil",
        Direction::ToServer => "return shared.RivalsFrame ~= nil",
    };
    for _ in 0..=CLIENT_SETUP_STEPS {
        let mut ready = true;
        for (index, client) in sim.clients() {
            if let Some(error) = client.errors().first() {
                return Err(format!("client set-up (player {}): {error}", index + 1));
            }
            if spec.direction == Direction::ToServer && index > 0 {
                continue;
            }
            ready &= client.eval::<bool>(probe).map_err(lua_error("client set-up"))?;
        }
        if ready {
            return Ok(());
        }
        sim.step().map_err(lua_error("waiting for the clients' set-up"))?;
    }
    Err(client_setup_timed_out(sim))
}

/// What a row runs: the tool's adapter and the scenario's spec.
#[derive(Clone, Copy)]
pub(super) struct RivalRun<'h> {
    pub(super) scenario: &'h str,
    pub(super) tool: &'static dyn Competitor,
    pub(super) mode: Mode,
    pub(super) adapter: &'h str,
    pub(super) spec: ScenarioSpec,
}

/// One turn of a row: a fresh simulation, set up, and `timed` frames driven into `samples`.
pub(super) fn run_turn(
    harness: &RivalsHarness,
    run: RivalRun,
    turn: &Turn,
    samples: &mut ScenarioSamples,
) -> Result<u32, String> {
    let mut sim = new_simulation(run.mode, run.spec.players)?;
    sim.set_timing_clock(TimingClock::ThreadCpu);
    let flush = if run.tool.is_library() {
        Flush::OnFrameEvent {
            empty_frame: empty_frame_cost(&mut sim, run.spec.direction)?,
        }
    } else {
        Flush::WhenAsked
    };
    let send_frame = set_up(&mut sim, harness, run.adapter, run.tool, run.scenario, run.spec)?;
    drive_into(&mut sim, run.spec, &send_frame, flush, turn, samples)
}
