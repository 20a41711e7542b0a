//! How the Roblox tool managers pick a release asset for the machine they run on, written
//! down from their sources (rules restated in our words, not their code), so the release
//! workflow's asset names can be checked without a network.
//!
//! Rokit 1.2.0 (`rojo-rbx/rokit`):
//! - `lib/sources/artifact/util.rs` peels at most two trailing extensions off the asset
//!   name, and only the archive ones (`zip`, `tar`, `gz`, `tgz`, `xz`, `txz`); what is left
//!   is the name the descriptor is read from. `format.rs` takes the format from the last
//!   extension (`zip` is a zip; `tar.gz`/`tgz` a gzipped tar, …).
//! - `lib/descriptor/os.rs` lowercases the name and looks first for a substring
//!   (`windows`; `macos`, `darwin`, `apple`; `linux`, `ubuntu`, `debian`, `fedora`, in that
//!   order), then for a whole word — words split at whitespace, `-` and `_`
//!   (`lib/util/str.rs`) — among `win`, `win32`, `win64`, `mac`, `osx`. No OS, no match:
//!   the asset is skipped.
//! - `lib/descriptor/arch.rs` does the same for the architecture: substrings `aarch64`,
//!   `arm64`, `armv9` (arm64), then `x86-64`, `x86_64`, `amd64`, `win64`, `win-x64` (x64),
//!   `arm32`, `armv7` (arm32), `i686`, `i386`, `win32`, `win-x86` (x86); then whole words
//!   `x64`, `win` (x64), `arm` (arm32), `x86` (x86).
//! - `lib/descriptor/mod.rs` calls an asset compatible when OS and arch equal the host's,
//!   or when a 64-bit Windows/Linux host meets an x86 asset, or an arm64 Mac an x64 one;
//!   exact matches sort first.
//! - `lib/sources/artifact/sorting.rs` then prefers the asset whose words, less the words
//!   that are an OS, an arch, a semver or a number, are exactly the tool's name.
//! - `lib/sources/extraction.rs` takes from the archive the file named like the tool
//!   (with `.exe` on Windows), scoring a full-name match highest.
//!
//! Aftman 0.3 (`LPGhatguy/aftman`):
//! - `src/tool_source/github.rs` only considers `.zip` assets.
//! - `src/tool_source/mod.rs` (`Asset::from_name_url`) lowercases the name and tests
//!   substrings: `windows`, `win32`, `win64` / `macos`, `osx`, `darwin` / `linux`, `ubuntu`
//!   for the OS; `x86-64`, `x86_64`, `x64`, `amd64`, `win64` (x64), then `x86`, `i686`,
//!   `win32`, `i386` (x86), then `aarch64`, `arm64` (arm64), then `arm`, `arm32` for the
//!   arch. Its compatibility table knows arm64 only on macOS, so Aftman installs the
//!   x86_64 and macOS builds; Rokit installs all six.
//! - `src/tool_storage.rs` installs the zip entry named exactly `<tool><EXE_SUFFIX>`.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Windows,
    Macos,
    Linux,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arch {
    Arm64,
    X64,
    Arm32,
    X86,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Zip,
    Tar,
    TarGz,
    TarXz,
    Gz,
}

/// What a tool manager reads from one asset name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    pub os: Os,
    pub arch: Option<Arch>,
    pub format: Option<Format>,
}

fn words(name: &str) -> impl Iterator<Item = &str> {
    name.split(|c: char| c.is_ascii_whitespace() || c == '-' || c == '_')
}

/// Rokit: the name without its archive extensions, and those extensions.
pub fn rokit_split_extensions(name: &str) -> (&str, Vec<&str>) {
    const ARCHIVE_EXTENSIONS: [&str; 6] = ["zip", "tar", "gz", "tgz", "xz", "txz"];
    let mut stem = name;
    let mut extensions = Vec::new();
    while extensions.len() < 2 {
        let Some((rest, extension)) = stem.rsplit_once('.') else {
            break;
        };
        if rest.is_empty() || !ARCHIVE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(extension)) {
            break;
        }
        extensions.push(extension);
        stem = rest;
    }
    extensions.reverse();
    (stem, extensions)
}

fn rokit_format(extensions: &[&str]) -> Option<Format> {
    let is = |extension: &str, wanted: &str| extension.eq_ignore_ascii_case(wanted);
    match extensions {
        [.., last] if is(last, "zip") => Some(Format::Zip),
        [.., last] if is(last, "tar") => Some(Format::Tar),
        [.., last] if is(last, "tgz") => Some(Format::TarGz),
        [.., last] if is(last, "txz") => Some(Format::TarXz),
        [.., tar, gz] if is(tar, "tar") && is(gz, "gz") => Some(Format::TarGz),
        [.., tar, xz] if is(tar, "tar") && is(xz, "xz") => Some(Format::TarXz),
        [.., last] if is(last, "gz") => Some(Format::Gz),
        _ => None,
    }
}

pub fn rokit_os(name: &str) -> Option<Os> {
    let lower = name.to_lowercase();
    let substrings: [(Os, &[&str]); 3] = [
        (Os::Windows, &["windows"]),
        (Os::Macos, &["macos", "darwin", "apple"]),
        (Os::Linux, &["linux", "ubuntu", "debian", "fedora"]),
    ];
    let whole_words: [(Os, &[&str]); 2] = [(Os::Windows, &["win", "win32", "win64"]), (Os::Macos, &["mac", "osx"])];
    substrings
        .iter()
        .find(|(_, keys)| keys.iter().any(|key| lower.contains(key)))
        .or_else(|| words(&lower).find_map(|word| whole_words.iter().find(|(_, keys)| keys.contains(&word))))
        .map(|(os, _)| *os)
}

pub fn rokit_arch(name: &str) -> Option<Arch> {
    let lower = name.to_lowercase();
    let substrings: [(Arch, &[&str]); 4] = [
        (Arch::Arm64, &["aarch64", "arm64", "armv9"]),
        (Arch::X64, &["x86-64", "x86_64", "amd64", "win64", "win-x64"]),
        (Arch::Arm32, &["arm32", "armv7"]),
        (Arch::X86, &["i686", "i386", "win32", "win-x86"]),
    ];
    let whole_words: [(Arch, &[&str]); 3] = [
        (Arch::X64, &["x64", "win"]),
        (Arch::Arm32, &["arm"]),
        (Arch::X86, &["x86"]),
    ];
    substrings
        .iter()
        .find(|(_, keys)| keys.iter().any(|key| lower.contains(key)))
        .or_else(|| words(&lower).find_map(|word| whole_words.iter().find(|(_, keys)| keys.contains(&word))))
        .map(|(arch, _)| *arch)
}

/// Rokit's reading of a release asset's name; `None` when it finds no OS (then it never
/// picks the asset).
pub fn rokit_descriptor(asset_name: &str) -> Option<Descriptor> {
    let (stem, extensions) = rokit_split_extensions(asset_name);
    Some(Descriptor {
        os: rokit_os(stem)?,
        arch: rokit_arch(stem),
        format: rokit_format(&extensions),
    })
}

/// Rokit: whether a host runs what the asset holds (exactly, or by the emulation it allows).
pub fn rokit_compatible(host: (Os, Arch), asset: &Descriptor) -> bool {
    host.0 == asset.os
        && (asset.arch == Some(host.1)
            || matches!(
                (host.0, host.1, asset.arch),
                (Os::Windows | Os::Linux, Arch::X64, Some(Arch::X86)) | (Os::Macos, Arch::Arm64, Some(Arch::X64))
            ))
}

/// Rokit: how many words of the asset's name are not the tool's name (0 is a perfect
/// mention; OS, arch, semver and numeric words do not count).
pub fn rokit_non_tool_words(asset_stem: &str, tool: &str) -> usize {
    let is_noise = |word: &str| {
        rokit_arch(word).is_some()
            || rokit_os(word).is_some()
            || semver::Version::parse(word.trim_start_matches('v')).is_ok()
            || word.chars().all(char::is_numeric)
    };
    let name_words: Vec<&str> = words(asset_stem).filter(|word| !is_noise(word)).collect();
    let tool_words: Vec<&str> = words(tool).collect();
    let differing = name_words
        .iter()
        .zip(&tool_words)
        .filter(|(a, b)| !a.eq_ignore_ascii_case(b))
        .count();
    name_words.len().abs_diff(tool_words.len()) + differing
}

/// Aftman's reading of an asset name: `None` for an asset it does not consider (not a zip).
pub fn aftman_descriptor(asset_name: &str) -> Option<(Option<Os>, Option<Arch>)> {
    if !asset_name.ends_with(".zip") {
        return None;
    }
    let lower = asset_name.to_ascii_lowercase();
    let has = |keys: &[&str]| keys.iter().any(|key| lower.contains(key));
    let os = if has(&["windows", "win32", "win64"]) {
        Some(Os::Windows)
    } else if has(&["macos", "osx", "darwin"]) {
        Some(Os::Macos)
    } else if has(&["linux", "ubuntu"]) {
        Some(Os::Linux)
    } else {
        None
    };
    let arch = if has(&["x86-64", "x86_64", "x64", "amd64", "win64"]) {
        Some(Arch::X64)
    } else if has(&["x86", "i686", "win32", "i386"]) {
        Some(Arch::X86)
    } else if has(&["aarch64", "arm64"]) {
        Some(Arch::Arm64)
    } else if has(&["arm", "arm32"]) {
        Some(Arch::Arm32)
    } else {
        None
    };
    Some((os, arch))
}

/// The matchers agree with the examples their own tests give for real tools, so a
/// slip in restating a rule shows here rather than as a wrongly passing name.
#[test]
fn the_restated_rules_read_real_tool_names_as_the_managers_do() {
    assert_eq!(
        rokit_split_extensions("just-1.31.0-aarch64-apple-darwin.tar.gz"),
        ("just-1.31.0-aarch64-apple-darwin", vec!["tar", "gz"])
    );
    assert_eq!(
        rokit_split_extensions("a.with.dots.tar.gz.zip"),
        ("a.with.dots.tar", vec!["gz", "zip"])
    );
    assert_eq!(
        rokit_split_extensions("wally-v0.3.2-linux.zip"),
        ("wally-v0.3.2-linux", vec!["zip"])
    );
    for (name, os, arch) in [
        ("lune-0.8.6-macos-aarch64.zip", Os::Macos, Some(Arch::Arm64)),
        ("rojo-0.6.0-alpha.1-win64.zip", Os::Windows, Some(Arch::X64)),
        ("sentry-cli-Darwin-universal", Os::Macos, None),
        ("remodel-0.11.0-linux-x86_64.zip", Os::Linux, Some(Arch::X64)),
        (
            "just-1.28.0-arm-unknown-linux-musleabihf.tar.gz",
            Os::Linux,
            Some(Arch::Arm32),
        ),
        ("sentry-cli-linux-i686-2.32.1.tgz", Os::Linux, Some(Arch::X86)),
    ] {
        let descriptor = rokit_descriptor(name).unwrap_or_else(|| panic!("{name}: no OS"));
        assert_eq!((descriptor.os, descriptor.arch), (os, arch), "{name}");
    }
    assert_eq!(rokit_descriptor("tool-myOS-x64.zip"), None);
    assert_eq!(rokit_descriptor("x.tar.gz").map(|d| d.format), None);
    assert_eq!(rokit_format(&["tar", "gz"]), Some(Format::TarGz));
    assert_eq!(rokit_non_tool_words("wally-v0.3.2-linux", "wally"), 0);
    assert_eq!(rokit_non_tool_words("sentry-cli-linux-i686-2.32.1", "sentry-cli"), 0);
    assert_ne!(rokit_non_tool_words("selene-light-0.27.1-linux", "selene"), 0);
    assert_ne!(rokit_non_tool_words("tooling-x86_64-linux", "tool"), 0);
    assert_eq!(aftman_descriptor("selene-0.27.1-linux.tar.gz"), None);
    assert_eq!(
        aftman_descriptor("rojo-7.4.0-windows.zip"),
        Some((Some(Os::Windows), None))
    );
}
