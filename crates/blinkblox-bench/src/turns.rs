//! Rows measured side by side in turns. A row's frames are timed in turns of [`TURN_FRAMES`],
//! each turn in a fresh simulation, and the rows of one bench (or scenario) and mode take their
//! turns in rotation, one row further along each round. A shared machine's speed drifts over
//! minutes, and one simulation can run slower than the next for its whole life (where its heap
//! and native code landed): the rotation spreads a drift over every row, and a fresh
//! simulation a turn confines an unlucky one to a turn's frames, so that a row's median is the
//! typical simulation's. A row takes at most about its [`Pace::row_budget`] of time
//! ([`ROW_BUDGET`] unless `--row-seconds` says otherwise), so that a tool far slower than the
//! rest does not hold a full run up.

use std::time::Duration;

use blinkblox_luau::TimingClock;

/// Timed frames a turn: each in a fresh simulation, before the next row takes its turn.
pub const TURN_FRAMES: u32 = 25;

/// The most time one row takes by default, its simulations' set-up included: a row stops taking turns once
/// it has used it, and the turn that uses it up stops after the frame that crossed it (once the
/// row has timed [`MIN_FRAMES`]). A fast row times all its frames within it; a tool tens of
/// times slower than the others times a few, which is enough to show how far behind it is, and
/// a full run with every tool stays within minutes. It is CPU time of the thread that runs the
/// VMs (as the figures are), so a busy machine does not cut rows short.
pub const ROW_BUDGET: Duration = Duration::from_secs(2);

/// The frames a row times before its budget can stop it (fewer only when it is asked for fewer):
/// enough for a median of a tool tens of times slower than the rest, whose every frame takes
/// seconds on the heavy benches.
pub const MIN_FRAMES: u32 = 5;

/// How many frames a row times, and the time it may take for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// `--frames`: the timed frames a row runs.
    pub frames: u32,
    /// `--row-seconds`: the most CPU time a row takes, set-up included (see [`ROW_BUDGET`]).
    pub row_budget: Duration,
}

impl Pace {
    /// `frames` a row, within the default [`ROW_BUDGET`].
    pub fn frames(frames: u32) -> Pace {
        Pace {
            frames,
            row_budget: ROW_BUDGET,
        }
    }
}

/// The clock a row's budget is spent on.
const BUDGET_CLOCK: TimingClock = TimingClock::ThreadCpu;

/// One turn of a row: its frames to time, and when it should stop because the row's budget is
/// used up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    pub(crate) frames: u32,
    /// [`BUDGET_CLOCK`]'s reading at which the row's budget is used up.
    deadline: Duration,
    /// The frames this turn times whatever the budget says.
    at_least: u32,
}

impl Turn {
    /// Whether a turn that has timed `timed` frames should stop now.
    pub(crate) fn should_stop(&self, timed: u32) -> bool {
        timed >= self.frames || (timed >= self.at_least && BUDGET_CLOCK.now() >= self.deadline)
    }
}

/// Runs the rows' turns: rounds of at most [`TURN_FRAMES`] frames a row, among the rows with
/// frames and time left the first of a round one further along each round (so that no row
/// always follows the same one, or always goes first). `run_turn(row, turn, state)` times a
/// turn's frames into that row's state and returns how many it timed. A row whose turn fails
/// runs no more turns, and its error says which of its timed frames the failing turn held. A row
/// takes no more turns once it has spent `budget`.
pub(crate) fn take_turns<S>(
    targets: &[u32],
    budget: Duration,
    states: &mut [Result<S, String>],
    mut run_turn: impl FnMut(usize, &Turn, &mut S) -> Result<u32, String>,
) {
    let mut left = targets.to_vec();
    let mut spent = vec![Duration::ZERO; targets.len()];
    let mut timed_so_far = vec![0u32; targets.len()];
    for round in 0.. {
        let active: Vec<usize> = (0..left.len())
            .filter(|&row| left[row] > 0 && states[row].is_ok())
            .collect();
        if active.is_empty() {
            break;
        }
        for offset in 0..active.len() {
            let row = active[(round + offset) % active.len()];
            let Ok(state) = &mut states[row] else { continue };
            let started = BUDGET_CLOCK.now();
            let turn = Turn {
                frames: left[row].min(TURN_FRAMES),
                deadline: started + budget.saturating_sub(spent[row]),
                at_least: MIN_FRAMES.saturating_sub(timed_so_far[row]).max(1),
            };
            let first = timed_so_far[row] + 1;
            match run_turn(row, &turn, state) {
                Ok(timed) => {
                    let timed = timed.min(left[row]);
                    timed_so_far[row] += timed;
                    left[row] -= timed;
                }
                Err(err) => {
                    let last = first + turn.frames - 1;
                    states[row] = Err(format!("the turn timing frames {first}–{last}: {err}"));
                }
            }
            spent[row] += BUDGET_CLOCK.now().saturating_sub(started);
            if spent[row] >= budget {
                left[row] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `take_turns` with turns that take no time and time every frame asked for.
    fn turns_of(targets: &[u32]) -> Vec<(usize, u32)> {
        let mut states: Vec<Result<(), String>> = targets.iter().map(|_| Ok(())).collect();
        let mut calls = Vec::new();
        take_turns(targets, ROW_BUDGET, &mut states, |row, turn, _| {
            calls.push((row, turn.frames));
            Ok(turn.frames)
        });
        calls
    }

    #[test]
    fn rows_take_turns_in_rotating_order_until_each_has_its_frames() {
        // 60 frames for two rows, 20 for a third (plain remotes are capped): rounds of 25,
        // the third done in its first turn, the first row of each round one further along.
        assert_eq!(
            turns_of(&[60, 60, 20]),
            [(0, 25), (1, 25), (2, 20), (1, 25), (0, 25), (0, 10), (1, 10)]
        );
    }

    #[test]
    fn every_row_times_exactly_its_frames_a_turn_at_a_time() {
        let targets = [200, 7, 0, 26, 200];
        let turns = turns_of(&targets);
        for (row, &target) in targets.iter().enumerate() {
            let mine: Vec<u32> = turns.iter().filter(|turn| turn.0 == row).map(|turn| turn.1).collect();
            assert_eq!(mine.iter().sum::<u32>(), target, "row {row}");
            assert!(mine.iter().all(|&frames| frames <= TURN_FRAMES && frames > 0));
        }
        // Every row with frames to time has had a turn before any row has its second.
        let mut first_turns: Vec<usize> = turns[..4].iter().map(|turn| turn.0).collect();
        first_turns.sort_unstable();
        assert_eq!(first_turns, [0, 1, 3, 4]);
        assert!(turns_of(&[]).is_empty());
    }

    #[test]
    fn once_a_row_is_done_the_others_still_take_turns_going_first() {
        // Plain remotes finish in the first round; the two rows left go first in turn.
        let turns = turns_of(&[200, 200, 20]);
        let firsts: Vec<usize> = turns[3..].chunks(2).map(|round| round[0].0).collect();
        assert_eq!(firsts, [1, 0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn a_row_that_fails_a_later_turn_runs_no_more_and_says_which_frames() {
        let mut states: Vec<Result<Vec<u32>, String>> = vec![Ok(Vec::new()), Ok(Vec::new())];
        let mut calls = Vec::new();
        take_turns(&[60, 60], ROW_BUDGET, &mut states, |row, turn, frames| {
            calls.push((row, turn.frames));
            if row == 1 && frames.len() == 1 {
                return Err("the server's listener saw 0 of the 27000 events fired".into());
            }
            frames.push(turn.frames);
            Ok(turn.frames)
        });
        assert_eq!(calls, [(0, 25), (1, 25), (1, 25), (0, 25), (0, 10)]);
        assert_eq!(states[0], Ok(vec![25, 25, 10]));
        assert_eq!(
            states[1],
            Err("the turn timing frames 26–50: the server's listener saw 0 of the 27000 events fired".into())
        );
    }

    #[test]
    fn a_slow_row_stops_when_its_time_is_used_up_and_the_others_go_on() {
        let mut states: Vec<Result<u32, String>> = vec![Ok(0), Ok(0)];
        let budget = Duration::from_millis(400);
        take_turns(&[200, 200], budget, &mut states, |row, turn, timed| {
            let mut frames = 0;
            while !turn.should_stop(frames) {
                if row == 0 {
                    // A frame of a fortieth of the budget, spent on the CPU: the row runs out
                    // partway, past its first MIN_FRAMES.
                    let until = BUDGET_CLOCK.now() + budget / 40;
                    while BUDGET_CLOCK.now() < until {
                        std::hint::spin_loop();
                    }
                }
                frames += 1;
            }
            *timed += frames;
            Ok(frames)
        });
        let slow = *states[0].as_ref().expect("slow row");
        assert!((MIN_FRAMES..60).contains(&slow), "the slow row timed {slow} frames");
        assert_eq!(states[1], Ok(200), "the fast row timed all its frames");
    }
}
