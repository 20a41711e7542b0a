//! The task scheduler on the virtual clock, signals, WaitForChild, attributes
//! and replication of the instance tree.

use blinkblox_luau::{Mode, Simulation};

fn events(sim: &Simulation) -> Vec<String> {
    sim.server().eval("return shared.log").expect("shared.log")
}

#[test]
fn task_wait_and_delay_follow_the_virtual_clock() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let mut sim = Simulation::new(mode, 0).expect("simulation");
        sim.server()
            .spawn(
                r#"
                shared.log = {}
                task.delay(0.5, function(tag) table.insert(shared.log, "delay " .. tag .. " at " .. math.round(time() * 60)) end, "a")
                local elapsed = task.wait(0.1)
                table.insert(shared.log, "waited " .. math.round(elapsed * 60) .. " frames at " .. math.round(time() * 60))
                task.wait()
                table.insert(shared.log, "next frame at " .. math.round(time() * 60))
                "#,
            )
            .expect("spawn");
        assert!(events(&sim).is_empty());
        sim.steps(5).expect("steps");
        assert!(events(&sim).is_empty(), "0.1 s is 6 frames");
        sim.step().expect("step");
        assert_eq!(events(&sim), ["waited 6 frames at 6"]);
        sim.step().expect("step");
        assert_eq!(events(&sim), ["waited 6 frames at 6", "next frame at 7"]);
        sim.steps(23).expect("steps");
        assert_eq!(events(&sim).len(), 3, "{mode:?}");
        assert_eq!(events(&sim)[2], "delay a at 30");
    }
}

#[test]
fn task_cancel_stops_delayed_and_waiting_threads() {
    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    sim.server()
        .exec(
            r#"
            shared.log = {}
            local delayed = task.delay(0.05, function() table.insert(shared.log, "delayed ran") end)
            local waiting = task.spawn(function()
                task.wait(0.05)
                table.insert(shared.log, "waiter ran")
            end)
            local deferred = task.defer(function() table.insert(shared.log, "deferred ran") end)
            task.cancel(delayed)
            task.cancel(waiting)
            task.cancel(deferred)
            task.delay(0.05, function() table.insert(shared.log, "kept") end)
            "#,
        )
        .expect("exec");
    sim.steps(10).expect("steps");
    assert_eq!(events(&sim), ["kept"]);
    assert_eq!(sim.server().pending_tasks().expect("pending"), 0);
}

#[test]
fn spawn_runs_now_and_defer_runs_after_the_current_code() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    sim.server()
        .exec(
            r#"
            shared.log = {}
            task.defer(function() table.insert(shared.log, "deferred") end)
            task.spawn(function() table.insert(shared.log, "spawned") end)
            table.insert(shared.log, "main")
            "#,
        )
        .expect("exec");
    assert_eq!(events(&sim), ["spawned", "main", "deferred"]);
}

#[test]
fn heartbeat_runs_each_frame_with_the_frame_time() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    for world in sim.worlds() {
        world
            .exec(
                r#"
                shared.beats = 0
                local run = game:GetService("RunService")
                run.Heartbeat:Connect(function(dt) shared.beats += 1 shared.dt = dt end)
                run.PostSimulation:Connect(function() shared.post = (shared.post or 0) + 1 end)
                "#,
            )
            .expect("connect");
    }
    sim.steps(3).expect("steps");
    let timing = sim.last_step_timing();
    assert_eq!(timing.clients.len(), 1);
    assert!(timing.server.frame > std::time::Duration::ZERO && timing.clients[0].1.total() > std::time::Duration::ZERO);
    for world in sim.worlds() {
        let (beats, post, dt): (u32, u32, f64) =
            world.eval("return shared.beats, shared.post, shared.dt").expect("eval");
        assert_eq!((beats, post), (3, 3));
        assert!((dt - 1.0 / 60.0).abs() < 1e-12);
    }
    let (server, client): (bool, bool) = sim
        .client(0)
        .expect("client")
        .eval("local r = game:GetService('RunService') return r:IsServer(), r:IsClient()")
        .expect("eval");
    assert_eq!((server, client), (false, true));
}

#[test]
fn signals_connect_once_wait_and_disconnect() {
    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    sim.server()
        .exec(
            r#"
            shared.log = {}
            local event = Instance.new("BindableEvent")
            shared.event = event
            local connection = event.Event:Connect(function(v) table.insert(shared.log, "connect " .. v) end)
            event.Event:Once(function(v) table.insert(shared.log, "once " .. v) end)
            event.Event:Connect(function(v) error("listener failed on " .. v) end)
            task.spawn(function()
                local v = event.Event:Wait()
                table.insert(shared.log, "wait " .. v)
            end)
            shared.connection = connection
            "#,
        )
        .expect("setup");
    let fired: bool = sim
        .server()
        .eval(
            r#"
            shared.event:Fire(1)
            shared.event:Fire(2)
            local before = shared.connection.Connected
            shared.connection:Disconnect()
            shared.event:Fire(3)
            return before and not shared.connection.Connected
            "#,
        )
        .expect("fire");
    assert!(fired);
    assert_eq!(events(&sim), ["connect 1", "once 1", "wait 1", "connect 2"]);
    let errors = sim.server().errors();
    assert_eq!(
        errors.len(),
        3,
        "each failing call is logged and the signal keeps working: {errors:?}"
    );
    assert!(errors[0].contains("listener failed on 1"));
    sim.step().expect("step");
}

#[test]
fn cancelling_a_finished_listener_thread_does_not_break_later_listeners() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let count: u32 = sim
        .server()
        .eval(
            r#"
            local event = Instance.new("BindableEvent")
            local count = 0
            local kept
            event.Event:Connect(function() count += 1 kept = kept or coroutine.running() end)
            event:Fire()
            task.cancel(kept) -- the thread that ran the listener, now idle
            event:Fire()
            event:Fire()
            return count
            "#,
        )
        .expect("eval");
    assert_eq!(count, 3);
    assert!(sim.server().errors().is_empty(), "{:?}", sim.server().errors());
}

#[test]
fn wait_for_child_yields_until_the_child_exists() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    let client = sim.client(0).expect("client");
    client
        .spawn(
            r#"
            shared.log = {}
            local remote = game:GetService("ReplicatedStorage"):WaitForChild("Remotes"):WaitForChild("Net")
            table.insert(shared.log, remote.ClassName .. " at " .. math.round(time() * 60))
            local none = workspace:WaitForChild("Never", 0.5)
            table.insert(shared.log, "timeout " .. tostring(none) .. " at " .. math.round(time() * 60))
            "#,
        )
        .expect("spawn");
    sim.steps(2).expect("steps");
    sim.server()
        .exec(
            r#"
            local folder = Instance.new("Folder")
            folder.Name = "Remotes"
            local remote = Instance.new("UnreliableRemoteEvent", folder)
            remote.Name = "Net"
            folder.Parent = game:GetService("ReplicatedStorage")
            "#,
        )
        .expect("server");
    let client_log =
        |sim: &Simulation| -> Vec<String> { sim.client(0).expect("client").eval("return shared.log").expect("log") };
    assert!(client_log(&sim).is_empty());
    sim.step().expect("step");
    assert_eq!(client_log(&sim), ["UnreliableRemoteEvent at 3"]);
    sim.steps(30).expect("steps");
    assert_eq!(client_log(&sim), ["UnreliableRemoteEvent at 3", "timeout nil at 33"]);
    // without a timeout, Roblox's "Infinite yield possible" warning after 5 s
    sim.client(0)
        .expect("client")
        .spawn("workspace:WaitForChild('Nothing')")
        .expect("spawn");
    sim.steps(301).expect("steps");
    let warnings = sim.client(0).expect("client").warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("Infinite yield possible") && w.contains("Nothing")),
        "{warnings:?}"
    );
}

#[test]
fn wait_for_child_on_the_main_thread_is_a_clear_error() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let error = sim
        .server()
        .exec("workspace:WaitForChild('Missing')")
        .expect_err("must not yield");
    assert!(error.to_string().contains("run it in a task thread"), "{error}");
}

#[test]
fn instances_have_children_classes_and_attributes() {
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    let results: Vec<String> = sim
        .server()
        .eval(
            r#"
            local out = {}
            local function add(v) table.insert(out, tostring(v)) end
            local model = Instance.new("Model")
            model.Name = "Car"
            local part = Instance.new("Part", model)
            part.Name = "Wheel"
            add(model:FindFirstChild("Wheel") == part)
            add(model.Wheel == part)
            add(#model:GetChildren())
            add(part:IsA("Part") and part:IsA("BasePart") and part:IsA("PVInstance") and part:IsA("Instance"))
            add(model:IsA("PVInstance") and not model:IsA("BasePart"))
            add(part:GetFullName())
            model.Parent = workspace
            add(part:GetFullName())
            local changes = {}
            part:GetAttributeChangedSignal("Speed"):Connect(function() table.insert(changes, part:GetAttribute("Speed")) end)
            part.AttributeChanged:Connect(function(name) table.insert(changes, name) end)
            part:SetAttribute("Speed", 5)
            part:SetAttribute("Speed", 5) -- same value: no signal
            part:SetAttribute("Other", true)
            add(table.concat(changes, ","))
            add(part:GetAttribute("Missing"))
            local ok = pcall(function() part:SetAttribute("Bad", {}) end)
            add(ok)
            local added = {}
            model.ChildAdded:Connect(function(c) table.insert(added, c.Name) end)
            Instance.new("Folder", model).Name = "Late"
            add(table.concat(added, ","))
            part:Destroy()
            add(model:FindFirstChild("Wheel"))
            add(pcall(function() part.Parent = model end))
            add(pcall(function() return part.NoSuchMember end))
            add(pcall(Instance.new, "Nonsense"))
            part = Instance.new("Part")
            part.Position = Vector3.new(1, 2, 3)
            add(part.CFrame.Position == Vector3.new(1, 2, 3))
            add(pcall(function() game:GetService("NoSuchService") end))
            return out
            "#,
        )
        .expect("eval");
    assert_eq!(
        results,
        [
            "true",
            "true",
            "1",
            "true",
            "true",
            "Car.Wheel",
            "Workspace.Car.Wheel",
            "5,Speed,Other",
            "nil",
            "false",
            "Folder",
            "nil",
            "false",
            "false",
            "false",
            "true",
            "false"
        ]
    );
    let error = sim
        .server()
        .exec("game:GetService('HttpServiceX')")
        .expect_err("unknown service");
    assert!(error.to_string().contains("is not a valid Service name"), "{error}");
}

#[test]
fn attributes_and_renames_replicate_to_clients() {
    let mut sim = Simulation::new(Mode::Native, 1).expect("simulation");
    sim.server()
        .exec(
            r#"
            local remote = Instance.new("RemoteEvent")
            remote.Name = "Net"
            remote:SetAttribute("Version", 1)
            remote.Parent = game.ReplicatedStorage
            shared.remote = remote
            "#,
        )
        .expect("server");
    sim.step().expect("step");
    let client = sim.client(0).expect("client");
    client
        .spawn(
            r#"
            shared.log = {}
            local remote = game.ReplicatedStorage:WaitForChild("Net")
            table.insert(shared.log, remote:GetAttribute("Version"))
            remote:GetAttributeChangedSignal("Version"):Wait()
            table.insert(shared.log, remote:GetAttribute("Version"))
            "#,
        )
        .expect("spawn");
    sim.server()
        .exec("shared.remote:SetAttribute('Version', 2) shared.remote.Name = 'Renamed'")
        .expect("change");
    sim.step().expect("step");
    let (log, renamed): (Vec<f64>, bool) = sim
        .client(0)
        .expect("client")
        .eval("return shared.log, game.ReplicatedStorage:FindFirstChild('Renamed') ~= nil")
        .expect("eval");
    assert_eq!(log, [1.0, 2.0]);
    assert!(renamed);
    sim.server().exec("shared.remote:Destroy()").expect("destroy");
    sim.step().expect("step");
    let gone: bool = sim
        .client(0)
        .expect("client")
        .eval("return game.ReplicatedStorage:FindFirstChild('Renamed') == nil")
        .expect("eval");
    assert!(gone);
}
