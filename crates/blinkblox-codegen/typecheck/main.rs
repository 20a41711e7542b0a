//! `luau-typecheck DEFINITIONS MODULE…`: Luau's type checker (strict mode, in process through
//! `luau-analyze`) over each module, with the declarations of `DEFINITIONS` loaded first. Prints
//! one line per problem, `module<TAB>line<TAB>error|warning<TAB>message` (line from 1, newlines
//! in the message as `\n`), then `module<TAB>checked` once the module is done, and exits 0 when
//! the checker ran, whatever it found.
//!
//! A tool of its own because `luau-analyze` bundles a build of Luau that cannot be linked into
//! one binary with mlua's, which the codegen tests use.

use std::process::ExitCode;

use luau_analyze::{Checker, Severity};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((definitions, modules)) = args.split_first() else {
        eprintln!("usage: luau-typecheck DEFINITIONS MODULE...");
        return ExitCode::from(2);
    };
    match run(definitions, modules) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("luau-typecheck: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(definitions: &str, modules: &[String]) -> Result<(), String> {
    let read = |path: &str| std::fs::read_to_string(path).map_err(|err| format!("{path}: {err}"));
    let mut checker = Checker::new().map_err(|err| format!("the checker did not start: {err}"))?;
    checker
        .add_definitions(&read(definitions)?)
        .map_err(|err| format!("{definitions}: {err}"))?;
    for module in modules {
        let result = checker
            .check(&read(module)?)
            .map_err(|err| format!("{module}: {err}"))?;
        if result.timed_out || result.cancelled {
            return Err(format!("{module}: the check did not finish"));
        }
        for diagnostic in &result.diagnostics {
            let severity = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            println!(
                "{module}\t{}\t{severity}\t{}",
                diagnostic.line + 1,
                diagnostic.message.replace('\n', "\\n")
            );
        }
        println!("{module}\tchecked");
    }
    Ok(())
}
