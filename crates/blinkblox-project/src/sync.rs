//! `blinkblox sync`, the engine: manifest → schemas → compile → plan → write → lockfile.
//!
//! Sync plans everything before touching the disk, so a foreign file, a stale lock under
//! `--locked` or a schema error stops it with nothing half-written. A sync with nothing to
//! do is answered from hashes alone (see [`is_up_to_date`]), without compiling.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::leftovers::{interrupted_outputs, remove_stale, stale_problems, stale_temp_files};
use crate::lockfile::{self, FileHash, LockedPackage, LockedSchema, Lockfile};
use crate::manifest::Manifest;
use crate::plan::{OutputFile, locked_problems, plan};
use crate::project::Project;
use crate::schema_rules::{ignored_options, refuse_shared_remote_scopes, warnings_again};
use crate::schemas::SchemaEntry;
use crate::writer::{self, BeforeRename};
use crate::{ProjectError, compile, paths};
use blinkblox_codegen::{self as codegen, Outputs, RequirePaths, Targets};

#[derive(Debug, Clone, Copy, Default)]
pub struct SyncFlags {
    /// Fail (naming what changed) instead of changing the lockfile or a recorded output.
    pub locked: bool,
    /// `--locked`, and never write anything (a missing output is an error too).
    pub frozen: bool,
}

pub use crate::schema_rules::SchemaReport;

#[derive(Debug, Clone, Default)]
pub struct SyncOutcome {
    pub schema_count: usize,
    /// Answered from hashes: nothing was compiled or written.
    pub up_to_date: bool,
    /// Outputs written (created or changed), relative to the manifest, `/`-separated.
    pub written: Vec<String>,
    pub unchanged: usize,
    /// Outputs left as they were, relative to the manifest, `/`-separated.
    pub left: Vec<String>,
    pub removed: Vec<String>,
    pub lockfile_written: bool,
    /// Project-level warnings (output not mapped by Rojo, hand edits overwritten, …).
    pub warnings: Vec<String>,
    /// Schemas that compiled with warnings.
    pub reports: Vec<SchemaReport>,
    /// How game code requires each schema's modules (the schema's path, relative to the
    /// manifest, and its modules' `require` expressions), where Rojo places them.
    pub requires: Vec<(String, RequirePaths)>,
}

#[derive(Debug, Clone)]
pub enum SyncError {
    Project(ProjectError),
    /// At least one schema has errors; nothing was written.
    Schemas {
        reports: Vec<SchemaReport>,
        failed: usize,
        warnings: Vec<String>,
    },
    /// `--locked`/`--frozen` found something that would change; nothing was written.
    Locked {
        problems: Vec<String>,
        frozen: bool,
    },
}

impl From<ProjectError> for SyncError {
    fn from(err: ProjectError) -> SyncError {
        SyncError::Project(err)
    }
}

/// The result of one sync, with the files it read (for `--watch`).
#[derive(Debug)]
pub struct SyncRun {
    pub result: Result<SyncOutcome, SyncError>,
    /// Manifest, project file, schemas and every import: a change to any means re-sync.
    pub inputs: BTreeSet<PathBuf>,
}

/// Runs a sync of the project `manifest` describes.
pub fn run(manifest: Manifest, flags: SyncFlags) -> SyncRun {
    run_with(manifest, flags, &writer::no_hook)
}

/// [`run`] with a fault-injection point for every atomic write.
pub fn run_with(manifest: Manifest, flags: SyncFlags, before_rename: BeforeRename<'_>) -> SyncRun {
    let mut inputs = BTreeSet::new();
    inputs.insert(manifest.path.clone());
    let result = sync(manifest, flags, before_rename, &mut inputs);
    SyncRun { result, inputs }
}

fn sync(
    manifest: Manifest,
    flags: SyncFlags,
    before_rename: BeforeRename<'_>,
    inputs: &mut BTreeSet<PathBuf>,
) -> Result<SyncOutcome, SyncError> {
    let project = Project::resolve(manifest)?;
    if let Some(rojo) = &project.rojo {
        inputs.insert(rojo.path.clone());
    }
    inputs.extend(project.schemas.iter().map(|schema| schema.path.clone()));
    let lock_path = project.lockfile_path();
    let previous = Lockfile::read(&lock_path)?;
    let stale = stale_temp_files(&project);
    let interrupted = interrupted_outputs(&stale);
    let check_only = flags.locked || flags.frozen;
    let leftovers = if check_only {
        Vec::new()
    } else {
        remove_stale(&project, &stale)
    };
    if let Some(previous) = &previous {
        for schema in &previous.schemas {
            inputs.extend(schema.imports.iter().map(|import| project.root().join(&import.path)));
        }
        // Modules a stopped sync wrote that the lockfile does not record are work left to do
        // (they go, or get recorded), even when everything the lockfile records is current.
        let unrecorded = interrupted
            .keys()
            .any(|rel| !previous.outputs().any(|output| output.path == *rel));
        if !unrecorded && is_up_to_date(&project, previous) {
            if check_only && !stale.is_empty() {
                return Err(SyncError::Locked {
                    problems: stale_problems(&project, &stale),
                    frozen: flags.frozen,
                });
            }
            // Nothing is compiled, but a schema that had warnings is checked again, so an
            // up-to-date project still shows them.
            let (reports, schema_warnings) = warnings_again(&project, previous)?;
            return Ok(SyncOutcome {
                schema_count: project.schemas.len(),
                up_to_date: true,
                unchanged: previous.outputs().count(),
                left: previous.outputs().map(|output| output.path.clone()).collect(),
                warnings: project
                    .warnings
                    .iter()
                    .cloned()
                    .chain(schema_warnings)
                    .chain(leftovers)
                    .collect(),
                reports,
                requires: requires_of(&project),
                ..SyncOutcome::default()
            });
        }
    }

    let compiled = compile_all(&project, inputs)?;
    refuse_shared_remote_scopes(
        compiled
            .iter()
            .filter_map(|item| item.built.as_ref().map(|(locked, _)| locked)),
    )?;
    let failed = compiled.iter().filter(|c| c.built.is_none()).count();
    let schema_warnings: Vec<String> = compiled.iter().flat_map(|c| c.warnings.iter().cloned()).collect();
    let reports: Vec<SchemaReport> = compiled
        .iter()
        .filter(|c| !c.report.diagnostics.is_empty())
        .map(|c| c.report.clone())
        .collect();
    if failed > 0 {
        return Err(SyncError::Schemas {
            reports,
            failed,
            warnings: project.warnings.iter().cloned().chain(schema_warnings).collect(),
        });
    }

    let (lock, files) = build_lockfile(&project, compiled)?;
    let plan = plan(&project, previous.as_ref(), &interrupted, &lock, files)?;
    let lock_text = lock.render();
    // A CRLF checkout of the same lockfile is the same lockfile.
    let old_lock_text = crate::read_text(&lock_path)
        .ok()
        .and_then(Result::ok)
        .map(|text| text.replace("\r\n", "\n"));
    let lock_changes = old_lock_text.as_deref() != Some(lock_text.as_str());

    if flags.locked || flags.frozen {
        let mut problems = locked_problems(&project, previous.as_ref(), &lock, &plan, lock_changes, flags.frozen);
        problems.extend(stale_problems(&project, &stale));
        if !problems.is_empty() {
            return Err(SyncError::Locked {
                problems,
                frozen: flags.frozen,
            });
        }
    }

    let mut outcome = SyncOutcome {
        schema_count: project.schemas.len(),
        unchanged: plan.unchanged,
        left: plan.left.clone(),
        reports,
        warnings: project.warnings.iter().cloned().chain(schema_warnings).collect(),
        requires: requires_of(&project),
        ..SyncOutcome::default()
    };
    outcome.warnings.extend(plan.warnings.iter().cloned());
    outcome.warnings.extend(leftovers);
    for write in &plan.writes {
        // Checked again at the last moment: a link may have appeared since the plan.
        writer::ensure_not_in_packages(&write.path, project.root())?;
        writer::ensure_inside_project(
            &write.path,
            project.root(),
            project.manifest.output.allow_outside_project,
            "[output] allow_outside_project",
        )?;
    }
    let mut files: Vec<(&Path, &[u8])> = plan
        .writes
        .iter()
        .map(|write| (write.path.as_path(), write.contents.as_bytes()))
        .collect();
    // The new lockfile is staged with the modules, before any is renamed into place, and
    // renamed last: a sync stopped in between leaves it staged, saying which modules it wrote.
    if lock_changes {
        if !paths::is_really_inside(&lock_path, project.root()) {
            return Err(ProjectError::new(format!(
                "refusing to write `{}`: it is a symbolic link leading out of the project, to `{}`",
                lockfile::LOCKFILE_NAME,
                paths::real(&lock_path).display()
            ))
            .with_help("remove the link: sync writes blinkblox.lock itself")
            .into());
        }
        files.push((lock_path.as_path(), lock_text.as_bytes()));
    }
    let mut staged = writer::stage(&files).map_err(|(path, err)| ProjectError::io("write", &path, &err))?;
    let staged_lock = if lock_changes { staged.pop() } else { None };
    if let Err(err) = commit_and_remove(&project, &plan, staged, before_rename, &mut outcome) {
        // The modules renamed so far are recorded by the staged lockfile, kept for the next
        // sync to read, as a stopped sync's is.
        if let Some(staged_lock) = staged_lock {
            staged_lock.keep();
        }
        return Err(err.into());
    }
    if let Some(staged_lock) = staged_lock {
        writer::commit_all(vec![staged_lock], before_rename, |_| {})
            .map_err(|(path, err)| ProjectError::io("write", &path, &err))?;
        outcome.lockfile_written = true;
    }
    Ok(outcome)
}

/// Renames the staged modules into place, then removes the outputs no longer generated.
fn commit_and_remove(
    project: &Project,
    plan: &crate::plan::Plan,
    staged: Vec<writer::Staged>,
    before_rename: BeforeRename<'_>,
    outcome: &mut SyncOutcome,
) -> Result<(), ProjectError> {
    writer::commit_all(staged, before_rename, |path| outcome.written.push(project.rel(path)))
        .map_err(|(path, err)| ProjectError::io("write", &path, &err))?;
    for removal in &plan.removals {
        let path = &removal.path;
        match writer::remove_inside(path, &removal.inside, &removal.prune_stop)
            .map_err(|err| ProjectError::io("remove", path, &err))?
        {
            writer::Removal::Removed => outcome.removed.push(project.rel(path)),
            writer::Removal::Outside(real) => outcome.warnings.push(format!(
                "left `{}` where it is: a symbolic link leads its folder out of the output folder, to `{}`; remove it yourself if it is sync's",
                project.rel(path),
                real.display()
            )),
        }
    }
    Ok(())
}

/// Each schema's `require` expressions, in the schemas' order.
fn requires_of(project: &Project) -> Vec<(String, RequirePaths)> {
    project
        .schemas
        .iter()
        .map(|schema| (schema.rel_path.clone(), project.requires_of(schema)))
        .collect()
}

/// Whether the lockfile still describes the disk: same compiler, manifest and project
/// file, the same schemas with the same contents and imports, every output as recorded.
/// Reads and hashes files; compiles nothing.
pub fn is_up_to_date(project: &Project, lock: &Lockfile) -> bool {
    let root = project.root();
    let same_file = |recorded: &FileHash| {
        lockfile::file_hash(&root.join(&recorded.path)).as_deref() == Some(recorded.sha256.as_str())
    };
    if !lock.intact
        || lock.compiler != lockfile::compiler_version()
        || lock.manifest != lockfile::content_hash(project.manifest.text.as_bytes())
        || lock.rojo_project != project.locked_project_file()
        || lock.output != project.rel(&project.output_dir)
        || lock.server_output != project.server_output_rel()
        || lock.schemas.len() != project.schemas.len()
    {
        return false;
    }
    project.schemas.iter().zip(&lock.schemas).all(|(schema, locked)| {
        locked.path == schema.rel_path
            && locked.folder == project.rel(&project.schema_folder(schema))
            && same_file(&FileHash {
                path: locked.path.clone(),
                sha256: locked.sha256.clone(),
            })
            && locked.imports.iter().all(same_file)
            && locked.outputs.iter().all(same_file)
    })
}

/// One schema after the front end and the code generator.
struct Compiled {
    report: SchemaReport,
    /// What sync says of the schema besides its diagnostics (options it ignores).
    warnings: Vec<String>,
    /// Its lockfile entry and generated files; `None` when the schema has errors.
    built: Option<(LockedSchema, Vec<OutputFile>)>,
    imports: Vec<PathBuf>,
}

/// Checks and generates every schema, on as many threads as there are cores (each schema
/// is independent), keeping the schemas' order.
fn compile_all(project: &Project, inputs: &mut BTreeSet<PathBuf>) -> Result<Vec<Compiled>, ProjectError> {
    let schemas = &project.schemas;
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8)
        .min(schemas.len().max(1));
    let chunk_size = schemas.len().div_ceil(workers).max(1);
    let results: Vec<Result<Vec<Compiled>, ProjectError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = schemas
            .chunks(chunk_size)
            .map(|chunk| scope.spawn(move || chunk.iter().map(|entry| compile_one(project, entry)).collect()))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|_| Err(ProjectError::new("internal error: a compiler thread panicked")))
            })
            .collect()
    });
    let mut compiled = Vec::with_capacity(schemas.len());
    for result in results {
        compiled.extend(result?);
    }
    for item in &compiled {
        inputs.extend(item.imports.iter().cloned());
    }
    Ok(compiled)
}

fn compile_one(project: &Project, entry: &SchemaEntry) -> Result<Compiled, ProjectError> {
    let manifest_name = project.rel(&project.manifest.path);
    let targets = Targets {
        types: project.manifest.output.types,
        typescript: project.manifest.output.typescript,
        requires: project.requires_of(entry),
    };
    let mut output = compile::compile_schema(
        &entry.path,
        &project.manifest,
        &manifest_name,
        &entry.out_rel,
        Outputs::Modules(targets),
    )?;
    let imports: Vec<PathBuf> = output.imports().iter().map(|path| paths::normalize(path)).collect();
    let allowed = project.manifest.schemas.allow_outside_project;
    if let Some(outside) = imports
        .iter()
        .find(|import| !allowed && !paths::is_really_inside(import, project.root()))
    {
        return Err(ProjectError::new(format!(
            "schema `{}` imports `{}`, which is outside the project",
            entry.rel_path,
            paths::real(outside).display()
        ))
        .with_help("move the imported file into the project, or set `allow_outside_project = true` in `[schemas]` if reading it from there is intended"));
    }
    let warnings = output
        .schema
        .as_ref()
        .map(|schema| ignored_options(project, entry, schema))
        .unwrap_or_default();
    let warning_count = warnings.len() + output.diagnostics.iter().filter(|d| !d.is_error()).count();
    let built = match output.schema.take() {
        Some(schema) if !output.has_errors() => {
            let (mut locked, files) = build(project, entry, &schema, &mut output, &imports);
            locked.warnings = warning_count as u32;
            Some((locked, files))
        }
        _ => None,
    };
    Ok(Compiled {
        built,
        warnings,
        imports,
        report: SchemaReport {
            rel_path: entry.rel_path.clone(),
            sources: output.sources,
            diagnostics: output.diagnostics,
        },
    })
}

/// A compiled schema's files and its lockfile entry. Hashes are taken from the text the
/// compiler read, so an edit racing the sync cannot end up recorded as compiled.
fn build(
    project: &Project,
    entry: &SchemaEntry,
    schema: &blinkblox_schema::model::Schema,
    compiled: &mut codegen::Compiled,
    imports: &[PathBuf],
) -> (LockedSchema, Vec<OutputFile>) {
    let root = project.root();
    let folder = project.schema_folder(entry);
    let mut files = Vec::new();
    let mut outputs = Vec::new();
    for generated in std::mem::take(&mut compiled.files) {
        let path = project
            .folder_of(entry, generated.kind)
            .join(generated.kind.file_name());
        outputs.push(FileHash {
            path: project.rel(&path),
            sha256: lockfile::content_hash(generated.contents.as_bytes()),
        });
        files.push(OutputFile {
            path,
            contents: generated.contents,
            schema_folder: entry.out_rel.clone(),
        });
    }
    let hash_of = |path: &Path| {
        compiled
            .sources
            .files()
            .iter()
            .find(|file| paths::normalize(&file.path) == *path)
            .map(|file| lockfile::content_hash(file.text.as_bytes()))
            .or_else(|| lockfile::file_hash(path))
            .unwrap_or_default()
    };
    let mut imports: Vec<FileHash> = imports
        .iter()
        .map(|path| FileHash {
            path: paths::display_relative(path, root),
            sha256: hash_of(path),
        })
        .collect();
    imports.sort();
    imports.dedup();
    outputs.sort();
    let locked = LockedSchema {
        path: entry.rel_path.clone(),
        sha256: hash_of(&paths::normalize(&entry.path)),
        folder: project.rel(&folder),
        imports,
        outputs,
        options: compile::effective_options(&schema.options),
        warnings: 0,
    };
    (locked, files)
}

/// The new lockfile and every file to write. With a `[package]` table the Wally package's
/// hash is recorded too, so `--locked` notices a package change (a `[package]` Wally would
/// reject is an error, like any bad manifest value).
fn build_lockfile(project: &Project, compiled: Vec<Compiled>) -> Result<(Lockfile, Vec<OutputFile>), ProjectError> {
    let mut files = Vec::new();
    let mut schemas = Vec::new();
    for (locked, outputs) in compiled.into_iter().filter_map(|item| item.built) {
        schemas.push(locked);
        files.extend(outputs);
    }
    let package = crate::wally::record_for_sync(&project.manifest, &files)?.map(|record| LockedPackage {
        name: record.name,
        version: record.version,
        sha256: record.sha256,
    });
    let lock = Lockfile {
        compiler: lockfile::compiler_version(),
        manifest: lockfile::content_hash(project.manifest.text.as_bytes()),
        output: project.rel(&project.output_dir),
        server_output: project.server_output_rel(),
        rojo_project: project.locked_project_file(),
        package,
        schemas,
        intact: true,
    };
    Ok((lock, files))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("mkdir");
        for entry in std::fs::read_dir(from).expect("list") {
            let entry = entry.expect("entry");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("type").is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }

    /// Runs a sync of `manifest` that is stopped as its lockfile is about to be renamed into
    /// place: the staged lockfile stays, under the name of a process that is gone; its path.
    fn stop_before_the_lockfile(dir: &Path, manifest: Manifest) -> PathBuf {
        let left = dir.join(".blinkblox.lock.blinkblox-99999999.tmp");
        let stop_at_lockfile = |staged: &Path| {
            if staged
                .file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with(".blinkblox.lock."))
            {
                std::fs::copy(staged, &left).expect("keep the staged lockfile");
                return Err(std::io::Error::other("stopped"));
            }
            Ok(())
        };
        assert!(
            run_with(manifest, SyncFlags::default(), &stop_at_lockfile)
                .result
                .is_err()
        );
        left
    }

    /// A copy of the `basic` fixture project, synced once.
    fn synced_basic_project() -> (tempfile::TempDir, PathBuf) {
        let temp = tempfile::tempdir().expect("tempdir");
        let dir = temp.path().join("basic");
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/projects/basic"),
            &dir,
        );
        let manifest = Manifest::load(&dir.join("blinkblox.toml")).expect("manifest");
        run(manifest, SyncFlags::default()).result.expect("first sync");
        (temp, dir)
    }

    #[test]
    fn a_failed_rename_leaves_the_previous_outputs_and_lockfile_intact() {
        let (_temp, dir) = synced_basic_project();
        let load = || Manifest::load(&dir.join("blinkblox.toml")).expect("manifest");
        let server = dir.join("src/shared/Net/chat/Server.luau");
        let client = dir.join("src/shared/Net/chat/Client.luau");
        let old_client = std::fs::read_to_string(&client).expect("read");
        let old_lock = std::fs::read_to_string(dir.join("blinkblox.lock")).expect("read");

        let schema = dir.join("net/chat.blink");
        let edited = std::fs::read_to_string(&schema).expect("read")
            + "\nevent Whisper {\n    From: Client,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: string,\n}\n";
        std::fs::write(&schema, edited).expect("edit");

        // The first staged file (Server.luau) goes through; the crash hits the second.
        let renames = Cell::new(0);
        let crash_on_second = |_: &Path| {
            renames.set(renames.get() + 1);
            if renames.get() == 2 {
                Err(std::io::Error::other("disk full"))
            } else {
                Ok(())
            }
        };
        let failed = run_with(load(), SyncFlags::default(), &crash_on_second).result;
        match failed {
            Err(SyncError::Project(err)) => assert!(
                err.message.contains("Client.luau") && err.message.contains("disk full"),
                "{err}"
            ),
            other => panic!("expected a write error, got {other:?}"),
        }
        assert_eq!(
            std::fs::read_to_string(&client).expect("read"),
            old_client,
            "the previous output is intact"
        );
        assert!(std::fs::read_to_string(&server).expect("read").contains("Whisper"));
        assert_eq!(
            std::fs::read_to_string(dir.join("blinkblox.lock")).expect("read"),
            old_lock
        );
        let stray = || -> Vec<String> {
            walkdir::WalkDir::new(&dir)
                .into_iter()
                .filter_map(Result::ok)
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| name.ends_with(".tmp"))
                .collect()
        };
        // Only the new lockfile stays staged: it records the module renamed before the crash.
        assert_eq!(
            stray(),
            [format!(".blinkblox.lock.blinkblox-{}.tmp", std::process::id())],
            "temporary files left"
        );

        // --locked sees the half-done sync; a plain sync finishes it.
        let locked = run(
            load(),
            SyncFlags {
                locked: true,
                frozen: false,
            },
        )
        .result;
        assert!(matches!(locked, Err(SyncError::Locked { .. })), "{locked:?}");
        let outcome = run(load(), SyncFlags::default()).result.expect("recovering sync");
        assert_eq!(outcome.written, vec!["src/shared/Net/chat/Client.luau".to_string()]);
        // The fixture keeps its Server modules with the Client modules, which is a warning of
        // its own; nothing is said of the modules the stopped sync wrote.
        assert!(
            outcome.warnings.iter().all(|warning| !warning.contains("/chat/")),
            "{:?}",
            outcome.warnings
        );
        assert!(std::fs::read_to_string(&client).expect("read").contains("Whisper"));
        assert!(stray().is_empty(), "temporary files left: {:?}", stray());
    }

    /// A sync stopped after its modules were renamed into place but before its lockfile was
    /// leaves that lockfile staged under a temporary name. The next sync (of a schema changed
    /// again) reads it: the modules it finds are that sync's, not edited by hand.
    #[cfg(target_os = "linux")]
    #[test]
    fn modules_of_a_sync_stopped_before_its_lockfile_are_not_taken_for_hand_edits() {
        let (_temp, dir) = synced_basic_project();
        let load = || Manifest::load(&dir.join("blinkblox.toml")).expect("manifest");
        let schema = dir.join("net/chat.blink");
        let add = |name: &str| {
            let text = std::fs::read_to_string(&schema).expect("read")
                + &format!(
                    "\nevent {name} {{\n    From: Client,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: string,\n}}\n"
                );
            std::fs::write(&schema, text).expect("edit");
        };
        add("Whisper");
        let left = stop_before_the_lockfile(&dir, load());
        add("Shout");
        let outcome = run(load(), SyncFlags::default()).result.expect("next sync");
        let warnings = outcome.warnings.join("\n");
        assert!(!warnings.contains("edited by hand"), "{warnings}");
        assert!(
            warnings.contains(
                "`src/shared/Net/chat/Server.luau` was written by an earlier sync that was stopped before it finished"
            ),
            "{warnings}"
        );
        assert!(!left.exists(), "the staged lockfile is removed");
        run(
            load(),
            SyncFlags {
                locked: true,
                frozen: false,
            },
        )
        .result
        .expect("up to date");
    }

    #[test]
    fn modules_a_stopped_sync_wrote_for_a_schema_since_removed_are_removed() {
        let (_temp, dir) = synced_basic_project();
        let load = || Manifest::load(&dir.join("blinkblox.toml")).expect("manifest");
        let extra = dir.join("net/extra.blink");
        std::fs::write(
            &extra,
            "event Ping {\n    From: Client,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: u8,\n}\n",
        )
        .expect("a new schema");
        let left = stop_before_the_lockfile(&dir, load());
        let written = dir.join("src/shared/Net/extra/Server.luau");
        assert!(written.is_file(), "the stopped sync wrote the new schema's modules");
        // The schema goes before the next sync: its modules are sync's, and go with it.
        std::fs::remove_file(&extra).expect("remove the schema");
        let outcome = run(load(), SyncFlags::default()).result.expect("next sync");
        assert_eq!(
            outcome.removed,
            ["src/shared/Net/extra/Client.luau", "src/shared/Net/extra/Server.luau"],
            "{:?}",
            outcome.warnings
        );
        assert!(
            !dir.join("src/shared/Net/extra").exists(),
            "the emptied folder goes too"
        );
        assert!(!left.exists());
    }
}
