//! The `blinkblox.toml` a schema belongs to (found walking up from its folder, as `check`
//! and `sync` find it): its `[options]` become the defaults the schema is checked with,
//! and a manifest that does not load is reported on the manifest itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use blinkblox_project::ProjectError;
use blinkblox_project::manifest::Manifest;
use blinkblox_project::project_schemas::ProjectSchemas;
use blinkblox_schema::CheckSettings;
use blinkblox_schema::loader::normalize;

/// A manifest and what it says, or why it could not be read.
#[derive(Debug)]
pub struct Project {
    pub manifest_path: PathBuf,
    /// The manifest's text as read (for placing its errors).
    pub text: String,
    /// Its schemas as `sync` and `check` see them.
    pub loaded: Result<ProjectSchemas, ProjectError>,
}

impl Project {
    fn load(manifest_path: &Path) -> Project {
        let text = blinkblox_project::read_text(manifest_path)
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let names_from = manifest_path.parent().unwrap_or(Path::new(""));
        Project {
            manifest_path: manifest_path.to_path_buf(),
            text,
            loaded: ProjectSchemas::load(manifest_path, names_from),
        }
    }

    /// The settings `sync` compiles the schema at `path` with.
    pub fn settings_for(&self, path: &Path) -> CheckSettings {
        match &self.loaded {
            Ok(schemas) => schemas.settings_for(path),
            Err(_) => CheckSettings::default(),
        }
    }

    pub fn problem(&self) -> Option<&ProjectError> {
        self.loaded.as_ref().err()
    }

    /// Every schema the manifest lists.
    pub fn schema_paths(&self) -> Vec<PathBuf> {
        match &self.loaded {
            Ok(schemas) => schemas.paths(),
            Err(_) => Vec::new(),
        }
    }
}

/// Manifests read so far, reread when they change on disk.
#[derive(Debug, Default)]
pub struct Projects {
    loaded: HashMap<PathBuf, (Option<SystemTime>, u64, Arc<Project>)>,
}

impl Projects {
    /// The project of the schema at `path`, if it is inside one.
    pub fn for_file(&mut self, path: &Path) -> Option<Arc<Project>> {
        let manifest_path = normalize(&Manifest::find(path.parent()?)?);
        let metadata = std::fs::metadata(&manifest_path).ok();
        let stamp = (
            metadata.as_ref().and_then(|m| m.modified().ok()),
            metadata.as_ref().map_or(0, |m| m.len()),
        );
        if let Some((modified, len, project)) = self.loaded.get(&manifest_path)
            && (*modified, *len) == stamp
            && modified.is_some()
        {
            return Some(Arc::clone(project));
        }
        let project = Arc::new(Project::load(&manifest_path));
        self.loaded
            .insert(manifest_path, (stamp.0, stamp.1, Arc::clone(&project)));
        Some(project)
    }

    /// Forgets every manifest (files changed on disk).
    pub fn invalidate(&mut self) {
        self.loaded.clear();
    }
}
