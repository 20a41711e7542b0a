//! The runtime benches' Luau harness, read from `benchmark/harness/`, and the code of each
//! competitor of the run: setting a row's simulation up, and checking what it received.

use std::path::Path;

use super::calls::{self, is_calls};
use super::{EVENTS_PER_FRAME, Participant, event_of};
use crate::competitors::{ALL, Code, Competitor, LoadedCode, Modules, RuntimeCode};
use crate::simulation::{
    CLIENT_SETUP_STEPS, adapter_unsupported, client_setup_timed_out, install_clock, lua_error, new_simulation,
};
use crate::{BenchError, read_checkout_file};
use blinkblox_luau::{Mode, Simulation, TimingClock};

/// The harness's Luau sources and each competitor's code.
pub struct Harness {
    payloads: String,
    client: String,
    server: String,
    /// `calls.luau`, both halves of the CallResponse bench.
    calls: String,
    /// Every competitor's adapter (`harness/tools/KEY.luau`), by key.
    adapters: Vec<(&'static str, String)>,
    /// The work alone's adapter (`bounds.luau`), run among the rows of its bench.
    work_alone: String,
    code: LoadedCode<Result<Modules, String>>,
}

impl Harness {
    /// Reads the harness and every competitor's adapter; the code each tool loads is added
    /// with [`add`](Self::add).
    pub fn load(bench_dir: &Path) -> Result<Harness, BenchError> {
        let harness = bench_dir.join("harness");
        let mut adapters = Vec::new();
        for tool in ALL {
            adapters.push((tool.key(), read_checkout_file(&tool.runtime_adapter(bench_dir))?));
        }
        Ok(Harness {
            payloads: read_checkout_file(&harness.join("payloads.luau"))?,
            client: read_checkout_file(&harness.join("client.luau"))?,
            server: read_checkout_file(&harness.join("server.luau"))?,
            calls: read_checkout_file(&harness.join("calls.luau"))?,
            adapters,
            work_alone: read_checkout_file(&harness.join("bounds.luau"))?,
            code: LoadedCode::default(),
        })
    }

    /// Adds (or replaces) what `tool`'s rows load besides their adapter.
    pub fn add(&mut self, tool: &'static dyn Competitor, code: RuntimeCode) {
        self.code.insert(tool, code);
    }

    fn adapter(&self, tool: &dyn Competitor) -> &str {
        self.adapters
            .iter()
            .find(|(key, _)| *key == tool.key())
            .map_or("", |(_, source)| source.as_str())
    }

    /// A fresh simulation (one server, one client) running `who`'s side of `bench`, and the
    /// client's frame function (`shared.BenchFrame`) once its set-up has finished.
    pub(crate) fn start(&self, bench: &str, who: Participant, mode: Mode) -> Result<Started, String> {
        let mut sim = new_simulation(mode, 1)?;
        sim.set_timing_clock(TimingClock::ThreadCpu);
        let (code, adapter) = match who {
            Participant::Tool(tool) => (Some(self.code.get(tool)?), self.adapter(tool)),
            Participant::WorkAlone => (None, self.work_alone.as_str()),
        };
        let modules = match code {
            Some(Code::Modules(Ok(modules))) => Some(modules),
            Some(Code::Modules(Err(err))) => return Err(err.clone()),
            _ => None,
        };
        let sides = self.sides(bench);
        {
            let server = sim.server();
            let setup = lua_error("server set-up");
            // For the work alone's set-up, which times two ways of decoding to choose one.
            install_clock(server).map_err(&setup)?;
            server.load_module("Payloads", &self.payloads).map_err(&setup)?;
            server.load_module(sides.server.0, sides.server.1).map_err(&setup)?;
            if let Some(modules) = modules {
                modules.load_server(server).map_err(&setup)?;
            }
            if let Some(Code::Library { library, at }) = code {
                library.mount(server, at).map_err(&setup)?;
            }
            server.load_module("Adapter", adapter).map_err(&setup)?;
            server.exec(&sides.server_setup).map_err(&setup)?;
        }
        // The remotes the server made reach the client.
        sim.step().map_err(lua_error("replicating the remotes"))?;
        {
            let client = sim.client(0).ok_or("the client left")?;
            let setup = lua_error("client set-up");
            install_clock(client).map_err(&setup)?;
            client.load_module("Payloads", &self.payloads).map_err(&setup)?;
            client.load_module(sides.client.0, sides.client.1).map_err(&setup)?;
            if let Some(modules) = modules {
                modules.load_client(client).map_err(&setup)?;
            }
            client.load_module("Adapter", adapter).map_err(&setup)?;
            // In a task thread: a library's client may wait for the server (an attribute, a
            // handshake) before its first fire, which takes simulation steps.
            client.spawn(&sides.client_setup).map_err(&setup)?;
        }
        let frame = await_client_frame(&mut sim)?;
        let server_flush = if is_calls(bench) {
            let flush: mlua::Function = sim
                .server()
                .eval("return shared.BenchServerFlush")
                .map_err(lua_error("server set-up"))?;
            Some(flush)
        } else {
            None
        };
        sim.take_traffic();
        Ok(Started {
            sim,
            frame,
            server_flush,
        })
    }

    /// The harness's halves of `bench` and the set-up each side runs once the tool's code and
    /// adapter are loaded: events for every bench but CallResponse, which `calls.luau` drives.
    fn sides(&self, bench: &str) -> Sides<'_> {
        if is_calls(bench) {
            return Sides {
                server: ("BenchCalls", &self.calls),
                client: ("BenchCalls", &self.calls),
                server_setup: calls::SERVER_SETUP.to_string(),
                client_setup: calls::CLIENT_SETUP.to_string(),
            };
        }
        let event = event_of(bench);
        Sides {
            server: ("BenchServer", &self.server),
            client: ("BenchClient", &self.client),
            server_setup: format!(
                "local listener, tally = require('BenchServer').listener('{bench}')\n\
                 require('Adapter').server('{event}', listener, '{bench}')\n\
                 shared.BenchTally = tally"
            ),
            client_setup: format!(
                "local fire, flush = require('Adapter').client('{event}', '{bench}')\n\
                 shared.BenchFrame = require('BenchClient').prepare('{bench}', fire, flush)"
            ),
        }
    }

    /// Whether `tool` cannot run `bench` at all, and why: its adapter's
    /// `Adapter.unsupported(bench)`, when it has one.
    pub(crate) fn unsupported(&self, tool: &dyn Competitor, bench: &str) -> Result<Option<String>, String> {
        adapter_unsupported(self.adapter(tool), &format!("harness/tools/{}.luau", tool.key()), bench)
    }

    /// Every event of the `frames` frames run in `sim` (started by [`Harness::start`]) arrived
    /// and decoded to what was fired (on CallResponse, every invoke was answered with what it
    /// sent), and nothing raised an error.
    pub(crate) fn check_tally(sim: &Simulation, bench: &str, frames: u32) -> Result<(), String> {
        for world in sim.worlds() {
            if let Some(error) = world.errors().first() {
                let side = if world.is_server() { "the server" } else { "the client" };
                return Err(format!("{side} raised: {error}"));
            }
        }
        if is_calls(bench) {
            return calls::check_calls(sim, frames);
        }
        let (received, mismatches, first): (u64, u64, Option<String>) = sim
            .server()
            .eval("local t = shared.BenchTally return t.received, t.mismatches, t.firstMismatch")
            .map_err(lua_error("reading the tally"))?;
        let expected = u64::from(frames) * u64::from(EVENTS_PER_FRAME);
        if mismatches > 0 {
            return Err(format!(
                "{mismatches} decoded value(s) differ from what was fired: {}",
                first.unwrap_or_default()
            ));
        }
        if received != expected {
            return Err(format!(
                "the server's listener saw {received} of the {expected} events fired"
            ));
        }
        Ok(())
    }
}

/// What each side of a row loads from the harness and runs to set itself up.
struct Sides<'h> {
    /// The harness's half each side loads: its module name and source.
    server: (&'static str, &'h str),
    client: (&'static str, &'h str),
    server_setup: String,
    client_setup: String,
}

/// A row's simulation once both sides are set up.
pub(crate) struct Started {
    pub(crate) sim: Simulation,
    /// The client's frame function (`shared.BenchFrame`).
    pub(crate) frame: mlua::Function,
    /// On CallResponse: the server's flush, which returns the seconds it took.
    pub(crate) server_flush: Option<mlua::Function>,
}

/// Steps until the client's set-up thread has built `shared.BenchFrame`, and returns it.
fn await_client_frame(sim: &mut Simulation) -> Result<mlua::Function, String> {
    let setup = lua_error("client set-up");
    for _ in 0..=CLIENT_SETUP_STEPS {
        let client = sim.client(0).ok_or("the client left")?;
        if let Some(error) = client.errors().first() {
            return Err(format!("client set-up: {error}"));
        }
        let frame: Option<mlua::Function> = client.eval("return shared.BenchFrame").map_err(&setup)?;
        if let Some(frame) = frame {
            return Ok(frame);
        }
        sim.step().map_err(lua_error("waiting for the client's set-up"))?;
    }
    Err(client_setup_timed_out(sim))
}
