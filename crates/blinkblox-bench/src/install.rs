//! `blinkblox bench --download`: every selected tool resolved (or taken from the lock),
//! downloaded, verified, unpacked, patched and moved into `benchmark/tools/<name>/`, then the
//! lock updated.
//!
//! All work for a tool happens in `benchmark/tools/.staging-<pid>/`; only a tool that passed
//! every step is renamed into place, and the staging folder is removed on the way out whatever
//! happened. A failing tool therefore leaves its previous install (if any) and the lock entry
//! that describes it untouched, while the other tools still install.

use crate::progress;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::download::{Http, HttpOptions};
use super::lock::{Lock, LockedTool, write_atomically};
use super::patch::apply_patches;
use super::resolve::{self, Endpoints, Layout, Resolved};
use super::staging::{RunLock, Staging, remove_stale_staging};
use super::tools::{Source, Tool, ToolsFile};
use super::unpack::{self, ArchiveKind};
use super::{BenchError, platform_label};

/// The file inside each installed tool folder that says where its contents came from, for the
/// harness (which reports every tool's version) and for people.
pub const ORIGIN_FILE: &str = ".blinkblox-origin.toml";

#[derive(Debug, Clone, Default)]
pub struct DownloadOptions {
    /// Re-resolve every selected tool instead of fetching what the lock names.
    pub update: bool,
    /// `--tools`: only these (all when empty).
    pub only: Vec<String>,
    /// `--source NAME=PATH`: take these tools from local folders.
    pub sources: Vec<(String, PathBuf)>,
    pub endpoints: Endpoints,
    pub http: HttpOptions,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Fetched and installed; `verified` when the lock named it and the sha256 matched.
    Downloaded {
        version: String,
        bytes: u64,
        sha256: String,
        verified: bool,
    },
    /// Copied from a local folder (`--source`, or a `path` tool with patches), not locked.
    Copied { from: PathBuf },
    /// A `path` tool without patches: used where it is.
    InPlace { path: PathBuf },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    pub name: String,
    pub outcome: Outcome,
}

#[derive(Debug, Default)]
pub struct DownloadReport {
    pub done: Vec<ToolOutcome>,
    pub failures: Vec<BenchError>,
    pub lock_written: bool,
}

/// Where `benchmark/`'s files are.
#[derive(Debug, Clone)]
pub struct BenchPaths {
    pub tools_toml: PathBuf,
    pub lock: PathBuf,
    pub tools_dir: PathBuf,
}

impl BenchPaths {
    pub fn new(bench_dir: &Path) -> BenchPaths {
        BenchPaths {
            tools_toml: bench_dir.join("tools.toml"),
            lock: bench_dir.join("tools.lock"),
            tools_dir: bench_dir.join("tools"),
        }
    }
}

/// Runs `--download`. An `Err` means nothing was attempted (bad tools.toml, lock or options);
/// per-tool failures are in the report.
pub fn download(bench_dir: &Path, options: &DownloadOptions) -> Result<DownloadReport, BenchError> {
    let paths = BenchPaths::new(bench_dir);
    let tools = ToolsFile::read(&paths.tools_toml)?;
    let selected = select(&tools, options)?;
    let old_lock = Lock::read(&paths.lock)?;
    let http = Http::new(options.http.clone())?;
    let created_tools_dir = !paths.tools_dir.exists();
    fs::create_dir_all(&paths.tools_dir).map_err(|err| BenchError::io("create", &paths.tools_dir, &err))?;
    let _running = RunLock::take(&paths.tools_dir)?;
    remove_stale_staging(&paths.tools_dir);
    let staging = Staging::create(&paths.tools_dir)?;

    let mut lock = old_lock.clone().unwrap_or_default();
    let mut report = DownloadReport::default();
    for tool in selected {
        let source_override = options
            .sources
            .iter()
            .find(|(name, _)| *name == tool.name)
            .map(|(_, path)| path);
        let job = Job {
            tool,
            tools: &tools,
            paths: &paths,
            staging: &staging.path,
            http: &http,
            options,
        };
        match job.run(source_override, old_lock.as_ref()) {
            Ok((outcome, locked)) => {
                if let Some(locked) = locked {
                    lock.upsert(locked);
                }
                report.done.push(ToolOutcome {
                    name: tool.name.clone(),
                    outcome,
                });
            }
            Err(err) => {
                let err = if err.message.starts_with("tool `") {
                    err
                } else {
                    BenchError {
                        message: format!("tool `{}`: {}", tool.name, err.message),
                        ..err
                    }
                };
                progress::error(&err);
                report.failures.push(err);
            }
        }
    }
    drop(staging);
    if created_tools_dir {
        // Nothing installed (every tool failed, or all are used in place): leave no empty folder.
        let _ = fs::remove_dir(&paths.tools_dir);
    }
    if options.only.is_empty() {
        // A full download drops the entries of tools no longer declared.
        lock.tools.retain(|entry| tools.tool(&entry.name).is_some());
    }
    if old_lock.as_ref() != Some(&lock) && !(old_lock.is_none() && lock.tools.is_empty()) {
        lock.write(&paths.lock)?;
        report.lock_written = true;
    }
    Ok(report)
}

/// The tools `--tools` selects, after checking every name `--tools` and `--source` use.
fn select<'a>(tools: &'a ToolsFile, options: &DownloadOptions) -> Result<Vec<&'a Tool>, BenchError> {
    let known = tools.names().join(", ");
    let unknown = |name: &str, flag: &str| {
        BenchError::new(format!(
            "unknown tool `{name}` in {flag}; {} declares: {known}",
            tools.path.display()
        ))
    };
    for name in &options.only {
        if tools.tool(name).is_none() {
            return Err(unknown(name, "--tools"));
        }
    }
    for (name, path) in &options.sources {
        if tools.tool(name).is_none() {
            return Err(unknown(name, "--source"));
        }
        if !path.is_dir() {
            return Err(BenchError::new(format!(
                "--source {name}={}: there is no folder there",
                path.display()
            )));
        }
    }
    Ok(tools
        .tools
        .iter()
        .filter(|tool| options.only.is_empty() || options.only.contains(&tool.name))
        .collect())
}

/// One tool's installation.
struct Job<'a> {
    tool: &'a Tool,
    tools: &'a ToolsFile,
    paths: &'a BenchPaths,
    staging: &'a Path,
    http: &'a Http,
    options: &'a DownloadOptions,
}

impl Job<'_> {
    fn run(
        &self,
        source_override: Option<&PathBuf>,
        old_lock: Option<&Lock>,
    ) -> Result<(Outcome, Option<LockedTool>), BenchError> {
        let tool = self.tool;
        if let Some(from) = source_override {
            return self.copy_local(from).map(|outcome| (outcome, None));
        }
        if let Source::Path { path } = &tool.source {
            if !tool.patches.is_empty() {
                return self.copy_local(path).map(|outcome| (outcome, None));
            }
            if !path.is_dir() {
                return Err(BenchError::new(format!(
                    "tool `{}`: its `path` ({}:{}) is `{}`, which is not a folder",
                    tool.name,
                    self.tools.path.display(),
                    tool.line,
                    path.display()
                )));
            }
            self.check_entry(path, &format!("is not in `{}`", path.display()))?;
            progress::step("Local", &format!("{} (used in place: {})", tool.name, path.display()));
            return Ok((Outcome::InPlace { path: path.clone() }, None));
        }
        self.download(old_lock).map(|(outcome, locked)| (outcome, Some(locked)))
    }

    fn download(&self, old_lock: Option<&Lock>) -> Result<(Outcome, LockedTool), BenchError> {
        let tool = self.tool;
        let source = &tool.source;
        let endpoints = &self.options.endpoints;
        let platform = matches!(source, Source::GitHubRelease { .. }).then(platform_label);
        let spec = source.spec();
        let previous = old_lock
            .filter(|_| !self.options.update)
            .and_then(|lock| lock.find(&tool.name, platform.as_deref()));
        let pinned = previous.filter(|entry| entry.source == spec);
        if let Some(entry) = previous
            && pinned.is_none()
        {
            progress::step(
                "Note",
                &format!(
                    "{}: tools.toml now says `{spec}`, tools.lock `{}`; resolving again",
                    tool.name, entry.source
                ),
            );
        }
        let resolved: Resolved = match pinned {
            Some(entry) => resolve::pinned(source, &entry.version, entry.asset.as_deref(), endpoints),
            None => {
                let verb = if matches!(source, Source::GitHub { .. }) {
                    "Fetching"
                } else {
                    "Resolving"
                };
                progress::step(verb, &format!("{} ({spec})", tool.name));
                resolve::resolve(tool, source, self.http, endpoints)?
            }
        };
        let archive = self.staging.join(format!("{}.download", tool.name));
        let label = format!("{} {}", tool.name, resolved.version);
        let headers = resolve::download_headers(resolved.layout);
        let got = self.http.download(&resolved.url, &headers, &archive, &label)?;
        if let Some(entry) = pinned
            && entry.sha256 != got.sha256
        {
            return Err(BenchError::new(format!(
                "tool `{}`: the download from {} does not match tools.lock: its sha256 is {}, the lock says {}",
                tool.name, resolved.url, got.sha256, entry.sha256
            ))
            .with_help(format!(
                "refused: nothing was installed. If upstream really changed, `blinkblox bench --download --update \
                 --tools {}` resolves and locks it again",
                tool.name
            )));
        }
        let unpacked = self.staging.join(&tool.name);
        let kind = unpack::detect(&archive, &resolved.url)?;
        match (kind, resolved.layout) {
            (ArchiveKind::Plain, Layout::ReleaseAsset) => {
                place_bare_file(&archive, &unpacked, resolved.asset.as_deref())?
            }
            _ => {
                unpack::unpack(
                    &archive,
                    kind,
                    &unpacked,
                    resolved.layout == Layout::SourceArchive,
                    &resolved.url,
                )?;
            }
        }
        apply_patches(tool, &unpacked, &self.tools.path)?;
        self.check_entry(&unpacked, "is not in what was downloaded")?;
        // A verified download keeps its lock entry as it was, even when fetched through a mirror:
        // the lock names the version and the bytes, not the host they came from this time.
        let locked = match pinned {
            Some(entry) => entry.clone(),
            None => LockedTool {
                name: tool.name.clone(),
                source: spec,
                version: resolved.version.clone(),
                platform: resolved.platform.clone(),
                asset: resolved.asset.clone(),
                url: resolved.url.clone(),
                sha256: got.sha256.clone(),
            },
        };
        write_origin(&unpacked, &Origin::from_lock(&locked))?;
        self.install(&unpacked)?;
        let verified = pinned.is_some();
        let verb = if verified { "Verified" } else { "Downloaded" };
        progress::step(
            verb,
            &format!(
                "{} {} ({} bytes, sha256 {})",
                tool.name,
                resolved.version,
                got.bytes,
                &got.sha256[..12]
            ),
        );
        Ok((
            Outcome::Downloaded {
                version: resolved.version,
                bytes: got.bytes,
                sha256: got.sha256,
                verified,
            },
            locked,
        ))
    }

    fn copy_local(&self, from: &Path) -> Result<Outcome, BenchError> {
        let tool = self.tool;
        let staged = self.staging.join(&tool.name);
        copy_tree(from, &staged, &self.paths.tools_dir)?;
        apply_patches(tool, &staged, &self.tools.path)?;
        self.check_entry(&staged, &format!("is not in `{}`", from.display()))?;
        let origin = Origin {
            name: tool.name.clone(),
            source: format!("path:{}", from.display()),
            version: "local".to_string(),
            url: None,
            sha256: None,
        };
        write_origin(&staged, &origin)?;
        self.install(&staged)?;
        progress::step(
            "Copied",
            &format!("{} (from {}, not locked)", tool.name, from.display()),
        );
        Ok(Outcome::Copied {
            from: from.to_path_buf(),
        })
    }

    fn check_entry(&self, root: &Path, missing: &str) -> Result<(), BenchError> {
        let Some(entry) = self.tool.entry_for_platform() else {
            return Ok(());
        };
        if root.join(&entry).exists() {
            return Ok(());
        }
        Err(BenchError::new(format!(
            "tool `{}`: `{entry}` (its `entry`, {}:{}) {missing}",
            self.tool.name,
            self.tools.path.display(),
            self.tool.line
        ))
        .with_help("the upstream layout changed, or the source points at the wrong version: update tools.toml"))
    }

    /// Moves a finished folder to `benchmark/tools/<name>`, replacing the old one.
    fn install(&self, staged: &Path) -> Result<(), BenchError> {
        let target = self.paths.tools_dir.join(&self.tool.name);
        let previous = self.staging.join(format!("{}.previous", self.tool.name));
        let had_previous = target.exists();
        if had_previous {
            fs::rename(&target, &previous).map_err(|err| BenchError::io("move aside", &target, &err))?;
        }
        if let Err(err) = fs::rename(staged, &target) {
            if had_previous {
                let _ = fs::rename(&previous, &target);
            }
            return Err(BenchError::io("move into place", &target, &err));
        }
        Ok(())
    }
}

/// A release asset that is neither zip nor tarball: a bare binary, kept under its asset name.
fn place_bare_file(file: &Path, folder: &Path, asset: Option<&str>) -> Result<(), BenchError> {
    let name = asset.unwrap_or("download");
    let relative = unpack::safe_relative_path(name)
        .map_err(|why| BenchError::new(format!("release asset name `{name}` {why}")))?;
    fs::create_dir_all(folder).map_err(|err| BenchError::io("create", folder, &err))?;
    let dest = folder.join(relative.file_name().unwrap_or(relative.as_os_str()));
    fs::rename(file, &dest).map_err(|err| BenchError::io("move", &dest, &err))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&dest, fs::Permissions::from_mode(0o755))
            .map_err(|err| BenchError::io("set permissions on", &dest, &err))?;
    }
    Ok(())
}

/// Copies a local folder, leaving out `.git`, `target` and `benchmark/tools` itself (a checkout
/// passed with --source contains it).
fn copy_tree(from: &Path, to: &Path, tools_dir: &Path) -> Result<(), BenchError> {
    let skip = fs::canonicalize(tools_dir).ok();
    let walker = walkdir::WalkDir::new(from).into_iter().filter_entry(|entry| {
        let name = entry.file_name().to_string_lossy();
        if entry.depth() > 0 && entry.file_type().is_dir() && (name == ".git" || name == "target") {
            return false;
        }
        skip.as_ref()
            .is_none_or(|skip| fs::canonicalize(entry.path()).map_or(true, |path| &path != skip))
    });
    for entry in walker {
        let entry = entry.map_err(|err| BenchError::new(format!("could not read `{}`: {err}", from.display())))?;
        let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let dest = to.join(relative);
        let file_type = entry.file_type();
        if file_type.is_dir() {
            fs::create_dir_all(&dest).map_err(|err| BenchError::io("create", &dest, &err))?;
        } else if file_type.is_file() || fs::metadata(entry.path()).is_ok_and(|meta| meta.is_file()) {
            fs::copy(entry.path(), &dest).map_err(|err| BenchError::io("copy to", &dest, &err))?;
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct Origin {
    name: String,
    source: String,
    version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
}

impl Origin {
    fn from_lock(locked: &LockedTool) -> Origin {
        Origin {
            name: locked.name.clone(),
            source: locked.source.clone(),
            version: locked.version.clone(),
            url: Some(locked.url.clone()),
            sha256: Some(locked.sha256.clone()),
        }
    }
}

fn write_origin(folder: &Path, origin: &Origin) -> Result<(), BenchError> {
    let text = toml::to_string(origin).map_err(|err| BenchError::new(format!("could not describe the tool: {err}")))?;
    let text = format!("# Where this folder came from; written by `blinkblox bench --download`.\n{text}");
    write_atomically(&folder.join(ORIGIN_FILE), text.as_bytes())
}
