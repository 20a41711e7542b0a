//! A compiler run as a process: zap's binary, a BlinkBlox release, `blinkblox compile` itself.
//! Each runs in a scratch folder of its own, on a schema whose output options point into that
//! folder, with stdin closed and a timeout, so that a binary that fails, hangs or waits for
//! input is reported rather than waited on.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use crate::BenchError;

/// How long one run of a compiler's binary may take: they compile a schema in milliseconds, so
/// a run this long is a hang (or a binary that waits for input), not a slow compile.
pub const PROCESS_TIMEOUT: Duration = Duration::from_secs(30);

/// A folder of its own under the system's temporary folder, removed when dropped.
pub(crate) struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    pub(crate) fn new(purpose: &str) -> Result<ScratchDir, BenchError> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("blinkblox-{purpose}-{}-{unique}", std::process::id()));
        // A folder left by a crashed run with the same process id is stale: start clean.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).map_err(|err| BenchError::io("create", &path, &err))?;
        Ok(ScratchDir { path })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// How a schema language names its output options: `option ServerOutput = "…"` in BlinkBlox's,
/// `opt server_output = "…"` in zap's.
pub(crate) struct OutputOptions {
    /// The word an option line starts with.
    pub(crate) keyword: &'static str,
    /// The Server and Client output options.
    pub(crate) server: &'static str,
    pub(crate) client: &'static str,
    /// Other output options, dropped (the scratch folder is not given them).
    pub(crate) others: &'static [&'static str],
}

impl OutputOptions {
    /// `schema` with its own output options replaced by `server_path` and `client_path`. The
    /// new ones go first: zap requires every `opt` before the first declaration, and BlinkBlox
    /// takes options in any order.
    pub(crate) fn pointed_at(&self, schema: &str, server_path: &str, client_path: &str) -> String {
        let keyword = self.keyword;
        let mut text = format!(
            "{keyword} {} = \"{server_path}\"\n{keyword} {} = \"{client_path}\"\n",
            self.server, self.client
        );
        for line in schema.lines() {
            let mut words = line
                .split(|c: char| c.is_whitespace() || c == '=')
                .filter(|word| !word.is_empty());
            let is_output = words.next() == Some(keyword)
                && words
                    .next()
                    .is_some_and(|name| name == self.server || name == self.client || self.others.contains(&name));
            if !is_output {
                text.push_str(line);
                text.push('\n');
            }
        }
        text
    }
}

/// Runs `command` with stdin closed and stdout/stderr into `scratch`, killing it after
/// `timeout`; returns its exit status and what it wrote to stderr.
pub(crate) fn run_with_timeout(
    mut command: Command,
    scratch: &Path,
    what: &str,
    timeout: Duration,
) -> Result<(ExitStatus, String), BenchError> {
    let stdout_path = scratch.join("stdout.txt");
    let stderr_path = scratch.join("stderr.txt");
    let stdout = File::create(&stdout_path).map_err(|err| BenchError::io("create", &stdout_path, &err))?;
    let stderr = File::create(&stderr_path).map_err(|err| BenchError::io("create", &stderr_path, &err))?;
    command.stdin(Stdio::null()).stdout(stdout).stderr(stderr);
    let mut child = spawn(&mut command).map_err(|err| BenchError::new(format!("could not start {what}: {err}")))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(BenchError::new(format!(
                    "{what} did not finish within {} s and was stopped",
                    timeout.as_secs()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(err) => return Err(BenchError::new(format!("could not wait for {what}: {err}"))),
        }
    };
    let stderr = std::fs::read(&stderr_path).unwrap_or_default();
    Ok((status, String::from_utf8_lossy(&stderr).trim().to_string()))
}

/// Spawns `command`, retrying a few times while the binary is "busy": a binary written just
/// before (as the tests write a stand-in zap) can briefly be held open for writing by a
/// process another thread forked at that moment.
fn spawn(command: &mut Command) -> std::io::Result<std::process::Child> {
    let mut attempts = 0;
    loop {
        match command.spawn() {
            Err(err) if err.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 10 => {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            outcome => return outcome,
        }
    }
}

/// How a process exited, for a message: `code 1`, or `a signal`.
pub(crate) fn exit_code(status: ExitStatus) -> String {
    status
        .code()
        .map_or_else(|| "a signal".to_string(), |code| format!("code {code}"))
}

/// `text` on one line, for a Markdown list item in the report: a compiler's diagnostics span
/// several lines (zap's are codespan's rendering), the help comes on its own line.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first line a binary prints for `--version` (e.g. `cli 0.6.8`, `blinkblox 0.1.0`), or
/// `None` when it fails or prints nothing.
pub(crate) fn version_output(binary: &Path) -> Option<String> {
    let scratch = ScratchDir::new("version").ok()?;
    let mut command = Command::new(binary);
    command.arg("--version");
    let what = format!("`{} --version`", binary.display());
    let (status, _) = run_with_timeout(command, scratch.path(), &what, PROCESS_TIMEOUT).ok()?;
    if !status.success() {
        return None;
    }
    let text = std::fs::read_to_string(scratch.path().join("stdout.txt")).ok()?;
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(str::to_string)
}
