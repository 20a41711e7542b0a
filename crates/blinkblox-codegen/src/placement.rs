//! Where `blinkblox compile` writes a schema's modules: the paths its own `ServerOutput`,
//! `ClientOutput` and `TypesOutput` options name, relative to the schema, as Blink writes
//! them (`.luau` added, `.d.ts` beside each with `Typescript`), and the mistakes that would
//! lose a module (an option missing or naming no file, two modules on one file).

use std::path::{Path, PathBuf};

use blinkblox_error::UserError;
use blinkblox_schema::model::Options;

use crate::generate::OutputKind;

/// Where each output goes, from the schema's output options (relative to its folder);
/// an error and its help when an option is missing, names no file, or two outputs would
/// land on one file.
pub fn destinations(file: &Path, options: &Options) -> Result<Vec<(OutputKind, PathBuf)>, UserError> {
    let (Some(server), Some(client)) = (&options.server_output, &options.client_output) else {
        let (missing, module) = if options.server_output.is_none() {
            ("ServerOutput", "Server")
        } else {
            ("ClientOutput", "Client")
        };
        return Err(
            UserError::new(format!("`{}` does not set the `{missing}` option", file.display())).with_help(format!(
                "`blinkblox compile` writes where the schema says; add e.g. `option {missing} = \"net/{module}\"` at the top of the file, or use `blinkblox sync` with a manifest"
            )),
        );
    };
    let named = [
        ("ServerOutput", Some(server)),
        ("ClientOutput", Some(client)),
        ("TypesOutput", options.types_output.as_ref()),
    ];
    for (option, value) in named.iter().filter_map(|(option, value)| Some((option, (*value)?))) {
        if names_no_file(value) {
            return Err(UserError::new(format!(
                "`option {option} = \"{value}\"` in `{}` names no file",
                file.display()
            ))
            .with_help(format!(
                "give a module's path, relative to the schema, e.g. `option {option} = \"net/{}\"` (`.luau` is added)",
                option.trim_end_matches("Output")
            )));
        }
    }
    let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut destinations = vec![
        (OutputKind::Server, output_path(&base, server)),
        (OutputKind::Client, output_path(&base, client)),
    ];
    if let Some(types) = &options.types_output {
        destinations.push((OutputKind::Types, output_path(&base, types)));
    }
    if options.typescript {
        let declarations: Vec<(OutputKind, PathBuf)> = destinations
            .iter()
            .map(|(kind, path)| {
                let dts = match kind {
                    OutputKind::Server => OutputKind::ServerDts,
                    OutputKind::Client => OutputKind::ClientDts,
                    _ => OutputKind::TypesDts,
                };
                (dts, declaration_path(path))
            })
            .collect();
        destinations.extend(declarations);
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let keys: Vec<String> = destinations.iter().map(|(_, path)| file_key(&cwd, path)).collect();
    for (position, (kind, path)) in destinations.iter().enumerate() {
        let folded = keys[position].to_lowercase();
        if let Some(earlier) = keys[..position].iter().position(|key| key.to_lowercase() == folded) {
            let (other, other_path) = &destinations[earlier];
            let case_only = keys[earlier] != keys[position];
            return Err(UserError::new(format!(
                "the {} and the {} module would both be written to `{}`{}",
                other.describe(),
                kind.describe(),
                path.display(),
                if case_only {
                    format!(" and `{}`, one file on Windows and macOS", other_path.display())
                } else {
                    String::new()
                }
            ))
            .with_help(format!(
                "give `ServerOutput`, `ClientOutput` and `TypesOutput` different paths in `{}`",
                file.display()
            )));
        }
    }
    Ok(destinations)
}

/// Whether an output option's value names no file: empty, or ending in a folder
/// (`""`, `"out/"`, `"/"`, `".."`), where `.luau` would be added to nothing.
fn names_no_file(value: &str) -> bool {
    let value = value.trim();
    value.is_empty()
        || value.ends_with('/')
        || value.ends_with('\\')
        || matches!(
            Path::new(value).components().next_back(),
            None | Some(std::path::Component::RootDir | std::path::Component::ParentDir | std::path::Component::CurDir)
        )
}

/// An output path made absolute (from `cwd`) with `..` folded in. Keys that differ only in
/// case are one file on Windows and macOS, where the same schema is often compiled, so
/// they count as a collision too.
fn file_key(cwd: &Path, path: &Path) -> String {
    blinkblox_fs::path::slash(&blinkblox_fs::path::normalize(&cwd.join(path)))
}

/// An output option's path, relative to the schema's folder, with `.luau` appended
/// as Blink appends it.
pub fn output_path(base: &Path, option: &str) -> PathBuf {
    let mut path = base.join(option);
    let has_extension = path.extension().is_some_and(|ext| ext == "luau" || ext == "lua");
    if !has_extension {
        let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(".luau");
        path.set_file_name(name);
    }
    path
}

/// The `.d.ts` next to a Luau output, as Blink names it: the `.luau`/`.lua` extension
/// replaced, and `init` (a folder's module) declared as `index` for roblox-ts.
pub fn declaration_path(luau: &Path) -> PathBuf {
    let stem = luau
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = if stem == "init" { "index".to_string() } else { stem };
    luau.with_file_name(format!("{stem}.d.ts"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luau_is_appended_unless_present() {
        let base = Path::new("net");
        assert_eq!(output_path(base, "../out/Server"), Path::new("net/../out/Server.luau"));
        assert_eq!(output_path(base, "client.luau"), Path::new("net/client.luau"));
        assert_eq!(output_path(base, "shared/init"), Path::new("net/shared/init.luau"));
    }

    #[test]
    fn declarations_sit_next_to_their_module() {
        assert_eq!(
            declaration_path(Path::new("net/Server.luau")),
            Path::new("net/Server.d.ts")
        );
        assert_eq!(
            declaration_path(Path::new("net/shared/init.luau")),
            Path::new("net/shared/index.d.ts")
        );
        assert_eq!(declaration_path(Path::new("client.lua")), Path::new("client.d.ts"));
    }
}
