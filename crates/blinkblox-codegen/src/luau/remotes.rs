//! The two remotes a Server and Client module share, by name, the guard against two
//! modules of one remote scope in one VM, and whether the reliable remote carries
//! broadcasts.

use blinkblox_schema::model::{Reliability, Schema, Side};

use super::builder::CodeBuilder;
use super::naming::string_literal;

/// Whether the server writes broadcast records (reliable `FireAll`, reliable server
/// streams): only then does it send a broadcast packet and per-player markers, and only
/// then does the Client need the code that interleaves them with a player's own packet.
pub fn server_broadcasts(schema: &Schema) -> bool {
    schema
        .events
        .iter()
        .any(|event| event.from == Side::Server && event.reliability == Reliability::Reliable)
        || schema
            .streams
            .iter()
            .any(|stream| stream.from == Side::Server && stream.reliability == Reliability::Reliable)
}

/// Remote names as Blink 0.18 names them: `[<Scope>_]BLINK_(UN)RELIABLE_REMOTE`.
pub fn remote_names(scope: &str) -> (String, String) {
    let prefix = if scope.is_empty() {
        String::new()
    } else {
        format!("{scope}_")
    };
    (
        format!("{prefix}BLINK_RELIABLE_REMOTE"),
        format!("{prefix}BLINK_UNRELIABLE_REMOTE"),
    )
}

/// Two modules sharing a RemoteScope in one VM would share remotes: refuse, as Blink.
pub fn emit_scope_guard(b: &mut CodeBuilder, scope: &str) {
    b.line("local Globals: any = _G");
    b.line("local Registry = Globals._BLINK");
    b.open("if Registry == nil then");
    b.line("Registry = {}");
    b.line("Globals._BLINK = Registry");
    b.close("end");
    let literal = string_literal(scope);
    b.open_fmt(format_args!("if Registry[{literal}] then"));
    b.line_fmt(format_args!(
        "error(\"[BlinkBlox] another module already uses the remote scope \" .. {literal} .. \": give each schema its own RemoteScope option\", 3)"
    ));
    b.close("end");
    b.line_fmt(format_args!("Registry[{literal}] = true"));
}
