//! The members the generated modules give a declaration, in the schema's casing, as
//! docs/generated-modules.md describes them.

use blinkblox_codegen::Members;
// `Combat.Hit`: how a declaration is reached from a module.
use blinkblox_schema::model::{CallMode, Casing, EventDecl, FunctionDecl, Payload, Side, StreamDecl, YieldMode};
use blinkblox_schema::print::dotted_name as path;

/// The Luau parameters of a payload: `value`, or `value1, value2` for a type pack.
fn parameters(payload: &Payload) -> Vec<String> {
    match payload {
        Payload::None => Vec::new(),
        Payload::Single(_) => vec!["value".to_string()],
        Payload::Tuple(types) => (1..=types.len()).map(|i| format!("value{i}")).collect(),
    }
}

fn call(member: &str, arguments: &[String]) -> String {
    format!("{member}({})", arguments.join(", "))
}

fn with(first: &str, rest: &[String]) -> Vec<String> {
    let mut all = vec![first.to_string()];
    all.extend(rest.iter().cloned());
    all
}

/// `(module, member)` lines for an event.
pub fn event(event: &EventDecl, casing: Casing) -> Vec<(&'static str, String)> {
    let m = Members::new(casing);
    let at = path(&event.scope, &event.name);
    let data = parameters(&event.data);
    let polling = event.call == CallMode::Polling;
    let mut lines = Vec::new();
    match event.from {
        Side::Server => {
            lines.push(("Server", format!("{at}.{}", call(m.fire, &with("player", &data)))));
            lines.push(("Server", format!("{at}.{}", call(m.fire_all, &data))));
            lines.push(("Server", format!("{at}.{}", call(m.fire_list, &with("players", &data)))));
            lines.push((
                "Server",
                format!("{at}.{}", call(m.fire_except, &with("player", &data))),
            ));
            if polling {
                lines.push(("Client", format!("{at}.{}() -> (index, {})", m.iter, data.join(", "))));
            } else {
                let listener = format!("function({})", data.join(", "));
                lines.push(("Client", format!("{at}.{}({listener}) -> disconnect", m.on)));
            }
        }
        Side::Client => {
            lines.push(("Client", format!("{at}.{}", call(m.fire, &data))));
            if polling {
                lines.push((
                    "Server",
                    format!("{at}.{}() -> (index, player, {})", m.iter, data.join(", ")),
                ));
            } else {
                let listener = format!("function({})", with("player", &data).join(", "));
                lines.push(("Server", format!("{at}.{}({listener}) -> disconnect", m.on)));
            }
        }
    }
    lines
}

pub fn function(function: &FunctionDecl, casing: Casing) -> Vec<(&'static str, String)> {
    let m = Members::new(casing);
    let at = path(&function.scope, &function.name);
    let data = parameters(&function.data);
    let returns = parameters(&function.returns).join(", ");
    let returned = match function.yield_mode {
        YieldMode::Coroutine => returns.clone(),
        YieldMode::Future => format!("Future<{returns}>"),
        YieldMode::Promise => format!("Promise<{returns}>"),
    };
    let handler = format!("function({}) -> ({returns})", with("player", &data).join(", "));
    vec![
        ("Server", format!("{at}.{}({handler})", m.on)),
        ("Client", format!("{at}.{} -> ({returned})", call(m.invoke, &data))),
    ]
}

pub fn stream(stream: &StreamDecl, casing: Casing) -> Vec<(&'static str, String)> {
    let m = Members::new(casing);
    let set = casing.pick("Set", "set", "set");
    let get = casing.pick("Get", "get", "get");
    let at = path(&stream.scope, &stream.name);
    match (stream.from, stream.per_player) {
        (Side::Server, false) => vec![
            ("Server", format!("{at}.{set}(value)")),
            ("Server", format!("{at}.{get}() -> value?")),
            ("Client", format!("{at}.{}(function(value)) -> disconnect", m.on)),
            ("Client", format!("{at}.{get}() -> value?")),
        ],
        (Side::Server, true) => vec![
            ("Server", format!("{at}.{set}(player, value)")),
            ("Server", format!("{at}.{get}(player) -> value?")),
            ("Client", format!("{at}.{}(function(value)) -> disconnect", m.on)),
            ("Client", format!("{at}.{get}() -> value?")),
        ],
        (Side::Client, _) => vec![
            ("Client", format!("{at}.{set}(value)")),
            ("Client", format!("{at}.{get}() -> value?")),
            (
                "Server",
                format!("{at}.{}(function(player, value)) -> disconnect", m.on),
            ),
            ("Server", format!("{at}.{get}(player) -> value?")),
        ],
    }
}

/// `export` types: `Read` and `Write` in both modules.
pub fn exported(scope: &[String], name: &str, casing: Casing) -> Vec<(&'static str, String)> {
    let m = Members::new(casing);
    let at = path(scope, name);
    vec![
        ("Both", format!("{at}.{}(buffer, instances?) -> value", m.read)),
        ("Both", format!("{at}.{}(value) -> (buffer, instances)", m.write)),
    ]
}
