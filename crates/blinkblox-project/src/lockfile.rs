//! `blinkblox.lock`: what the last sync compiled and wrote. Same inputs give the same
//! lockfile byte for byte: stable ordering, `/`-separated paths relative to the manifest,
//! content hashes that ignore CRLF vs LF (git may check files out either way).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::ProjectError;

pub const LOCKFILE_NAME: &str = "blinkblox.lock";
pub const FORMAT_VERSION: i64 = 1;

/// The compiler identity recorded in (and checked against) the lockfile: the version and a
/// fingerprint of the sources that decide the generated code (build.rs), so two builds of one
/// version that generate different modules never take each other's outputs as up to date.
pub fn compiler_version() -> String {
    format!(
        "blinkblox {}+generator.{}",
        env!("CARGO_PKG_VERSION"),
        blinkblox_codegen::generator_fingerprint()
    )
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lockfile {
    pub compiler: String,
    /// Hash of `blinkblox.toml`: globs, output location and option defaults all live there.
    pub manifest: String,
    /// The output folder every schema folder is in.
    pub output: String,
    /// The folder of the Server modules, when the manifest gives them one of their own.
    pub server_output: Option<String>,
    /// The Rojo project file, when the output location was resolved through it.
    pub rojo_project: Option<FileHash>,
    /// The Wally package `blinkblox package` makes from the outputs, when the manifest has
    /// a `[package]` table.
    pub package: Option<LockedPackage>,
    /// Sorted by path.
    pub schemas: Vec<LockedSchema>,
    /// Whether the file read holds the digest of its own text, as sync writes it: a file
    /// edited by hand does not, and is never taken as up to date.
    pub intact: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileHash {
    pub path: String,
    pub sha256: String,
}

/// The package zip: its Wally name and version, and the sha256 of the zip's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedPackage {
    pub name: String,
    pub version: String,
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockedSchema {
    pub path: String,
    pub sha256: String,
    /// The schema's output folder.
    pub folder: String,
    /// Every file it imports, directly or not, sorted by path.
    #[serde(default)]
    pub imports: Vec<FileHash>,
    /// Every file written for it, sorted by path.
    #[serde(default)]
    pub outputs: Vec<FileHash>,
    /// The options in effect (schema, then manifest defaults, then built-in defaults).
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    /// How many warnings compiling it gave: an up-to-date sync checks such a schema again
    /// to show them.
    #[serde(default)]
    pub warnings: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLockfile {
    version: i64,
    compiler: String,
    manifest: String,
    output: String,
    server_output: Option<String>,
    rojo_project: Option<FileHash>,
    package: Option<LockedPackage>,
    #[serde(default)]
    schema: Vec<LockedSchema>,
    digest: Option<String>,
}

/// The line that records the lockfile's digest: the sha256 of every other line.
const DIGEST_KEY: &str = "digest = ";

/// The digest of a lockfile's text, its digest line left out.
fn digest_of(text: &str) -> String {
    let kept: String = text
        .replace("\r\n", "\n")
        .lines()
        .filter(|line| !line.starts_with(DIGEST_KEY))
        .map(|line| format!("{line}\n"))
        .collect();
    content_hash(kept.as_bytes())
}

/// sha256 of a file's content with CRLF read as LF, in lowercase hex.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut hasher = Sha256::new();
    let mut rest = bytes;
    // Feed the runs between CRs whole; a CR that starts a CRLF is dropped.
    while let Some(at) = find_cr(rest) {
        let keep = if rest.get(at + 1) == Some(&b'\n') { at } else { at + 1 };
        hasher.update(&rest[..keep]);
        rest = &rest[at + 1..];
    }
    hasher.update(rest);
    let digest = hasher.finalize();
    let mut out = String::with_capacity(64);
    for byte in digest {
        out.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(byte & 15), 16).unwrap_or('0'));
    }
    out
}

/// The first `\r` in `bytes`, eight bytes at a time (generated modules are megabytes with
/// no CR at all, and this scan is most of what a no-op sync does).
fn find_cr(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const CRS: u64 = ONES * 0x0d;
    let mut start = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ CRS;
        // Non-zero exactly when some byte of `x` is zero, i.e. some byte was `\r`.
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            break;
        }
        start += 8;
    }
    bytes[start..].iter().position(|&b| b == b'\r').map(|at| start + at)
}

/// The most a file sync hashes may be (a generated module of thousands of declarations is
/// a few megabytes).
pub(crate) const MAX_HASHED_BYTES: u64 = 1024 * 1024 * 1024;

/// Hash of a file on disk; `None` when it cannot be read (missing, or not a regular file).
pub fn file_hash(path: &Path) -> Option<String> {
    blinkblox_fs::read::read_file(path, MAX_HASHED_BYTES)
        .ok()
        .map(|bytes| content_hash(&bytes))
}

impl Lockfile {
    /// Reads the lockfile; `Ok(None)` when there is none.
    pub fn read(path: &Path) -> Result<Option<Lockfile>, ProjectError> {
        if path.is_dir() {
            return Err(
                ProjectError::new(format!("`{}` is a folder, where the lockfile belongs", path.display())).with_help(
                    "move the folder away (if sync made it, it holds generated modules) and run `blinkblox sync` again",
                ),
            );
        }
        let text = match crate::read_text(path) {
            Ok(text) => text?,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(ProjectError::io("read", path, &err)),
        };
        Lockfile::parse(&text).map(Some).map_err(|message| {
            ProjectError::new(format!("`{}` is malformed: {message}", path.display()))
                .with_help("the lockfile is generated: delete it and run `blinkblox sync` to write a fresh one")
        })
    }

    pub fn parse(text: &str) -> Result<Lockfile, String> {
        let raw: RawLockfile = toml::from_str(text).map_err(|err| {
            let line = err
                .span()
                .map(|span| crate::manifest::line_of(text, span.start))
                .unwrap_or(1);
            format!("line {line}: {}", err.message().trim())
        })?;
        if raw.version != FORMAT_VERSION {
            return Err(format!("format version {} is not {FORMAT_VERSION}", raw.version));
        }
        let intact = raw.digest.as_deref() == Some(digest_of(text).as_str());
        Ok(Lockfile {
            compiler: raw.compiler,
            manifest: raw.manifest,
            output: raw.output,
            server_output: raw.server_output,
            rojo_project: raw.rojo_project,
            package: raw.package,
            schemas: raw.schema,
            intact,
        })
    }

    /// The lockfile text: a header, then the fields in a fixed order, the digest of all
    /// the rest among the top-level keys (before the first table).
    pub fn render(&self) -> String {
        let text = self.render_fields();
        let digest_line = format!("{DIGEST_KEY}{}\n", toml::Value::String(digest_of(&text)));
        let after_version = text
            .find(&format!("version = {FORMAT_VERSION}\n"))
            .map_or(0, |at| at + format!("version = {FORMAT_VERSION}\n").len());
        format!("{}{digest_line}{}", &text[..after_version], &text[after_version..])
    }

    fn render_fields(&self) -> String {
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let mut out = String::new();
        out.push_str("# This file is generated by `blinkblox sync`. Do not edit it by hand.\n");
        out.push_str("# `blinkblox sync --locked` checks that it and the generated modules are up to date.\n");
        out.push_str(&format!("version = {FORMAT_VERSION}\n"));
        out.push_str(&format!("compiler = {}\n", quote(&self.compiler)));
        out.push_str(&format!("manifest = {}\n", quote(&self.manifest)));
        out.push_str(&format!("output = {}\n", quote(&self.output)));
        if let Some(server_output) = &self.server_output {
            out.push_str(&format!("server-output = {}\n", quote(server_output)));
        }
        if let Some(project) = &self.rojo_project {
            out.push_str(&format!(
                "rojo-project = {{ path = {}, sha256 = {} }}\n",
                quote(&project.path),
                quote(&project.sha256)
            ));
        }
        if let Some(package) = &self.package {
            out.push_str(&format!(
                "package = {{ name = {}, version = {}, sha256 = {} }}\n",
                quote(&package.name),
                quote(&package.version),
                quote(&package.sha256)
            ));
        }
        let mut schemas: Vec<&LockedSchema> = self.schemas.iter().collect();
        schemas.sort_by(|a, b| a.path.cmp(&b.path));
        for schema in schemas {
            out.push_str("\n[[schema]]\n");
            out.push_str(&format!("path = {}\n", quote(&schema.path)));
            out.push_str(&format!("sha256 = {}\n", quote(&schema.sha256)));
            out.push_str(&format!("folder = {}\n", quote(&schema.folder)));
            if schema.warnings > 0 {
                out.push_str(&format!("warnings = {}\n", schema.warnings));
            }
            for (key, list) in [("imports", &schema.imports), ("outputs", &schema.outputs)] {
                let mut list: Vec<&FileHash> = list.iter().collect();
                list.sort();
                if list.is_empty() {
                    out.push_str(&format!("{key} = []\n"));
                    continue;
                }
                out.push_str(&format!("{key} = [\n"));
                for entry in list {
                    out.push_str(&format!(
                        "    {{ path = {}, sha256 = {} }},\n",
                        quote(&entry.path),
                        quote(&entry.sha256)
                    ));
                }
                out.push_str("]\n");
            }
            if !schema.options.is_empty() {
                out.push_str("\n[schema.options]\n");
                for (name, value) in &schema.options {
                    out.push_str(&format!("{name} = {value}\n"));
                }
            }
        }
        out
    }

    /// Every output path the lockfile records, with its hash.
    pub fn outputs(&self) -> impl Iterator<Item = &FileHash> {
        self.schemas.iter().flat_map(|schema| schema.outputs.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiler_names_its_version_and_its_generator() {
        let compiler = compiler_version();
        let fingerprint = compiler
            .strip_prefix(&format!("blinkblox {}+generator.", env!("CARGO_PKG_VERSION")))
            .unwrap_or_else(|| panic!("{compiler}"));
        assert_eq!(fingerprint.len(), 12, "{compiler}");
        assert!(fingerprint.chars().all(|c| c.is_ascii_hexdigit()), "{compiler}");
    }

    fn sample() -> Lockfile {
        let mut options = BTreeMap::new();
        options.insert("Casing".to_string(), toml::Value::String("Camel".into()));
        options.insert("MaxPacketSize".to_string(), toml::Value::Integer(16384));
        options.insert("WriteValidations".to_string(), toml::Value::Boolean(false));
        Lockfile {
            compiler: compiler_version(),
            manifest: content_hash(b"[schemas]"),
            output: "src/shared/Net".into(),
            server_output: None,
            rojo_project: Some(FileHash {
                path: "default.project.json".into(),
                sha256: content_hash(b"{}"),
            }),
            package: Some(LockedPackage {
                name: "studio/net".into(),
                version: "0.1.0".into(),
                sha256: content_hash(b"zip"),
            }),
            schemas: vec![LockedSchema {
                path: "net/combat.blink".into(),
                sha256: content_hash(b"event A {}"),
                folder: "src/shared/Net/combat".into(),
                imports: vec![FileHash {
                    path: "net/common.blink".into(),
                    sha256: content_hash(b""),
                }],
                outputs: vec![
                    FileHash {
                        path: "src/shared/Net/combat/Server.luau".into(),
                        sha256: content_hash(b"s"),
                    },
                    FileHash {
                        path: "src/shared/Net/combat/Client.luau".into(),
                        sha256: content_hash(b"c"),
                    },
                ],
                options,
                warnings: 0,
            }],
            intact: true,
        }
    }

    #[test]
    fn render_then_parse_round_trips_in_sorted_order() {
        let lock = sample();
        let text = lock.render();
        assert!(text.starts_with("# This file is generated by `blinkblox sync`"));
        let client = text.find("Client.luau").expect("client");
        let server = text.find("Server.luau").expect("server");
        assert!(client < server, "outputs are sorted");
        let parsed = Lockfile::parse(&text).expect("parse");
        assert_eq!(parsed.render(), text);
        assert_eq!(parsed.schemas[0].options["Casing"], toml::Value::String("Camel".into()));
    }

    #[test]
    fn hashes_ignore_line_endings() {
        assert_eq!(content_hash(b"a\r\nb\r\n"), content_hash(b"a\nb\n"));
        assert_ne!(content_hash(b"a\rb"), content_hash(b"a\nb"));
        assert_eq!(content_hash(b"").len(), 64);
        assert_eq!(
            content_hash(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn hashing_matches_replacing_crlf_first() {
        let reference = |text: &str| {
            let digest = Sha256::digest(text.replace("\r\n", "\n").as_bytes());
            digest.iter().map(|b| format!("{b:02x}")).collect::<String>()
        };
        let long = "0123456789abcdef\r\n".repeat(7) + "tail\r";
        for text in [
            "",
            "\r",
            "\r\n",
            "a\r\r\n",
            "\r\r",
            "x\ny\r\nz\r",
            "\n\r\n\r\r\nend",
            "12345678\r\n",
            &long,
        ] {
            assert_eq!(content_hash(text.as_bytes()), reference(text), "{text:?}");
        }
    }

    #[test]
    fn finds_the_first_cr_at_any_offset() {
        for len in 0..40 {
            for at in 0..len {
                let mut bytes = vec![b'x'; len];
                bytes[at] = b'\r';
                assert_eq!(find_cr(&bytes), Some(at), "len {len}, at {at}");
            }
            assert_eq!(find_cr(&vec![0x8d; len]), None);
            assert_eq!(find_cr(&vec![0x0e; len]), None);
        }
    }

    #[test]
    fn malformed_lockfiles_say_where() {
        let err = Lockfile::parse("version = 1\ncompiler = 3\nmanifest = \"x\"\noutput = \"o\"\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        let err = Lockfile::parse("version = 9\ncompiler = \"x\"\nmanifest = \"x\"\noutput = \"o\"\n").unwrap_err();
        assert!(err.contains("format version 9"), "{err}");
    }
}
