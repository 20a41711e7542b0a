//! The example place actually works: sync `examples/arena`, then run its server script and
//! two clients' scripts against the generated modules in the embedded Roblox mock, and
//! check that hits, health, chat and the score function all went across.

use crate::common::switch_arena_requires;
use crate::sync_support::{assert_arena_round, read, sync};
use blinkblox_luau::{Mode, Simulation};

/// The example scripts require modules by instance path; in the mock, modules loaded from
/// Rust are required by name.
fn with_named_requires(script: &str) -> String {
    let out = switch_arena_requires(script, |schema, side| format!("require(\"{schema}.{side}\")"));
    assert!(
        !out.contains("require(ReplicatedStorage") && !out.contains("require(ServerScriptService"),
        "every require was rewritten:\n{out}"
    );
    out
}

#[test]
fn the_synced_example_runs_in_the_roblox_mock() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().join("arena");
    crate::common::arena_copy(&dir);
    sync(&dir, &[]).success();
    let module = |schema: &str, side: &str| {
        let folder = if side == "Server" {
            "src/server/Net"
        } else {
            "src/shared/Net"
        };
        read(&dir.join(format!("{folder}/{schema}/{side}.luau")))
    };

    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    for schema in ["combat", "chat"] {
        sim.server()
            .load_module(&format!("{schema}.Server"), &module(schema, "Server"))
            .expect("load a server module");
    }
    let server_script = with_named_requires(&read(&dir.join("src/server/main.server.luau")));
    sim.server().spawn(&server_script).expect("run the server script");

    let client_script = with_named_requires(&read(&dir.join("src/client/main.client.luau")));
    for _ in 0..2 {
        let index = sim.add_player().expect("a player joins");
        let client = sim.client(index).expect("client");
        for schema in ["combat", "chat"] {
            client
                .load_module(&format!("{schema}.Client"), &module(schema, "Client"))
                .expect("load a client module");
        }
        client.spawn(&client_script).expect("run the client script");
    }
    // The clients act after task.delay(5): 5 s of frames, then time for the replies.
    sim.steps(400).expect("run the game");

    assert_arena_round(&sim, |index, has, prints| {
        assert!(
            has("Player1 has 90 health") && has("Player2 has 90 health"),
            "client {index}: {prints:?}"
        );
        assert!(
            prints.iter().any(|line| line.starts_with("score: ")),
            "client {index}: {prints:?}"
        );
    });
}
