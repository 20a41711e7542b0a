//! Temporary files a sync that was stopped mid-write left in the output folder (or beside the
//! lockfile): `--locked` names them; a sync removes them and says so. A sync stages its new
//! lockfile before it renames any module into place, so the lockfile a stopped sync left
//! staged says which modules that sync had written.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::lockfile::{LOCKFILE_NAME, Lockfile};
use crate::project::Project;
use crate::writer;
use blinkblox_fs::write::temp_target_name;

/// The stale temporary files of the project.
pub(crate) fn stale_temp_files(project: &Project) -> Vec<PathBuf> {
    let mut stale = writer::stale_temp_files(&project.output_dir, true);
    if project.server_apart() {
        stale.extend(writer::stale_temp_files(&project.server_dir, true));
    }
    stale.extend(writer::stale_temp_files(project.root(), false));
    stale
}

/// What `--locked` says of each of them.
pub(crate) fn stale_problems(project: &Project, stale: &[PathBuf]) -> Vec<String> {
    stale
        .iter()
        .map(|path| format!("`{}` is a temporary file a stopped sync left behind", project.rel(path)))
        .collect()
}

/// A sync removes them, and says so; one it cannot remove (another user's) is named, and
/// the sync goes on.
pub(crate) fn remove_stale(project: &Project, stale: &[PathBuf]) -> Vec<String> {
    let mut said = Vec::new();
    for path in stale {
        let rel = project.rel(path);
        said.push(match blinkblox_fs::remove::remove_file(path) {
            Ok(()) => format!("removed `{rel}`, a temporary file a stopped sync left behind"),
            Err(err) => format!("could not remove `{rel}`, a temporary file a stopped sync left behind: {err}"),
        });
    }
    said
}

/// The outputs (path → hash) the staged lockfiles among `stale` record: what a stopped sync
/// had written, or was about to. A staged lockfile that does not parse records nothing.
pub(crate) fn interrupted_outputs(stale: &[PathBuf]) -> BTreeMap<String, String> {
    stale
        .iter()
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| temp_target_name(&name.to_string_lossy()) == Some(LOCKFILE_NAME))
        })
        .filter_map(|path| Lockfile::read(path).ok().flatten())
        .flat_map(|lock| {
            lock.outputs()
                .map(|output| (output.path.clone(), output.sha256.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}
