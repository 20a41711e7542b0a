//! The comment that opens each declaration's code, by which the compile step names the
//! declaration whose code Luau rejected.

/// What a declaration marker may say after the name (`-- Trade (invocation)`).
pub const MARKER_ROLES: [&str; 3] = ["invocation", "response", "stream"];

/// The comment that opens a declaration's code, `-- Scope.Name` or `-- Scope.Name (role)`.
pub fn marker(scope: &[String], name: &str, role: Option<&str>) -> String {
    match role {
        Some(role) => format!("-- {} ({role})", describe(scope, name)),
        None => format!("-- {}", describe(scope, name)),
    }
}

/// A declaration's full name, its scopes first: `Combat.Weapons.Equip`.
pub use blinkblox_schema::print::dotted_name as describe;
