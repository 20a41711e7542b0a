//! The package zip, laid out as `wally package` lays it out and byte-for-byte
//! reproducible:
//!
//! - the zip root is the package root, so `wally.toml` is a top-level entry;
//! - Wally's walk rules: top-level hidden entries (`.*`), `wally.lock`, `Packages`,
//!   `ServerPackages`, `DevPackages` and the `exclude` globs are left out (an excluded
//!   folder with everything in it); a path matching an `include` glob is kept anyway;
//! - every folder gets a directory entry before its contents, `/`-separated;
//! - `default.project.json` is re-serialised pretty-printed with its `name` set to the
//!   package name, as Wally does;
//! - unlike Wally: entries in sorted walk order (siblings by name), every timestamp
//!   1980-01-01 00:00:00, fixed permissions and host system, so the same files give the
//!   same bytes on every machine;
//! - at most 2 MiB, the limit Wally's CLI and registry enforce.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Write};

use globset::{Glob, GlobSet, GlobSetBuilder};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, System, ZipWriter};

use crate::files::PackageFiles;

/// Wally refuses to publish a package zip larger than this.
pub const MAX_PACKAGE_BYTES: usize = 2 * 1024 * 1024;

/// Paths `wally package` never packs (matched against the path relative to the root).
pub const ALWAYS_EXCLUDED: [&str; 5] = [".*", "wally.lock", "Packages", "ServerPackages", "DevPackages"];

/// Without these the registry cannot read the package, or Rojo cannot build it.
pub const REQUIRED_FILES: [&str; 3] = ["wally.toml", "default.project.json", "src/init.luau"];

/// One zip entry, in write order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A folder, `/`-separated, without the trailing slash.
    Directory(String),
    File(String),
}

impl Entry {
    pub fn path(&self) -> &str {
        match self {
            Entry::Directory(path) | Entry::File(path) => path,
        }
    }
}

/// A folder of the walk: sub-folders and files by name (so iteration is the sorted walk).
#[derive(Default)]
struct Folder {
    folders: BTreeMap<String, Folder>,
    files: BTreeSet<String>,
}

enum Child<'a> {
    Folder(&'a Folder),
    File,
}

impl Folder {
    fn children(&self) -> Vec<(&String, Child<'_>)> {
        // Siblings in name order, whatever their kind, as a name-sorted directory walk gives.
        let mut children: Vec<(&String, Child<'_>)> = self
            .folders
            .iter()
            .map(|(name, folder)| (name, Child::Folder(folder)))
            .chain(self.files.iter().map(|name| (name, Child::File)))
            .collect();
        children.sort_by(|a, b| a.0.cmp(b.0));
        children
    }
}

fn glob_set(patterns: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        builder.add(Glob::new(pattern).map_err(|err| format!("invalid glob \"{pattern}\": {err}"))?);
    }
    builder.build().map_err(|err| err.to_string())
}

/// The entries `wally package` would write for `files` under the package's `include`
/// and `exclude` globs, in the order this crate writes them.
pub fn entries(files: &PackageFiles, include: &[String], exclude: &[String]) -> Result<Vec<Entry>, String> {
    let mut root = Folder::default();
    for path in files.keys() {
        let mut segments: Vec<&str> = path.split('/').collect();
        let Some(file_name) = segments.pop() else {
            continue;
        };
        let mut folder = &mut root;
        for segment in segments {
            folder = folder.folders.entry(segment.to_string()).or_default();
        }
        folder.files.insert(file_name.to_string());
    }
    let includes = glob_set(include)?;
    let mut all_excludes: Vec<String> = exclude.to_vec();
    all_excludes.extend(ALWAYS_EXCLUDED.iter().map(|s| s.to_string()));
    let excludes = glob_set(&all_excludes)?;
    let kept = |path: &str| (!include.is_empty() && includes.is_match(path)) || !excludes.is_match(path);

    let mut out = Vec::new();
    walk(&root, "", &kept, &mut out);
    Ok(out)
}

fn walk(folder: &Folder, prefix: &str, kept: &dyn Fn(&str) -> bool, out: &mut Vec<Entry>) {
    for (name, child) in folder.children() {
        let path = format!("{prefix}{name}");
        if !kept(&path) {
            continue;
        }
        match child {
            Child::Folder(sub) => {
                out.push(Entry::Directory(path.clone()));
                walk(sub, &format!("{path}/"), kept, out);
            }
            Child::File => out.push(Entry::File(path)),
        }
    }
}

/// `default.project.json` as Wally packs it: parsed, `name` set to the package name,
/// pretty-printed.
pub fn packed_project_json(contents: &[u8], package_name: &str) -> Result<Vec<u8>, String> {
    let mut value: serde_json::Value =
        serde_json::from_slice(contents).map_err(|err| format!("default.project.json is not valid JSON: {err}"))?;
    let Some(object) = value.as_object_mut() else {
        return Err("default.project.json is not a JSON object".to_string());
    };
    if !object.get("name").is_some_and(serde_json::Value::is_string) {
        return Err("default.project.json has no string `name` (Wally requires one)".to_string());
    }
    object.insert("name".to_string(), serde_json::Value::String(package_name.to_string()));
    serde_json::to_vec_pretty(&value).map_err(|err| err.to_string())
}

/// Writes the zip. `package_name` is the part after the `/`.
pub fn write_zip(
    files: &PackageFiles,
    package_name: &str,
    include: &[String],
    exclude: &[String],
) -> Result<Vec<u8>, String> {
    let fixed = SimpleFileOptions::default()
        .last_modified_time(DateTime::DEFAULT)
        .system(System::Unix);
    let file_options = fixed
        .compression_method(CompressionMethod::Deflated)
        .unix_permissions(0o644);
    let folder_options = fixed.unix_permissions(0o755);

    let entries = entries(files, include, exclude)?;
    for required in REQUIRED_FILES {
        if files.contains_key(required) && !entries.iter().any(|entry| entry.path() == required) {
            return Err(format!(
                "`[package] exclude` leaves `{required}` out of the zip, and an installed package needs it"
            ));
        }
    }
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let zip_error = |err: zip::result::ZipError| format!("could not write the zip: {err}");
    for entry in entries {
        match entry {
            Entry::Directory(path) => writer.add_directory(path, folder_options).map_err(zip_error)?,
            Entry::File(path) => {
                let Some(contents) = files.get(&path) else {
                    continue;
                };
                let contents = if path == "default.project.json" {
                    packed_project_json(contents, package_name)?
                } else {
                    contents.clone()
                };
                writer.start_file(path.as_str(), file_options).map_err(zip_error)?;
                writer
                    .write_all(&contents)
                    .map_err(|err| format!("could not write `{path}` into the zip: {err}"))?;
            }
        }
    }
    let cursor = writer.finish().map_err(zip_error)?;
    Ok(cursor.into_inner())
}

/// The size check Wally's CLI makes before publishing; the error lists the largest files.
pub fn check_size(zip_len: usize, files: &PackageFiles) -> Result<(), String> {
    if zip_len <= MAX_PACKAGE_BYTES {
        return Ok(());
    }
    let mut largest: Vec<(&String, usize)> = files.iter().map(|(path, bytes)| (path, bytes.len())).collect();
    largest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let listed: Vec<String> = largest
        .iter()
        .take(3)
        .map(|(path, len)| format!("{path} ({})", human_size(*len)))
        .collect();
    Err(format!(
        "the package zip is {} ({zip_len} bytes), over Wally's limit of 2 MiB ({MAX_PACKAGE_BYTES} bytes); largest files: {}",
        human_size(zip_len),
        listed.join(", ")
    ))
}

/// `12.3 KiB`, `2.10 MiB`.
pub fn human_size(bytes: usize) -> String {
    const KIB: f64 = 1024.0;
    let value = bytes as f64;
    if value < KIB {
        format!("{bytes} B")
    } else if value < KIB * KIB {
        format!("{:.1} KiB", value / KIB)
    } else {
        format!("{:.2} MiB", value / (KIB * KIB))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&str]) -> PackageFiles {
        paths
            .iter()
            .map(|p| (p.to_string(), format!("-- {p}").into_bytes()))
            .collect()
    }

    fn paths(entries: &[Entry]) -> Vec<String> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Directory(p) => format!("{p}/"),
                Entry::File(p) => p.clone(),
            })
            .collect()
    }

    #[test]
    fn walk_is_sorted_by_name_per_folder_with_folders_before_their_contents() {
        let all = files(&[
            "wally.toml",
            "src/a-b/x.luau",
            "src/a/y.luau",
            "src/init.luau",
            "default.project.json",
        ]);
        let walked = paths(&entries(&all, &[], &[]).expect("entries"));
        assert_eq!(
            walked,
            vec![
                "default.project.json",
                "src/",
                "src/a/",
                "src/a/y.luau",
                "src/a-b/",
                "src/a-b/x.luau",
                "src/init.luau",
                "wally.toml"
            ]
        );
    }

    #[test]
    fn wally_exclusions_and_include_overrides() {
        let all = files(&[
            ".hidden",
            ".git/config",
            "wally.lock",
            "Packages/x.lua",
            "ServerPackages/y.lua",
            "DevPackages/z.lua",
            "src/.keep",
            "src/a.d.ts",
            "src/init.luau",
            "wally.toml",
        ]);
        let walked = paths(&entries(&all, &[], &["**/*.d.ts".to_string()]).expect("entries"));
        // Wally's `.*` only matches top-level names: a nested dotfile is packed.
        assert_eq!(walked, vec!["src/", "src/.keep", "src/init.luau", "wally.toml"]);
        let walked = paths(&entries(&all, &["wally.lock".to_string()], &[]).expect("entries"));
        assert!(walked.contains(&"wally.lock".to_string()), "{walked:?}");
    }

    #[test]
    fn project_json_is_renamed_and_pretty_printed() {
        let packed = packed_project_json(br#"{"name":"game","tree":{"$path":"src"}}"#, "net").expect("packed");
        assert_eq!(
            String::from_utf8(packed).expect("utf8"),
            "{\n  \"name\": \"net\",\n  \"tree\": {\n    \"$path\": \"src\"\n  }\n}"
        );
        assert!(packed_project_json(b"[1]", "net").is_err());
        assert!(
            packed_project_json(b"{\"tree\":{}}", "net")
                .unwrap_err()
                .contains("`name`")
        );
    }

    #[test]
    fn same_files_give_the_same_bytes_and_size_is_checked() {
        let all = files(&["wally.toml", "src/init.luau", "default.project.json"]);
        let mut with_project = all.clone();
        with_project.insert("default.project.json".into(), br#"{"name":"x","tree":{}}"#.to_vec());
        let first = write_zip(&with_project, "net", &[], &[]).expect("zip");
        let second = write_zip(&with_project.clone(), "net", &[], &[]).expect("zip");
        assert_eq!(first, second);
        assert!(check_size(first.len(), &all).is_ok());
        let err = check_size(MAX_PACKAGE_BYTES + 1, &all).unwrap_err();
        assert!(err.contains("over Wally's limit of 2 MiB (2097152 bytes)"), "{err}");
        assert_eq!(human_size(1536), "1.5 KiB");
    }

    #[test]
    fn excluding_a_file_the_package_needs_is_an_error() {
        let all = files(&["wally.toml", "src/init.luau", "src/a/Server.luau"]);
        let err = write_zip(&all, "net", &[], &["src/init.luau".to_string()]).unwrap_err();
        assert!(err.contains("`src/init.luau`"), "{err}");
        assert!(write_zip(&all, "net", &[], &["src/a/*".to_string()]).is_ok());
    }
}
