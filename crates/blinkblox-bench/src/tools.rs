//! `benchmark/tools.toml`: which tools the benchmark compares, where each comes from, and the
//! patches that lift their limits.
//!
//! ```toml
//! [tool.packet]
//! github = "mrchigurh/Suphi-Packet@1.7"   # or wally = "scope/name@req", github-release = "o/r@tag", path = "dir"
//! entry = "Packet"                        # what the harness loads; checked to exist after download
//!
//! [[tool.packet.patch]]
//! file = "Packet/init.lua"
//! find = "bytes > 8_000"
//! replace = "bytes > math.huge"
//! count = 1                               # matches expected; anything else fails loudly
//! ```
//!
//! Every error names the file, the line and the key.

use blinkblox_fs::path::normalize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use toml::Spanned;

use super::requirement::parse_requirement;
use super::{BenchError, line_of, unpack};

/// The platform labels an asset pattern may be declared for.
pub const PLATFORMS: &[&str] = &[
    "linux-x86_64",
    "linux-aarch64",
    "macos-x86_64",
    "macos-aarch64",
    "windows-x86_64",
    "windows-aarch64",
];

#[derive(Debug, Clone)]
pub struct ToolsFile {
    pub path: PathBuf,
    /// In declaration order.
    pub tools: Vec<Tool>,
}

#[derive(Debug, Clone)]
pub struct Tool {
    pub name: String,
    pub description: Option<String>,
    pub source: Source,
    /// The file or folder (relative to the tool's folder) the harness loads; `{exe}` stands for
    /// `.exe` on Windows and nothing elsewhere.
    pub entry: Option<String>,
    pub patches: Vec<Patch>,
    /// Line of the tool's table in tools.toml.
    pub line: usize,
}

#[derive(Debug, Clone)]
pub enum Source {
    /// A Wally package; `requirement` is the text after `@`, matched as Wally matches it.
    Wally {
        scope: String,
        name: String,
        requirement: String,
    },
    /// A GitHub source archive at a tag, branch or commit.
    GitHub {
        owner: String,
        repo: String,
        reference: String,
    },
    /// A GitHub release asset for the current platform, chosen by glob.
    GitHubRelease {
        owner: String,
        repo: String,
        tag: String,
        assets: BTreeMap<String, AssetPattern>,
    },
    /// A local folder, resolved against the folder holding tools.toml.
    Path { path: PathBuf },
}

#[derive(Debug, Clone)]
pub struct AssetPattern {
    pub glob: String,
    pub matcher: GlobMatcher,
}

#[derive(Debug, Clone)]
pub struct Patch {
    pub file: String,
    pub find: String,
    pub replace: String,
    pub count: usize,
    /// Line of the `[[tool.X.patch]]` entry in tools.toml.
    pub line: usize,
}

impl Source {
    /// The source as written in tools.toml, e.g. `wally:scope/name@=0.4.3`; the lock records it so
    /// that editing a tool's source re-resolves that tool.
    pub fn spec(&self) -> String {
        match self {
            Source::Wally {
                scope,
                name,
                requirement,
            } => format!("wally:{scope}/{name}@{requirement}"),
            Source::GitHub { owner, repo, reference } => format!("github:{owner}/{repo}@{reference}"),
            Source::GitHubRelease { owner, repo, tag, .. } => format!("github-release:{owner}/{repo}@{tag}"),
            Source::Path { path } => format!("path:{}", path.display()),
        }
    }
}

impl Tool {
    /// The entry with `{exe}` expanded for this platform.
    pub fn entry_for_platform(&self) -> Option<String> {
        let exe = if cfg!(windows) { ".exe" } else { "" };
        self.entry.as_ref().map(|entry| entry.replace("{exe}", exe))
    }
}

impl ToolsFile {
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|tool| tool.name == name)
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|tool| tool.name.as_str()).collect()
    }

    pub fn read(path: &Path) -> Result<ToolsFile, BenchError> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            let error = BenchError::io("read", path, &err);
            if err.kind() == std::io::ErrorKind::NotFound {
                error.with_help("`blinkblox bench` runs from a BlinkBlox checkout, whose benchmark/ holds tools.toml")
            } else {
                error
            }
        })?;
        ToolsFile::parse(&text, path)
    }

    /// Parses tools.toml text; `path` names the file in messages and anchors `path = "…"` sources.
    pub fn parse(text: &str, path: &Path) -> Result<ToolsFile, BenchError> {
        let file_name = path.display().to_string();
        let raw: RawToolsFile = toml::from_str(text).map_err(|err| toml_error(&file_name, text, &err))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let at = |offset: usize| format!("{file_name}:{}", line_of(text, offset));
        let mut tools = Vec::new();
        let mut entries: Vec<(String, Spanned<RawTool>)> = raw.tool.into_iter().collect();
        entries.sort_by_key(|(_, tool)| tool.span().start);
        for (name, spanned) in entries {
            let start = spanned.span().start;
            let line = line_of(text, start);
            if !is_valid_tool_name(&name) {
                return Err(BenchError::new(format!(
                    "{}: tool name `{name}` may use only lowercase letters, digits, `-` and `_`",
                    at(start)
                ))
                .with_help("the name is also the tool's folder under benchmark/tools/"));
            }
            let raw_tool = spanned.into_inner();
            let source = source_of(&name, &raw_tool, base, &at, start)?;
            if raw_tool.assets.is_some() && !matches!(source, Source::GitHubRelease { .. }) {
                return Err(BenchError::new(format!(
                    "{}: tool `{name}` has `assets`, which only a `github-release` source uses",
                    at(start)
                )));
            }
            if let Some(entry) = &raw_tool.entry {
                unpack::safe_relative_path(entry).map_err(|why| {
                    BenchError::new(format!("{}: tool `{name}`: `entry = \"{entry}\"` {why}", at(start)))
                })?;
            }
            let mut patches = Vec::new();
            for patch in raw_tool.patch {
                let patch_start = patch.span().start;
                let patch = patch.into_inner();
                unpack::safe_relative_path(&patch.file).map_err(|why| {
                    BenchError::new(format!(
                        "{}: tool `{name}`: patch `file = \"{}\"` {why}",
                        at(patch_start),
                        patch.file
                    ))
                })?;
                if patch.find.is_empty() {
                    return Err(BenchError::new(format!(
                        "{}: tool `{name}`: patch on `{}` has an empty `find`",
                        at(patch_start),
                        patch.file
                    )));
                }
                patches.push(Patch {
                    file: patch.file,
                    find: patch.find,
                    replace: patch.replace,
                    count: patch.count.unwrap_or(1),
                    line: line_of(text, patch_start),
                });
            }
            tools.push(Tool {
                name,
                description: raw_tool.description,
                source,
                entry: raw_tool.entry,
                patches,
                line,
            });
        }
        Ok(ToolsFile {
            path: path.to_path_buf(),
            tools,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToolsFile {
    #[serde(default)]
    tool: BTreeMap<String, Spanned<RawTool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTool {
    description: Option<String>,
    wally: Option<Spanned<String>>,
    github: Option<Spanned<String>>,
    github_release: Option<Spanned<String>>,
    path: Option<Spanned<String>>,
    assets: Option<BTreeMap<String, Spanned<String>>>,
    entry: Option<String>,
    #[serde(default)]
    patch: Vec<Spanned<RawPatch>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPatch {
    file: String,
    find: String,
    replace: String,
    count: Option<usize>,
}

fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn source_of(
    name: &str,
    raw: &RawTool,
    base: &Path,
    at: &dyn Fn(usize) -> String,
    start: usize,
) -> Result<Source, BenchError> {
    let declared: Vec<(&str, &Spanned<String>)> = [
        ("wally", raw.wally.as_ref()),
        ("github", raw.github.as_ref()),
        ("github-release", raw.github_release.as_ref()),
        ("path", raw.path.as_ref()),
    ]
    .into_iter()
    .filter_map(|(key, value)| value.map(|value| (key, value)))
    .collect();
    let (key, value) = match declared.as_slice() {
        [] => {
            return Err(
                BenchError::new(format!("{}: tool `{name}` has no source", at(start))).with_help(
                    "add one of `wally = \"scope/name@version\"`, `github = \"owner/repo@tag\"`, \
                 `github-release = \"owner/repo@tag\"` or `path = \"folder\"`",
                ),
            );
        }
        [one] => *one,
        [first, second, ..] => {
            return Err(BenchError::new(format!(
                "{}: tool `{name}` has two sources, `{}` and `{}`; keep one",
                at(second.1.span().start),
                first.0,
                second.0
            )));
        }
    };
    let here = at(value.span().start);
    let text = value.get_ref().trim();
    let bad = |why: &str, example: &str| {
        BenchError::new(format!("{here}: tool `{name}`: `{key} = \"{text}\"` {why}"))
            .with_help(format!("write it as `{key} = \"{example}\"`"))
    };
    match key {
        "wally" => {
            let (package, requirement) = text
                .split_once('@')
                .ok_or_else(|| bad("has no `@version`", "scope/name@0.4.3"))?;
            let (scope, package_name) = package
                .split_once('/')
                .ok_or_else(|| bad("is not `scope/name`", "scope/name@0.4.3"))?;
            for part in [scope, package_name] {
                if !is_valid_wally_part(part) {
                    return Err(bad(
                        "is not a Wally name: scope and name use lowercase letters, digits and `-` (at most 64)",
                        "scope/name@0.4.3",
                    ));
                }
            }
            parse_requirement(requirement)
                .map_err(|why| bad(&format!("has a bad version requirement: {why}"), "scope/name@=0.4.3"))?;
            Ok(Source::Wally {
                scope: scope.to_string(),
                name: package_name.to_string(),
                requirement: requirement.trim().to_string(),
            })
        }
        "github" | "github-release" => {
            let (repo_path, reference) = text
                .split_once('@')
                .ok_or_else(|| bad("has no `@tag` (or `@commit`)", "owner/repo@v1.0.0"))?;
            let (owner, repo) = repo_path
                .split_once('/')
                .ok_or_else(|| bad("is not `owner/repo`", "owner/repo@v1.0.0"))?;
            if !is_valid_github_part(owner) || !is_valid_github_part(repo) {
                return Err(bad(
                    "is not a GitHub repository: owner and repo use letters, digits, `-`, `_` and `.`",
                    "owner/repo@v1.0.0",
                ));
            }
            if !is_valid_reference(reference) {
                return Err(bad(
                    "has a bad tag or commit: use letters, digits, `.`, `-`, `_` and `/`, no `..`",
                    "owner/repo@v1.0.0",
                ));
            }
            if key == "github" {
                return Ok(Source::GitHub {
                    owner: owner.to_string(),
                    repo: repo.to_string(),
                    reference: reference.to_string(),
                });
            }
            let Some(raw_assets) = &raw.assets else {
                return Err(BenchError::new(format!(
                    "{}: tool `{name}` is a `github-release` without `assets`",
                    at(start)
                ))
                .with_help(format!(
                    "add `[tool.{name}.assets]` with a glob per platform, e.g. `linux-x86_64 = \"*-linux-x86_64.zip\"`"
                )));
            };
            let mut assets = BTreeMap::new();
            for (platform, glob) in raw_assets {
                let glob_at = at(glob.span().start);
                if !PLATFORMS.contains(&platform.as_str()) {
                    return Err(BenchError::new(format!(
                        "{glob_at}: tool `{name}`: unknown platform `{platform}` in `assets`; the platforms are {}",
                        PLATFORMS.join(", ")
                    )));
                }
                let matcher = Glob::new(glob.get_ref())
                    .map_err(|err| {
                        BenchError::new(format!(
                            "{glob_at}: tool `{name}`: asset pattern for `{platform}`: {err}"
                        ))
                    })?
                    .compile_matcher();
                assets.insert(
                    platform.clone(),
                    AssetPattern {
                        glob: glob.get_ref().clone(),
                        matcher,
                    },
                );
            }
            Ok(Source::GitHubRelease {
                owner: owner.to_string(),
                repo: repo.to_string(),
                tag: reference.to_string(),
                assets,
            })
        }
        _ => {
            if text.is_empty() {
                return Err(bad("is empty", "../some-checkout"));
            }
            Ok(Source::Path {
                path: normalize(&base.join(text)),
            })
        }
    }
}

/// Wally's rule for each half of `scope/name` (`wally:src/package_name.rs`).
fn is_valid_wally_part(part: &str) -> bool {
    !part.is_empty()
        && part.len() <= 64
        && part
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn is_valid_github_part(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn is_valid_reference(reference: &str) -> bool {
    !reference.is_empty()
        && !reference.contains("..")
        && !reference.starts_with('/')
        && reference
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'+'))
}

/// Turns a toml/serde error into `file:line: message`, the message naming the key.
pub(crate) fn toml_error(file_name: &str, text: &str, err: &toml::de::Error) -> BenchError {
    let line = err.span().map(|span| line_of(text, span.start)).unwrap_or(1);
    let message = err.message().trim().replace('\n', " ");
    let key = err
        .span()
        .and_then(|span| key_on_line(text, span.start))
        .filter(|key| !message.contains(&format!("`{key}`")));
    match key {
        Some(key) => BenchError::new(format!("{file_name}:{line}: key `{key}`: {message}")),
        None => BenchError::new(format!("{file_name}:{line}: {message}")),
    }
}

/// The key assigned on the line holding `offset` (`key = …`), if there is one.
fn key_on_line(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.starts_with('[') && !key.starts_with('#')).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ToolsFile, BenchError> {
        ToolsFile::parse(text, Path::new("benchmark/tools.toml"))
    }

    #[test]
    fn reads_every_source_kind_in_declaration_order() {
        let file = parse(
            r#"
[tool.zeta]
wally = "scope/zeta@=0.4.3"
[tool.alpha]
github = "Owner/Repo.x@v1.2"
entry = "src"
[[tool.alpha.patch]]
file = "src/init.luau"
find = "a"
replace = "b"
count = 2
[tool.zap]
github-release = "red-blox/zap@v0.6.8"
[tool.zap.assets]
linux-x86_64 = "zap-*-linux-x86_64.zip"
[tool.local]
path = "../somewhere"
"#,
        )
        .expect("valid");
        assert_eq!(file.names(), ["zeta", "alpha", "zap", "local"]);
        let alpha = file.tool("alpha").expect("alpha");
        assert_eq!(alpha.source.spec(), "github:Owner/Repo.x@v1.2");
        assert_eq!(alpha.patches[0].count, 2);
        assert_eq!(alpha.patches[0].line, 7);
        assert!(
            matches!(&file.tool("local").expect("local").source, Source::Path { path } if path == Path::new("somewhere"))
        );
        assert_eq!(normalize(Path::new("/a/b/../../..")), Path::new("/"));
        assert_eq!(normalize(Path::new("a/../..")), Path::new(".."));
        assert_eq!(normalize(Path::new("a/..")), Path::new("."));
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let err = parse("[tool.x]\nwally = \"a/b@1\"\nsorce = \"no\"\n").expect_err("unknown key");
        assert!(err.message.starts_with("benchmark/tools.toml:3:"), "{err}");
        assert!(err.message.contains("sorce"), "{err}");
    }

    #[test]
    fn two_sources_and_no_source_are_errors() {
        let err = parse("[tool.x]\nwally = \"a/b@1\"\ngithub = \"o/r@t\"\n").expect_err("two");
        assert!(err.message.contains(":3: tool `x` has two sources"), "{err}");
        let err = parse("[tool.x]\nentry = \"src\"\n").expect_err("none");
        assert!(err.message.contains(":1: tool `x` has no source"), "{err}");
    }

    #[test]
    fn bad_specs_are_named() {
        let err = parse("[tool.x]\nwally = \"Scope/Name@1\"\n").expect_err("uppercase");
        assert!(
            err.message.contains(":2:") && err.message.contains("not a Wally name"),
            "{err}"
        );
        let err = parse("[tool.x]\nwally = \"a/b@not a version\"\n").expect_err("req");
        assert!(err.message.contains("bad version requirement"), "{err}");
        let err = parse("[tool.x]\ngithub = \"o/r@../../x\"\n").expect_err("ref");
        assert!(err.message.contains("bad tag or commit"), "{err}");
        let err = parse("[tool.x]\ngithub-release = \"o/r@v1\"\n").expect_err("assets");
        assert!(err.message.contains("without `assets`"), "{err}");
        let err =
            parse("[tool.x]\ngithub-release = \"o/r@v1\"\n[tool.x.assets]\nbeos-m68k = \"*\"\n").expect_err("platform");
        assert!(
            err.message.contains(":4:") && err.message.contains("unknown platform `beos-m68k`"),
            "{err}"
        );
        let err =
            parse("[tool.x]\ngithub = \"o/r@v1\"\n[[tool.x.patch]]\nfile = \"../up\"\nfind = \"a\"\nreplace = \"b\"\n")
                .expect_err("patch path");
        assert!(err.message.contains(":3:") && err.message.contains("`..`"), "{err}");
        let err = parse("[tool.\"Bad Name\"]\ngithub = \"o/r@v1\"\n").expect_err("name");
        assert!(err.message.contains("tool name `Bad Name`"), "{err}");
    }

    #[test]
    fn wrong_type_names_the_key() {
        let err = parse("[tool.x]\ngithub = \"o/r@v1\"\n[[tool.x.patch]]\nfile = \"a\"\nfind = \"b\"\nreplace = \"c\"\ncount = \"one\"\n")
            .expect_err("type");
        assert!(err.message.contains(":7:") && err.message.contains("count"), "{err}");
    }
}
