//! What each scenario is: the schema it runs on, how many players, who sends, and what each
//! receiver must get.

use crate::competitors::{Modules, ScenarioModules};

/// The scenarios, in the order the table shows them.
pub const SCENARIOS: [&str; 9] = [
    "Broadcast",
    "ManyEvents",
    "UnreliableInput",
    "UnreliableInputBatched",
    "Instances",
    "WorldState",
    "SelfState",
    "BroadcastStream",
    "PlayerStream",
];

/// Which compiled schema a scenario runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schema {
    Scenarios,
    /// Scenarios.blink with `option BatchUnreliable = true`.
    ScenariosBatched,
    ManyDeclarations,
}

impl Schema {
    /// A code generator's modules for this schema, or why it has none.
    pub(crate) fn modules_in(self, modules: &ScenarioModules) -> Result<&Modules, String> {
        let modules = match self {
            Schema::Scenarios => &modules.scenarios,
            Schema::ScenariosBatched => &modules.batched,
            Schema::ManyDeclarations => &modules.many_declarations,
        };
        modules.as_ref().map_err(Clone::clone)
    }
}

/// Who sends: the server to its players, or the first player to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    ToPlayers,
    ToServer,
}

/// How a scenario is set up and what each receiver must get.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScenarioSpec {
    pub(crate) schema: Schema,
    pub(crate) players: usize,
    pub(crate) direction: Direction,
    /// Values each receiver's listeners get a frame (events, or stream updates).
    pub(crate) received_per_frame: u64,
}

pub(crate) fn spec(scenario: &str) -> Option<ScenarioSpec> {
    let (schema, players, direction, received_per_frame) = match scenario {
        "Broadcast" => (Schema::Scenarios, 50, Direction::ToPlayers, 100),
        "ManyEvents" => (Schema::ManyDeclarations, 1, Direction::ToPlayers, 100),
        "UnreliableInput" => (Schema::Scenarios, 1, Direction::ToServer, 8),
        "UnreliableInputBatched" => (Schema::ScenariosBatched, 1, Direction::ToServer, 8),
        "Instances" => (Schema::Scenarios, 1, Direction::ToPlayers, 100),
        "WorldState" | "SelfState" | "BroadcastStream" | "PlayerStream" | "Positions" | "PositionsWhole" => {
            (Schema::Scenarios, 50, Direction::ToPlayers, 1)
        }
        _ => return None,
    };
    Some(ScenarioSpec {
        schema,
        players,
        direction,
        received_per_frame,
    })
}
