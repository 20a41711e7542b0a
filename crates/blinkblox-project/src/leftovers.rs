//! Temporary files a sync that was stopped mid-write left in the output folder (or beside the
//! lockfile): `--locked` names them; a sync removes them and says so.

use std::path::PathBuf;

use crate::project::Project;
use crate::{ProjectError, writer};

/// The stale temporary files of the project.
pub(crate) fn stale_temp_files(project: &Project) -> Vec<PathBuf> {
    let mut stale = writer::stale_temp_files(&project.output_dir, true);
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

/// A sync removes them, and says so.
pub(crate) fn remove_stale(project: &Project, stale: &[PathBuf]) -> Result<Vec<String>, ProjectError> {
    let mut removed = Vec::new();
    for path in stale {
        std::fs::remove_file(path).map_err(|err| ProjectError::io("remove", path, &err))?;
        removed.push(format!(
            "removed `{}`, a temporary file a stopped sync left behind",
            project.rel(path)
        ));
    }
    Ok(removed)
}
