//! `--local`: which BlinkBlox compiles the runtime benches' schema. tools.toml's `blink` tool is
//! either a checkout (`path = ".."`: this one, whose compiler runs the bench, in process) or a
//! release (the binary `--download` put in `benchmark/tools/blink/`, or `--source blink=PATH`),
//! which is run as a process on `definitions/Definition.blink`. `--local` takes this checkout's
//! compiler either way. Scenarios, Rivals and Performance always measure this checkout.
//!
//! A BlinkBlox binary compiles as `blinkblox compile FILE --quiet` in a scratch folder, on the
//! schema with its output options pointed there; the Performance bench times this executable
//! the same way.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::competitor::{Context, Modules};
use crate::BenchError;
use crate::compiler_process::{
    OutputOptions, PROCESS_TIMEOUT, ScratchDir, exit_code, run_with_timeout, version_output,
};
use crate::tools::{Source, ToolsFile};

/// Where the Server and Client modules of BlinkBlox's runtime rows come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlinkBloxCompiler {
    /// This checkout's compiler, in process; `why` says why it was chosen.
    Checkout { why: String },
    /// A BlinkBlox binary (the release tools.toml names), run as a process.
    Release { binary: PathBuf, spec: String },
}

/// The release binary's file name when tools.toml gives no `entry`.
fn default_entry() -> String {
    format!("blinkblox{}", std::env::consts::EXE_SUFFIX)
}

impl BlinkBloxCompiler {
    /// Chooses from tools.toml's `blink` tool, `--source blink=PATH` and `--local`; an error
    /// when a release is asked for and its binary is not there.
    pub fn choose(context: &Context) -> Result<BlinkBloxCompiler, BenchError> {
        let local = context.local;
        let tools_path = context.bench_dir.join("tools.toml");
        if !tools_path.is_file() {
            return Ok(BlinkBloxCompiler::Checkout {
                why: "there is no benchmark/tools.toml".to_string(),
            });
        }
        let tools = ToolsFile::read(&tools_path)?;
        let Some(tool) = tools.tool("blink") else {
            return Ok(BlinkBloxCompiler::Checkout {
                why: "tools.toml declares no `blink` tool".to_string(),
            });
        };
        let spec = tool.source.spec();
        if let Source::Path { path } = &tool.source {
            // tools.toml resolves the path against its own folder: `benchmark/..` is this checkout.
            let why = format!(
                "tools.toml's `blink` is a checkout, `{}`, which this blinkblox compiles",
                path.display()
            );
            return Ok(BlinkBloxCompiler::Checkout {
                why: if local {
                    format!("{why}, so --local changes nothing")
                } else {
                    why
                },
            });
        }
        if local {
            return Ok(BlinkBloxCompiler::Checkout {
                why: format!("--local, rather than the release tools.toml names (`{spec}`)"),
            });
        }
        let (dir, from_source) = context.tool_dir("blink");
        let binary = if dir.is_file() {
            dir
        } else {
            dir.join(tool.entry_for_platform().unwrap_or_else(default_entry))
        };
        if binary.is_file() {
            return Ok(BlinkBloxCompiler::Release { binary, spec });
        }
        let whence = if from_source {
            "--source blink=PATH holds no BlinkBlox binary"
        } else {
            "it is not downloaded"
        };
        Err(BenchError::new(format!(
            "tools.toml's `blink` is a release (`{spec}`), but {whence}: no `{}`",
            binary.display()
        ))
        .with_help(
            "run `blinkblox bench --download --tools blink`, pass --source blink=PATH (a folder holding the \
             binary, or the binary itself), or pass --local to benchmark this checkout's compiler",
        ))
    }

    /// The report's line for BlinkBlox's runtime rows.
    pub fn describe(&self) -> String {
        match self {
            BlinkBloxCompiler::Checkout { why } => format!(
                "BlinkBlox {}, this checkout's compiler ({why}), modules generated from \
                 benchmark/definitions/Definition.blink",
                env!("CARGO_PKG_VERSION")
            ),
            BlinkBloxCompiler::Release { binary, spec } => format!(
                "{} (`{}`, the release tools.toml names: `{spec}`), its binary run on \
                 benchmark/definitions/Definition.blink; the Scenarios, Rivals and Performance figures are this \
                 checkout's compiler (--local runs the runtime rows on it too)",
                version_output(binary).unwrap_or_else(|| "BlinkBlox of unknown version".to_string()),
                binary.display()
            ),
        }
    }
}

/// Compiles `schema_text` (a .blink schema) with a BlinkBlox `binary` as `blinkblox compile`
/// does it: the schema written to a temporary folder with its output options pointed into it,
/// the two modules read back.
pub fn compile_with_blinkblox_binary(binary: &Path, schema_text: &str) -> Result<Modules, BenchError> {
    let scratch = ScratchDir::new("blink-release")?;
    let schema_path = scratch.path().join("schema.blink");
    std::fs::write(&schema_path, with_scratch_outputs(schema_text))
        .map_err(|err| BenchError::io("write", &schema_path, &err))?;
    let what = format!("the BlinkBlox release `{}`", binary.display());
    let mut command = Command::new(binary);
    command
        .arg("compile")
        .arg(&schema_path)
        .arg("--quiet")
        .current_dir(scratch.path());
    let (status, stderr) = run_with_timeout(command, scratch.path(), &what, PROCESS_TIMEOUT)?;
    if !status.success() {
        let code = exit_code(status);
        return Err(
            BenchError::new(format!("{what} failed (exit {code}) on the benchmark schema: {stderr}"))
                .with_help("pass --local to benchmark this checkout's compiler instead"),
        );
    }
    let read_output = |relative: &str| {
        let path = scratch.path().join(relative);
        std::fs::read_to_string(&path).map_err(|err| {
            BenchError::new(format!(
                "{what} exited successfully but did not write `{}` ({err})",
                path.display()
            ))
        })
    };
    Ok(Modules::pair(
        read_output(SCRATCH_SERVER)?,
        read_output(SCRATCH_CLIENT)?,
    ))
}

/// Where `blinkblox compile` writes in a scratch folder.
pub(crate) const SCRATCH_SERVER: &str = "blinkblox-out/Server.luau";
pub(crate) const SCRATCH_CLIENT: &str = "blinkblox-out/Client.luau";

/// `text` with BlinkBlox's output options pointed into a scratch folder (`blinkblox compile`
/// writes where the schema says); any of its own are dropped.
pub(crate) fn with_scratch_outputs(text: &str) -> String {
    const OPTIONS: OutputOptions = OutputOptions {
        keyword: "option",
        server: "ServerOutput",
        client: "ClientOutput",
        others: &["TypesOutput"],
    };
    OPTIONS.pointed_at(text, SCRATCH_SERVER, SCRATCH_CLIENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_pointed_into_the_scratch_folder() {
        let text = with_scratch_outputs(
            "option ServerOutput = \"x\"\noption ManualReplication = true\noption TypesOutput=\"t\"\n",
        );
        assert_eq!(
            text,
            "option ServerOutput = \"blinkblox-out/Server.luau\"\noption ClientOutput = \"blinkblox-out/Client.luau\"\n\
             option ManualReplication = true\n"
        );
    }

    fn context<'a>(bench_dir: &'a Path, sources: &'a [(String, PathBuf)], local: bool) -> Context<'a> {
        Context {
            bench_dir,
            sources,
            local,
        }
    }

    fn bench_with_blink(source: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let bench = dir.path().join("benchmark");
        std::fs::create_dir_all(&bench).expect("mkdir");
        std::fs::write(
            bench.join("tools.toml"),
            format!(
                "[tool.blink]\n{source}\nentry = \"blinkblox{{exe}}\"\n{}",
                if source.starts_with("github-release") {
                    "[tool.blink.assets]\nlinux-x86_64 = \"blinkblox-*-linux-x86_64.zip\"\n"
                } else {
                    ""
                }
            ),
        )
        .expect("write tools.toml");
        (dir, bench)
    }

    #[test]
    fn a_checkout_is_compiled_in_process_and_local_changes_nothing() {
        let (dir, bench) = bench_with_blink("path = \"..\"");
        let BlinkBloxCompiler::Checkout { why } =
            BlinkBloxCompiler::choose(&context(&bench, &[], false)).expect("choose")
        else {
            panic!("a path source is this checkout");
        };
        assert_eq!(
            why,
            format!(
                "tools.toml's `blink` is a checkout, `{}`, which this blinkblox compiles",
                dir.path().display()
            )
        );
        let local = BlinkBloxCompiler::choose(&context(&bench, &[], true)).expect("choose");
        assert!(local.describe().contains("so --local changes nothing"), "{local:?}");
    }

    #[test]
    fn a_release_needs_its_binary_unless_local() {
        let (dir, bench) = bench_with_blink("github-release = \"owner/blinkblox@v1.0.0\"");
        let err = BlinkBloxCompiler::choose(&context(&bench, &[], false)).expect_err("not downloaded");
        assert!(
            err.message.contains("`github-release:owner/blinkblox@v1.0.0`") && err.message.contains("not downloaded"),
            "{err}"
        );
        let help = err.help.unwrap_or_default();
        assert!(
            help.contains("--download --tools blink") && help.contains("--local"),
            "{help}"
        );

        let local = BlinkBloxCompiler::choose(&context(&bench, &[], true)).expect("--local");
        assert!(
            matches!(&local, BlinkBloxCompiler::Checkout { why } if why.starts_with("--local")),
            "{local:?}"
        );

        let binary = dir.path().join(default_entry());
        std::fs::write(&binary, "").expect("write");
        let sources = vec![("blink".to_string(), dir.path().to_path_buf())];
        assert_eq!(
            BlinkBloxCompiler::choose(&context(&bench, &sources, false)).expect("from --source"),
            BlinkBloxCompiler::Release {
                binary,
                spec: "github-release:owner/blinkblox@v1.0.0".to_string()
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_release_binary_compiles_as_a_process() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = dir.path().join("blinkblox");
        // A stand-in release: checks it was called as `compile FILE --quiet` on a schema whose
        // outputs point into blinkblox-out/, and writes them.
        std::fs::write(
            &binary,
            "#!/bin/sh\n[ \"$1\" = compile ] && [ \"$3\" = --quiet ] || exit 2\n\
             grep -q 'ServerOutput = \"blinkblox-out/Server.luau\"' \"$2\" || exit 3\n\
             mkdir -p blinkblox-out && echo server > blinkblox-out/Server.luau && echo client > blinkblox-out/Client.luau\n",
        )
        .expect("write");
        std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let modules = compile_with_blinkblox_binary(&binary, "event A { From: Client }\n").expect("compiles");
        assert_eq!(
            (modules.server.as_str(), modules.client.as_str()),
            ("server\n", "client\n")
        );

        std::fs::write(&binary, "#!/bin/sh\necho 'error[E0101]: bad' >&2\nexit 1\n").expect("write");
        let err = compile_with_blinkblox_binary(&binary, "").expect_err("fails");
        assert!(
            err.message.contains("failed (exit code 1)") && err.message.contains("E0101"),
            "{err}"
        );
        assert!(err.help.unwrap_or_default().contains("--local"));
    }
}
