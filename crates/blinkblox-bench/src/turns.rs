//! Rows measured side by side in turns. A row's frames are timed in turns of [`TURN_FRAMES`],
//! each turn in a fresh simulation, and the rows of one bench (or scenario) and mode take their
//! turns in rotation, one row further along each round. A shared machine's speed drifts over
//! minutes, and one simulation can run slower than the next for its whole life (where its heap
//! and native code landed): the rotation spreads a drift over every row, and a fresh
//! simulation a turn confines an unlucky one to a turn's frames, so that a row's median is the
//! typical simulation's.

/// Timed frames a turn: each in a fresh simulation, before the next row takes its turn.
pub const TURN_FRAMES: u32 = 25;

/// One turn: `row` times `timed` frames in a fresh simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    row: usize,
    timed: u32,
}

/// The turns for rows that are to time `targets[row]` frames each: rounds of at most
/// [`TURN_FRAMES`] frames a row, and among the rows with frames left, the first of a round one
/// further along each round (so that no row always follows the same one, or always goes first).
fn schedule(targets: &[u32]) -> Vec<Turn> {
    let mut left = targets.to_vec();
    let mut turns = Vec::new();
    for round in 0.. {
        let active: Vec<usize> = (0..left.len()).filter(|&row| left[row] > 0).collect();
        if active.is_empty() {
            break;
        }
        for offset in 0..active.len() {
            let row = active[(round + offset) % active.len()];
            let timed = left[row].min(TURN_FRAMES);
            left[row] -= timed;
            turns.push(Turn { row, timed });
        }
    }
    turns
}

/// Runs the turns of [`schedule`]`(targets)`: `run_turn(row, timed, state)` times a turn's
/// frames into that row's state. A row whose turn fails runs no more turns, and its error
/// says which of its timed frames the failing turn held.
pub(crate) fn take_turns<S>(
    targets: &[u32],
    states: &mut [Result<S, String>],
    mut run_turn: impl FnMut(usize, u32, &mut S) -> Result<(), String>,
) {
    let mut timed_so_far = vec![0u32; states.len()];
    for turn in schedule(targets) {
        let Ok(state) = &mut states[turn.row] else { continue };
        let first = timed_so_far[turn.row] + 1;
        if let Err(err) = run_turn(turn.row, turn.timed, state) {
            let last = first + turn.timed - 1;
            states[turn.row] = Err(format!("the turn timing frames {first}–{last}: {err}"));
        }
        timed_so_far[turn.row] += turn.timed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(row: usize, timed: u32) -> Turn {
        Turn { row, timed }
    }

    #[test]
    fn rows_take_turns_in_rotating_order_until_each_has_its_frames() {
        // 60 frames for two rows, 20 for a third (plain remotes are capped): rounds of 25,
        // the third done in its first turn, the first row of each round one further along.
        assert_eq!(
            schedule(&[60, 60, 20]),
            [
                turn(0, 25),
                turn(1, 25),
                turn(2, 20),
                turn(1, 25),
                turn(0, 25),
                turn(0, 10),
                turn(1, 10),
            ]
        );
    }

    #[test]
    fn every_row_times_exactly_its_frames_a_turn_at_a_time() {
        let targets = [200, 7, 0, 26, 200];
        let turns = schedule(&targets);
        for (row, &target) in targets.iter().enumerate() {
            let mine: Vec<&Turn> = turns.iter().filter(|turn| turn.row == row).collect();
            assert_eq!(mine.iter().map(|turn| turn.timed).sum::<u32>(), target, "row {row}");
            assert!(mine.iter().all(|turn| turn.timed <= TURN_FRAMES && turn.timed > 0));
        }
        // Every row with frames to time has had a turn before any row has its second.
        let rows_with_frames = targets.iter().filter(|&&target| target > 0).count();
        let mut first_turns: Vec<usize> = turns[..rows_with_frames].iter().map(|turn| turn.row).collect();
        first_turns.sort_unstable();
        assert_eq!(first_turns, [0, 1, 3, 4]);
        assert!(schedule(&[]).is_empty());
    }

    #[test]
    fn once_a_row_is_done_the_others_still_take_turns_going_first() {
        // Plain remotes finish in the first round; the two rows left go first in turn.
        let turns = schedule(&[200, 200, 20]);
        let firsts: Vec<usize> = turns[3..].chunks(2).map(|round| round[0].row).collect();
        assert_eq!(firsts, [1, 0, 1, 0, 1, 0, 1]);
    }

    #[test]
    fn a_row_that_fails_a_later_turn_runs_no_more_and_says_which_frames() {
        let mut states: Vec<Result<Vec<u32>, String>> = vec![Ok(Vec::new()), Ok(Vec::new())];
        let mut calls = Vec::new();
        take_turns(&[60, 60], &mut states, |row, timed, frames| {
            calls.push((row, timed));
            if row == 1 && frames.len() == 1 {
                return Err("the server's listener saw 0 of the 27000 events fired".into());
            }
            frames.push(timed);
            Ok(())
        });
        assert_eq!(calls, [(0, 25), (1, 25), (1, 25), (0, 25), (0, 10)]);
        assert_eq!(states[0], Ok(vec![25, 25, 10]));
        assert_eq!(
            states[1],
            Err("the turn timing frames 26–50: the server's listener saw 0 of the 27000 events fired".into())
        );
    }
}
