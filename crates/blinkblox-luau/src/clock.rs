//! The clocks [`StepTiming`](super::StepTiming) can be measured with: the wall clock
//! (default), or the CPU time of the calling thread, which a busy shared machine disturbs far
//! less (time the thread spends descheduled is not counted).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Which clock a [`Simulation`](super::Simulation) times its steps with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimingClock {
    /// A monotonic wall clock (`Instant`).
    #[default]
    Wall,
    /// The calling thread's CPU time where the platform has it (Linux), else the wall clock.
    ThreadCpu,
}

impl TimingClock {
    /// The clock's reading, from an arbitrary fixed origin.
    pub fn now(self) -> Duration {
        match self {
            TimingClock::Wall => wall_now(),
            TimingClock::ThreadCpu => thread_cpu_time().unwrap_or_else(wall_now),
        }
    }

    /// Whether [`ThreadCpu`](Self::ThreadCpu) really reads CPU time on this platform.
    pub fn thread_cpu_available() -> bool {
        thread_cpu_time().is_some()
    }
}

fn wall_now() -> Duration {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod linux {
    /// `struct timespec` on 64-bit Linux.
    #[repr(C)]
    pub struct Timespec {
        pub tv_sec: i64,
        pub tv_nsec: i64,
    }
    /// `CLOCK_THREAD_CPUTIME_ID` in <time.h>.
    pub const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    unsafe extern "C" {
        pub fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
}

/// The calling thread's CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), or `None` where
/// this build does not read it.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    {
        let mut time = linux::Timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `time` is a valid, writable timespec for the call; the C library (linked by
        // std) provides clock_gettime.
        let status = unsafe { linux::clock_gettime(linux::CLOCK_THREAD_CPUTIME_ID, &mut time) };
        if status == 0 && time.tv_sec >= 0 && (0..1_000_000_000).contains(&time.tv_nsec) {
            return Some(Duration::new(time.tv_sec as u64, time.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_clock_advances_with_work_and_not_with_sleep() {
        let clock = TimingClock::ThreadCpu;
        let start = clock.now();
        let mut x = 0u64;
        for i in 0..3_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let worked = clock.now() - start;
        assert!(worked > Duration::ZERO, "{worked:?}");
        if TimingClock::thread_cpu_available() {
            let before = clock.now();
            std::thread::sleep(Duration::from_millis(50));
            let slept = clock.now() - before;
            assert!(slept < Duration::from_millis(20), "sleeping used {slept:?} of CPU");
        }
        let wall = TimingClock::Wall;
        let before = wall.now();
        std::thread::sleep(Duration::from_millis(5));
        assert!(wall.now() - before >= Duration::from_millis(5));
    }
}
