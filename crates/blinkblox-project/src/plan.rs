//! The plan of a sync: given what the compiler produced and what the previous lockfile
//! recorded, which files to write, which to leave alone, which to remove, and what
//! `--locked` objects to. Nothing here touches the disk except to read hashes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use crate::lockfile::{self, LockedSchema, Lockfile};
use crate::project::Project;
use crate::{ProjectError, paths, writer};
use blinkblox_codegen::OutputKind;

/// A generated file and where it goes.
pub struct OutputFile {
    pub path: PathBuf,
    pub contents: String,
    /// Its schema's folder under the output (`ui/hud`): where a package holds it, wherever
    /// the project places its Server modules.
    pub schema_folder: String,
}

/// What a sync will do on disk.
#[derive(Default)]
pub struct Plan {
    pub writes: Vec<OutputFile>,
    /// Outputs whose file differs from what the lockfile recorded (edited by hand).
    pub hand_edited: Vec<String>,
    /// Outputs that do not exist yet.
    pub missing: Vec<String>,
    pub unchanged: usize,
    /// Outputs already as generated, relative to the manifest.
    pub left: Vec<String>,
    /// Outputs to remove.
    pub removals: Vec<Removal>,
    pub warnings: Vec<String>,
}

/// An output sync wrote before and no longer generates.
pub struct Removal {
    pub path: PathBuf,
    /// The output folder it is in: it is removed only if its real folder lies inside this.
    pub inside: PathBuf,
    /// Where pruning the folders it leaves empty stops.
    pub prune_stop: PathBuf,
}

/// Compares the generated files with the disk and the previous lockfile. A file at an
/// output path that the previous lockfile does not record (and whose content differs) is a
/// foreign file: an error, never an overwrite.
/// `interrupted` holds the outputs a sync that was stopped before its lockfile was in
/// place had written (path → hash, from the lockfile it left staged): a file that matches it
/// is sync's own, neither edited by hand nor foreign.
pub fn plan(
    project: &Project,
    previous: Option<&Lockfile>,
    interrupted: &BTreeMap<String, String>,
    lock: &Lockfile,
    files: Vec<OutputFile>,
) -> Result<Plan, ProjectError> {
    let root = project.root();
    let recorded: BTreeMap<&str, &str> = previous
        .map(|lock| lock.outputs().map(|o| (o.path.as_str(), o.sha256.as_str())).collect())
        .unwrap_or_default();
    let mut plan = Plan::default();
    for file in files {
        writer::ensure_not_in_packages(&file.path, root)?;
        writer::ensure_inside_project(
            &file.path,
            root,
            project.manifest.output.allow_outside_project,
            "[output] allow_outside_project",
        )?;
        let rel = project.rel(&file.path);
        let wanted = lockfile::content_hash(file.contents.as_bytes());
        let on_disk = if file.path.is_dir() {
            return Err(
                ProjectError::new(format!("`{rel}` is a folder, but sync needs to write a module there"))
                    .with_help("move that folder away"),
            );
        } else {
            lockfile::file_hash(&file.path)
        };
        let by_interrupted_run = |disk: &str| interrupted.get(rel.as_str()).is_some_and(|hash| hash == disk);
        match (on_disk, recorded.get(rel.as_str())) {
            (None, _) => {
                plan.missing.push(rel);
                plan.writes.push(file);
            }
            (Some(disk), _) if disk == wanted => {
                plan.unchanged += 1;
                plan.left.push(rel);
            }
            (Some(disk), _) if by_interrupted_run(&disk) => {
                plan.warnings.push(format!(
                    "`{rel}` was written by an earlier sync that was stopped before it finished; sync replaced it"
                ));
                plan.writes.push(file);
            }
            (Some(disk), Some(&recorded_hash)) => {
                if disk != recorded_hash {
                    plan.warnings.push(format!(
                        "`{rel}` was edited by hand; sync replaced it with the generated module"
                    ));
                    plan.hand_edited.push(rel);
                }
                plan.writes.push(file);
            }
            (Some(_), None) => {
                return Err(ProjectError::new(format!(
                    "`{rel}` already exists and blinkblox did not write it (it is not in blinkblox.lock)"
                ))
                .with_help(
                    "sync never overwrites files it did not write: move or delete that file, or change `[output]`",
                ));
            }
        }
    }
    let produced: BTreeSet<&str> = lock.outputs().map(|o| o.path.as_str()).collect();
    let output_folders = removable_folders(project, previous);
    // What a sync stopped before its lockfile wrote is sync's own too: a module it wrote for a
    // schema since removed or renamed goes like one the lockfile records.
    let mut owned = recorded.clone();
    for (rel, hash) in interrupted {
        owned.entry(rel.as_str()).or_insert(hash.as_str());
    }
    for (&rel, &recorded_hash) in &owned {
        if produced.contains(rel) {
            continue;
        }
        let path = paths::normalize(&root.join(rel));
        // Only files that look like sync's own outputs, inside an output folder, are ever
        // removed, whatever a (possibly hand-edited) lockfile claims: a lockfile naming
        // `../elsewhere/Server.luau` or a game script must not make sync delete it.
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !is_output_name(&name) || paths::wally_folder_in(&path, root).is_some() {
            plan.warnings.push(format!(
                "blinkblox.lock lists `{rel}` as an output, but sync never writes such a file; left it in place"
            ));
            continue;
        }
        let Some((inside, prune_stop)) = output_folders
            .iter()
            .find(|(folder, _)| path.starts_with(folder) && path != *folder)
            .cloned()
        else {
            plan.warnings.push(format!(
                "blinkblox.lock lists `{rel}` as an output, but it is outside the output folder, where sync never writes; left it in place"
            ));
            continue;
        };
        match lockfile::file_hash(&path) {
            None => {}
            Some(disk) if disk == recorded_hash => plan.removals.push(Removal {
                path,
                inside,
                prune_stop,
            }),
            Some(_) => plan.warnings.push(format!(
                "`{rel}` is no longer generated but was edited by hand, so sync left it in place; delete it if it is not needed"
            )),
        }
    }
    Ok(plan)
}

/// Whether a file name is one sync gives an output (`Server.luau`, `Client.d.ts`, …).
fn is_output_name(name: &str) -> bool {
    OutputKind::ALL.iter().any(|kind| kind.file_name() == name)
}

/// The folders sync may remove outputs from, each with where pruning the folders a removal
/// empties stops: the output folders (the Server modules' too), pruned up to themselves,
/// and the previous lockfile's ones when the project moved them, pruned up to their parent
/// so an emptied old folder goes too — but only when they are inside the project, since
/// the lockfile is a file anyone can edit.
fn removable_folders(project: &Project, previous: Option<&Lockfile>) -> Vec<(PathBuf, PathBuf)> {
    let root = paths::normalize(project.root());
    let mut folders: Vec<(PathBuf, PathBuf)> = [&project.output_dir, &project.server_dir]
        .into_iter()
        .map(|dir| (paths::normalize(dir), paths::normalize(dir)))
        .collect();
    let Some(previous) = previous else {
        return folders;
    };
    let old_folders = [Some(&previous.output), previous.server_output.as_ref()];
    for old in old_folders.into_iter().flatten() {
        let old = paths::normalize(&root.join(old));
        let inside = paths::relative_to(&old, &root).is_some_and(|rel| {
            rel.components()
                .next()
                .is_some_and(|first| first != Component::ParentDir)
        });
        if inside && !folders.iter().any(|(folder, _)| *folder == old) {
            let stop = old
                .parent()
                .map(Path::to_path_buf)
                .filter(|parent| paths::is_inside(parent, &root))
                .unwrap_or_else(|| old.clone());
            folders.push((old, stop));
        }
    }
    folders
}

/// Everything `--locked` objects to, one line each.
pub fn locked_problems(
    project: &Project,
    previous: Option<&Lockfile>,
    lock: &Lockfile,
    plan: &Plan,
    lock_changes: bool,
    frozen: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    match previous {
        None => problems.push(format!("`{}` is missing", lockfile::LOCKFILE_NAME)),
        Some(previous) if lock_changes => problems.extend(lock_differences(previous, lock)),
        Some(_) => {}
    }
    if lock_changes && problems.is_empty() {
        problems.push(format!("`{}` would be rewritten", lockfile::LOCKFILE_NAME));
    }
    for rel in &plan.hand_edited {
        problems.push(format!(
            "`{rel}` was edited by hand (its hash differs from blinkblox.lock)"
        ));
    }
    for write in &plan.writes {
        let rel = project.rel(&write.path);
        if !plan.hand_edited.contains(&rel) && !plan.missing.contains(&rel) {
            problems.push(format!("`{rel}` is stale and would be rewritten"));
        }
    }
    if frozen {
        for rel in &plan.missing {
            problems.push(format!("`{rel}` is missing and would be written"));
        }
    }
    for removal in &plan.removals {
        problems.push(format!(
            "`{}` is no longer generated and would be removed",
            project.rel(&removal.path)
        ));
    }
    problems
}

/// What changed between two lockfiles, in words: every field that differs.
fn lock_differences(old: &Lockfile, new: &Lockfile) -> Vec<String> {
    let mut out = Vec::new();
    if !old.intact {
        out.push(format!(
            "`{}` was edited by hand (its digest does not match its contents)",
            lockfile::LOCKFILE_NAME
        ));
    }
    if old.compiler != new.compiler {
        out.push(format!(
            "the compiler changed from `{}` to `{}`",
            old.compiler, new.compiler
        ));
    }
    if old.manifest != new.manifest {
        out.push("`blinkblox.toml` changed".to_string());
    }
    match (&old.package, &new.package) {
        (Some(old), Some(new)) if old != new => {
            for (field, was, now) in [
                ("name", &old.name, &new.name),
                ("version", &old.version, &new.version),
                ("zip sha256", &old.sha256, &new.sha256),
            ] {
                if was != now {
                    out.push(format!(
                        "the Wally package's {field} is recorded as `{was}` but is `{now}`"
                    ));
                }
            }
        }
        (None, Some(_)) => out.push("the Wally package is not recorded yet".to_string()),
        (Some(_), None) => out.push("the lockfile records a Wally package, but `[package]` is gone".to_string()),
        _ => {}
    }
    if old.output != new.output {
        out.push(format!(
            "the output folder moved from `{}` to `{}`",
            old.output, new.output
        ));
    }
    if old.server_output != new.server_output {
        let show = |folder: &Option<String>| {
            folder
                .as_deref()
                .map_or("the output folder".to_string(), |f| format!("`{f}`"))
        };
        out.push(format!(
            "the Server modules' folder moved from {} to {}",
            show(&old.server_output),
            show(&new.server_output)
        ));
    }
    if old.rojo_project != new.rojo_project {
        out.push("the Rojo project file changed".to_string());
    }
    let old_by_path: BTreeMap<&str, &LockedSchema> = old.schemas.iter().map(|s| (s.path.as_str(), s)).collect();
    let new_by_path: BTreeMap<&str, &LockedSchema> = new.schemas.iter().map(|s| (s.path.as_str(), s)).collect();
    for (path, schema) in &new_by_path {
        let Some(old_schema) = old_by_path.get(path) else {
            out.push(format!("schema `{path}` is new"));
            continue;
        };
        if old_schema.sha256 != schema.sha256 {
            out.push(format!("schema `{path}` changed"));
        }
        if old_schema.imports != schema.imports {
            out.push(format!("an import of schema `{path}` changed"));
        }
        if old_schema.folder != schema.folder {
            out.push(format!(
                "schema `{path}`'s folder moved from `{}` to `{}`",
                old_schema.folder, schema.folder
            ));
        }
        if old_schema.outputs != schema.outputs {
            out.push(format!("the outputs of schema `{path}` changed"));
        }
        let names: std::collections::BTreeSet<&String> =
            old_schema.options.keys().chain(schema.options.keys()).collect();
        for name in names {
            let (was, now) = (old_schema.options.get(name), schema.options.get(name));
            if was != now {
                let show = |value: Option<&toml::Value>| value.map_or("nothing".to_string(), |v| format!("`{v}`"));
                out.push(format!(
                    "schema `{path}`'s option `{name}` is recorded as {} but is {}",
                    show(was),
                    show(now)
                ));
            }
        }
    }
    for path in old_by_path.keys() {
        if !new_by_path.contains_key(path) {
            out.push(format!("schema `{path}` was removed"));
        }
    }
    out
}
