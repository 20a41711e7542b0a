//! The embedded Luau runtime: sandboxed Luau VMs (through `mlua`) with a mock of
//! the Roblox API, where the test suite and `blinkblox bench` run generated
//! modules.
//!
//! A [`Simulation`] holds one server [`World`] and any number of client worlds,
//! each its own `Lua` state (generated modules keep module-level state, so each
//! side needs its own copy), joined by an in-order mock network. Rust drives it
//! one frame at a time with [`Simulation::step`]; virtual time advances 1/60 s a
//! frame, so `task.wait`/`task.delay` are deterministic.
//!
//! The mock itself is Luau, in `src/runtime/mock/*.luau` (included at build
//! time): `game`/services, RunService, Players, Instances with attributes and
//! `WaitForChild`, signals, `task`, remotes, and the datatypes (`Vector3` is the
//! native `vector`; `CFrame`, `Color3`, `BrickColor`, `DateTime`, `Random`,
//! `Enum`). Rust provides the transport, the counters and the logs.
//!
//! Every world is compiled like Roblox compiles scripts ([`roblox_compiler`]:
//! optimization level 2, Roblox's mutable globals, `Vector3.new` as the builtin
//! vector constructor), with Roblox's Luau fast flags on ([`ROBLOX_FFLAGS`]), and
//! sandboxed so Luau's safe-environment fast paths stay on (see `world.rs`).
//!
//! # Where the mock differs from Roblox
//! - Signals fire immediately (Roblox's `Immediate` signal behaviour); each
//!   listener runs on a thread that may yield. An error in a listener or a task is
//!   caught and kept in [`World::errors`]; the signal keeps working.
//! - Remote calls are delivered in order and never dropped, unreliable ones too,
//!   and with no size limit (the counters record sizes so tests can check them).
//!   Calls to a remote nobody listens to are kept (up to 256) until the first
//!   listener connects, as on Roblox.
//! - An Instance argument the client has not seen arrives as a mirror made on
//!   demand (Roblox would send nil for one outside the replicated services); an
//!   Instance made on a client arrives at the server as nil, as on Roblox.
//! - Descendants of Workspace, ReplicatedStorage, ReplicatedFirst and Players
//!   replicate to clients (creation, parent, name, attributes, properties,
//!   Destroy), in order with remote calls.
//! - `time()` and `task` follow the virtual clock; `os.clock()` and `tick()` are
//!   real time (for measuring).
//! - The globals are read-only (sandbox); `shared` and `_G` are writable tables
//!   of each world.
//!
//! ```
//! use blinkblox_luau::{Mode, Simulation};
//! # fn main() -> mlua::Result<()> {
//! let mut sim = Simulation::new(Mode::Native, 2)?;
//! sim.server().exec(r#"
//!     local remote = Instance.new("RemoteEvent")
//!     remote.Name = "Ping"
//!     remote.Parent = game:GetService("ReplicatedStorage")
//!     remote.OnServerEvent:Connect(function(player, data) print(player.Name, buffer.len(data)) end)
//! "#)?;
//! sim.step()?; // replication reaches the clients
//! sim.client(0).expect("client 0").exec(r#"
//!     game:GetService("ReplicatedStorage").Ping:FireServer(buffer.create(4))
//! "#)?;
//! sim.step()?; // the server receives it
//! assert_eq!(sim.server().prints(), ["Player1 4"]);
//! # Ok(())
//! # }
//! ```

mod clock;
mod fflags;
mod simulation;
mod transport;
mod value;
mod watchdog;
mod world;

pub use clock::{TimingClock, thread_cpu_time};
pub use fflags::{ROBLOX_FFLAGS, enable_roblox_fflags};
pub use simulation::{FRAME_SECONDS, Kick, Simulation, SimulationOptions, StepTiming, WorldTiming};
pub use transport::{CallKind, CallTally, RemoteCall, Traffic};
pub use value::RemoteValue;
pub use world::{MUTABLE_GLOBALS, Mode, Role, World, WorldLog, roblox_compiler};
