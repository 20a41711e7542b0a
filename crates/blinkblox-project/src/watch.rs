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
        .watch(&root, RecursiveMode::Recursive)
        .map_err(|err| ProjectError::new(format!("cannot watch `{}`: {err}", root.display())))?;
    let mut watched_outside: BTreeSet<PathBuf> = BTreeSet::new();

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
        // Imports may live outside the project folder: watch their folders too.
        for input in &state.inputs {
            if let Some(dir) = input.parent()
                && !paths::is_inside(dir, &root)
                && watched_outside.insert(dir.to_path_buf())
            {
                let _ = watcher.watch(dir, RecursiveMode::NonRecursive);
            }
        }
        wait_for_change(&events, &state);
    }
}

struct WatchState {
    manifest_path: PathBuf,
    root: PathBuf,
    inputs: BTreeSet<PathBuf>,
    globs: Option<SchemaGlobs>,
}

impl WatchState {
    fn is_relevant(&self, event: &Event) -> bool {
        let kind_matters = matches!(
            event.kind,
            EventKind::Create(_)
                | EventKind::Modify(_)
                | EventKind::Remove(_)
                | EventKind::Any
                | EventKind::Access(AccessKind::Close(AccessMode::Write))
        );
        kind_matters && event.paths.iter().any(|path| self.is_input(path))
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

/// Blocks until a relevant change, then until things have been quiet for [`DEBOUNCE`].
fn wait_for_change(events: &Receiver<notify::Result<Event>>, state: &WatchState) {
    loop {
        match events.recv() {
            Ok(Ok(event)) if state.is_relevant(&event) => break,
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
        match events.recv_timeout(DEBOUNCE) {
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => break,
        }
    }
}
