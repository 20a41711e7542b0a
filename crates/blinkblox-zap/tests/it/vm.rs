//! The proof that a translation works: `tests/fixtures/vm/game.zap` (every call mode, a
//! function of each kind, structs, enums, maps, sets, optionals, a namespace) is imported,
//! compiled by the compile step, and its modules run in the embedded VM under the Roblox
//! mock: the server and three clients fire across and the listeners' arguments are checked.

use blinkblox_codegen::OutputKind;
use blinkblox_luau::{Mode, Simulation};

use crate::support::*;

/// Deep equality for the values the game sends, inside the VM.
const HELPERS: &str = r#"
local function deepEqual(a, b, path)
    path = path or "value"
    if typeof(a) ~= typeof(b) then
        return false, `{path}: {typeof(a)} {tostring(a)} vs {typeof(b)} {tostring(b)}`
    end
    if typeof(a) == "table" then
        for key, value in a do
            local ok, why = deepEqual(value, b[key], `{path}.{tostring(key)}`)
            if not ok then return false, why end
        end
        for key, value in b do
            if a[key] == nil then return false, `{path}.{tostring(key)}: missing, {tostring(value)} expected` end
        end
        return true
    end
    if a == b then return true end
    return false, `{path}: {tostring(a)} vs {tostring(b)}`
end
shared.assertEqual = function(a, b, label)
    local ok, why = deepEqual(a, b)
    if not ok then error(`{label}: {why}`, 2) end
end
shared.Sword = { id = 7, name = "Sword", rarity = "Epic", tags = { sharp = true, shiny = true }, price = 250 }
shared.Stick = { id = 1, name = "Stick", rarity = "Common", tags = {} }
"#;

struct Game {
    server: String,
    client: String,
}

fn game() -> Game {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/vm/game.zap");
    let imported = import_file(&path);
    let blink = translation(&imported);
    let compiled = assert_compiles("game.blink", blink);
    let module = |kind: OutputKind| {
        compiled
            .files
            .iter()
            .find(|file| file.kind == kind)
            .map(|file| file.contents.clone())
            .expect("module generated")
    };
    Game {
        server: module(OutputKind::Server),
        client: module(OutputKind::Client),
    }
}

fn start(game: &Game, mode: Mode) -> Simulation {
    let mut sim = Simulation::new(mode, 3).expect("simulation");
    sim.server().exec(HELPERS).expect("helpers");
    sim.server()
        .load_module("Net", &game.server)
        .expect("server module loads");
    sim.step().expect("step");
    for (_, client) in sim.clients() {
        client.exec(HELPERS).expect("helpers");
        client.load_module("Net", &game.client).expect("client module loads");
    }
    sim
}

fn on_client(sim: &Simulation, index: usize, source: &str) {
    sim.client(index)
        .expect("client")
        .exec(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"));
}

fn client_eval<T: mlua::FromLuaMulti>(sim: &Simulation, index: usize, source: &str) -> T {
    sim.client(index)
        .expect("client")
        .eval(source)
        .unwrap_or_else(|e| panic!("client {index}: {e}"))
}

fn assert_no_errors(sim: &Simulation) {
    for world in sim.worlds() {
        let errors = world.errors();
        assert!(errors.is_empty(), "errors in a world: {errors:#?}");
    }
}

const MODES: [Mode; 2] = [Mode::Native, Mode::Interpreted];

#[test]
fn server_events_of_every_call_mode_reach_the_right_players() {
    let game = game();
    for mode in MODES {
        let mut sim = start(&game, mode);
        for index in 0..3 {
            on_client(
                &sim,
                index,
                r#"
                local Net = require("Net")
                shared.Got = { Welcome = {}, Announce = {}, ScoresA = {}, ScoresB = {}, Loot = {} }
                Net.Welcome.On(function(message, level) table.insert(shared.Got.Welcome, `{message}:{level}`) end)
                Net.Announce.On(function(text) task.wait() table.insert(shared.Got.Announce, text) end)
                Net.Scores.On(function(scores) table.insert(shared.Got.ScoresA, scores) end)
                Net.Scores.On(function(scores) table.insert(shared.Got.ScoresB, scores) end)
                Net.Loot.On(function(items) table.insert(shared.Got.Loot, items) end)
                "#,
            );
        }
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                local players = game:GetService("Players"):GetPlayers()
                Net.Welcome.Fire(players[1], "hello", 3)
                Net.Announce.FireAll("round starts")
                Net.Scores.FireList({ players[1], players[2] }, { alice = 10, bob = 7 })
                Net.Loot.FireExcept(players[2], { shared.Sword, shared.Stick })
                "#,
            )
            .expect("fire");
        sim.steps(3).expect("steps");
        for index in 0..3usize {
            let (welcome, announce, scores_a, scores_b, loot): (Vec<String>, Vec<String>, usize, usize, usize) =
                client_eval(
                    &sim,
                    index,
                    r#"
                    local got = shared.Got
                    for _, scores in got.ScoresA do shared.assertEqual(scores, { alice = 10, bob = 7 }, "scores") end
                    for _, items in got.Loot do shared.assertEqual(items, { shared.Sword, shared.Stick }, "loot") end
                    return got.Welcome, got.Announce, #got.ScoresA, #got.ScoresB, #got.Loot
                    "#,
                );
            let expected_welcome = if index == 0 {
                vec!["hello:3".to_string()]
            } else {
                vec![]
            };
            assert_eq!(
                welcome, expected_welcome,
                "{mode:?} client {index}: Fire reaches one player"
            );
            assert_eq!(
                announce,
                ["round starts"],
                "{mode:?} client {index}: FireAll, async listener"
            );
            let listed = usize::from(index < 2);
            assert_eq!(
                (scores_a, scores_b),
                (listed, listed),
                "{mode:?} client {index}: FireList, two listeners"
            );
            assert_eq!(loot, usize::from(index != 1), "{mode:?} client {index}: FireExcept");
        }
        assert_no_errors(&sim);
    }
}

#[test]
fn client_events_arrive_polled_and_unreliable() {
    let game = game();
    for mode in MODES {
        let mut sim = start(&game, mode);
        sim.server()
            .exec(
                r#"
                shared.Aims = {}
                require("Net").Aim.On(function(player, aim)
                    table.insert(shared.Aims, if aim then `{player.Name}:{aim.X},{aim.Y},{aim.Z}` else `{player.Name}:none`)
                end)
                "#,
            )
            .expect("listen");
        on_client(
            &sim,
            0,
            r#"
            local Net = require("Net")
            Net.Act.Fire({ kind = "Move", to = Vector3.new(1, 2, 3) })
            Net.Act.Fire({ kind = "Say", text = "héllo" })
            Net.Act.Fire({ kind = "Wait" })
            "#,
        );
        on_client(
            &sim,
            1,
            "local Net = require('Net') Net.Aim.Fire(Vector3.new(4, 5, 6)) Net.Aim.Fire(nil)",
        );
        sim.steps(3).expect("steps");
        let (polled, aims): (Vec<String>, Vec<String>) = sim
            .server()
            .eval(
                r#"
                local polled = {}
                for index, player, action in require("Net").Act.Iter() do
                    local detail = if action.kind == "Move" then `{action.to.X},{action.to.Y},{action.to.Z}`
                        elseif action.kind == "Say" then action.text else ""
                    table.insert(polled, `{index}:{player.Name}:{action.kind}:{detail}`)
                end
                return polled, shared.Aims
                "#,
            )
            .expect("poll");
        assert_eq!(
            polled,
            ["1:Player1:Move:1,2,3", "2:Player1:Say:héllo", "3:Player1:Wait:"],
            "{mode:?}: Polling keeps the order"
        );
        assert_eq!(
            aims,
            ["Player2:4,5,6", "Player2:none"],
            "{mode:?}: unreliable, optional"
        );
        assert_no_errors(&sim);
    }
}

#[test]
fn functions_and_a_namespace_answer_their_callers() {
    let game = game();
    for mode in MODES {
        let mut sim = start(&game, mode);
        sim.server()
            .exec(
                r#"
                local Net = require("Net")
                Net.Buy.On(function(player, item, count)
                    if item == 7 and count == 2 then return true, shared.Sword end
                    return false, nil
                end)
                shared.Stock = 10
                Net.Shop.Restock.On(function(player, amount)
                    shared.Stock += amount
                    return shared.Stock
                end)
                "#,
            )
            .expect("handlers");
        on_client(
            &sim,
            0,
            r#"
            local Net = require("Net")
            shared.Offers = {}
            Net.Shop.Offers.On(function(offers) table.insert(shared.Offers, offers) end)
            task.spawn(function()
                local ok, item = Net.Buy.Invoke(7, 2)
                shared.assertEqual(item, shared.Sword, "bought")
                local refused, nothing = Net.Buy.Invoke(1, 1)
                shared.Bought = { ok, refused, nothing == nil }
                shared.Stock = Net.Shop.Restock.Invoke(5)
            end)
            "#,
        );
        sim.server()
            .exec(r#"require("Net").Shop.Offers.FireAll({ { id = 7, discount = 25 }, { id = 1, discount = 0 } })"#)
            .expect("offers");
        sim.steps(12).expect("steps");
        assert_no_errors(&sim);
        let (bought, stock, offers): (Vec<bool>, u16, usize) = client_eval(
            &sim,
            0,
            r#"
            for _, offers in shared.Offers do
                shared.assertEqual(offers, { { id = 7, discount = 25 }, { id = 1, discount = 0 } }, "offers")
            end
            return shared.Bought, shared.Stock, #shared.Offers
            "#,
        );
        assert_eq!(bought, [true, false, true], "{mode:?}: Buy answers each call");
        assert_eq!(stock, 15, "{mode:?}: the namespaced function answers");
        assert_eq!(offers, 1, "{mode:?}: the namespaced event arrives");
        assert_no_errors(&sim);
    }
}

#[test]
fn checks_zap_made_on_sending_are_made_by_the_translation() {
    // zap checks values before sending (`write_checks` is on by default): so does the
    // translation, with `WriteValidations`.
    let game = game();
    let sim = start(&game, Mode::Native);
    let error: String = sim
        .server()
        .eval(
            r#"
            local ok, why = pcall(function()
                require("Net").Welcome.Fire(game:GetService("Players"):GetPlayers()[1], "hi", 11)
            end)
            return if ok then "sent" else tostring(why)
            "#,
        )
        .expect("fire");
    assert!(
        error.contains("Welcome"),
        "a level outside 1..10 is refused by Fire: {error}"
    );
}
