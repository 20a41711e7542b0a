//! Unpacking downloaded zips and tarballs without trusting them.
//!
//! Every entry name is checked before anything is written: no `..`, no absolute path, no drive
//! prefix (`C:`), no NUL; symlinks and hard links are refused outright, as are devices and FIFOs.
//! Unpacking goes into a fresh folder that the caller renames into place, so a refused archive
//! leaves nothing behind. Sizes are capped so a zip bomb cannot fill the disk.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use super::BenchError;

/// Most bytes one tool's archive may unpack to: a tool's source is a few megabytes, and a
/// release archive holds one binary.
const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;

fn too_large(url: &str, what: &str) -> BenchError {
    BenchError::new(format!(
        "refused the archive from {url}: {what}, more than the 64 MiB a tool may unpack to"
    ))
    .with_help("nothing was written; a tool's archive this large is not a tool (an archive that expands enormously is an attack)")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    Zip,
    TarGz,
    /// Neither: a bare file (a release binary).
    Plain,
}

/// Recognises an archive by its first bytes, refusing HTML error pages and empty files.
pub fn detect(path: &Path, url: &str) -> Result<ArchiveKind, BenchError> {
    let mut head = [0u8; 512];
    let mut file = File::open(path).map_err(|err| BenchError::io("read", path, &err))?;
    let mut filled = 0;
    while filled < head.len() {
        match file.read(&mut head[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(err) => return Err(BenchError::io("read", path, &err)),
        }
    }
    let head = &head[..filled];
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Ok(ArchiveKind::Zip);
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        return Ok(ArchiveKind::TarGz);
    }
    if head.is_empty() {
        return Err(BenchError::new(format!("{url} sent an empty file, not an archive")));
    }
    let text = String::from_utf8_lossy(head).trim_start().to_ascii_lowercase();
    if text.starts_with("<!doctype html") || text.starts_with("<html") || text.starts_with('<') {
        return Err(BenchError::new(format!("{url} sent an HTML page, not an archive"))
            .with_help("check --registry-url / --github-url: they must point at the API and download hosts"));
    }
    Ok(ArchiveKind::Plain)
}

/// Checks an archive entry or a path from tools.toml: relative, inside its folder, portable.
/// Returns the cleaned relative path (without `.` components).
pub fn safe_relative_path(name: &str) -> Result<PathBuf, String> {
    if name.contains('\0') {
        return Err("contains a NUL byte".to_string());
    }
    if name.starts_with('/') || name.starts_with('\\') {
        return Err("is an absolute path".to_string());
    }
    let mut clean = PathBuf::new();
    for part in name.split(['/', '\\']) {
        match part {
            "" | "." => continue,
            ".." => return Err("goes up with `..`, out of its folder".to_string()),
            _ if part.contains(':') => return Err("has a drive prefix or `:`".to_string()),
            _ => clean.push(part),
        }
    }
    // Belt and braces: whatever the platform's own parser sees must be plain names too.
    if clean.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err("is not a plain relative path".to_string());
    }
    if clean.as_os_str().is_empty() {
        return Err("is empty".to_string());
    }
    Ok(clean)
}

/// Unpacks `archive` into `dest` (which must not exist yet). With `strip_top`, the archive's
/// entries must share one top-level folder, which is removed (GitHub source archives hold
/// `<repo>-<ref>/…`). Returns the number of files written.
pub fn unpack(archive: &Path, kind: ArchiveKind, dest: &Path, strip_top: bool, url: &str) -> Result<usize, BenchError> {
    fs::create_dir_all(dest).map_err(|err| BenchError::io("create", dest, &err))?;
    let mut sink = Sink {
        dest,
        strip_top,
        top: None,
        written: 0,
        files: 0,
        url,
    };
    match kind {
        ArchiveKind::Zip => unpack_zip(archive, &mut sink)?,
        ArchiveKind::TarGz => unpack_tar_gz(archive, &mut sink)?,
        ArchiveKind::Plain => {
            return Err(BenchError::new(format!("{url} is not a zip or tar.gz archive")));
        }
    }
    if sink.files == 0 {
        return Err(BenchError::new(format!("the archive from {url} holds no files")));
    }
    Ok(sink.files)
}

/// Where entries go, with the checks every entry passes.
struct Sink<'a> {
    dest: &'a Path,
    strip_top: bool,
    top: Option<String>,
    written: u64,
    files: usize,
    url: &'a str,
}

impl Sink<'_> {
    fn refuse(&self, name: &str, why: &str) -> BenchError {
        BenchError::new(format!("refused the archive from {}: entry `{name}` {why}", self.url))
            .with_help("nothing was installed; an archive whose entries could escape their folder is never unpacked")
    }

    /// The destination of entry `name`, or `None` for the stripped top folder itself.
    fn target(&mut self, name: &str) -> Result<Option<PathBuf>, BenchError> {
        let relative = safe_relative_path(name).map_err(|why| self.refuse(name, &why))?;
        if !self.strip_top {
            return Ok(Some(self.dest.join(relative)));
        }
        let mut parts = relative.components();
        let first = parts
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        match &self.top {
            None => self.top = Some(first),
            Some(top) if *top != first => {
                let message = format!("is outside the archive's top-level folder `{top}`");
                return Err(self.refuse(name, &message));
            }
            Some(_) => {}
        }
        let rest = parts.as_path();
        if rest.as_os_str().is_empty() {
            return Ok(None);
        }
        Ok(Some(self.dest.join(rest)))
    }

    fn dir(&mut self, name: &str) -> Result<(), BenchError> {
        if let Some(path) = self.target(name)? {
            fs::create_dir_all(&path).map_err(|err| BenchError::io("create", &path, &err))?;
        }
        Ok(())
    }

    /// Writes entry `name`, which says it holds `declared` bytes.
    fn file(&mut self, name: &str, reader: &mut dyn Read, declared: u64, executable: bool) -> Result<(), BenchError> {
        let Some(path) = self.target(name)? else {
            return Err(self.refuse(name, "is a file where the top-level folder should be"));
        };
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|err| BenchError::io("create", parent, &err))?;
        }
        let budget = MAX_UNPACKED_BYTES.saturating_sub(self.written);
        if declared > budget {
            return Err(too_large(
                self.url,
                &format!("entry `{name}` says it is {declared} bytes"),
            ));
        }
        let mut out = File::create(&path).map_err(|err| BenchError::io("create", &path, &err))?;
        // No more than the entry says it holds, whatever it really holds.
        let copied = std::io::copy(&mut reader.take(declared + 1), &mut out).map_err(|err| {
            BenchError::new(format!(
                "could not unpack `{name}` from {} to `{}`: {err}",
                self.url,
                path.display()
            ))
        })?;
        if copied > declared {
            return Err(self.refuse(name, &format!("holds more than the {declared} bytes it says")));
        }
        out.flush().map_err(|err| BenchError::io("write", &path, &err))?;
        self.written += copied;
        self.files += 1;
        if executable {
            make_executable(&path)?;
        }
        Ok(())
    }
}

fn unpack_zip(archive: &Path, sink: &mut Sink<'_>) -> Result<(), BenchError> {
    let file = File::open(archive).map_err(|err| BenchError::io("read", archive, &err))?;
    let bad = |err: zip::result::ZipError| BenchError::new(format!("the zip from {} is damaged: {err}", sink.url));
    let mut zip = zip::ZipArchive::new(file).map_err(bad)?;
    // Before anything is written: what the entries say they hold, together.
    let mut declared: u64 = 0;
    for index in 0..zip.len() {
        let entry = zip.by_index_raw(index).map_err(bad)?;
        declared = declared.saturating_add(entry.size());
    }
    if declared > MAX_UNPACKED_BYTES {
        return Err(too_large(
            sink.url,
            &format!("its entries say they hold {declared} bytes"),
        ));
    }
    for index in 0..zip.len() {
        let mut entry = zip
            .by_index(index)
            .map_err(|err| BenchError::new(format!("the zip from {} is damaged: {err}", sink.url)))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if entry.is_symlink() {
            return Err(sink.refuse(&name, "is a symbolic link"));
        }
        if entry.is_dir() {
            sink.dir(&name)?;
            continue;
        }
        let executable = entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
        let size = entry.size();
        sink.file(&name, &mut entry, size, executable)?;
    }
    Ok(())
}

fn unpack_tar_gz(archive: &Path, sink: &mut Sink<'_>) -> Result<(), BenchError> {
    // Before anything is written: gzip's trailer records the unpacked size (modulo 4 GiB, so
    // a larger bomb is still caught by the checks while writing).
    if let Some(size) = gzip_declared_size(archive)
        && size > MAX_UNPACKED_BYTES
    {
        // The trailer of a file cut short is whatever bytes ended up last: decompressing
        // (up to the cap, writing nothing) tells a damaged file from a real bomb.
        return Err(match unpacked_past_cap(archive) {
            Err(err) => BenchError::new(format!(
                "the tarball from {} is damaged (cut short, or not gzip): {err}",
                sink.url
            )),
            Ok(true) => too_large(sink.url, &format!("it says it unpacks to {size} bytes")),
            Ok(false) => BenchError::new(format!(
                "the tarball from {} is damaged: its trailer says it unpacks to {size} bytes, but it holds fewer",
                sink.url
            )),
        });
    }
    let file = File::open(archive).map_err(|err| BenchError::io("read", archive, &err))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let damaged = |err: std::io::Error| BenchError::new(format!("the tarball from {} is damaged: {err}", sink.url));
    let entries = tar.entries().map_err(damaged)?;
    for entry in entries {
        let mut entry =
            entry.map_err(|err| BenchError::new(format!("the tarball from {} is damaged: {err}", sink.url)))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        match kind {
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader => continue,
            tar::EntryType::Directory => sink.dir(&name)?,
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                let executable = entry.header().mode().is_ok_and(|mode| mode & 0o111 != 0);
                let size = entry
                    .header()
                    .size()
                    .map_err(|err| BenchError::new(format!("the tarball from {} is damaged: {err}", sink.url)))?;
                sink.file(&name, &mut entry, size, executable)?;
            }
            tar::EntryType::Symlink => return Err(sink.refuse(&name, "is a symbolic link")),
            tar::EntryType::Link => return Err(sink.refuse(&name, "is a hard link")),
            other => return Err(sink.refuse(&name, &format!("is a special file ({other:?})"))),
        }
    }
    Ok(())
}

/// Whether the gzip file unpacks to more than [`MAX_UNPACKED_BYTES`], reading no more than
/// that; an error when the stream is damaged or ends early.
fn unpacked_past_cap(archive: &Path) -> std::io::Result<bool> {
    let file = File::open(archive)?;
    let mut capped = flate2::read::GzDecoder::new(file).take(MAX_UNPACKED_BYTES + 1);
    let unpacked = std::io::copy(&mut capped, &mut std::io::sink())?;
    Ok(unpacked > MAX_UNPACKED_BYTES)
}

/// The unpacked size a gzip file's trailer records (its last four bytes, little-endian).
fn gzip_declared_size(archive: &Path) -> Option<u64> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(archive).ok()?;
    file.seek(SeekFrom::End(-4)).ok()?;
    let mut trailer = [0u8; 4];
    file.read_exact(&mut trailer).ok()?;
    Some(u64::from(u32::from_le_bytes(trailer)))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), BenchError> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(|err| BenchError::io("set permissions on", path, &err))
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> Result<(), BenchError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names_must_stay_inside() {
        assert_eq!(
            safe_relative_path("src/./init.luau"),
            Ok(PathBuf::from("src/init.luau"))
        );
        assert!(safe_relative_path("../evil").is_err());
        assert!(safe_relative_path("a/../../evil").is_err());
        assert!(safe_relative_path("/etc/passwd").is_err());
        assert!(safe_relative_path("\\\\server\\share").is_err());
        assert!(safe_relative_path("C:/Windows").is_err());
        assert!(safe_relative_path("a\\..\\..\\evil").is_err());
        assert!(safe_relative_path("a\0b").is_err());
        assert!(safe_relative_path("./").is_err());
    }
}
