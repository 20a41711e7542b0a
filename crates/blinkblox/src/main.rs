//! `blinkblox`: the command line. Each subcommand is a file of `cli/`; the work is done by the
//! library crates (`blinkblox-schema` → `blinkblox-codegen` → `blinkblox-project`, and
//! `blinkblox-bench`).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
