//! A time limit on Luau that may never return: when a frame runs past it, every world's VM
//! raises at its next safepoint (a loop's back-edge, a call or a return), as Roblox stops a
//! script that runs too long, so that one tool's endless loop fails its own row instead of
//! hanging a whole benchmark run.
//!
//! Until the limit passes it costs the VM nothing: its interrupt, which Luau checks at every
//! safepoint, is set only then, by a thread that sleeps until the deadline. The deadline moves
//! on with every [`Watchdog::pet`] (each simulation step pets it). Once the interrupt is set,
//! every safepoint raises until the next pet, so a loop that catches the error with `pcall`
//! is stopped too.

use std::ffi::c_int;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mlua::ffi::{lua_Callbacks, lua_State, lua_callbacks};

/// Raised in the running Luau when the limit has passed.
const MESSAGE: &std::ffi::CStr = c"the frame ran past the simulation's time limit (an endless loop?)";

/// The VM interrupt set once the limit has passed: raises in the running thread.
unsafe extern "C-unwind" fn stop_running(state: *mut lua_State, gc: c_int) {
    // A garbage-collection step cannot raise; the next safepoint of the code will.
    if gc >= 0 {
        return;
    }
    // SAFETY: Luau calls this with the running thread's valid state, at a safepoint where
    // raising an error is allowed.
    unsafe {
        mlua::ffi::lua_pushstring(state, MESSAGE.as_ptr());
        mlua::ffi::lua_error(state);
    }
}

/// A world's VM callbacks, by address: the `lua_Callbacks` of its global state, which lives as
/// long as the world's `Lua`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Callbacks(usize);

impl Callbacks {
    /// `lua`'s callbacks.
    pub(crate) fn of(lua: &mlua::Lua) -> Callbacks {
        let mut address = 0usize;
        // SAFETY: only reads the address of the VM's callbacks, which every thread of one VM
        // shares; nothing is pushed or popped.
        let _ = unsafe {
            lua.exec_raw::<()>((), |state| {
                address = lua_callbacks(state) as usize;
            })
        };
        Callbacks(address)
    }

    fn set(self, interrupt: Option<unsafe extern "C-unwind" fn(*mut lua_State, c_int)>) {
        if self.0 == 0 {
            return;
        }
        let callbacks = self.0 as *mut lua_Callbacks;
        // SAFETY: the address is a live VM's callbacks (the watchdog is stopped and joined
        // before any world is dropped, see `Simulation`). The VM reads the pointer at its
        // safepoints; a pointer-sized volatile store is seen whole.
        unsafe { std::ptr::write_volatile(&raw mut (*callbacks).interrupt, interrupt) }
    }
}

struct State {
    deadline: Instant,
    limit: Duration,
    worlds: Vec<Callbacks>,
    fired: bool,
    stopped: bool,
}

/// The thread that enforces a simulation's time limit. Stopped and joined on drop.
pub(crate) struct Watchdog {
    shared: Arc<(Mutex<State>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

fn lock(shared: &(Mutex<State>, Condvar)) -> MutexGuard<'_, State> {
    shared.0.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Watchdog {
    /// Starts enforcing `limit` on `worlds` from now.
    pub(crate) fn start(limit: Duration, worlds: Vec<Callbacks>) -> Watchdog {
        let shared = Arc::new((
            Mutex::new(State {
                deadline: Instant::now() + limit,
                limit,
                worlds,
                fired: false,
                stopped: false,
            }),
            Condvar::new(),
        ));
        let watched = shared.clone();
        let thread = std::thread::Builder::new()
            .name("blinkblox-luau-watchdog".into())
            .spawn(move || watch(&watched))
            .ok();
        Watchdog { shared, thread }
    }

    /// The limit starts again from now, and a VM stopped by it runs again.
    pub(crate) fn pet(&self) {
        let mut state = lock(&self.shared);
        state.deadline = Instant::now() + state.limit;
        if state.fired {
            state.fired = false;
            for world in &state.worlds {
                world.set(None);
            }
            // The thread sleeps long once it has fired: it watches the new deadline instead.
            self.shared.1.notify_all();
        }
    }

    /// A world joined after the watchdog started.
    pub(crate) fn watch_world(&self, world: Callbacks) {
        let mut state = lock(&self.shared);
        if state.fired {
            world.set(Some(stop_running));
        }
        state.worlds.push(world);
    }

    /// A world about to be dropped: its interrupt cleared and no longer set.
    pub(crate) fn forget_world(&self, world: Callbacks) {
        let mut state = lock(&self.shared);
        world.set(None);
        state.worlds.retain(|watched| *watched != world);
    }

    /// Whether the limit has passed since the last pet.
    pub(crate) fn fired(&self) -> bool {
        lock(&self.shared).fired
    }
}

/// The watchdog thread: sleeps until the deadline, and sets every world's interrupt if it has
/// passed without a pet.
fn watch(shared: &(Mutex<State>, Condvar)) {
    let mut state = lock(shared);
    while !state.stopped {
        let now = Instant::now();
        if !state.fired && now >= state.deadline {
            state.fired = true;
            for world in &state.worlds {
                world.set(Some(stop_running));
            }
        }
        let wait = if state.fired {
            Duration::from_secs(3600)
        } else {
            state.deadline.saturating_duration_since(now)
        };
        state = shared
            .1
            .wait_timeout(state, wait)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        {
            let mut state = lock(&self.shared);
            state.stopped = true;
            for world in &state.worlds {
                world.set(None);
            }
        }
        self.shared.1.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
