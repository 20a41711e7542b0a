//! RemoteFunction between the server world and client worlds: InvokeServer answered by
//! OnServerInvoke and InvokeClient by OnClientInvoke, each invoke in its own thread, errors
//! carried back, invokes waiting for a callback, misuse, and the traffic counters.

use blinkblox_luau::{CallKind, Mode, Simulation};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

/// A server with a RemoteFunction `Echo` in ReplicatedStorage, replicated to `clients` clients.
fn simulation(mode: Mode, clients: usize) -> Simulation {
    let mut sim = Simulation::new(mode, clients).expect("simulation");
    sim.server()
        .exec(
            r#"
            local remote = Instance.new("RemoteFunction")
            remote.Name = "Echo"
            remote.Parent = game:GetService("ReplicatedStorage")
            "#,
        )
        .expect("server setup");
    sim.step().expect("step");
    sim
}

#[test]
fn invokes_from_many_threads_each_get_their_own_answer_at_a_later_step() {
    for mode in MODES {
        let mut sim = simulation(mode, 2);
        sim.server()
            .exec(
                r#"
                game.ReplicatedStorage.Echo.OnServerInvoke = function(player, value, text)
                    return player.Name, value * 2, text
                end
                "#,
            )
            .expect("callback");
        for (index, client) in sim.clients() {
            client
                .exec(&format!(
                    r#"
                    shared.answers = {{}}
                    for call = 1, 3 do
                        task.spawn(function()
                            local name, doubled, text = game.ReplicatedStorage.Echo:InvokeServer(call + {index} * 10, "x")
                            shared.answers[call] = `{{name}} {{doubled}} {{text}}`
                        end)
                    end
                    "#
                ))
                .expect("invoke");
        }
        // The invokes reach the server at the next step; the answers come back at the one after.
        sim.step().expect("step");
        let early: usize = sim
            .client(0)
            .expect("client")
            .eval("return #shared.answers")
            .expect("eval");
        assert_eq!(early, 0, "{mode:?}: no answer before the server has run");
        sim.step().expect("step");
        for (index, client) in sim.clients() {
            let answers: Vec<String> = client.eval("return shared.answers").expect("eval");
            let player = index + 1;
            let expected: Vec<String> = (1..=3)
                .map(|call| format!("Player{player} {} x", (call + index * 10) * 2))
                .collect();
            assert_eq!(answers, expected, "{mode:?}");
            assert!(client.errors().is_empty(), "{:?}", client.errors());
        }
        assert!(sim.server().errors().is_empty(), "{:?}", sim.server().errors());
    }
}

#[test]
fn an_error_in_the_callback_is_raised_in_the_invoking_thread() {
    for mode in MODES {
        let mut sim = simulation(mode, 1);
        sim.server()
            .exec(r#"game.ReplicatedStorage.Echo.OnServerInvoke = function() error("no such item", 0) end"#)
            .expect("callback");
        let client = sim.client(0).expect("client");
        client
            .exec(
                r#"
                task.spawn(function()
                    local ok, err = pcall(function()
                        return game.ReplicatedStorage.Echo:InvokeServer()
                    end)
                    shared.outcome = `{ok} {err}`
                end)
                "#,
            )
            .expect("invoke");
        sim.step().expect("step");
        sim.step().expect("step");
        let outcome: String = sim
            .client(0)
            .expect("client")
            .eval("return shared.outcome")
            .expect("eval");
        assert!(
            outcome.starts_with("false") && outcome.contains("no such item"),
            "{mode:?}: {outcome}"
        );
    }
}

#[test]
fn an_invoke_before_the_callback_is_set_waits_for_it() {
    for mode in MODES {
        let mut sim = simulation(mode, 1);
        let client = sim.client(0).expect("client");
        client
            .exec(
                r#"
                task.spawn(function()
                    shared.answer = game.ReplicatedStorage.Echo:InvokeServer(21)
                end)
                "#,
            )
            .expect("invoke");
        sim.step().expect("step");
        sim.step().expect("step");
        let waiting: Option<f64> = sim
            .client(0)
            .expect("client")
            .eval("return shared.answer")
            .expect("eval");
        assert_eq!(waiting, None, "{mode:?}");
        sim.server()
            .exec("game.ReplicatedStorage.Echo.OnServerInvoke = function(_, value) return value * 2 end")
            .expect("callback");
        sim.step().expect("step");
        let answer: f64 = sim
            .client(0)
            .expect("client")
            .eval("return shared.answer")
            .expect("eval");
        assert_eq!(answer, 42.0, "{mode:?}");
    }
}

#[test]
fn the_server_invokes_a_client_and_reads_its_answer() {
    for mode in MODES {
        let mut sim = simulation(mode, 2);
        sim.client(1)
            .expect("client")
            .exec("game.ReplicatedStorage.Echo.OnClientInvoke = function(value) return value + 1 end")
            .expect("callback");
        sim.server()
            .exec(
                r#"
                task.spawn(function()
                    local player = game:GetService("Players"):GetPlayers()[2]
                    shared.answer = game.ReplicatedStorage.Echo:InvokeClient(player, 41)
                end)
                "#,
            )
            .expect("invoke");
        sim.step().expect("step");
        sim.step().expect("step");
        let answer: f64 = sim.server().eval("return shared.answer").expect("eval");
        assert_eq!(answer, 42.0, "{mode:?}");
        let traffic = sim.take_traffic();
        assert_eq!(traffic.kind(CallKind::InvokeClient).calls, 1);
        assert_eq!(traffic.kind(CallKind::AnswerServer).calls, 1);
    }
}

#[test]
fn misuse_raises_as_on_roblox() {
    let sim = simulation(Mode::Interpreted, 1);
    let client = sim.client(0).expect("client");
    let not_yieldable = client
        .exec("game.ReplicatedStorage.Echo:InvokeServer()")
        .expect_err("the main thread cannot yield");
    assert!(not_yieldable.to_string().contains("task thread"), "{not_yieldable}");
    let read = client
        .exec("local _ = game.ReplicatedStorage.Echo.OnClientInvoke")
        .expect_err("a callback cannot be read");
    assert!(read.to_string().contains("only set"), "{read}");
    let wrong_side = sim
        .server()
        .exec("task.spawn(function() game.ReplicatedStorage.Echo:InvokeServer() end)")
        .map(|()| sim.server().errors());
    assert!(
        wrong_side.is_ok_and(|errors| errors
            .iter()
            .any(|error| error.contains("only be called from the client"))),
        "InvokeServer on the server raises"
    );
}
