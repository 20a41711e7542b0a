//! The two remotes a Server and Client module share, by name, and the guard against two
//! modules of one remote scope in one VM.

use super::builder::CodeBuilder;
use super::naming::string_literal;

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
