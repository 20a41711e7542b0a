//! `blinkblox sync --watch`: sync, then sync again whenever the manifest, the Rojo project
//! file, a schema or one of its imports changes. Changes are debounced (an editor's save is
//! often several events), errors are reported and the loop keeps going.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecursiveMode, Watcher};

use crate::manifest::{MANIFEST_NAME, Manifest, SchemaGlobs};
use crate::sync::{self, SyncFlags, SyncRun};
use crate::{ProjectError, paths, schemas};

/// Quiet time after the last relevant event before rebuilding.
const DEBOUNCE: Duration = Duration::from_millis(120);
/// A burst of events never delays a rebuild by more than this.
const MAX_DELAY: Duration = Duration::from_millis(1000);

/// One rebuild, as the watcher reports it.
pub enum Rebuild<'a> {
    /// The manifest could not be loaded.
    Manifest(&'a ProjectError),
    Synced(&'a SyncRun),
}

/// Watches until the process is stopped. `report` is called after every rebuild with how
/// long it took. Fails only when the file system cannot be watched at all.
pub fn watch(
    manifest_path: &Path,
    flags: SyncFlags,
    mut report: impl FnMut(Rebuild<'_>, Duration),
) -> Result<(), ProjectError> {
    let manifest_path = paths::normalize(manifest_path);
    let root = manifest_path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut files = FileWatch::new(&root)?;
    let mut state = WatchState {
        manifest_path: manifest_path.clone(),
        root: root.clone(),
        inputs: BTreeSet::new(),
        globs: None,
    };
    loop {
        let started = Instant::now();
        match Manifest::load(&manifest_path) {
            Err(err) => {
                state.inputs = BTreeSet::from([manifest_path.clone()]);
                report(Rebuild::Manifest(&err), started.elapsed());
            }
            Ok(manifest) => {
                state.globs = Some(manifest.schemas.clone());
                let run = sync::run(manifest, flags);
                state.inputs = run.inputs.clone();
                report(Rebuild::Synced(&run), started.elapsed());
            }
        }
        files.follow(&state.inputs);
        files.wait_for_change(|event| state.is_relevant(event));
    }
}

/// `blinkblox compile --watch`: runs `rebuild` (which returns the files it read), then again
/// whenever one of them changes, until the process is stopped.
pub fn watch_files(folder: &Path, mut rebuild: impl FnMut() -> BTreeSet<PathBuf>) -> Result<(), ProjectError> {
    let mut files = FileWatch::new(folder)?;
    loop {
        let inputs: BTreeSet<PathBuf> = rebuild().iter().map(|path| paths::normalize(path)).collect();
        files.follow(&inputs);
        files.wait_for_change(|event| {
            changes_content(event) && event.paths.iter().any(|path| inputs.contains(&paths::normalize(path)))
        });
    }
}

/// A recursive watch of one folder, and of the folders of inputs found outside it.
struct FileWatch {
    root: PathBuf,
    watcher: Box<dyn Watcher>,
    events: Receiver<notify::Result<Event>>,
    watched_outside: BTreeSet<PathBuf>,
}

impl FileWatch {
    fn new(root: &Path) -> Result<FileWatch, ProjectError> {
        let (sender, events) = mpsc::channel();
        let mut watcher: Box<dyn Watcher> = match notify::recommended_watcher(sender.clone()) {
            Ok(watcher) => Box::new(watcher),
            Err(_) => Box::new(
                notify::PollWatcher::new(
                    sender,
                    notify::Config::default().with_poll_interval(Duration::from_millis(200)),
                )
                .map_err(|err| ProjectError::new(format!("cannot watch `{}`: {err}", root.display())))?,
            ),
        };
        watcher
            .watch(root, RecursiveMode::Recursive)
            .map_err(|err| ProjectError::new(format!("cannot watch `{}`: {err}", root.display())))?;
        Ok(FileWatch {
            root: root.to_path_buf(),
            watcher,
            events,
            watched_outside: BTreeSet::new(),
        })
    }

    /// Imports may live outside the watched folder: watch their folders too.
    fn follow(&mut self, inputs: &BTreeSet<PathBuf>) {
        for input in inputs {
            if let Some(dir) = input.parent()
                && !paths::is_inside(dir, &self.root)
                && self.watched_outside.insert(dir.to_path_buf())
            {
                let _ = self.watcher.watch(dir, RecursiveMode::NonRecursive);
            }
        }
    }

    /// Blocks until a relevant change, then until things have been quiet for [`DEBOUNCE`].
    fn wait_for_change(&self, is_relevant: impl Fn(&Event) -> bool) {
        loop {
            match self.events.recv() {
                Ok(Ok(event)) if is_relevant(&event) => break,
                Ok(_) => {}
                // The watcher is gone: nothing more will ever arrive, so stop waiting forever
                // on a dead channel and poll instead.
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(500));
                    return;
                }
            }
        }
        let first = Instant::now();
        while first.elapsed() < MAX_DELAY {
            match self.events.recv_timeout(DEBOUNCE) {
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }
}

/// Whether an event can change what a file holds.
fn changes_content(event: &Event) -> bool {
    matches!(
        event.kind,
        EventKind::Create(_)
            | EventKind::Modify(_)
            | EventKind::Remove(_)
            | EventKind::Any
            | EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

struct WatchState {
    manifest_path: PathBuf,
    root: PathBuf,
    inputs: BTreeSet<PathBuf>,
    globs: Option<SchemaGlobs>,
}

impl WatchState {
    fn is_relevant(&self, event: &Event) -> bool {
        changes_content(event) && event.paths.iter().any(|path| self.is_input(path))
    }

    fn is_input(&self, path: &Path) -> bool {
        let path = paths::normalize(path);
        if path == self.manifest_path || self.inputs.contains(&path) {
            return true;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name == MANIFEST_NAME || name.ends_with(".project.json") || name.ends_with(".project.jsonc") {
            return true;
        }
        match (&self.globs, paths::relative_to(&path, &self.root)) {
            (Some(globs), Some(rel)) => schemas::would_include(globs, &paths::slash(&rel)),
            _ => name.ends_with(".blink"),
        }
    }
}
