//! Exit codes, as cargo uses them: 0 success, 1 user error, 2 usage error.

/// A bad schema, manifest or lockfile, a stale lock, a failed run.
pub const EXIT_USER_ERROR: u8 = 1;
/// A command line clap or the command refuses.
pub const EXIT_USAGE: u8 = 2;
