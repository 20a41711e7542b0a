//! The time limit: Luau that never returns raises instead of hanging the caller, in both modes,
//! even when it catches the error, and the worlds run again after the next step.

use std::time::Duration;

use blinkblox_luau::{Mode, Simulation};

const LIMIT: Duration = Duration::from_millis(300);

#[test]
fn an_endless_loop_raises_past_the_limit_and_the_worlds_run_again() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let mut sim = Simulation::new(mode, 1).expect("simulation");
        sim.set_time_limit(LIMIT);
        let err = sim
            .server()
            .exec("--!native\nlocal n = 0\nwhile true do n += 1 end")
            .expect_err("the loop is stopped");
        assert!(err.to_string().contains("time limit"), "{mode:?}: {err}");
        assert!(sim.ran_past_time_limit());

        // A loop that catches the error keeps being stopped until the next step.
        let client = sim.client(0).expect("client");
        let err = client
            .exec("while true do pcall(function() while true do end end) end")
            .expect_err("the catching loop is stopped");
        assert!(err.to_string().contains("time limit"), "{mode:?}: {err}");

        sim.step().expect("a step after the limit runs");
        assert!(!sim.ran_past_time_limit());
        let sum: i64 = sim
            .server()
            .eval("local s = 0 for i = 1, 1000 do s += i end return s")
            .expect("runs again");
        assert_eq!(sum, 500_500);
    }
}

#[test]
fn a_player_who_leaves_is_no_longer_watched_and_one_who_joins_is() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    sim.set_time_limit(LIMIT);
    sim.remove_player(0).expect("leave");
    let joined = sim.add_player().expect("join");
    let err = sim
        .client(joined)
        .expect("client")
        .exec("while true do end")
        .expect_err("the new client's loop is stopped");
    assert!(err.to_string().contains("time limit"), "{err}");
}

#[test]
fn without_a_limit_nothing_is_watched() {
    let sim = Simulation::new(Mode::Native, 1).expect("simulation");
    let count: i64 = sim
        .server()
        .eval("local n = 0 for i = 1, 3000000 do n += 1 end return n")
        .expect("runs");
    assert_eq!(count, 3_000_000);
    assert!(!sim.ran_past_time_limit());
}
