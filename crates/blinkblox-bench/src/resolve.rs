//! From a declared source to a concrete version and URL.
//!
//! URL shapes (`registry` = `--registry-url`, default `https://api.wally.run`; `github` =
//! `--github-url`, default `https://github.com`; the GitHub API is `https://api.github.com` by
//! default and `<github>` itself when `--github-url` is given, so one local server can play both):
//!
//! | source | resolved through | downloaded from |
//! |---|---|---|
//! | `wally = "scope/name@req"` | `GET <registry>/v1/package-metadata/<scope>/<name>` (`{"versions":[manifest…]}`), highest version matching `req` | `GET <registry>/v1/package-contents/<scope>/<name>/<version>` with `Wally-Version: 0.3.2` (a zip) |
//! | `github = "owner/repo@ref"` | nothing: the ref is the version | `<github>/<owner>/<repo>/archive/<ref>.tar.gz` (a tarball whose single top-level folder is stripped) |
//! | `github-release = "owner/repo@tag"` | `GET <api>/repos/<owner>/<repo>/releases/tags/<tag>`, the one asset matching this platform's glob | the asset's `browser_download_url`; from a lock, `<github>/<owner>/<repo>/releases/download/<tag>/<asset>` |
//!
//! Wally requirements match as Wally's do (see [`crate::requirement`]).

use semver::Version;
use serde::Deserialize;

use super::BenchError;
use super::download::Http;
use super::requirement::{best_match, parse_requirement};
use super::tools::{Source, Tool};

/// The Wally client version the registry is told we speak (`Wally-Version` header).
pub const WALLY_VERSION: &str = "0.3.2";

pub const DEFAULT_REGISTRY_URL: &str = "https://api.wally.run";
pub const DEFAULT_GITHUB_URL: &str = "https://github.com";
pub const DEFAULT_GITHUB_API_URL: &str = "https://api.github.com";

/// Where things are fetched from.
#[derive(Debug, Clone)]
pub struct Endpoints {
    pub registry: String,
    pub github: String,
    pub github_api: String,
}

impl Default for Endpoints {
    fn default() -> Endpoints {
        Endpoints {
            registry: DEFAULT_REGISTRY_URL.to_string(),
            github: DEFAULT_GITHUB_URL.to_string(),
            github_api: DEFAULT_GITHUB_API_URL.to_string(),
        }
    }
}

impl Endpoints {
    /// Endpoints with the command line's overrides (`--registry-url`, `--github-url`), each of
    /// which must be an http:// or https:// URL.
    pub fn from_flags(registry: Option<&str>, github: Option<&str>) -> Result<Endpoints, BenchError> {
        for (flag, url) in [("--registry-url", registry), ("--github-url", github)] {
            if let Some(url) = url
                && reqwest::Url::parse(url).map_or(true, |parsed| !matches!(parsed.scheme(), "http" | "https"))
            {
                return Err(BenchError::new(format!(
                    "{flag} `{url}` is not an http:// or https:// URL"
                )));
            }
        }
        Ok(Endpoints::with_overrides(registry, github))
    }

    /// Endpoints with the command line's overrides; a `--github-url` serves the API too.
    pub fn with_overrides(registry: Option<&str>, github: Option<&str>) -> Endpoints {
        let trim = |url: &str| url.trim_end_matches('/').to_string();
        let mut endpoints = Endpoints::default();
        if let Some(registry) = registry {
            endpoints.registry = trim(registry);
        }
        if let Some(github) = github {
            endpoints.github = trim(github);
            endpoints.github_api = trim(github);
        }
        endpoints
    }
}

/// What the archive holds and how to unpack it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// A Wally package zip, unpacked as-is.
    WallyZip,
    /// A GitHub source archive: its single top-level folder is stripped.
    SourceArchive,
    /// A release asset: unpacked as-is if it is a zip or tarball, otherwise kept as a file named
    /// after the asset (a bare binary).
    ReleaseAsset,
}

/// A source pinned to one downloadable thing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub version: String,
    pub url: String,
    /// Release assets only: the asset's file name.
    pub asset: Option<String>,
    /// Release assets only: the platform label the asset was chosen for.
    pub platform: Option<String>,
    pub layout: Layout,
}

/// Resolves `tool`'s source through the network (never for `path` sources).
pub fn resolve(tool: &Tool, source: &Source, http: &Http, endpoints: &Endpoints) -> Result<Resolved, BenchError> {
    match source {
        Source::Wally {
            scope,
            name,
            requirement,
        } => {
            let version = resolve_wally(&tool.name, scope, name, requirement, http, endpoints)?;
            Ok(pinned(source, &version, None, endpoints))
        }
        Source::GitHub { reference, .. } => Ok(pinned(source, reference, None, endpoints)),
        Source::GitHubRelease { .. } => resolve_release(tool, source, http, endpoints),
        Source::Path { .. } => Err(BenchError::new(format!(
            "tool `{}` is a local folder; there is nothing to resolve",
            tool.name
        ))),
    }
}

/// The URL and layout of an already chosen version (from the lock, or just resolved).
pub fn pinned(source: &Source, version: &str, asset: Option<&str>, endpoints: &Endpoints) -> Resolved {
    let (url, layout, platform) = match source {
        Source::Wally { scope, name, .. } => (
            format!("{}/v1/package-contents/{scope}/{name}/{version}", endpoints.registry),
            Layout::WallyZip,
            None,
        ),
        Source::GitHub { owner, repo, .. } => (
            format!("{}/{owner}/{repo}/archive/{version}.tar.gz", endpoints.github),
            Layout::SourceArchive,
            None,
        ),
        Source::GitHubRelease { owner, repo, .. } => (
            format!(
                "{}/{owner}/{repo}/releases/download/{version}/{}",
                endpoints.github,
                asset.unwrap_or_default()
            ),
            Layout::ReleaseAsset,
            Some(super::platform_label()),
        ),
        Source::Path { path } => (path.display().to_string(), Layout::SourceArchive, None),
    };
    Resolved {
        version: version.to_string(),
        url,
        asset: asset.map(str::to_string),
        platform,
        layout,
    }
}

/// Headers a download from `layout` needs.
pub fn download_headers(layout: Layout) -> Vec<(&'static str, &'static str)> {
    match layout {
        Layout::WallyZip => vec![("Wally-Version", WALLY_VERSION)],
        Layout::SourceArchive | Layout::ReleaseAsset => vec![("Accept", "application/octet-stream")],
    }
}

#[derive(Deserialize)]
struct WallyMetadata {
    versions: Vec<WallyManifest>,
}

#[derive(Deserialize)]
struct WallyManifest {
    package: WallyPackage,
}

#[derive(Deserialize)]
struct WallyPackage {
    version: String,
}

fn resolve_wally(
    tool: &str,
    scope: &str,
    name: &str,
    requirement: &str,
    http: &Http,
    endpoints: &Endpoints,
) -> Result<String, BenchError> {
    let req = parse_requirement(requirement)
        .map_err(|why| BenchError::new(format!("tool `{tool}`: bad version requirement `{requirement}`: {why}")))?;
    let url = format!("{}/v1/package-metadata/{scope}/{name}", endpoints.registry);
    let metadata: WallyMetadata = http
        .get_json(&url, &[("Wally-Version", WALLY_VERSION)], "Wally package metadata")
        .map_err(|err| BenchError {
            message: format!(
                "tool `{tool}`: resolving Wally package `{scope}/{name}`: {}",
                err.message
            ),
            ..err
        })?;
    let mut versions: Vec<Version> = metadata
        .versions
        .iter()
        .filter_map(|manifest| Version::parse(&manifest.package.version).ok())
        .collect();
    versions.sort_by(|a, b| b.cmp(a));
    match best_match(&req, &versions) {
        Some(version) => Ok(version.to_string()),
        None => {
            let listed: Vec<String> = versions.iter().take(12).map(Version::to_string).collect();
            let listed = if listed.is_empty() {
                "none".to_string()
            } else {
                listed.join(", ")
            };
            Err(BenchError::new(format!(
                "tool `{tool}`: no version of Wally package `{scope}/{name}` matches `{requirement}` (the registry has: {listed})"
            ))
            .with_help("a bare version is a caret requirement, as in Wally; a prerelease needs `=x.y.z-pre`"))
        }
    }
}

#[derive(Deserialize)]
struct Release {
    #[serde(default)]
    assets: Vec<ReleaseAsset>,
}

#[derive(Deserialize)]
struct ReleaseAsset {
    name: String,
    browser_download_url: String,
}

fn resolve_release(tool: &Tool, source: &Source, http: &Http, endpoints: &Endpoints) -> Result<Resolved, BenchError> {
    let Source::GitHubRelease {
        owner,
        repo,
        tag,
        assets,
    } = source
    else {
        return Err(BenchError::new(format!("tool `{}` is not a GitHub release", tool.name)));
    };
    let platform = super::platform_label();
    let Some(pattern) = assets.get(&platform) else {
        let declared: Vec<&str> = assets.keys().map(String::as_str).collect();
        return Err(BenchError::new(format!(
            "tool `{}` has no release asset for this platform ({platform}); it declares {}",
            tool.name,
            declared.join(", ")
        ))
        .with_help(format!(
            "add `{platform} = \"<glob>\"` under [tool.{}.assets], or pass --source {}=PATH",
            tool.name, tool.name
        )));
    };
    let url = format!("{}/repos/{owner}/{repo}/releases/tags/{tag}", endpoints.github_api);
    let release: Release = http
        .get_json(&url, &[("Accept", "application/vnd.github+json")], "a GitHub release")
        .map_err(|err| BenchError {
            message: format!(
                "tool `{}`: release `{tag}` of {owner}/{repo}: {}",
                tool.name, err.message
            ),
            ..err
        })?;
    let matching: Vec<&ReleaseAsset> = release
        .assets
        .iter()
        .filter(|asset| pattern.matcher.is_match(&asset.name))
        .collect();
    match matching.as_slice() {
        [asset] => Ok(Resolved {
            version: tag.clone(),
            url: asset.browser_download_url.clone(),
            asset: Some(asset.name.clone()),
            platform: Some(platform),
            layout: Layout::ReleaseAsset,
        }),
        [] => {
            let names: Vec<&str> = release.assets.iter().map(|asset| asset.name.as_str()).collect();
            Err(BenchError::new(format!(
                "tool `{}`: no asset of release `{tag}` of {owner}/{repo} matches `{}` ({platform}); its assets are: {}",
                tool.name,
                pattern.glob,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )))
        }
        several => {
            let names: Vec<&str> = several.iter().map(|asset| asset.name.as_str()).collect();
            Err(BenchError::new(format!(
                "tool `{}`: several assets of release `{tag}` match `{}` ({platform}): {}; make the pattern narrower",
                tool.name,
                pattern.glob,
                names.join(", ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_follow_the_documented_shapes() {
        let endpoints = Endpoints::with_overrides(Some("http://127.0.0.1:9/"), None);
        let wally = Source::Wally {
            scope: "s".into(),
            name: "n".into(),
            requirement: "1".into(),
        };
        assert_eq!(
            pinned(&wally, "1.2.3", None, &endpoints).url,
            "http://127.0.0.1:9/v1/package-contents/s/n/1.2.3"
        );
        let github = Source::GitHub {
            owner: "o".into(),
            repo: "r".into(),
            reference: "v1".into(),
        };
        assert_eq!(
            pinned(&github, "v1", None, &endpoints).url,
            "https://github.com/o/r/archive/v1.tar.gz"
        );
        let overridden = Endpoints::with_overrides(None, Some("http://127.0.0.1:9"));
        assert_eq!(overridden.github_api, "http://127.0.0.1:9");
        assert_eq!(Endpoints::default().github_api, "https://api.github.com");
    }
}
