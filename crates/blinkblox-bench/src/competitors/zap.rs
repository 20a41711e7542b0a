//! zap 0.6: its compiler is a native binary (GitHub releases only), so the bench runs it as a
//! process on a zap schema written to a temporary folder, with the output paths pointed into
//! that folder, and reads the Server and Client modules back as text, to be loaded into the
//! harness like BlinkBlox's.
//!
//! The binary comes from `--source zap=PATH` (a folder holding `zap`/`zap.exe`, or the binary
//! itself) or from what `--download` put in `benchmark/tools/zap/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::competitor::{Code, Competitor, Context, Modules, PlaceModules, RivalsCode, RuntimeCode, ScenarioModules};
use crate::compiler_process::{
    OutputOptions, PROCESS_TIMEOUT, ScratchDir, exit_code, one_line, run_with_timeout, version_output,
};
use crate::many_declarations::{MANY_DECLARATIONS, Sender, zap_schema};
use crate::tools::ToolsFile;
use crate::{BenchError, read_checkout_file};

/// zap 0.6, its binary.
pub struct Zap;

impl Competitor for Zap {
    fn key(&self) -> &'static str {
        "zap"
    }

    fn name(&self) -> &'static str {
        "zap"
    }

    fn missing(&self, context: &Context) -> Option<String> {
        let err = find_binary(context).err()?;
        let help = err.help.map(|help| format!(": {help}")).unwrap_or_default();
        Some(format!("{}{help}", err.message))
    }

    fn provenance(&self, context: &Context, _runtime_rows: bool) -> String {
        match find_binary(context) {
            Ok(binary) => format!(
                "zap {} (`{}`), its binary run on benchmark/definitions/Definition.zap",
                version(&binary).unwrap_or_else(|| "of unknown version".to_string()),
                binary.display()
            ),
            Err(err) => err.message,
        }
    }

    /// Its modules for `definitions/Definition.zap`; a binary that is missing or fails fails
    /// the rows, with its message on one line.
    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        let modules = find_binary(context).and_then(|binary| {
            let path = context.definition("Definition.zap");
            let schema = std::fs::read_to_string(&path).map_err(|err| BenchError::io("read", &path, &err))?;
            compile(&binary, &schema)
        });
        Ok(Code::Modules(modules.map_err(|err| one_line(&err.to_string()))))
    }

    fn is_rival(&self) -> bool {
        true
    }

    /// `definitions/Scenarios.zap` and the many declarations in its language, sent by the
    /// server. A compile that fails fails those rows.
    fn rivals_code(&self, context: &Context) -> Result<RivalsCode, BenchError> {
        let binary = find_binary(context)?;
        let schema = read_checkout_file(&context.definition("Scenarios.zap"))?;
        let compile = |text: &str| compile(&binary, text).map_err(|err| err.to_string());
        Ok(Code::Modules(ScenarioModules {
            scenarios: compile(&schema),
            batched: Err(format!("{} has no BatchUnreliable modules", self.name())),
            many_declarations: compile(&zap_schema(MANY_DECLARATIONS, Sender::Server)),
        }))
    }

    fn declarations_modules(&self, context: &Context, count: usize) -> Option<Result<Modules, String>> {
        let modules = find_binary(context).and_then(|binary| compile(&binary, &zap_schema(count, Sender::Client)));
        Some(modules.map_err(|err| one_line(&err.to_string())))
    }

    /// Its modules for `definitions/Definition.zap` when its binary is found.
    fn place_modules(&self, context: &Context) -> Result<PlaceModules, BenchError> {
        let binary = match find_binary(context) {
            Ok(binary) => binary,
            Err(err) => {
                return Ok(PlaceModules::LeftOut(format!(
                    "{} left out: {}",
                    self.key(),
                    err.message
                )));
            }
        };
        let schema = read_checkout_file(&context.definition("Definition.zap"))?;
        Ok(match compile(&binary, &schema) {
            Ok(modules) => PlaceModules::Compiled(modules),
            Err(err) => PlaceModules::LeftOut(format!("{} left out: {err}", self.key())),
        })
    }
}

/// The output paths given to zap, relative to the schema's folder (zap resolves them so).
pub(crate) const SERVER_OUTPUT: &str = "out/Server.luau";
pub(crate) const CLIENT_OUTPUT: &str = "out/Client.luau";

/// The file name of zap's binary on this platform (`zap`, or `zap.exe` on Windows).
pub fn binary_name() -> String {
    format!("zap{}", std::env::consts::EXE_SUFFIX)
}

/// What `--source zap=PATH` or `benchmark/tools/zap/` should hold, from tools.toml's `entry`
/// for zap (`zap{exe}`), or the platform's binary name when tools.toml says nothing.
fn entry_name(bench_dir: &Path) -> String {
    ToolsFile::read(&bench_dir.join("tools.toml"))
        .ok()
        .and_then(|file| file.tool("zap").and_then(|tool| tool.entry_for_platform()))
        .unwrap_or_else(binary_name)
}

/// The path zap's binary would be at: `PATH` itself when `--source zap=PATH` names a file,
/// else the entry inside the tool's folder (`--source zap=DIR` or `benchmark/tools/zap/`).
pub fn binary_path(context: &Context) -> PathBuf {
    let (dir, _) = context.tool_dir("zap");
    if dir.is_file() {
        dir
    } else {
        dir.join(entry_name(context.bench_dir))
    }
}

/// zap's binary, or why it is not there and how to get it.
pub fn find_binary(context: &Context) -> Result<PathBuf, BenchError> {
    let binary = binary_path(context);
    if binary.is_file() {
        return Ok(binary);
    }
    let (dir, from_source) = context.tool_dir("zap");
    let name = binary_name();
    let message = if from_source {
        format!(
            "--source zap=`{}` holds no zap binary (looked for `{}`)",
            dir.display(),
            binary.display()
        )
    } else {
        format!("zap's binary is not downloaded (no `{}`)", binary.display())
    };
    Err(BenchError::new(message).with_help(format!(
        "run `blinkblox bench --download --tools zap` (zap is distributed as GitHub release binaries), \
         or pass --source zap=DIR with a folder holding `{name}` (e.g. a zap checkout's target/release, \
         built with `cargo build --release --locked --package cli`), or the binary itself"
    )))
}

/// `schema_text` with its own `server_output`/`client_output` options replaced by paths into
/// the scratch folder.
pub(crate) fn with_scratch_outputs(schema_text: &str) -> String {
    const OPTIONS: OutputOptions = OutputOptions {
        keyword: "opt",
        server: "server_output",
        client: "client_output",
        others: &[],
    };
    OPTIONS.pointed_at(schema_text, SERVER_OUTPUT, CLIENT_OUTPUT)
}

/// Compiles `schema_text` (zap's language) with zap's `binary`.
///
/// The schema is written to a temporary folder with its output options pointed into it (any
/// `server_output`/`client_output` of its own are replaced), the binary runs there with a
/// timeout of [`PROCESS_TIMEOUT`], and the two modules are read back. The folder is removed after.
pub fn compile(binary: &Path, schema_text: &str) -> Result<Modules, BenchError> {
    compile_within(binary, schema_text, PROCESS_TIMEOUT)
}

pub(crate) fn compile_within(binary: &Path, schema_text: &str, timeout: Duration) -> Result<Modules, BenchError> {
    if !binary.is_file() {
        return Err(BenchError::new(format!("zap's binary `{}` does not exist", binary.display())).with_help(
            "pass --source zap=DIR with a folder holding zap's binary, or run `blinkblox bench --download --tools zap`",
        ));
    }
    let scratch = ScratchDir::new("zap")?;
    let schema_path = scratch.path().join("net.zap");
    std::fs::write(&schema_path, with_scratch_outputs(schema_text))
        .map_err(|err| BenchError::io("write", &schema_path, &err))?;
    let what = format!("zap's binary `{}`", binary.display());
    let mut command = Command::new(binary);
    command.arg(&schema_path).current_dir(scratch.path());
    let (status, stderr) = run_with_timeout(command, scratch.path(), &what, timeout)?;
    let stderr_note = if stderr.is_empty() {
        String::new()
    } else {
        format!(":\n{stderr}")
    };
    if !status.success() {
        let code = exit_code(status);
        return Err(
            BenchError::new(format!("{what} failed (exit {code}) on the zap schema{stderr_note}")).with_help(
                "check that the binary is zap 0.6 (`zap --version`) and the schema is in its language; \
             pass another with --source zap=DIR, or run `blinkblox bench --download --tools zap`",
            ),
        );
    }
    let read_output = |relative: &str| {
        let path = scratch.path().join(relative);
        std::fs::read_to_string(&path).map_err(|err| {
            BenchError::new(format!(
                "{what} exited successfully but did not write `{}` ({err}){stderr_note}",
                path.display()
            ))
            .with_help("check that the binary is zap 0.6: it writes server_output and client_output")
        })
    };
    Ok(Modules::pair(read_output(SERVER_OUTPUT)?, read_output(CLIENT_OUTPUT)?))
}

/// zap's version as its binary reports it (`zap --version` prints `cli 0.6.8`), e.g. `0.6.8`.
pub fn version(binary: &Path) -> Option<String> {
    let output = version_output(binary)?;
    let version = output.split_whitespace().last()?.trim_start_matches('v');
    version
        .chars()
        .next()
        .filter(char::is_ascii_digit)
        .map(|_| version.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn context<'a>(bench_dir: &'a Path, sources: &'a [(String, PathBuf)]) -> Context<'a> {
        Context {
            bench_dir,
            sources,
            local: false,
        }
    }

    #[test]
    fn output_options_are_replaced_and_put_first() {
        let text = with_scratch_outputs(
            "-- comment\nopt server_output = \"a/b.lua\"\nopt   client_output=\"c.lua\"\nopt remote_scope = \"X\"\nevent E = {}\n",
        );
        assert_eq!(
            text,
            format!(
                "opt server_output = \"{SERVER_OUTPUT}\"\nopt client_output = \"{CLIENT_OUTPUT}\"\n\
                 -- comment\nopt remote_scope = \"X\"\nevent E = {{}}\n"
            )
        );
    }

    /// Writes an executable shell script named `zap` into `dir` and returns its path.
    #[cfg(unix)]
    fn fake_zap(dir: &Path, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("zap");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write the fake zap");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// A stand-in for zap: writes each output the schema's options name (relative to the
    /// schema's folder, as zap resolves them), with the schema's first event in it.
    #[cfg(unix)]
    const WRITES_OUTPUTS: &str = r#"dir=$(dirname "$1")
server=$(sed -n 's/^opt server_output = "\(.*\)"$/\1/p' "$1")
client=$(sed -n 's/^opt client_output = "\(.*\)"$/\1/p' "$1")
event=$(sed -n 's/^event \([A-Za-z]*\).*/\1/p' "$1" | head -n 1)
mkdir -p "$(dirname "$dir/$server")" "$(dirname "$dir/$client")"
echo "-- server for $event" > "$dir/$server"
echo "-- client for $event" > "$dir/$client""#;

    #[cfg(unix)]
    #[test]
    fn compile_runs_the_binary_and_reads_both_outputs() {
        let dir = tempfile::tempdir().expect("tempdir");
        let zap = fake_zap(dir.path(), WRITES_OUTPUTS);
        let schema = "opt server_output = \"elsewhere/s.lua\"\nevent Tiny = { from: Client, type: Reliable, call: SingleSync, data: u8 }\n";
        let modules = compile(&zap, schema).expect("the fake zap compiles");
        assert_eq!(modules.server, "-- server for Tiny\n");
        assert_eq!(modules.client, "-- client for Tiny\n");
        // The schema's own output path was replaced, so nothing was written next to the binary.
        assert!(!dir.path().join("elsewhere").exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_failing_zap_is_reported_with_its_stderr_and_the_fix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let zap = fake_zap(dir.path(), "echo 'error[3001]: unknown type `Entiti`' >&2\nexit 1");
        let err = compile(&zap, "event E = {}").expect_err("exit 1 is a failure");
        let text = err.to_string();
        assert!(
            text.contains(&format!("zap's binary `{}` failed (exit code 1)", zap.display())),
            "{text}"
        );
        assert!(text.contains("unknown type `Entiti`"), "{text}");
        assert!(
            text.contains("--source zap=DIR") && text.contains("--download"),
            "{text}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_zap_that_writes_nothing_or_hangs_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let silent = fake_zap(dir.path(), "exit 0");
        let err = compile(&silent, "event E = {}").expect_err("no outputs");
        assert!(err.message.contains("exited successfully but did not write"), "{err}");
        assert!(err.message.contains("Server.luau"), "{err}");

        let hung = tempfile::tempdir().expect("tempdir");
        let sleeper = fake_zap(hung.path(), "sleep 5");
        let started = Instant::now();
        let err = compile_within(&sleeper, "event E = {}", Duration::from_millis(200)).expect_err("a hang");
        assert!(err.message.contains("did not finish within"), "{err}");
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "the hung process was stopped"
        );
    }

    #[test]
    fn a_missing_binary_names_where_it_looked_and_the_fix() {
        let dir = tempfile::tempdir().expect("tempdir");
        let bench = dir.path().join("benchmark");
        let err = find_binary(&context(&bench, &[])).expect_err("nothing downloaded");
        assert!(err.message.contains("zap's binary is not downloaded"), "{err}");
        assert!(err.message.contains(&binary_name()), "{err}");
        let help = err.help.clone().unwrap_or_default();
        assert!(help.contains("blinkblox bench --download --tools zap"), "{help}");
        assert!(help.contains("--source zap=DIR"), "{help}");

        let sources = vec![("zap".to_string(), dir.path().join("empty"))];
        let err = find_binary(&context(&bench, &sources)).expect_err("an empty source");
        assert!(err.message.starts_with("--source zap=`"), "{err}");
        assert!(err.message.contains("holds no zap binary"), "{err}");

        let err = compile(&dir.path().join("no-such-zap"), "").expect_err("no binary");
        assert!(err.message.contains("does not exist"), "{err}");
    }

    #[test]
    fn the_binary_is_found_in_a_source_folder_or_as_the_source_itself() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = dir.path().join(binary_name());
        std::fs::write(&binary, "").expect("write");
        let bench = dir.path().join("benchmark");
        let by_folder = vec![("zap".to_string(), dir.path().to_path_buf())];
        assert_eq!(
            find_binary(&context(&bench, &by_folder)).expect("in the folder"),
            binary
        );
        let by_file = vec![("zap".to_string(), binary.clone())];
        assert_eq!(
            find_binary(&context(&bench, &by_file)).expect("the file itself"),
            binary
        );
        // Without --source: benchmark/tools/zap/, where --download unpacks the release.
        let downloaded = bench.join("tools").join("zap");
        std::fs::create_dir_all(&downloaded).expect("mkdir");
        std::fs::write(downloaded.join(binary_name()), "").expect("write");
        assert_eq!(
            find_binary(&context(&bench, &[])).expect("downloaded"),
            downloaded.join(binary_name())
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_version_is_the_last_word_of_zap_version() {
        let dir = tempfile::tempdir().expect("tempdir");
        let zap = fake_zap(dir.path(), "echo 'cli 0.6.8'");
        assert_eq!(version(&zap).as_deref(), Some("0.6.8"));
        let other = tempfile::tempdir().expect("tempdir");
        let not_zap = fake_zap(other.path(), "echo 'usage: something else'");
        assert_eq!(version(&not_zap), None);
    }

    /// The events, directions, reliabilities and call modes a schema declares, in order, from
    /// `event NAME` headers and `From:`/`from:`-style fields, and its functions by name
    /// (`function NAME` in Blink's language, `funct NAME` in zap's; enough for these two files).
    fn events_of(text: &str) -> Vec<String> {
        let mut events = Vec::new();
        let mut in_event = false;
        for line in text.lines().map(str::trim) {
            let name_of = |rest: &str| -> String { rest.chars().take_while(char::is_ascii_alphanumeric).collect() };
            if let Some(rest) = line.strip_prefix("event ") {
                events.push(name_of(rest));
                in_event = true;
            } else if let Some(rest) = line.strip_prefix("function ").or_else(|| line.strip_prefix("funct ")) {
                events.push(format!("function {}", name_of(rest)));
                in_event = false;
            } else if let Some((key, value)) = line.split_once(':') {
                let key = key.trim().to_ascii_lowercase();
                if in_event
                    && ["from", "type", "call"].contains(&key.as_str())
                    && let Some(last) = events.last_mut()
                {
                    last.push_str(&format!(" {key}={}", value.trim().trim_end_matches(',')));
                }
            }
        }
        events
    }

    #[test]
    fn definition_zap_declares_the_events_of_definition_blink() {
        let definitions = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../benchmark")
            .join("definitions");
        let read = |name: &str| std::fs::read_to_string(definitions.join(name)).expect("read a definition");
        let blink = events_of(&read("Definition.blink"));
        assert_eq!(
            blink.first().map(String::as_str),
            Some("Booleans from=Client type=Reliable call=SingleSync")
        );
        assert_eq!(events_of(&read("Definition.zap")), blink);
        assert!(read("Definition.zap").contains("opt manual_event_loop = true"));
    }

    #[test]
    fn the_binary_is_the_source_folder_entry_or_the_file_itself() {
        let bench = Path::new("/nonexistent/benchmark");
        assert_eq!(
            binary_path(&context(bench, &[])),
            bench.join("tools").join("zap").join(binary_name())
        );
        let sources = vec![("zap".to_string(), PathBuf::from("/opt/zap/bin"))];
        assert_eq!(
            binary_path(&context(bench, &sources)),
            Path::new("/opt/zap/bin").join(binary_name())
        );
    }
}
