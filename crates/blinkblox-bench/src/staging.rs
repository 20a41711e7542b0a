//! Where a download works: its own staging folder in `benchmark/tools/`, and a lock that
//! keeps a second `blinkblox bench --download` out of the folder while one runs.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::BenchError;

/// The file a running download holds in `benchmark/tools/`: its process id.
const RUN_LOCK: &str = ".download.lock";

/// The per-run work folder, removed when dropped.
pub(crate) struct Staging {
    pub(crate) path: PathBuf,
}

impl Staging {
    pub(crate) fn create(tools_dir: &Path) -> Result<Staging, BenchError> {
        let path = tools_dir.join(format!(".staging-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).map_err(|err| BenchError::io("create", &path, &err))?;
        Ok(Staging { path })
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// Removes the staging folders of downloads that were killed. One whose process still runs
/// is another download's, and is left alone.
pub(crate) fn remove_stale_staging(tools_dir: &Path) {
    let Ok(entries) = fs::read_dir(tools_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(".staging-").and_then(|pid| pid.parse::<u32>().ok()) else {
            continue;
        };
        if !may_be_running(pid, &entry.path()) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The download's hold on the folder, released when dropped.
pub(crate) struct RunLock {
    path: PathBuf,
}

impl RunLock {
    /// Takes the folder for this process, or says which download holds it. A lock whose
    /// process has stopped is taken over.
    pub(crate) fn take(tools_dir: &Path) -> Result<RunLock, BenchError> {
        let path = tools_dir.join(RUN_LOCK);
        for _ in 0..2 {
            match fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(std::process::id().to_string().as_bytes())
                        .map_err(|err| BenchError::io("write", &path, &err))?;
                    return Ok(RunLock { path });
                }
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = fs::read_to_string(&path)
                        .ok()
                        .and_then(|text| text.trim().parse::<u32>().ok());
                    match holder {
                        Some(pid) if may_be_running(pid, &path) => {
                            return Err(BenchError::new(format!(
                                "another `blinkblox bench --download` (process {pid}) is downloading into `{}`",
                                tools_dir.display()
                            ))
                            .with_help(format!(
                                "wait for it to finish; if no such process runs, delete `{}`",
                                path.display()
                            )));
                        }
                        _ => {
                            let _ = fs::remove_file(&path);
                        }
                    }
                }
                Err(err) => return Err(BenchError::io("create", &path, &err)),
            }
        }
        Err(BenchError::new(format!("could not take `{}`", path.display())))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Whether process `pid` may still be downloading. On Linux, whether it runs; elsewhere,
/// whether what it left is younger than an hour.
fn may_be_running(pid: u32, left: &Path) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    fs::metadata(left)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|modified| modified.elapsed().ok())
        .is_none_or(|age| age < std::time::Duration::from_secs(3600))
}
