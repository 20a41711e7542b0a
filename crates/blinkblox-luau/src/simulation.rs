//! A server world and N client worlds joined by the mock network, driven one
//! frame at a time.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use super::clock::TimingClock;

use super::transport::{Audience, Network, Packet, RemoteInfo, Traffic};
use super::value::RemoteValue;
use super::watchdog::{Callbacks, Watchdog};
use super::world::{Mode, Role, World};

/// Virtual seconds per [`Simulation::step`].
pub const FRAME_SECONDS: f64 = 1.0 / 60.0;

/// How to build a [`Simulation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimulationOptions {
    pub mode: Mode,
    /// Clients (players) joined at creation.
    pub clients: usize,
    /// What `RunService:IsRunning()` answers in every world; `false` is Studio's
    /// edit mode.
    pub running: bool,
}

impl SimulationOptions {
    pub fn new(mode: Mode, clients: usize) -> Self {
        SimulationOptions {
            mode,
            clients,
            running: true,
        }
    }
}

struct ClientSlot {
    world: World,
    player_id: u64,
}

/// Time one world spent in a step: receiving the network's packets (listeners
/// included) and running its frame (RunService events and due tasks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldTiming {
    pub receive: Duration,
    pub frame: Duration,
}

impl WorldTiming {
    pub fn total(&self) -> Duration {
        self.receive + self.frame
    }
}

/// Per-world timings of one step (clients by index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepTiming {
    pub server: WorldTiming,
    pub clients: Vec<(usize, WorldTiming)>,
}

/// A player removed by `Player:Kick`, with the message given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kick {
    pub client: usize,
    pub message: String,
}

/// One server and its clients, each a separate sandboxed Luau state (modules keep
/// module-level state, so every side needs its own copy).
///
/// [`step`](Self::step) runs one frame, in this order:
/// 1. the frame number increases and virtual time becomes `frame / 60` s;
/// 2. pending `Player:Kick`s remove those players;
/// 3. **network**: every packet sent before this step (remote calls and
///    replication) is delivered, server first, then each client, in send order;
///    deferred threads run after each world's deliveries;
/// 4. **frame** in each world (server, then clients in index order): on clients
///    `PreRender`/`RenderStepped`; then `PreSimulation`, `Stepped`,
///    `PostSimulation`, `Heartbeat`; then threads whose `task.wait`/`task.delay`
///    time has come; deferred threads after each stage.
///
/// Anything sent during a step is delivered at the next one, so the calls a
/// frame makes can be counted with [`traffic`](Self::traffic).
pub struct Simulation {
    /// First, so that it is stopped before any world is dropped (fields drop in order).
    watchdog: Option<Watchdog>,
    mode: Mode,
    running: bool,
    network: Rc<RefCell<Network>>,
    clients: Vec<Option<ClientSlot>>,
    kicks: Vec<Kick>,
    last_timing: StepTiming,
    frame: u64,
    clock: TimingClock,
    server: World,
}

impl Simulation {
    /// A running simulation with `clients` players joined.
    pub fn new(mode: Mode, clients: usize) -> mlua::Result<Simulation> {
        Simulation::with_options(SimulationOptions::new(mode, clients))
    }

    pub fn with_options(options: SimulationOptions) -> mlua::Result<Simulation> {
        let network = Rc::new(RefCell::new(Network::default()));
        let server = World::new(options.mode, Role::Server, network.clone())?;
        if !options.running {
            server.set_running(false)?;
        }
        let mut simulation = Simulation {
            watchdog: None,
            mode: options.mode,
            running: options.running,
            network,
            clients: Vec::new(),
            kicks: Vec::new(),
            last_timing: StepTiming::default(),
            frame: 0,
            clock: TimingClock::Wall,
            server,
        };
        for _ in 0..options.clients {
            simulation.add_player()?;
        }
        Ok(simulation)
    }

    /// Measures [`last_step_timing`](Self::last_step_timing) with `clock` from the next step
    /// on (the wall clock by default; the thread's CPU time is steadier on a busy machine).
    pub fn set_timing_clock(&mut self, clock: TimingClock) {
        self.clock = clock;
    }

    /// From now on, Luau that runs longer than `limit` without a step or a
    /// [`keep_alive`](Self::keep_alive) in between raises "the frame ran past the simulation's
    /// time limit" at its next loop iteration, call or return, in whichever world it runs, so
    /// code that never returns fails instead of hanging its caller. Costs nothing until then.
    pub fn set_time_limit(&mut self, limit: Duration) {
        let worlds = self.worlds().map(|world| Callbacks::of(world.lua())).collect();
        self.watchdog = Some(Watchdog::start(limit, worlds));
    }

    /// Starts the time limit again from now (each [`step`](Self::step) does this too).
    pub fn keep_alive(&self) {
        if let Some(watchdog) = &self.watchdog {
            watchdog.pet();
        }
    }

    /// Whether the time limit has passed since the last step or keep-alive.
    pub fn ran_past_time_limit(&self) -> bool {
        self.watchdog.as_ref().is_some_and(Watchdog::fired)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn server(&self) -> &World {
        &self.server
    }

    /// Client `index` (the order players joined), or `None` once it has left.
    pub fn client(&self, index: usize) -> Option<&World> {
        self.clients.get(index).and_then(Option::as_ref).map(|slot| &slot.world)
    }

    /// The clients still connected, with their indices.
    pub fn clients(&self) -> impl Iterator<Item = (usize, &World)> {
        self.clients
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| slot.as_ref().map(|slot| (index, &slot.world)))
    }

    /// Every world: the server first, then the connected clients.
    pub fn worlds(&self) -> impl Iterator<Item = &World> {
        std::iter::once(&self.server).chain(self.clients().map(|(_, world)| world))
    }

    /// Frames stepped so far.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Virtual time in seconds.
    pub fn time(&self) -> f64 {
        self.frame as f64 * FRAME_SECONDS
    }

    /// A new player joins: the server makes its `Player`, a client world is created
    /// with everything replicated so far and `Players.LocalPlayer` set, then the
    /// Player is parented to `Players` on the server (firing `PlayerAdded`; the
    /// other clients see it at the next step). Returns the client index.
    pub fn add_player(&mut self) -> mlua::Result<usize> {
        let index = self.clients.len();
        // Slots are never reused, so the index alone numbers the player: `Player1` has UserId 1.
        let user_id = index as u64 + 1;
        let name = format!("Player{user_id}");
        let player_id: u64 = self
            .server
            .mock_function("createPlayer")?
            .call((name.as_str(), user_id))?;
        self.network.borrow_mut().players.insert(player_id, index);

        let world = World::new(self.mode, Role::Client { index, player_id }, self.network.clone())?;
        if !self.running {
            world.set_running(false)?;
        }
        for op in self.server.replication_snapshot()? {
            world.apply_replication("create", &op)?;
        }
        world
            .mock_function("setLocalPlayer")?
            .call::<()>((player_id, name.as_str(), user_id))?;
        if let Some(watchdog) = &self.watchdog {
            watchdog.watch_world(Callbacks::of(world.lua()));
        }
        self.clients.push(Some(ClientSlot { world, player_id }));
        self.server.mock_function("addPlayer")?.call::<()>(player_id)?;
        Ok(index)
    }

    /// Player `index` leaves: `PlayerRemoving` fires on the server (and, at the
    /// next step, on the other clients), its world is dropped, and packets from or
    /// to it that were not delivered yet are discarded.
    pub fn remove_player(&mut self, index: usize) -> mlua::Result<()> {
        let Some(slot) = self.clients.get_mut(index).and_then(Option::take) else {
            return Err(mlua::Error::runtime(format!(
                "remove_player: there is no connected client {index}"
            )));
        };
        if let Some(watchdog) = &self.watchdog {
            // Before the world is dropped at the end of this function.
            watchdog.forget_world(Callbacks::of(slot.world.lua()));
        }
        {
            let mut network = self.network.borrow_mut();
            network.players.remove(&slot.player_id);
            network.to_server.retain(|(from, _)| *from != slot.player_id);
            network
                .to_clients
                .retain(|(audience, _)| *audience != Audience::Player(slot.player_id));
        }
        self.server.mock_function("removePlayer")?.call::<()>(slot.player_id)?;
        Ok(())
    }

    /// Players removed by `Player:Kick` so far.
    pub fn kicks(&self) -> &[Kick] {
        &self.kicks
    }

    /// Runs one frame (see the type's documentation for the order).
    pub fn step(&mut self) -> mlua::Result<()> {
        self.keep_alive();
        self.frame += 1;
        self.network.borrow_mut().frame = self.frame;
        self.apply_kicks()?;
        let time = self.time();
        for world in self.worlds() {
            world.set_time(time)?;
        }

        let (to_server, to_clients) = {
            let mut network = self.network.borrow_mut();
            (
                std::mem::take(&mut network.to_server),
                std::mem::take(&mut network.to_clients),
            )
        };
        let mut timing = StepTiming::default();

        let started = self.clock.now();
        for (from, packet) in to_server {
            if let Packet::Remote { remote_id, kind, args } = packet {
                self.server.deliver(remote_id, kind, from, None, &args)?;
            }
        }
        self.server.flush_deferred()?;
        timing.server.receive = self.clock.now().saturating_sub(started);

        let remotes: Vec<Option<RemoteInfo>> = {
            let network = self.network.borrow();
            to_clients
                .iter()
                .map(|(_, packet)| match packet {
                    Packet::Remote { remote_id, .. } => network.remotes.get(remote_id).cloned(),
                    Packet::Replication { .. } => None,
                })
                .collect()
        };
        for (index, slot) in self.clients.iter().enumerate() {
            let Some(slot) = slot else { continue };
            let started = self.clock.now();
            for ((audience, packet), remote) in to_clients.iter().zip(&remotes) {
                if let Audience::Player(player) = audience
                    && *player != slot.player_id
                {
                    continue;
                }
                match packet {
                    Packet::Remote { remote_id, kind, args } => {
                        slot.world.deliver(*remote_id, *kind, 0, remote.as_ref(), args)?
                    }
                    Packet::Replication { op, args } => slot.world.apply_replication(op, args)?,
                }
            }
            slot.world.flush_deferred()?;
            timing.clients.push((
                index,
                WorldTiming {
                    receive: self.clock.now().saturating_sub(started),
                    frame: Duration::ZERO,
                },
            ));
        }

        let started = self.clock.now();
        self.server.frame(time, FRAME_SECONDS)?;
        timing.server.frame = self.clock.now().saturating_sub(started);
        for (index, world_timing) in &mut timing.clients {
            if let Some(world) = self.client(*index) {
                let started = self.clock.now();
                world.frame(time, FRAME_SECONDS)?;
                world_timing.frame = self.clock.now().saturating_sub(started);
            }
        }
        self.last_timing = timing;
        Ok(())
    }

    /// Time each world spent in the last [`step`](Self::step), by the
    /// [timing clock](Self::set_timing_clock).
    pub fn last_step_timing(&self) -> &StepTiming {
        &self.last_timing
    }

    /// Runs `frames` steps.
    pub fn steps(&mut self, frames: usize) -> mlua::Result<()> {
        for _ in 0..frames {
            self.step()?;
        }
        Ok(())
    }

    fn apply_kicks(&mut self) -> mlua::Result<()> {
        let kicks = std::mem::take(&mut self.network.borrow_mut().kicks);
        for (player_id, message) in kicks {
            let index = self.network.borrow().players.get(&player_id).copied();
            if let Some(index) = index {
                self.remove_player(index)?;
                self.kicks.push(Kick { client: index, message });
            }
        }
        Ok(())
    }

    /// The remote calls recorded since the last [`take_traffic`](Self::take_traffic)
    /// (every call is kept: long runs should take the traffic each frame).
    pub fn traffic(&self) -> Traffic {
        self.network.borrow().traffic.clone()
    }

    /// Returns the recorded remote calls and starts counting afresh.
    pub fn take_traffic(&mut self) -> Traffic {
        self.network.borrow_mut().take_traffic()
    }

    fn remote_for_injection(&self, index: usize, remote: &str) -> mlua::Result<u64> {
        if self.client(index).is_none() {
            return Err(mlua::Error::runtime(format!(
                "inject: there is no connected client {index}"
            )));
        }
        let found = match self.server.instance_id(remote)? {
            Some(id) => Some(id),
            None if !remote.contains('.') => self.server.instance_id(&format!("ReplicatedStorage.{remote}"))?,
            None => None,
        };
        found.ok_or_else(|| {
            mlua::Error::runtime(format!(
                "inject: no Instance at \"{remote}\" on the server (give a path from game, e.g. \"ReplicatedStorage.NAME\")"
            ))
        })
    }

    fn player_id(&self, index: usize) -> Option<u64> {
        self.clients
            .get(index)
            .and_then(Option::as_ref)
            .map(|slot| slot.player_id)
    }

    /// Queues a `FireServer` from client `index` with arbitrary arguments, as a
    /// malicious client could send, bypassing the client's code. It is delivered
    /// at the next step, in order with the client's own calls, and is not counted
    /// in the traffic. `remote` is a path from `game` or a name in ReplicatedStorage.
    pub fn inject_fire_server(&mut self, index: usize, remote: &str, args: Vec<RemoteValue>) -> mlua::Result<()> {
        let remote_id = self.remote_for_injection(index, remote)?;
        let player_id = self.player_id(index).unwrap_or_default();
        let kind = super::CallKind::FireServer;
        self.network
            .borrow_mut()
            .to_server
            .push((player_id, Packet::Remote { remote_id, kind, args }));
        Ok(())
    }

    /// Like [`inject_fire_server`](Self::inject_fire_server) but runs the
    /// server's `OnServerEvent` listeners now.
    pub fn deliver_to_server_now(&mut self, index: usize, remote: &str, args: &[RemoteValue]) -> mlua::Result<()> {
        let remote_id = self.remote_for_injection(index, remote)?;
        let player_id = self.player_id(index).unwrap_or_default();
        self.server
            .deliver(remote_id, super::CallKind::FireServer, player_id, None, args)?;
        self.server.flush_deferred()
    }
}
