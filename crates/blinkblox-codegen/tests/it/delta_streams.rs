//! Delta streams (`Delta: true`): after a player's first record, a flush sends only what
//! changed (a struct's changed fields, a map's removed keys and added or changed entries), the
//! client's listeners and `Get` see the whole current value, a player who joins late gets the
//! whole value, and a stream sends the whole value again at regular intervals.

use blinkblox_luau::{Mode, Simulation, World};

use crate::support::{assert_no_errors, compile, start};

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

const SCHEMA: &str = r#"
struct Unit { position: vector<f32(-2048..2048 step 1/64)>, health: u8 }
stream Units { From: Server, Type: Reliable, Delta: true, Data: map { [u16]: Unit } }
stream Me {
    From: Server, Type: Reliable, Per: Player, Delta: true,
    Data: struct { hp: u8, name: string, alive: boolean, level: u16? },
}
stream Scores { From: Server, Type: Reliable, Delta: true, Data: map { [string]: u16 } }
stream Steps { From: Server, Type: Reliable, Delta: true, Data: map { [f32(0..1 step 1/8)]: u8 } }
stream Lists { From: Server, Type: Reliable, Delta: true, Data: map { [u8]: u8[] } }
stream Marks { From: Server, Type: Reliable, Delta: true, Data: map { [vector]: u8 } }
stream Bags { From: Server, Type: Reliable, Per: Player, Delta: true, Data: map { [u8]: u16 } }
"#;

/// Sets up 64 units on the server and a listener on every client that keeps the last value.
const SERVER_SETUP: &str = r#"
local Net = require("Net")
shared.units = {}
for id = 1, 64 do
    shared.units[id] = { position = Vector3.new(id, -id / 64, 2048 - id), health = 100 }
end
shared.frame = 0
function shared.move(count, hurt)
    shared.frame += 1
    local next = table.clone(shared.units)
    for i = 1, count do
        local id = (shared.frame * 7 + i * 5) % 64 + 1
        local old = next[id]
        next[id] = { position = old.position + Vector3.new(1 / 64, -0.5, -3), health = old.health }
    end
    for i = 1, hurt do
        local id = (shared.frame * 11 + i * 13) % 64 + 1
        next[id] = { position = next[id].position, health = next[id].health - 1 }
    end
    shared.units = next
    Net.Units.Set(next)
end
"#;

const CLIENT_SETUP: &str = r#"
shared.seen = 0
require("Net").Units.On(function(units) shared.seen += 1 shared.last = units end)
"#;

/// Whether client `index`'s last value equals the server's units.
fn same_units(sim: &Simulation, index: usize) -> bool {
    let units: String = sim
        .server()
        .eval("local out = {} for id, u in shared.units do table.insert(out, `{id}={u.position}/{u.health}`) end table.sort(out) return table.concat(out, ';')")
        .expect("server units");
    let seen: String = sim
        .client(index)
        .expect("client")
        .eval("local out = {} for id, u in shared.last do table.insert(out, `{id}={u.position}/{u.health}`) end table.sort(out) return table.concat(out, ';')")
        .expect("client units");
    units == seen
}

/// The bytes the server sends in a step, after which a second step delivers them.
fn step_bytes(sim: &mut Simulation) -> u64 {
    sim.take_traffic();
    sim.step().expect("step");
    let bytes = sim.take_traffic().total().buffer_bytes;
    sim.step().expect("deliver");
    bytes
}

/// A simulation of `players` with the units set up on the server and every client listening.
fn with_units(modules: &crate::support::Modules, mode: Mode, players: usize) -> Simulation {
    let sim = start(modules, mode, players);
    sim.server().exec(SERVER_SETUP).expect("server");
    for (_, client) in sim.clients() {
        client.exec(CLIENT_SETUP).expect("client");
    }
    sim.server()
        .exec("require('Net').Units.Set(shared.units)")
        .expect("set");
    sim
}

/// A player who joins after the first records: the client module loaded a step after joining,
/// then `setup` run on it. Returns the client's index.
fn join_late(sim: &mut Simulation, modules: &crate::support::Modules, setup: &str) -> usize {
    let late = sim.add_player().expect("join");
    sim.step().expect("step");
    let client = sim.client(late).expect("late client");
    client.load_module("Net", &modules.client).expect("late module");
    client.exec(setup).expect("late listener");
    late
}

/// Client 0 keeps stream `stream`'s value in `shared.<name>`.
fn keep_on_client(sim: &Simulation, stream: &str, name: &str) {
    sim.client(0)
        .expect("client")
        .exec(&format!(
            "require('Net').{stream}.On(function(value) shared.{name} = value end)"
        ))
        .expect("listener");
}

/// A map kept in `shared.<name>` in `world`, as sorted `key=value` text.
fn map_text(world: &World, name: &str) -> String {
    world
        .eval(&format!(
            "local out = {{}} for k, v in shared.{name} or {{}} do table.insert(out, `{{k}}={{v}}`) end table.sort(out) return table.concat(out, ' ')"
        ))
        .expect("map")
}

/// Client 0's map in `shared.<name>`.
fn client_map(sim: &Simulation, name: &str) -> String {
    map_text(sim.client(0).expect("client"), name)
}

#[test]
fn a_map_stream_sends_only_the_entries_that_changed() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = with_units(&modules, mode, 2);
        // The whole map once: 64 entries of a key (2), a position (9) and a health (1).
        let whole = step_bytes(&mut sim);
        assert!(same_units(&sim, 0) && same_units(&sim, 1), "{mode:?}: the whole value");
        assert!(whole >= 64 * 12, "{mode:?}: the whole map is {whole} bytes");
        let mut changes = Vec::new();
        for _ in 0..20 {
            sim.server().exec("shared.move(10, 2)").expect("move");
            changes.push(step_bytes(&mut sim));
            assert!(same_units(&sim, 0) && same_units(&sim, 1), "{mode:?}: after changes");
        }
        let largest = changes.iter().max().copied().unwrap_or(0);
        // At most 12 changed entries (some may coincide) and the counts, to every player alike.
        assert!(
            largest <= 12 * 12 + 8,
            "{mode:?}: a frame of 10 moves and 2 hits sent {largest} bytes (the whole map: {whole})"
        );
        // Nothing changed: nothing sent, and the listeners are not called.
        let seen: f64 = sim.client(0).expect("client").eval("return shared.seen").expect("seen");
        sim.server()
            .exec("require('Net').Units.Set(shared.units)")
            .expect("same");
        assert_eq!(step_bytes(&mut sim), 0, "{mode:?}: an unchanged value sends nothing");
        let after: f64 = sim.client(0).expect("client").eval("return shared.seen").expect("seen");
        assert_eq!(seen, after, "{mode:?}");
        // Removing entries.
        sim.server()
            .exec("local next = table.clone(shared.units) next[3] = nil next[40] = nil shared.units = next require('Net').Units.Set(next)")
            .expect("remove");
        sim.steps(2).expect("steps");
        assert!(same_units(&sim, 0), "{mode:?}: after removals");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_player_who_joins_late_gets_the_whole_value_then_the_changes() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = with_units(&modules, mode, 1);
        sim.step().expect("step");
        sim.server().exec("shared.move(10, 2)").expect("move");
        let late = join_late(&mut sim, &modules, CLIENT_SETUP);
        sim.step().expect("step");
        for _ in 0..5 {
            sim.server().exec("shared.move(10, 2)").expect("move");
            sim.step().expect("step");
        }
        sim.step().expect("deliver");
        assert!(same_units(&sim, 0), "{mode:?}: the first player");
        assert!(same_units(&sim, late), "{mode:?}: the player who joined late");
        assert_no_errors(&sim);
    }
}

#[test]
fn the_whole_value_is_sent_again_at_regular_intervals() {
    let modules = compile(SCHEMA);
    let mut sim = with_units(&modules, Mode::Interpreted, 1);
    sim.step().expect("step");
    // A client that lost track (as when a yielding Sync listener cut a packet short) ignores
    // changes until the next whole value.
    sim.client(0)
        .expect("client")
        .exec("shared.last = nil")
        .expect("forget");
    let mut whole_frames = 0;
    for _ in 0..130 {
        sim.server().exec("shared.move(1, 0)").expect("move");
        if step_bytes(&mut sim) > 64 * 12 {
            whole_frames += 1;
        }
    }
    assert_eq!(whole_frames, 1, "one whole value in 130 records");
    assert!(same_units(&sim, 0), "up to date after the whole value");
}

#[test]
fn a_struct_stream_per_player_sends_the_fields_that_changed() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        for (_, client) in sim.clients() {
            client
                .exec("require('Net').Me.On(function(me) shared.me = me end)")
                .expect("listener");
        }
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local players = game:GetService("Players"):GetPlayers()
                Net.Me.Set(players[1], { hp = 100, name = string.rep("n", 40), alive = true, level = 7 })
                Net.Me.Set(players[2], { hp = 50, name = "second", alive = false })
                "#,
            )
            .expect("set");
        let whole = step_bytes(&mut sim);
        sim.server()
            .exec("local p = game:GetService('Players'):GetPlayers()[1] require('Net').Me.Set(p, { hp = 99, name = string.rep('n', 40), alive = true, level = 7 })")
            .expect("hurt");
        let hurt = step_bytes(&mut sim);
        // `[index][1][version][mask][hp]`: the 40-byte name is not sent again.
        assert_eq!(hurt, 5, "{mode:?}: one changed field (whole values were {whole} bytes)");
        let first: String = sim
            .client(0)
            .expect("client")
            .eval("local m = shared.me return `{m.hp} {#m.name} {m.alive} {m.level} {table.isfrozen(m)}`")
            .expect("first");
        assert_eq!(first, "99 40 true 7 true", "{mode:?}");
        sim.server()
            .exec("local p = game:GetService('Players'):GetPlayers()[1] require('Net').Me.Set(p, { hp = 99, name = 'short', alive = true })")
            .expect("drop level");
        sim.steps(2).expect("steps");
        let after: String = sim
            .client(0)
            .expect("client")
            .eval("local m = shared.me return `{m.hp} {m.name} {m.level}`")
            .expect("after");
        assert_eq!(after, "99 short nil", "{mode:?}: an optional field that went away");
        let second: String = sim
            .client(1)
            .expect("client")
            .eval("local m = shared.me return `{m.hp} {m.name} {m.alive} {m.level}`")
            .expect("second");
        assert_eq!(second, "50 second false nil", "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn keys_of_any_length_are_added_changed_and_removed() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Scores", "scores");
        let scores = |sim: &Simulation| client_map(sim, "scores");
        let long = "x".repeat(200);
        sim.server()
            .exec(&format!(
                "require('Net').Scores.Set({{ a = 1, bob = 2, ['{long}'] = 3 }})"
            ))
            .expect("set");
        sim.steps(2).expect("steps");
        assert_eq!(scores(&sim), format!("a=1 bob=2 {long}=3"), "{mode:?}");
        sim.server()
            .exec("require('Net').Scores.Set({ bob = 5, carol = 6 })")
            .expect("change");
        let bytes = step_bytes(&mut sim);
        assert_eq!(scores(&sim), "bob=5 carol=6", "{mode:?}");
        // Two removed keys (1 + 1 and 2 + 200 bytes) and two entries (1 + 3 + 2, 1 + 5 + 2)
        // after the index, the kind, the version and the two counts.
        assert_eq!(bytes, 3 + 1 + 2 + 202 + 1 + 6 + 8, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn keys_the_wire_cannot_tell_apart_are_one_entry_on_both_sides() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Steps", "steps");
        let steps = |sim: &Simulation| client_map(sim, "steps");
        // 0.01 and 0.02 both round to the step 0.
        sim.server()
            .exec("require('Net').Steps.Set({ [0.01] = 1, [0.02] = 1, [0.5] = 2 })")
            .expect("set");
        sim.steps(2).expect("steps");
        assert_eq!(steps(&sim), "0.5=2 0=1", "{mode:?}");
        sim.server()
            .exec("require('Net').Steps.Set({ [0.02] = 1 })")
            .expect("set");
        sim.steps(2).expect("steps");
        assert_eq!(steps(&sim), "0=1", "{mode:?}: the step 0 stays, 0.5 goes");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_whole_value_follows_five_seconds_after_the_last_one_at_the_next_change() {
    let modules = compile(SCHEMA);
    let mut sim = with_units(&modules, Mode::Interpreted, 1);
    let first = step_bytes(&mut sim);
    assert!(first > 64 * 12, "the first record is whole: {first} bytes");
    // A change every two seconds: at 2 s and 4 s changes, at 6 s the whole value again.
    let mut records = Vec::new();
    for _ in 0..3 {
        sim.steps(118).expect("two seconds");
        sim.server().exec("shared.move(1, 0)").expect("move");
        records.push(step_bytes(&mut sim));
    }
    assert!(records[0] < 64 && records[1] < 64, "changes: {records:?}");
    assert!(records[2] > 64 * 12, "whole after five seconds: {records:?}");
    assert!(same_units(&sim, 0));
}

#[test]
fn a_table_changed_in_place_and_set_again_is_sent() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = with_units(&modules, mode, 1);
        sim.steps(2).expect("steps");
        // The same tables, changed in place: the fields are compared, not the tables.
        sim.server()
            .exec("shared.units[5].health = 1 shared.units[9].position = Vector3.new(1, 2, 3) require('Net').Units.Set(shared.units)")
            .expect("change in place");
        let bytes = step_bytes(&mut sim);
        assert!(bytes > 0 && bytes < 64, "{mode:?}: two entries, {bytes} bytes");
        assert!(same_units(&sim, 0), "{mode:?}");
        let health: f64 = sim
            .client(0)
            .expect("client")
            .eval("return shared.last[5].health")
            .expect("health");
        assert_eq!(health, 1.0, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_key_that_goes_leaves_the_value_of_the_key_the_wire_cannot_tell_from_it() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Steps", "steps");
        let step_zero = |sim: &Simulation| -> f64 {
            sim.client(0)
                .expect("client")
                .eval("return shared.steps[0]")
                .expect("step 0")
        };
        // 0.01 and 0.02 both round to the step 0; the part for it is 0.02's once 0.02 joins.
        sim.server()
            .exec("require('Net').Steps.Set({ [0.01] = 1 })")
            .expect("set");
        sim.steps(2).expect("steps");
        sim.server()
            .exec("require('Net').Steps.Set({ [0.01] = 1, [0.02] = 2 })")
            .expect("set");
        sim.steps(2).expect("steps");
        assert_eq!(step_zero(&sim), 2.0, "{mode:?}: the key written last");
        // 0.02 goes: the step 0 is 0.01's value again, though 0.01 itself did not change.
        sim.server()
            .exec("require('Net').Steps.Set({ [0.01] = 1 })")
            .expect("set");
        sim.steps(2).expect("steps");
        assert_eq!(step_zero(&sim), 1.0, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_set_that_raises_changes_nothing() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = with_units(&modules, mode, 1);
        sim.steps(2).expect("steps");
        // The second entry cannot be sent (NaN): the first, already written, must not go either.
        let raised: String = sim
            .server()
            .eval(
                r#"
                local next = table.clone(shared.units)
                next[1] = { position = Vector3.new(5, 5, 5), health = 1 }
                next[2] = { position = Vector3.new(0 / 0, 0, 0), health = 1 }
                local ok, err = pcall(require("Net").Units.Set, next)
                return if ok then "no error" else tostring(err)
                "#,
            )
            .expect("set");
        assert!(raised.contains("cannot send nan"), "{mode:?}: {raised}");
        assert_eq!(step_bytes(&mut sim), 0, "{mode:?}: nothing sent");
        assert!(same_units(&sim, 0), "{mode:?}: the value before the Set");
        // The same entry in a Set that succeeds is sent.
        sim.server()
            .exec("shared.units = table.clone(shared.units) shared.units[1] = { position = Vector3.new(5, 5, 5), health = 1 } require('Net').Units.Set(shared.units)")
            .expect("set");
        assert!(step_bytes(&mut sim) > 0, "{mode:?}");
        assert!(same_units(&sim, 0), "{mode:?}: after the Set");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_move_within_half_a_step_sends_nothing_and_tables_are_written_again() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = with_units(&modules, mode, 1);
        sim.steps(2).expect("steps");
        // Less than half a step (1/128 stud): the same bytes, so nothing to send.
        sim.server()
            .exec("local next = table.clone(shared.units) next[7] = { position = next[7].position + Vector3.new(0.001, 0, 0), health = next[7].health } require('Net').Units.Set(next)")
            .expect("nudge");
        assert_eq!(step_bytes(&mut sim), 0, "{mode:?}: a move within half a step");
        // An array value is a table the game may change in place: it is written every Set.
        keep_on_client(&sim, "Lists", "lists");
        sim.server()
            .exec("shared.lists = { [1] = { 1, 2 }, [2] = { 3 } } require('Net').Lists.Set(shared.lists)")
            .expect("set");
        sim.steps(2).expect("steps");
        sim.server()
            .exec("table.insert(shared.lists[2], 4) require('Net').Lists.Set(shared.lists)")
            .expect("change in place");
        sim.steps(2).expect("steps");
        let lists: String = sim
            .client(0)
            .expect("client")
            .eval("return `{table.concat(shared.lists[1], ',')} {table.concat(shared.lists[2], ',')}`")
            .expect("lists");
        assert_eq!(lists, "1,2 3,4", "{mode:?}");
        assert_no_errors(&sim);
    }
}

/// The server's and client 0's maps in `shared.<name>`.
fn both_maps(sim: &Simulation, name: &str) -> (String, String) {
    (map_text(sim.server(), name), client_map(sim, name))
}

#[test]
fn entries_that_come_go_and_come_back_between_flushes_arrive_as_the_last_set() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Bags", "bags");
        // Seeded churn: up to three Sets a flush, each adding, removing and changing keys of
        // 0..40, so that slots are freed, reused, and an entry goes and comes back unsent.
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local random = Random.new(7)
                shared.bags = {}
                function shared.churn()
                    for _ = 1, random:NextInteger(1, 3) do
                        local next = table.clone(shared.bags)
                        for _ = 1, random:NextInteger(0, 6) do
                            local key = random:NextInteger(0, 40)
                            next[key] = if random:NextNumber() < 0.35 then nil else random:NextInteger(0, 3)
                        end
                        shared.bags = next
                        Net.Bags.Set(game:GetService("Players"):GetPlayers()[1], next)
                    end
                end
                "#,
            )
            .expect("setup");
        for round in 0..150 {
            sim.server().exec("shared.churn()").expect("churn");
            sim.steps(2).expect("steps");
            let (server, client) = both_maps(&sim, "bags");
            assert_eq!(client, server, "{mode:?}: round {round}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn keys_longer_than_four_bytes_are_removed_by_their_bytes() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Marks", "marks");
        sim.server()
            .exec("shared.marks = { [vector.create(1, 2, 3)] = 1, [vector.create(-4, 5.5, 0)] = 2 } require('Net').Marks.Set(shared.marks)")
            .expect("set");
        sim.steps(2).expect("steps");
        sim.server()
            .exec("shared.marks = { [vector.create(1, 2, 3)] = 7 } require('Net').Marks.Set(shared.marks)")
            .expect("set");
        let bytes = step_bytes(&mut sim);
        let (server, client) = both_maps(&sim, "marks");
        assert_eq!(client, server, "{mode:?}");
        // Index, kind, version; one removed key of 12 bytes; one changed entry of 13.
        assert_eq!(bytes, 3 + 1 + 12 + 1 + 13, "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_key_whose_zero_changes_sign_is_sent_as_removed_and_added() {
    let modules = compile(SCHEMA);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        keep_on_client(&sim, "Marks", "marks");
        // -0 and 0 are one table key but different bytes on the wire.
        sim.server()
            .exec("shared.marks = { [vector.create(-0, 0, 0)] = 1 } require('Net').Marks.Set(shared.marks)")
            .expect("set");
        sim.steps(2).expect("steps");
        sim.server()
            .exec("shared.marks = { [vector.create(0, 0, 0)] = 2 } require('Net').Marks.Set(shared.marks)")
            .expect("set");
        // The old key's 12 bytes removed, the new entry of 13 added: the book holds one entry.
        assert_eq!(step_bytes(&mut sim), 3 + 1 + 12 + 1 + 13, "{mode:?}");
        // One key (a table may keep either zero as the key's own), holding 2.
        let one_entry = "local n = 0 for _ in shared.marks do n += 1 end return `{n} {shared.marks[vector.zero]}`";
        let seen: String = sim.client(0).expect("client").eval(one_entry).expect("client");
        assert_eq!(seen, "1 2", "{mode:?}");
        // A player who joins gets the whole value: that one entry.
        let late = join_late(
            &mut sim,
            &modules,
            "require('Net').Marks.On(function(marks) shared.marks = marks end)",
        );
        sim.steps(3).expect("steps");
        let joined: String = sim.client(late).expect("late client").eval(one_entry).expect("late");
        assert_eq!(joined, "1 2", "{mode:?}");
        assert_no_errors(&sim);
    }
}

#[test]
fn a_struct_of_many_fields_is_written_every_set() {
    // More fields than a snapshot compares: the module still compiles and sends the changes.
    let fields: Vec<String> = (0..40).map(|field| format!("f{field}: u8")).collect();
    let schema = format!(
        "stream Wide {{ From: Server, Type: Reliable, Delta: true, Data: map {{ [u8]: struct {{ {} }} }} }}",
        fields.join(", ")
    );
    let modules = compile(&schema);
    for mode in MODES {
        let mut sim = start(&modules, mode, 1);
        sim.client(0)
            .expect("client")
            .exec("require('Net').Wide.On(function(wide) shared.f39 = wide[1].f39 end)")
            .expect("listener");
        for value in [1, 2, 2, 3] {
            sim.server()
                .exec(&format!(
                    "local row = {{}} for i = 0, 39 do row[`f{{i}}`] = {value} end require('Net').Wide.Set({{ [1] = row }})"
                ))
                .expect("set");
            sim.steps(2).expect("steps");
            let seen: f64 = sim.client(0).expect("client").eval("return shared.f39").expect("f39");
            assert_eq!(seen, f64::from(value), "{mode:?}");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn a_set_for_a_player_who_is_leaving_is_not_kept() {
    let modules = compile(
        r#"
        stream Hp { From: Server, Type: Reliable, Per: Player, Data: u8 }
        stream Bag { From: Server, Type: Reliable, Per: Player, Delta: true, Data: map { [u8]: u16 } }
        "#,
    );
    for mode in MODES {
        let mut sim = start(&modules, mode, 2);
        // The game's own PlayerRemoving handler, connected after the module's, sets both.
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local Players = game:GetService("Players")
                shared.leaver = Players:GetPlayers()[2]
                Players.PlayerRemoving:Connect(function(player)
                    Net.Hp.Set(player, 1)
                    Net.Bag.Set(player, { [1] = 2 })
                end)
                "#,
            )
            .expect("handler");
        sim.step().expect("step");
        sim.remove_player(1).expect("remove");
        sim.steps(2).expect("steps");
        let kept: String = sim
            .server()
            .eval("local Net = require('Net') return `{Net.Hp.Get(shared.leaver)} {Net.Bag.Get(shared.leaver)}`")
            .expect("get");
        assert_eq!(kept, "nil nil", "{mode:?}");
        assert_no_errors(&sim);
    }
}
