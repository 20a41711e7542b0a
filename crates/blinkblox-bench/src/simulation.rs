//! What every bench does to a fresh [`Simulation`]'s worlds before and while it times them:
//! the clock the Luau side times with, and the wait for a client's set-up.

use std::time::Duration;

use blinkblox_luau::{Mode, Simulation, TimingClock, World};

/// The most steps a client's set-up may wait for the server (a library's handshake).
pub(crate) const CLIENT_SETUP_STEPS: u32 = 30;

/// The longest a frame's Luau may run (fires, a step's deliveries) before it is stopped: far
/// past the slowest tool's slowest frame, so that only code that never returns meets it.
pub(crate) const FRAME_TIME_LIMIT: Duration = Duration::from_secs(30);

/// A fresh simulation for a bench: `players` clients, and Luau that runs past
/// [`FRAME_TIME_LIMIT`] in one frame stopped with an error (a tool's endless loop fails its
/// row instead of hanging the run).
pub(crate) fn new_simulation(mode: Mode, players: usize) -> Result<Simulation, String> {
    let mut sim = Simulation::new(mode, players).map_err(lua_error("starting the simulation"))?;
    sim.set_time_limit(FRAME_TIME_LIMIT);
    Ok(sim)
}

/// An mlua error as a row's failure, prefixed with what was being done.
pub(crate) fn lua_error(context: &str) -> impl Fn(mlua::Error) -> String + '_ {
    move |err| format!("{context}: {err}")
}

/// `shared.BenchClock()`: seconds of the thread's CPU time, which the Luau harnesses time the
/// fires and flush with (they fall back to `os.clock` where this is absent, as in Studio).
pub(crate) fn install_clock(world: &World) -> mlua::Result<()> {
    let lua = world.lua();
    let clock = lua.create_function(|_, ()| Ok(TimingClock::ThreadCpu.now().as_secs_f64()))?;
    lua.globals().get::<mlua::Table>("shared")?.set("BenchClock", clock)
}

/// Why a client's adapter never became ready: the frames waited and the first warnings
/// the worlds printed (an adapter waiting for something usually warns about it).
pub(crate) fn client_setup_timed_out(sim: &Simulation) -> String {
    let warnings: Vec<String> = sim.worlds().flat_map(|world| world.warnings()).take(3).collect();
    format!(
        "client set-up: the adapter's client did not finish within {CLIENT_SETUP_STEPS} frames \
         (is it waiting for something the server never sends?){}",
        if warnings.is_empty() {
            String::new()
        } else {
            format!("; warnings: {}", warnings.join(" | "))
        }
    )
}

/// What an adapter's optional `Adapter.unsupported(bench)` says: why its tool cannot run
/// `bench` at all, or nothing. `file` names the adapter in errors. The adapter is loaded in a
/// bare Luau state, so only its top level and that function run.
pub(crate) fn adapter_unsupported(adapter: &str, file: &str, bench: &str) -> Result<Option<String>, String> {
    let lua = mlua::Lua::new();
    let failed = |err: mlua::Error| format!("{file}: {err}");
    let table: mlua::Table = lua.load(adapter).set_name(format!("={file}")).eval().map_err(failed)?;
    match table.get::<Option<mlua::Function>>("unsupported").map_err(failed)? {
        Some(function) => function.call(bench).map_err(failed),
        None => Ok(None),
    }
}
