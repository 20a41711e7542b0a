//! `benchmark/tools.lock`: what `--download` fetched, so that the next download fetches exactly
//! the same bytes and refuses anything else.
//!
//! ```toml
//! version = 1
//!
//! [[tool]]
//! name = "bytenet"
//! source = "wally:ffrostflame/bytenet@=0.4.3"   # the tools.toml source it was resolved from
//! version = "0.4.3"
//! url = "https://api.wally.run/v1/package-contents/ffrostflame/bytenet/0.4.3"
//! sha256 = "…"
//! ```
//!
//! Release assets also record `platform` and `asset`: each platform has its own entry. Tools
//! taken from a local folder are never locked.
//!
//! A locked download fetches the locked version from the current base URLs (so a mirror given
//! with `--registry-url` / `--github-url` serves it) and must hash to the locked sha256; `url`
//! records where it was first resolved. An entry whose `source` no longer matches tools.toml is
//! resolved again, and a full download drops entries of tools tools.toml no longer declares.

use std::path::Path;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::tools::toml_error;
use super::{BenchError, line_of};

pub const LOCK_FORMAT_VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lock {
    pub tools: Vec<LockedTool>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedTool {
    pub name: String,
    pub source: String,
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asset: Option<String>,
    pub url: String,
    pub sha256: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLock {
    version: Spanned<u32>,
    #[serde(default)]
    tool: Vec<Spanned<LockedTool>>,
}

#[derive(Serialize)]
struct WrittenLock<'a> {
    version: u32,
    tool: &'a [LockedTool],
}

impl Lock {
    /// The entry for `name` on `platform` (`None` for anything but release assets).
    pub fn find(&self, name: &str, platform: Option<&str>) -> Option<&LockedTool> {
        self.tools
            .iter()
            .find(|tool| tool.name == name && tool.platform.as_deref() == platform)
    }

    /// Adds or replaces the entry with `entry`'s name and platform; entries stay sorted.
    pub fn upsert(&mut self, entry: LockedTool) {
        self.tools
            .retain(|tool| !(tool.name == entry.name && tool.platform == entry.platform));
        self.tools.push(entry);
        self.tools
            .sort_by(|a, b| (&a.name, &a.platform).cmp(&(&b.name, &b.platform)));
    }

    /// Reads the lock; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Lock>, BenchError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(BenchError::io("read", path, &err)),
        };
        Lock::parse(&text, path).map(Some).map_err(|err| {
            err.with_help(
                "tools.lock is written by `blinkblox bench --download`: fix the line, or delete the file and run \
                 `blinkblox bench --download --update` to resolve every tool again",
            )
        })
    }

    pub fn parse(text: &str, path: &Path) -> Result<Lock, BenchError> {
        let name = path.display().to_string();
        let raw: RawLock = toml::from_str(text).map_err(|err| toml_error(&name, text, &err))?;
        if *raw.version.get_ref() != LOCK_FORMAT_VERSION {
            return Err(BenchError::new(format!(
                "{name}:{}: key `version`: lock format {} is not {LOCK_FORMAT_VERSION}, the one this blinkblox writes",
                line_of(text, raw.version.span().start),
                raw.version.get_ref()
            )));
        }
        let mut lock = Lock::default();
        for spanned in raw.tool {
            let at = format!("{name}:{}", line_of(text, spanned.span().start));
            let tool = spanned.into_inner();
            if tool.sha256.len() != 64
                || !tool
                    .sha256
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            {
                return Err(BenchError::new(format!(
                    "{at}: key `sha256` of tool `{}`: `{}` is not 64 lowercase hex digits",
                    tool.name, tool.sha256
                )));
            }
            for (key, value) in [("name", &tool.name), ("version", &tool.version), ("url", &tool.url)] {
                if value.trim().is_empty() {
                    return Err(BenchError::new(format!("{at}: key `{key}` of a locked tool is empty")));
                }
            }
            // The version and the asset become part of a URL: a version, or a tag, as written.
            if let Err(problem) = check_version(&tool) {
                return Err(BenchError::new(format!(
                    "{at}: key `version` of tool `{}`: `{}` {problem}",
                    tool.name, tool.version
                )));
            }
            if let Some(asset) = &tool.asset
                && !is_url_segment(asset)
            {
                return Err(BenchError::new(format!(
                    "{at}: key `asset` of tool `{}`: `{asset}` is not a file name",
                    tool.name
                )));
            }
            if lock.find(&tool.name, tool.platform.as_deref()).is_some() {
                return Err(BenchError::new(format!("{at}: tool `{}` is locked twice", tool.name)));
            }
            lock.tools.push(tool);
        }
        Ok(lock)
    }

    pub fn render(&self) -> Result<String, BenchError> {
        let body = toml::to_string(&WrittenLock {
            version: LOCK_FORMAT_VERSION,
            tool: &self.tools,
        })
        .map_err(|err| BenchError::new(format!("could not write tools.lock: {err}")))?;
        Ok(format!(
            "# Written by `blinkblox bench --download`: what was fetched for each tool, so the next download\n\
             # fetches the same bytes. `blinkblox bench --download --update` resolves every tool again.\n{body}"
        ))
    }

    /// Writes the lock atomically (a temporary file beside it, then a rename).
    pub fn write(&self, path: &Path) -> Result<(), BenchError> {
        write_atomically(path, self.render()?.as_bytes())
    }
}

/// A Wally tool's version must be a semantic version; a GitHub tool's is a tag or commit.
fn check_version(tool: &LockedTool) -> Result<(), &'static str> {
    if tool.source.starts_with("wally:") {
        return semver::Version::parse(&tool.version)
            .map(|_| ())
            .map_err(|_| "is not a version (MAJOR.MINOR.PATCH)");
    }
    if is_url_segment(&tool.version) {
        Ok(())
    } else {
        Err("is not a tag or commit")
    }
}

/// A name that stays one segment of a URL path: letters, digits, `.`, `_`, `+`, `-`, not
/// `.` or `..` and not starting with `-`.
fn is_url_segment(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 128
        && text != "."
        && text != ".."
        && !text.starts_with('-')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'+' | b'-'))
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// failure (a full disk) leaves the old file whole and no temporary behind.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = std::fs::write(&temp, bytes)
        .and_then(|()| std::fs::File::open(&temp).and_then(|file| file.sync_all()))
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(err) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(BenchError::io("write", path, &err));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, platform: Option<&str>) -> LockedTool {
        LockedTool {
            name: name.to_string(),
            source: format!("wally:s/{name}@1"),
            version: "1.0.0".to_string(),
            platform: platform.map(str::to_string),
            asset: platform.map(|p| format!("{name}-{p}.zip")),
            url: format!("http://x/{name}"),
            sha256: "a".repeat(64),
        }
    }

    #[test]
    fn round_trips_and_upserts() {
        let mut lock = Lock::default();
        lock.upsert(entry("zap", Some("linux-x86_64")));
        lock.upsert(entry("bytenet", None));
        lock.upsert(entry("zap", Some("macos-aarch64")));
        lock.upsert(entry("bytenet", None));
        let text = lock.render().expect("render");
        let back = Lock::parse(&text, Path::new("tools.lock")).expect("parse");
        assert_eq!(back, lock);
        assert_eq!(back.tools.len(), 3);
        assert!(back.find("zap", Some("macos-aarch64")).is_some());
        assert!(back.find("zap", None).is_none());
    }

    #[test]
    fn malformed_locks_name_key_and_line() {
        let path = Path::new("benchmark/tools.lock");
        let err = Lock::parse(
            "version = 1\n\n[[tool]]\nname = \"x\"\nsource = \"s\"\nversion = \"1\"\nurl = \"u\"\nsha256 = 5\n",
            path,
        )
        .expect_err("type");
        assert!(
            err.message.starts_with("benchmark/tools.lock:8:") && err.message.contains("sha256"),
            "{err}"
        );
        let err = Lock::parse(
            "version = 1\n[[tool]]\nname = \"x\"\nsource = \"s\"\nversion = \"1\"\nurl = \"u\"\nsha256 = \"abc\"\n",
            path,
        )
        .expect_err("short hash");
        assert!(
            err.message.contains(":2:") && err.message.contains("64 lowercase hex"),
            "{err}"
        );
        let err = Lock::parse("version = 7\n", path).expect_err("format");
        assert!(err.message.contains(":1: key `version`"), "{err}");
        let err = Lock::parse("version = 1\nextra = true\n", path).expect_err("unknown");
        assert!(err.message.contains(":2:") && err.message.contains("extra"), "{err}");
    }
}
