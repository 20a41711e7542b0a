//! Remotes between the server world and client worlds: copying, ordering,
//! Instances as mirrors, players, injection and the traffic counters.

use blinkblox_luau::{CallKind, Mode, RemoteValue, Simulation};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

/// A server with remotes `Reliable` and `Unreliable` in ReplicatedStorage whose
/// server listeners record what they get in `shared.received`, replicated to
/// `clients` clients (one step run).
fn simulation(mode: Mode, clients: usize) -> Simulation {
    let mut sim = Simulation::new(mode, clients).expect("simulation");
    sim.server()
        .exec(
            r#"
            local storage = game:GetService("ReplicatedStorage")
            shared.received = {}
            for _, spec in { { "Reliable", "RemoteEvent" }, { "Unreliable", "UnreliableRemoteEvent" } } do
                local remote = Instance.new(spec[2])
                remote.Name = spec[1]
                remote.Parent = storage
                remote.OnServerEvent:Connect(function(player, ...)
                    table.insert(shared.received, { remote = spec[1], player = player, args = table.pack(...) })
                end)
            end
            "#,
        )
        .expect("server setup");
    sim.step().expect("step");
    for (_, client) in sim.clients() {
        client
            .exec(
                r#"
                shared.received = {}
                local storage = game:GetService("ReplicatedStorage")
                for _, name in { "Reliable", "Unreliable" } do
                    storage:FindFirstChild(name).OnClientEvent:Connect(function(...)
                        table.insert(shared.received, { remote = name, args = table.pack(...) })
                    end)
                end
                "#,
            )
            .expect("client setup");
    }
    sim
}

#[test]
fn buffer_sent_with_fire_server_arrives_copied_with_the_player() {
    for mode in MODES {
        let mut sim = simulation(mode, 2);
        let client = sim.client(1).expect("client 1");
        client
            .exec(
                r#"
                local data = buffer.create(3)
                buffer.writeu8(data, 0, 7)
                game.ReplicatedStorage.Reliable:FireServer(data)
                buffer.writeu8(data, 0, 99) -- after the call: the server must not see this
                shared.sent = data
                "#,
            )
            .expect("fire");
        sim.step().expect("step");
        let (name, first, length, kind): (String, u8, usize, String) = sim
            .server()
            .eval(
                r#"
                local entry = shared.received[1]
                local data = entry.args[1]
                buffer.writeu8(data, 1, 55) -- the client's buffer must not change
                return entry.player.Name, buffer.readu8(data, 0), buffer.len(data), typeof(data)
                "#,
            )
            .expect("eval");
        assert_eq!(
            (name.as_str(), first, length, kind.as_str()),
            ("Player2", 7, 3, "buffer")
        );
        let client_byte: u8 = sim
            .client(1)
            .expect("client")
            .eval("return buffer.readu8(shared.sent, 1)")
            .expect("eval");
        assert_eq!(client_byte, 0, "{mode:?}");
    }
}

#[test]
fn fire_all_clients_reaches_every_client_and_fire_client_only_one() {
    for mode in MODES {
        let mut sim = simulation(mode, 3);
        sim.server()
            .exec(
                r#"
                local remote = game.ReplicatedStorage.Reliable
                remote:FireAllClients("everyone", 1)
                remote:FireClient(game.Players:GetPlayers()[2], "only two")
                "#,
            )
            .expect("fire");
        sim.step().expect("step");
        for (index, client) in sim.clients() {
            let got: Vec<String> = client
                .eval("local out = {} for _, e in shared.received do table.insert(out, e.args[1]) end return out")
                .expect("eval");
            let expected: Vec<&str> = if index == 1 {
                vec!["everyone", "only two"]
            } else {
                vec!["everyone"]
            };
            assert_eq!(got, expected, "client {index} {mode:?}");
        }
    }
}

#[test]
fn order_is_preserved_within_and_across_remotes() {
    let mut sim = simulation(Mode::Native, 1);
    sim.client(0)
        .expect("client")
        .exec(
            r#"
            for i = 1, 50 do
                local remote = if i % 3 == 0 then game.ReplicatedStorage.Unreliable else game.ReplicatedStorage.Reliable
                remote:FireServer(i)
            end
            "#,
        )
        .expect("fire");
    sim.step().expect("step");
    let got: Vec<f64> = sim
        .server()
        .eval("local out = {} for _, e in shared.received do table.insert(out, e.args[1]) end return out")
        .expect("eval");
    assert_eq!(got, (1..=50).map(f64::from).collect::<Vec<_>>());
}

#[test]
fn calls_to_a_remote_nobody_listens_to_wait_for_the_first_listener() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    sim.server()
        .exec(
            r#"
            local remote = Instance.new("RemoteEvent")
            remote.Name = "Late"
            remote.Parent = game.ReplicatedStorage
            for i = 1, 300 do
                remote:FireAllClients(i)
            end
            "#,
        )
        .expect("fire");
    sim.steps(2).expect("steps");
    let client = sim.client(0).expect("client");
    client
        .exec(
            r#"
            shared.got = {}
            game.ReplicatedStorage.Late.OnClientEvent:Connect(function(v) table.insert(shared.got, v) end)
            "#,
        )
        .expect("connect");
    let (count, first, last): (usize, f64, f64) = client
        .eval("return #shared.got, shared.got[1], shared.got[#shared.got]")
        .expect("eval");
    assert_eq!(
        (count, first, last),
        (256, 1.0, 256.0),
        "Roblox keeps 256 calls, delivered in order"
    );
    assert!(
        client
            .warnings()
            .iter()
            .any(|w| w.contains("invocation queue exhausted"))
    );
}

#[test]
fn delivery_happens_at_the_next_step() {
    let mut sim = simulation(Mode::Native, 1);
    sim.server()
        .exec("game.ReplicatedStorage.Reliable:FireAllClients('x')")
        .expect("fire");
    let client = sim.client(0).expect("client");
    assert_eq!(client.eval::<usize>("return #shared.received").expect("eval"), 0);
    sim.step().expect("step");
    assert_eq!(
        sim.client(0)
            .expect("client")
            .eval::<usize>("return #shared.received")
            .expect("eval"),
        1
    );
}

#[test]
fn instances_in_arguments_arrive_as_mirrors() {
    for mode in MODES {
        let mut sim = simulation(mode, 2);
        sim.server()
            .exec(
                r#"
                local part = Instance.new("Part")
                part.Name = "Crate"
                part.Parent = workspace
                local model = Instance.new("Model")
                model.Name = "Car"
                model.Parent = game.ReplicatedStorage
                local hidden = Instance.new("Folder") -- never replicated: made on demand
                hidden.Name = "Hidden"
                shared.part = part
                game.ReplicatedStorage.Reliable:FireAllClients(buffer.create(0), { part, model, hidden, game.Players:GetPlayers()[1] })
                "#,
            )
            .expect("fire");
        sim.step().expect("step");
        let client = sim.client(0).expect("client");
        let description: Vec<String> = client
            .eval(
                r#"
                local list = shared.received[1].args[2]
                local part, model, hidden, player = list[1], list[2], list[3], list[4]
                return {
                    typeof(part), part.ClassName, part.Name, tostring(part:IsA("BasePart")), tostring(part:IsA("PVInstance")),
                    tostring(part:IsA("Model")), tostring(part == workspace:FindFirstChild("Crate")),
                    model.ClassName, tostring(model:IsA("PVInstance")), tostring(model.Parent == game.ReplicatedStorage),
                    hidden.ClassName, hidden.Name,
                    player.ClassName, tostring(player == game.Players.LocalPlayer),
                }
                "#,
            )
            .expect("eval");
        assert_eq!(
            description,
            [
                "Instance", "Part", "Crate", "true", "true", "false", "true", "Model", "true", "true", "Folder",
                "Hidden", "Player", "true"
            ],
            "{mode:?}"
        );
        // client → server: the mirror maps back to the server's Instance; a
        // client-made Instance arrives as nil
        client
            .exec(
                r#"
                local mine = Instance.new("Part")
                game.ReplicatedStorage.Reliable:FireServer(buffer.create(0), { workspace.Crate, mine })
                "#,
            )
            .expect("fire back");
        sim.step().expect("step");
        let (same, second_is_nil): (bool, bool) = sim
            .server()
            .eval("local list = shared.received[1].args[2] return list[1] == shared.part, list[2] == nil")
            .expect("eval");
        assert!(same && second_is_nil, "{mode:?}");
    }
}

#[test]
fn unknown_values_are_copied() {
    let mut sim = simulation(Mode::Native, 1);
    sim.server()
        .exec(
            r#"
            game.ReplicatedStorage.Reliable:FireAllClients(
                nil, true, 1.5, "text", vector.create(1, 2, 3),
                { 1, 2, { nested = "yes" } }, CFrame.new(1, 2, 3), Color3.new(0.5, 0.25, 1),
                BrickColor.new(21), DateTime.fromUnixTimestampMillis(1234), Enum.KeyCode.Space
            )
            "#,
        )
        .expect("fire");
    sim.step().expect("step");
    let ok: bool = sim
        .client(0)
        .expect("client")
        .eval(
            r#"
            local a = shared.received[1].args
            return a.n == 11 and a[1] == nil and a[2] == true and a[3] == 1.5 and a[4] == "text"
                and a[5] == Vector3.new(1, 2, 3) and a[6][2] == 2 and a[6][3].nested == "yes"
                and a[7] == CFrame.new(1, 2, 3) and a[8] == Color3.new(0.5, 0.25, 1)
                and a[9].Number == 21 and a[10].UnixTimestampMillis == 1234 and a[11] == Enum.KeyCode.Space
            "#,
        )
        .expect("eval");
    assert!(ok);
}

#[test]
fn functions_cannot_be_sent_and_are_reported() {
    let mut sim = simulation(Mode::Native, 1);
    sim.server()
        .exec("game.ReplicatedStorage.Reliable:FireAllClients(function() end, 2)")
        .expect("fire");
    sim.step().expect("step");
    let (first_nil, second): (bool, f64) = sim
        .client(0)
        .expect("client")
        .eval("local a = shared.received[1].args return a[1] == nil, a[2]")
        .expect("eval");
    assert!(first_nil);
    assert_eq!(second, 2.0);
    assert!(
        sim.server()
            .warnings()
            .iter()
            .any(|w| w.contains("function cannot be sent"))
    );
}

#[test]
fn counters_count_calls_and_bytes_per_frame_and_remote() {
    let mut sim = simulation(Mode::Native, 2);
    sim.take_traffic();
    let client = sim.client(0).expect("client");
    client
        .exec(
            r#"
            game.ReplicatedStorage.Reliable:FireServer(buffer.create(128))
            game.ReplicatedStorage.Reliable:FireServer(buffer.create(2), {})
            game.ReplicatedStorage.Unreliable:FireServer(buffer.create(602))
            "#,
        )
        .expect("fire");
    sim.step().expect("step");
    sim.server()
        .exec(
            r#"
            game.ReplicatedStorage.Reliable:FireAllClients(buffer.create(10))
            game.ReplicatedStorage.Reliable:FireClient(game.Players:GetPlayers()[2], buffer.create(5))
            "#,
        )
        .expect("fire");
    let traffic = sim.take_traffic();
    assert_eq!(traffic.calls().len(), 5);
    // the client fired between step 1 and step 2: frame 1; the server after step 2: frame 2
    assert_eq!(traffic.frame(1).calls, 3);
    assert_eq!(traffic.frame(2).calls, 2);
    assert_eq!(traffic.remote("Reliable").calls, 4);
    assert_eq!(traffic.remote("Unreliable").calls, 1);
    assert_eq!(traffic.remote("Unreliable").buffer_bytes, 602);
    assert_eq!(traffic.kind(CallKind::FireServer).buffer_bytes, 128 + 2 + 602);
    assert_eq!(traffic.kind(CallKind::FireAllClients).calls, 1);
    assert_eq!(traffic.kind(CallKind::FireClient).buffer_bytes, 5);
    let fire_client = traffic
        .calls()
        .iter()
        .find(|call| call.kind == CallKind::FireClient)
        .expect("FireClient");
    assert_eq!(fire_client.client, Some(1));
    assert!(
        traffic
            .calls()
            .iter()
            .any(|call| call.unreliable && call.remote == "Unreliable")
    );
    let per_frame = traffic.per_frame();
    assert_eq!(per_frame[&1]["Reliable"].calls, 2);
    assert!(sim.take_traffic().calls().is_empty(), "take_traffic resets");
}

#[test]
fn a_malicious_client_can_be_simulated() {
    let mut sim = simulation(Mode::Native, 2);
    let part_id = {
        sim.server()
            .exec("local p = Instance.new('Part') p.Name = 'Target' p.Parent = workspace shared.target = p")
            .expect("part");
        sim.server()
            .instance_id("Workspace.Target")
            .expect("lookup")
            .expect("id")
    };
    sim.inject_fire_server(
        1,
        "Reliable",
        vec![
            RemoteValue::buffer(vec![255, 0, 1]),
            RemoteValue::array([RemoteValue::instance(part_id)]),
        ],
    )
    .expect("inject");
    sim.step().expect("step");
    let (player, byte, same): (String, u8, bool) = sim
        .server()
        .eval(
            r#"
            local e = shared.received[1]
            return e.player.Name, buffer.readu8(e.args[1], 0), e.args[2][1] == shared.target
            "#,
        )
        .expect("eval");
    assert_eq!((player.as_str(), byte, same), ("Player2", 255, true));
    assert!(sim.take_traffic().calls().is_empty(), "injected calls are not counted");
    sim.deliver_to_server_now(
        0,
        "ReplicatedStorage.Unreliable",
        &[RemoteValue::String(b"now".to_vec())],
    )
    .expect("deliver now");
    let last: String = sim
        .server()
        .eval("return shared.received[#shared.received].args[1]")
        .expect("eval");
    assert_eq!(last, "now");
    assert!(sim.inject_fire_server(0, "Missing", vec![]).is_err());
    assert!(sim.inject_fire_server(9, "Reliable", vec![]).is_err());
}

#[test]
fn malformed_injected_values_arrive_as_nil() {
    let mut sim = simulation(Mode::Native, 1);
    let garbage = |type_name: &str| RemoteValue::Datatype {
        type_name: type_name.to_string(),
        components: vec![RemoteValue::String(b"x".to_vec())],
    };
    sim.inject_fire_server(
        0,
        "Reliable",
        vec![
            garbage("CFrame"),
            garbage("Color3"),
            garbage("Nonsense"),
            RemoteValue::instance(987_654),
            RemoteValue::Table(vec![(RemoteValue::Number(f64::NAN), RemoteValue::Boolean(true))]),
            RemoteValue::Number(f64::NAN),
            (0..10_000).fold(RemoteValue::Nil, |inner, _| RemoteValue::array([inner])),
        ],
    )
    .expect("inject");
    sim.step().expect("a malformed packet must not break the step");
    let (count, all_nil, empty, nan, nested): (usize, bool, bool, bool, bool) = sim
        .server()
        .eval(
            r#"
            local a = shared.received[1].args
            local depth, t = 0, a[7]
            while type(t) == "table" do depth += 1 t = t[1] end
            return a.n, a[1] == nil and a[2] == nil and a[3] == nil and a[4] == nil, next(a[5]) == nil, a[6] ~= a[6],
                depth == 65
            "#,
        )
        .expect("eval");
    assert_eq!(
        (count, all_nil, empty, nan, nested),
        (7, true, true, true, true),
        "nesting is cut at 64 levels"
    );
}

#[test]
fn players_join_and_leave() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    sim.server()
        .exec(
            r#"
            shared.events = {}
            local players = game:GetService("Players")
            players.PlayerAdded:Connect(function(p) table.insert(shared.events, "added " .. p.Name) end)
            players.PlayerRemoving:Connect(function(p) table.insert(shared.events, "removing " .. p.Name .. " " .. tostring(p.Parent ~= nil)) end)
            "#,
        )
        .expect("server");
    sim.client(0)
        .expect("client")
        .exec(
            r#"
            shared.events = {}
            local players = game:GetService("Players")
            players.PlayerAdded:Connect(function(p) table.insert(shared.events, "added " .. p.Name) end)
            players.PlayerRemoving:Connect(function(p) table.insert(shared.events, "removing " .. p.Name) end)
            "#,
        )
        .expect("client");
    let second = sim.add_player().expect("join");
    assert_eq!(second, 1);
    sim.step().expect("step");
    let joined = sim.client(1).expect("client 1");
    let local_name: String = joined.eval("return game.Players.LocalPlayer.Name").expect("eval");
    assert_eq!(local_name, "Player2");
    let count: usize = joined.eval("return #game.Players:GetPlayers()").expect("eval");
    assert_eq!(count, 2);
    sim.remove_player(1).expect("leave");
    assert!(sim.client(1).is_none());
    sim.step().expect("step");
    let server_events: Vec<String> = sim.server().eval("return shared.events").expect("eval");
    assert_eq!(server_events, ["added Player2", "removing Player2 true"]);
    let remaining: usize = sim.server().eval("return #game.Players:GetPlayers()").expect("eval");
    assert_eq!(remaining, 1);
    let client_events: Vec<String> = sim
        .client(0)
        .expect("client 0")
        .eval("return shared.events")
        .expect("eval");
    assert_eq!(client_events, ["added Player2", "removing Player2"]);
    let left: usize = sim
        .client(0)
        .expect("client 0")
        .eval("return #game.Players:GetPlayers()")
        .expect("eval");
    assert_eq!(left, 1);
    assert!(sim.remove_player(1).is_err());
}

#[test]
fn kick_removes_the_player_at_the_next_step() {
    let mut sim = Simulation::new(Mode::Native, 2).expect("simulation");
    sim.server()
        .exec("game.Players:GetPlayers()[1]:Kick('bad packet')")
        .expect("kick");
    sim.step().expect("step");
    assert!(sim.client(0).is_none());
    assert_eq!(sim.kicks().len(), 1);
    assert_eq!(sim.kicks()[0].message, "bad packet");
}

#[test]
fn wrong_side_calls_raise_clear_errors() {
    let sim = simulation(Mode::Native, 1);
    let error = sim
        .server()
        .exec("game.ReplicatedStorage.Reliable:FireServer(1)")
        .expect_err("server FireServer");
    assert!(
        error
            .to_string()
            .contains("FireServer can only be called from the client"),
        "{error}"
    );
    let client = sim.client(0).expect("client");
    let error = client
        .exec("game.ReplicatedStorage.Reliable:FireAllClients(1)")
        .expect_err("client FireAllClients");
    assert!(
        error.to_string().contains("can only be called from the server"),
        "{error}"
    );
    let error = sim
        .server()
        .exec("game.ReplicatedStorage.Reliable:FireClient(workspace, 1)")
        .expect_err("bad player");
    assert!(
        error.to_string().contains("player argument must be a Player"),
        "{error}"
    );
}
