//! `blinkblox package`: sync, then write the generated modules as a Wally package (folder and
//! zip) and/or a pesde package (folder), as `[package] formats` asks, built by
//! `blinkblox-package` from the modules the lockfile records.

use std::path::{Path, PathBuf};

use blinkblox_package::{PackageFiles, PackageSpec, SchemaModules, archive, build, layout};

use crate::lockfile::{self, Lockfile};
use crate::manifest::Manifest;
use crate::sync::{self, SyncError, SyncFlags, SyncOutcome};
use crate::wally::{package_error, sorted, spec_of};
use crate::{ProjectError, paths, writer};

/// Where the package goes when `--output` is not given, relative to the manifest.
pub const DEFAULT_OUTPUT: &str = "dist";

/// The modules the lockfile records, read back from disk. A file that differs from its
/// recorded hash means the tree changed since the sync: an error, never a silent mix.
pub fn schemas_from_lockfile(root: &Path, lock: &Lockfile) -> Result<Vec<SchemaModules>, ProjectError> {
    let output = lock.output.trim_end_matches('/');
    let mut schemas = Vec::new();
    for schema in &lock.schemas {
        let folder = if output.is_empty() || output == "." {
            schema.folder.clone()
        } else {
            match schema
                .folder
                .strip_prefix(output)
                .and_then(|rest| rest.strip_prefix('/'))
            {
                Some(rest) => rest.to_string(),
                None => {
                    return Err(ProjectError::new(format!(
                        "blinkblox.lock: the schema folder `{}` is not inside the output `{}`",
                        schema.folder, lock.output
                    ))
                    .with_help("run `blinkblox sync` to rewrite the lockfile"));
                }
            }
        };
        let mut files = Vec::new();
        for output_file in &schema.outputs {
            let Some(name) = output_file.path.rsplit('/').next() else {
                continue;
            };
            let path = root.join(&output_file.path);
            let bytes = blinkblox_fs::read::read_file(&path, lockfile::MAX_HASHED_BYTES)
                .map_err(|err| ProjectError::new(format!("could not read `{}`: {err}", path.display())))?;
            if lockfile::content_hash(&bytes) != output_file.sha256 {
                return Err(ProjectError::new(format!(
                    "`{}` changed after `blinkblox sync` wrote it",
                    output_file.path
                ))
                .with_help("run `blinkblox package` again (it syncs first), and do not edit generated modules"));
            }
            files.push((name.to_string(), bytes));
        }
        schemas.push(sorted(SchemaModules { folder, files }));
    }
    Ok(schemas)
}

/// `blinkblox package` options.
#[derive(Debug, Clone, Default)]
pub struct PackageOptions {
    /// Folder for the package folder and zip; `None` means `<manifest folder>/dist`.
    pub output: Option<PathBuf>,
    /// Sync with `--locked`: fail instead of changing generated files or the lockfile.
    pub locked: bool,
}

/// What `blinkblox package` wrote.
#[derive(Debug)]
pub struct PackageOutcome {
    pub sync: SyncOutcome,
    pub spec: PackageSpec,
    /// The Wally package, when `[package] formats` lists it (the default).
    pub wally: Option<WallyOutput>,
    /// The pesde package, when `[package] formats` lists it.
    pub pesde: Option<PesdeOutput>,
    pub schema_count: usize,
}

#[derive(Debug)]
pub struct WallyOutput {
    /// `<output>/<scope>_<name>@<version>/`.
    pub folder: PathBuf,
    /// `<output>/<scope>_<name>@<version>.zip`.
    pub zip_path: PathBuf,
    pub zip_len: usize,
    pub zip_sha256: String,
    /// Files in the package folder.
    pub file_count: usize,
}

#[derive(Debug)]
pub struct PesdeOutput {
    /// The pesde `scope/name`.
    pub name: String,
    /// `<output>/<scope>+<name>@<version>/`.
    pub folder: PathBuf,
    /// Files in the package folder.
    pub file_count: usize,
}

#[derive(Debug)]
pub enum PackageError {
    /// The sync before packaging failed.
    Sync(SyncError),
    Project(ProjectError),
}

impl From<ProjectError> for PackageError {
    fn from(err: ProjectError) -> PackageError {
        PackageError::Project(err)
    }
}

/// Syncs, then writes the package folder and zip. `[package]` is checked before the sync,
/// so a bad name writes nothing.
pub fn package(manifest: Manifest, options: &PackageOptions) -> Result<PackageOutcome, PackageError> {
    let spec = spec_of(&manifest)?;
    let root = manifest.root.clone();
    let output = options
        .output
        .clone()
        .map(|dir| paths::normalize(&dir))
        .unwrap_or_else(|| root.join(DEFAULT_OUTPUT));
    writer::ensure_folder_not_in_packages(&output, &root)?;

    let flags = SyncFlags {
        locked: options.locked,
        frozen: false,
    };
    let synced = sync::run(manifest, flags).result.map_err(PackageError::Sync)?;

    let lock_path = root.join(lockfile::LOCKFILE_NAME);
    let Some(lock) = Lockfile::read(&lock_path)? else {
        return Err(ProjectError::new(format!("`{}` is missing after the sync", lock_path.display())).into());
    };
    let schemas = schemas_from_lockfile(&root, &lock)?;
    let built = build(&spec, &schemas).map_err(|message| package_error(&spec, message))?;
    // The sync recorded the zip these sources make; any other bytes would mean the build
    // is not reproducible, and a published package could not be checked against the lock.
    if let Some(recorded) = &lock.package
        && (recorded.name != spec.full_name()
            || recorded.version != spec.version
            || recorded.sha256 != built.zip_sha256())
    {
        return Err(ProjectError::new(format!(
            "blinkblox.lock records the package {} {} with zip sha256 {}, but the zip built now is {} {} with sha256 {}",
            recorded.name,
            recorded.version,
            recorded.sha256,
            spec.full_name(),
            spec.version,
            built.zip_sha256()
        ))
        .with_help("run `blinkblox sync` to refresh the lockfile; if this persists, please report it as a bug")
        .into());
    }
    if spec.wally {
        archive::check_size(built.zip.len(), &built.files).map_err(|message| {
            package_error(&spec, message).with_help(
                "split the schemas into several packages, or leave files out with `[package] exclude = [\"…\"]`",
            )
        })?;
    }

    // Both packages are built, and both folders checked, before either is written: a
    // failure writes neither.
    let pesde = blinkblox_package::pesde::build(&spec, &schemas).map_err(|message| package_error(&spec, message))?;
    let wally_folder = output.join(built.folder_name());
    if spec.wally {
        check_folder(&wally_folder, Manager::Wally)?;
    }
    if let Some(package) = &pesde {
        check_folder(&output.join(package.folder_name()), Manager::Pesde)?;
    }

    let wally = if spec.wally {
        let zip_path = output.join(built.zip_name());
        write_folder(&wally_folder, &built.files)?;
        writer::write_atomic(&zip_path, &built.zip).map_err(|err| ProjectError::io("write", &zip_path, &err))?;
        Some(WallyOutput {
            zip_len: built.zip.len(),
            zip_sha256: built.zip_sha256(),
            file_count: built.files.len(),
            folder: wally_folder,
            zip_path,
        })
    } else {
        None
    };
    let pesde = match pesde {
        Some(package) => {
            let folder = output.join(package.folder_name());
            write_folder(&folder, &package.files)?;
            Some(PesdeOutput {
                name: package.name.to_string(),
                folder,
                file_count: package.files.len(),
            })
        }
        None => None,
    };
    Ok(PackageOutcome {
        sync: synced,
        schema_count: schemas.len(),
        spec,
        wally,
        pesde,
    })
}

/// The package manager a package folder is for: it names the manifest that marks the
/// folder as one `blinkblox package` wrote, and the files its tools leave there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    Wally,
    Pesde,
}

impl Manager {
    fn manifest(self) -> &'static str {
        match self {
            Manager::Wally => "wally.toml",
            Manager::Pesde => "pesde.toml",
        }
    }

    /// Whether `rel` is a file the manager's own commands write in the package folder
    /// (`pesde install`, which `pesde publish` needs first, writes its lockfile and
    /// packages there; `pesde publish --dry-run` writes the archive it would upload).
    fn writes(self, rel: &str) -> bool {
        match self {
            Manager::Wally => false,
            Manager::Pesde => {
                rel == "pesde.lock"
                    || rel == "package.tar.gz"
                    || rel.starts_with("roblox_packages/")
                    || rel.starts_with("roblox_server_packages/")
            }
        }
    }
}

/// Whether an existing package folder may be replaced: only when it holds the manager's
/// manifest (a package this command wrote) and no file but those this command names
/// (`is_package_file`) or the manager's tools write: the modules of a schema since removed
/// go, anything put there by hand stops it, with an error naming the files.
fn check_folder(folder: &Path, manager: Manager) -> Result<(), ProjectError> {
    if folder.exists() && !folder.join(manager.manifest()).is_file() {
        return Err(ProjectError::new(format!(
            "refusing to replace `{}`: it exists and is not a package folder (no {})",
            folder.display(),
            manager.manifest()
        ))
        .with_help("move it away, or pass `--output <empty folder>`"));
    }
    if folder.exists() {
        let foreign: Vec<String> = files_in(folder)?
            .into_iter()
            .filter(|rel| !is_package_file(folder, rel) && !manager.writes(rel))
            .collect();
        if !foreign.is_empty() {
            let shown: Vec<String> = foreign.iter().take(5).map(|rel| format!("`{rel}`")).collect();
            let more = if foreign.len() > 5 {
                format!(" and {} more", foreign.len() - 5)
            } else {
                String::new()
            };
            return Err(ProjectError::new(format!(
                "refusing to replace `{}`: it holds {}{more}, which blinkblox package did not write",
                folder.display(),
                shown.join(", ")
            ))
            .with_help("move those files out: the package folder is rewritten whole on every `blinkblox package`"));
        }
    }
    Ok(())
}

/// Replaces the package folder with `files` (after `check_folder`), never half-written
/// (`blinkblox_fs::write::replace_folder`).
fn write_folder(folder: &Path, files: &PackageFiles) -> Result<(), ProjectError> {
    blinkblox_fs::write::replace_folder(folder, files).map_err(|(path, err)| ProjectError::io("write", &path, &err))
}

/// Whether `rel` is one of a package folder's own files: `wally.toml`,
/// `default.project.json`, `pesde.toml`, `src/init.luau`, a file the operating system leaves in folders it
/// shows, or a schema's `Server`/`Client`/`Types` module under `src/` that carries the banner
/// every generated module opens with. The banner is read because a module's name alone does
/// not say who wrote it: `src/tools/Server.luau` may be somebody's own code.
fn is_package_file(folder: &Path, rel: &str) -> bool {
    if archive::REQUIRED_FILES.contains(&rel) || rel == "pesde.toml" {
        return true;
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if matches!(name, ".DS_Store" | "Thumbs.db" | "desktop.ini") {
        return true;
    }
    let module = name
        .strip_suffix(".luau")
        .is_some_and(|side| layout::SIDES.contains(&side));
    module
        && rel.strip_prefix("src/").is_some_and(|inside| inside.contains('/'))
        && has_generated_banner(&folder.join(rel))
}

/// Whether the file at `path` opens (within its first lines) with the banner BlinkBlox
/// writes into every module (`module::is_banner`).
fn has_generated_banner(path: &Path) -> bool {
    use std::io::Read as _;
    let mut opening = Vec::with_capacity(1024);
    let read = std::fs::File::open(path).and_then(|file| file.take(1024).read_to_end(&mut opening));
    read.is_ok()
        && String::from_utf8_lossy(&opening)
            .lines()
            .take(12)
            .any(blinkblox_codegen::luau::banner::is_banner)
}

/// Every file below `folder`, `/`-separated and relative to it. A part that cannot be read
/// is an error: what it holds cannot be told to be the package's.
fn files_in(folder: &Path) -> Result<Vec<String>, ProjectError> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(folder) {
        let entry = entry.map_err(|err| {
            let path = err.path().unwrap_or(folder).to_path_buf();
            ProjectError::new(format!(
                "could not read `{}` to replace the package folder: {err}",
                path.display()
            ))
            .with_help("check its permissions, or move the package folder away")
        })?;
        if entry.file_type().is_file()
            && let Some(rel) = paths::relative_to(entry.path(), folder)
        {
            files.push(paths::slash(&rel));
        }
    }
    Ok(files)
}
