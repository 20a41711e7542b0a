//! Replacing files safely: atomically (a temporary file next to the target, flushed, then
//! renamed, so `rojo serve`, an editor and a crash never see half a file), through a
//! symbolic link to the file it leads to, with the replaced file's permissions and owner.
//! A read-only file, or one with other hard links, is refused rather than replaced. The
//! temporary files carry the writing process's id, so that a later run can tell those of a
//! run that was stopped ([`stale_temp_files`]) from those being written.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Called after the temporary file is complete and before it is renamed over the target.
/// Production code passes [`no_hook`]; tests inject failures here to simulate a crash or a
/// full disk at the worst moment.
pub type BeforeRename<'a> = &'a dyn Fn(&Path) -> io::Result<()>;

pub fn no_hook(_: &Path) -> io::Result<()> {
    Ok(())
}

/// The temporary file used while writing `path`: hidden, next to it (same file system, so
/// the rename is atomic), and unique to this process.
fn temp_path_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.blinkblox-{}{TEMP_SUFFIX}", std::process::id()))
}

const TEMP_SUFFIX: &str = ".tmp";

/// What the name of one of our temporary files, `.<name>.blinkblox-<pid>.tmp`, says: the
/// file it stands for and the process that wrote it.
fn parse_temp_name(name: &str) -> Option<(&str, u32)> {
    let inner = name.strip_prefix('.')?.strip_suffix(TEMP_SUFFIX)?;
    let (target, pid) = inner.rsplit_once(".blinkblox-")?;
    Some((target, pid.parse().ok()?))
}

/// The process a file name says wrote it, when it is one of our temporary files.
fn temp_file_owner(name: &str) -> Option<u32> {
    parse_temp_name(name).map(|(_, pid)| pid)
}

/// Whether process `pid` may still be writing. On Linux, whether it runs; elsewhere, a
/// temporary file younger than ten minutes is taken to be in use.
fn may_be_writing(pid: u32, path: &Path) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|modified| modified.elapsed().ok())
        .is_none_or(|age| age < std::time::Duration::from_secs(600))
}

/// Our temporary files that a write which never finished left in `folder` (and below it when
/// `recursive`): a sync killed between writing a module and renaming it into place.
pub fn stale_temp_files(folder: &Path, recursive: bool) -> Vec<PathBuf> {
    let walk = walkdir::WalkDir::new(folder)
        .max_depth(if recursive { usize::MAX } else { 1 })
        .follow_links(false)
        .sort_by_file_name();
    walk.into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy();
            temp_file_owner(&name).is_some_and(|pid| !may_be_writing(pid, entry.path()))
        })
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// Replaces the folder `folder` whole with `files` (`(path under the folder, contents)`):
/// they are written into a staging folder beside it, which is renamed into place once
/// complete, so the folder is never half-written, and a failure leaves the old one. Whoever calls this has checked that what
/// the folder holds is theirs to replace; a staging folder left by this process is replaced.
pub fn replace_folder<P: AsRef<Path>, C: AsRef<[u8]>>(
    folder: &Path,
    files: impl IntoIterator<Item = (P, C)>,
) -> Result<(), (PathBuf, io::Error)> {
    let staging = temp_path_for(folder);
    let result = (|| {
        if staging.exists() {
            std::fs::remove_dir_all(&staging).map_err(|err| (staging.clone(), err))?;
        }
        for (rel, contents) in files {
            let path = staging.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|err| (parent.to_path_buf(), err))?;
            }
            std::fs::write(&path, contents.as_ref()).map_err(|err| (path.clone(), err))?;
        }
        // The old folder is moved aside, not deleted, until the new one is in its place: a
        // rename that fails puts it back. A link in the folder's place is moved itself, and
        // then removed itself, never what it leads to.
        let aside = temp_path_for(&folder.with_extension("old"));
        let had_old = std::fs::symlink_metadata(folder).is_ok();
        if had_old {
            std::fs::rename(folder, &aside).map_err(|err| (folder.to_path_buf(), err))?;
        }
        if let Err(err) = std::fs::rename(&staging, folder) {
            if had_old {
                let _ = std::fs::rename(&aside, folder);
            }
            return Err((folder.to_path_buf(), err));
        }
        if had_old {
            std::fs::remove_dir_all(&aside).map_err(|err| (aside.clone(), err))?;
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Removes the temporary files a stopped write of one of `files` left beside it (those
/// [`stale_temp_files`] finds, named after one of them; another writer's, such as a staged
/// lockfile, are left for it); each with what removing it came to.
pub fn remove_stale_temp_files_of(files: &[PathBuf]) -> Vec<(PathBuf, io::Result<()>)> {
    let mut names_by_folder: std::collections::BTreeMap<PathBuf, Vec<String>> = std::collections::BTreeMap::new();
    for file in files {
        let folder = match file.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Some(name) = file.file_name() {
            names_by_folder
                .entry(folder)
                .or_default()
                .push(name.to_string_lossy().into_owned());
        }
    }
    let mut removed = Vec::new();
    for (folder, names) in names_by_folder {
        for stale in stale_temp_files(&folder, false) {
            let target = stale
                .file_name()
                .and_then(|name| temp_target_name(&name.to_string_lossy()).map(str::to_string));
            if target.is_some_and(|target| names.contains(&target)) {
                let result = std::fs::remove_file(&stale);
                removed.push((stale, result));
            }
        }
    }
    removed
}

/// The file a temporary file of ours stands for: `x.blink` for `.x.blink.blinkblox-7.tmp`.
pub fn temp_target_name(name: &str) -> Option<&str> {
    parse_temp_name(name).map(|(target, _)| target)
}

/// Writes `contents` to `path` atomically, creating parent folders.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_atomic_with(path, contents, &no_hook)
}

pub fn write_atomic_with(path: &Path, contents: &[u8], before_rename: BeforeRename<'_>) -> io::Result<()> {
    let staged = stage(&[(path, contents)]).map_err(|(_, err)| err)?;
    commit_all(staged, before_rename, |_| {}).map_err(|(_, err)| err)
}

/// A file written in full under its temporary name and flushed to the disk, waiting to be
/// renamed over its target ([`commit_all`]). Dropped unrenamed, its temporary file is removed.
#[derive(Debug)]
pub struct Staged {
    temp: PathBuf,
    path: PathBuf,
    committed: bool,
}

impl Staged {
    /// Leaves the file under its temporary name, unrenamed: what it says is kept for a
    /// later run to read (its name carries this process's id; once the process is gone it
    /// is one of [`stale_temp_files`]).
    pub fn keep(mut self) {
        self.committed = true;
    }

    /// Renames the file over its target, after `before_rename`. The rename is not flushed on
    /// its own: a power loss after it finds the old file or the new one, both complete.
    fn commit(mut self, before_rename: BeforeRename<'_>) -> io::Result<()> {
        before_rename(&self.temp)?;
        std::fs::rename(&self.temp, &self.path)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Writes each file under its temporary name next to its target (creating parent folders),
/// then flushes them all to the disk, each on its own thread so that the file system can
/// commit them together rather than one after another. Only flushed files are renamed over
/// the modules: a power loss must leave the old module or the new one, never an empty file
/// under the module's name. A failure names the file it happened to; the temporary files
/// are removed and nothing is renamed.
pub fn stage(files: &[(&Path, &[u8])]) -> Result<Vec<Staged>, (PathBuf, io::Error)> {
    let mut staged = Vec::with_capacity(files.len());
    let mut written = Vec::with_capacity(files.len());
    for &(path, contents) in files {
        let failed = |err| (path.to_path_buf(), err);
        let target = replaceable_target(path).map_err(failed)?;
        if let Some(parent) = target.path.parent() {
            std::fs::create_dir_all(parent).map_err(failed)?;
        }
        let temp = temp_path_for(&target.path);
        let mut file = create_temp(&temp).map_err(failed)?;
        staged.push(Staged {
            temp,
            path: target.path,
            committed: false,
        });
        if let Some(metadata) = &target.existing {
            keep_permissions_and_owner(&file, metadata).map_err(failed)?;
        }
        file.write_all(contents).map_err(failed)?;
        written.push(file);
    }
    for (result, file) in flush_together(&written).into_iter().zip(&staged) {
        result.map_err(|err| (file.path.clone(), err))?;
    }
    Ok(staged)
}

/// Creates the temporary file, new: whatever is at its name (a link someone put there, a
/// file of an earlier process with this id) is removed first, never written through.
fn create_temp(temp: &Path) -> io::Result<std::fs::File> {
    let create = || std::fs::File::options().write(true).create_new(true).open(temp);
    match create() {
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(temp)?;
            create()
        }
        other => other,
    }
}

/// The file a write to `path` replaces: through symbolic links, the file they lead to (the
/// links stay links); with its metadata when it exists.
struct Target {
    path: PathBuf,
    existing: Option<std::fs::Metadata>,
}

/// Where writing `path` lands, refusing what a rename over it would break: a read-only file
/// (its owner said not to change it) and a file with other hard links (the rename would
/// leave them holding the old contents, silently apart).
fn replaceable_target(path: &Path) -> io::Result<Target> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    let path = if is_link {
        crate::path::real(path)
    } else {
        path.to_path_buf()
    };
    let existing = match std::fs::metadata(&path) {
        Ok(metadata) => Some(metadata),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(err) => return Err(err),
    };
    if let Some(metadata) = &existing {
        if !metadata.is_file() {
            let kind = crate::read::file_kind(&metadata.file_type());
            return Err(io::Error::other(format!("it is {kind}, not a regular file")));
        }
        if metadata.permissions().readonly() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "it is read-only; make it writable (e.g. `chmod u+w`) to let blinkblox replace it",
            ));
        }
        if let Some(links) = other_hard_links(metadata) {
            return Err(io::Error::other(format!(
                "it has {links} other hard link{}, which replacing it would leave with the old contents; remove them or make it a copy first",
                if links == 1 { "" } else { "s" }
            )));
        }
    }
    Ok(Target { path, existing })
}

/// How many other names the file has, when it has any.
fn other_hard_links(metadata: &std::fs::Metadata) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let others = metadata.nlink().saturating_sub(1);
        if others > 0 {
            return Some(others);
        }
    }
    let _ = metadata;
    None
}

/// Gives the replacement the permissions of the file it replaces, and on Unix its owner and
/// group where this process may (a file of another user it could write stays theirs when
/// the system allows; otherwise it becomes this user's, as any editor's save would).
fn keep_permissions_and_owner(file: &std::fs::File, metadata: &std::fs::Metadata) -> io::Result<()> {
    file.set_permissions(metadata.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()));
    }
    Ok(())
}

/// Renames each staged file over its target in order ([`Staged::commit`]), telling
/// `committed` each path renamed; the first failure names its file, and the files after it
/// are not renamed (their temporary files are removed).
pub fn commit_all(
    staged: Vec<Staged>,
    before_rename: BeforeRename<'_>,
    mut committed: impl FnMut(&Path),
) -> Result<(), (PathBuf, io::Error)> {
    for file in staged {
        let path = file.path.clone();
        file.commit(before_rename).map_err(|err| (path.clone(), err))?;
        committed(&path);
    }
    Ok(())
}

/// Flushes every file to the disk at once, the first on this thread and each other on one of
/// its own (on this thread as well when no thread can be started); each file's result.
fn flush_together(files: &[std::fs::File]) -> Vec<io::Result<()>> {
    let Some((first, others)) = files.split_first() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let flushing: Vec<_> = others
            .iter()
            .map(|file| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || file.sync_all())
                    .map_err(|_| file)
            })
            .collect();
        let mut results = vec![first.sync_all()];
        for flush in flushing {
            results.push(match flush {
                Ok(thread) => thread
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("flushing the file to the disk failed"))),
                Err(file) => file.sync_all(),
            });
        }
        results
    })
}

/// Writes each `(path, contents)` atomically unless the file already holds exactly those
/// contents; for each file, whether it was written. An unchanged file keeps its modification
/// time, so `rojo serve` does not re-sync it. The changed files are staged and flushed
/// together ([`stage`]), then renamed in order: a failure before the renames writes none of
/// them, and names the file it happened to.
pub fn write_changed(files: &[(&Path, &[u8])]) -> Result<Vec<bool>, (PathBuf, io::Error)> {
    // Read as every file is read: a pipe or device there is not waited on (and is refused
    // when staged), and no more than the new contents' length is read.
    let changed: Vec<bool> = files
        .iter()
        .map(|(path, contents)| {
            !crate::read::read_file(path, contents.len() as u64).is_ok_and(|on_disk| on_disk == *contents)
        })
        .collect();
    let to_write: Vec<(&Path, &[u8])> = files
        .iter()
        .zip(&changed)
        .filter_map(|(file, changed)| changed.then_some(*file))
        .collect();
    commit_all(stage(&to_write)?, &no_hook, |_| {})?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    #[test]
    fn temporary_files_of_processes_gone_are_stale() {
        let dir = tempfile::tempdir().expect("tempdir");
        let ours = super::temp_path_for(&dir.path().join("Server.luau"));
        std::fs::write(&ours, "x").expect("write");
        // No process has this id (above Linux's pid_max).
        let gone = dir.path().join("sub/.Client.luau.blinkblox-99999999.tmp");
        std::fs::create_dir_all(gone.parent().expect("parent")).expect("mkdir");
        std::fs::write(&gone, "x").expect("write");
        std::fs::write(dir.path().join(".notes.tmp"), "x").expect("write");
        std::fs::write(dir.path().join("x.blinkblox-1.tmp"), "x").expect("write");
        assert_eq!(super::temp_file_owner(".Server.luau.blinkblox-42.tmp"), Some(42));
        assert_eq!(super::temp_file_owner(".a.b.blinkblox-7.tmp"), Some(7));
        assert_eq!(super::temp_file_owner("Server.luau"), None);
        if cfg!(target_os = "linux") {
            assert_eq!(super::stale_temp_files(dir.path(), true), vec![gone.clone()]);
            assert!(super::stale_temp_files(dir.path(), false).is_empty());
        }
    }

    #[test]
    fn an_identical_output_is_left_alone_and_a_different_one_rewritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("out").join("Server.luau");
        let write = |contents: &[u8]| write_changed(&[(&path, contents)]).expect("write")[0];
        assert!(write(b"return 1\n"), "a new file is written");
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|file| file.set_modified(old))
            .expect("set mtime");
        assert!(!write(b"return 1\n"), "the same bytes are not rewritten");
        let modified = std::fs::metadata(&path)
            .and_then(|meta| meta.modified())
            .expect("mtime");
        assert_eq!(modified, old, "an unchanged output keeps its modification time");
        assert!(write(b"return 2\n"));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "return 2\n");
        // A longer file that starts with the new contents is not mistaken for them.
        assert!(write(b"return"));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "return");
    }

    #[test]
    fn files_written_together_change_none_when_one_cannot_be_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let server = dir.path().join("out/Server.luau");
        let client = dir.path().join("blocked/Client.luau");
        write_atomic(&server, b"-- version 1\n").expect("first write");
        // A file where the client's folder would go: its folder cannot be created.
        std::fs::write(dir.path().join("blocked"), "not a folder").expect("block");
        let (failed, _) = write_changed(&[(&server, b"-- version 2\n"), (&client, b"-- client\n")]).unwrap_err();
        assert_eq!(failed, client, "the error names the file it happened to");
        assert_eq!(std::fs::read_to_string(&server).expect("read"), "-- version 1\n");
        let left: Vec<_> = std::fs::read_dir(dir.path().join("out"))
            .expect("list")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(left, ["Server.luau"], "no temporary file is left");

        std::fs::remove_file(dir.path().join("blocked")).expect("unblock");
        let written = write_changed(&[(&server, b"-- version 2\n"), (&client, b"-- client\n")]).expect("write");
        assert_eq!(written, [true, true]);
        assert_eq!(std::fs::read_to_string(&client).expect("read"), "-- client\n");
    }

    use super::*;

    #[test]
    fn failure_between_write_and_rename_keeps_the_previous_file() {
        let temp = tempfile::tempdir().expect("tempdir");
        let target = temp.path().join("Net/combat/Server.luau");
        write_atomic(&target, b"-- version 1\n").expect("first write");

        let crash = |staged: &Path| {
            // The new content is fully staged next to the target when the failure hits.
            assert_eq!(std::fs::read(staged).expect("staged"), b"-- version 2\n");
            Err(io::Error::other("simulated crash before rename"))
        };
        let err = write_atomic_with(&target, b"-- version 2\n", &crash).unwrap_err();
        assert_eq!(err.to_string(), "simulated crash before rename");
        assert_eq!(std::fs::read(&target).expect("read"), b"-- version 1\n");
        let leftovers: Vec<_> = std::fs::read_dir(target.parent().expect("parent"))
            .expect("list")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(
            leftovers,
            vec![std::ffi::OsString::from("Server.luau")],
            "no temporary file is left behind"
        );

        write_atomic(&target, b"-- version 2\n").expect("second write");
        assert_eq!(std::fs::read(&target).expect("read"), b"-- version 2\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_link_stays_a_link() {
        use std::os::unix::fs::PermissionsExt as _;
        let temp = tempfile::tempdir().expect("tempdir");
        let file = temp.path().join("net.blink");
        std::fs::write(&file, "old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write_atomic(&file, b"new").expect("replace");
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the mode is kept");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        write_atomic(&file, b"newer").expect("replace");
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o755, "the execute bits are kept");

        let link = temp.path().join("link.blink");
        std::os::unix::fs::symlink("net.blink", &link).expect("symlink");
        write_atomic(&link, b"through the link").expect("write through");
        assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
        assert_eq!(std::fs::read(&file).expect("read"), b"through the link");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_temporary_name_is_never_written_through() {
        let temp = tempfile::tempdir().expect("tempdir");
        let victim = temp.path().join("victim");
        std::fs::write(&victim, "keep").expect("write");
        let file = temp.path().join("net.blink");
        std::os::unix::fs::symlink(&victim, temp_path_for(&file)).expect("symlink");
        write_atomic(&file, b"new").expect("write");
        assert_eq!(std::fs::read(&file).expect("read"), b"new");
        assert_eq!(std::fs::read(&victim).expect("read"), b"keep");
    }

    #[cfg(unix)]
    #[test]
    fn read_only_and_hard_linked_files_are_refused_and_left_alone() {
        use std::os::unix::fs::PermissionsExt as _;
        let temp = tempfile::tempdir().expect("tempdir");
        let file = temp.path().join("net.blink");
        std::fs::write(&file, "old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        let err = write_atomic(&file, b"new").unwrap_err();
        assert!(err.to_string().contains("read-only"), "{err}");
        assert_eq!(std::fs::read(&file).expect("read"), b"old");

        let shared = temp.path().join("shared.blink");
        std::fs::write(&shared, "old").expect("write");
        std::fs::hard_link(&shared, temp.path().join("other.blink")).expect("hard link");
        let err = write_atomic(&shared, b"new").unwrap_err();
        assert!(err.to_string().contains("1 other hard link"), "{err}");
        assert_eq!(std::fs::read(temp.path().join("other.blink")).expect("read"), b"old");
    }
}
