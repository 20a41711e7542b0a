//! Helpers for the `package_*` tests: a temp copy of the example with a `[package]` table,
//! running `blinkblox package`, reading zips, and installing a zip the way `wally install`
//! does (the package's folder under `Packages/_Index/` and a link module beside it).

#![allow(dead_code)]

// Each test crate uses only some of these, like the rest of this module.
use crate::common::switch_arena_requires;
#[allow(unused_imports)]
pub use crate::common::{assert_arena_round, blinkblox, copy_dir, files_under, read, rojo_build, stderr, stdout};

use std::io::Read;
use std::path::{Path, PathBuf};

pub const SCOPE: &str = "blinkblox";
pub const NAME: &str = "arena-net";
pub const VERSION: &str = "0.1.0";
/// `scope_name@version`: the package folder, the zip's stem and the `_Index` folder.
pub const INDEX_FOLDER: &str = "blinkblox_arena-net@0.1.0";
/// The link file name a game gives the dependency (`ArenaNet = "blinkblox/arena-net@0.1.0"`).
pub const ALIAS: &str = "ArenaNet";

/// The `[package]` table the tests give the example when it has none.
pub const PACKAGE_TABLE: &str = "\n[package]\nname = \"blinkblox/arena-net\"\nversion = \"0.1.0\"\nrealm = \"shared\"\nlicense = \"MIT\"\ndescription = \"The arena example's network modules\"\nauthors = [\"BlinkBlox\"]\n";

/// A fresh copy of `examples/arena` at `<parent>/arena`: generated files removed, and the
/// `[package]` table above appended when the example's manifest has none.
pub fn example_copy(parent: &Path) -> PathBuf {
    let dir = parent.join("arena");
    crate::common::arena_copy(&dir);
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    if !text.lines().any(|line| line.trim() == "[package]") {
        std::fs::write(&manifest, text + PACKAGE_TABLE).expect("add [package]");
    }
    dir
}

pub fn package(dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    blinkblox(dir).arg("package").args(args).assert()
}

pub fn read_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

/// One zip entry as stored.
#[derive(Debug)]
pub struct ZipEntry {
    pub name: String,
    pub is_dir: bool,
    pub contents: Vec<u8>,
    pub modified: String,
    pub unix_mode: Option<u32>,
    pub deflated: bool,
}

/// Every entry of a zip, in archive order.
pub fn zip_entries(bytes: &[u8]) -> Vec<ZipEntry> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a valid zip");
    let mut out = Vec::new();
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).expect("zip entry");
        let mut contents = Vec::new();
        file.read_to_end(&mut contents).expect("read zip entry");
        out.push(ZipEntry {
            name: file.name().expect("entry name").to_string(),
            is_dir: file.is_dir(),
            contents,
            modified: file.last_modified().map(|time| time.to_string()).unwrap_or_default(),
            unix_mode: file.unix_mode(),
            deflated: file.compression() == zip::CompressionMethod::Deflated,
        });
    }
    out
}

/// The link file Wally writes for a root dependency in the same realm.
pub fn link_source(index_folder: &str, name: &str) -> String {
    format!("return require(script.Parent._Index[\"{index_folder}\"][\"{name}\"])\n")
}

/// Installs a package zip into `project` as `wally install` does for a shared root
/// dependency: the zip extracted as-is into `Packages/_Index/<scope>_<name>@<ver>/<name>/`,
/// and the link file `Packages/<Alias>.lua`.
pub fn install_like_wally(zip_bytes: &[u8], project: &Path) -> PathBuf {
    let packages = project.join("Packages");
    let target = packages.join("_Index").join(INDEX_FOLDER).join(NAME);
    std::fs::create_dir_all(&target).expect("create the _Index folder");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip_bytes)).expect("a valid zip");
    archive.extract(&target).expect("extract the package");
    std::fs::write(packages.join(format!("{ALIAS}.lua")), link_source(INDEX_FOLDER, NAME)).expect("write the link");
    target
}

/// A Luau function `(class, name, source, parent) -> Instance` in `world`, for mirroring an
/// installed package's files into the mock's DataModel.
pub fn instance_maker(world: &blinkblox_luau::World) -> mlua::Function {
    world
        .eval(
            "return function(class, name, source, parent)
                local instance = Instance.new(class)
                instance.Name = name
                if source ~= nil then instance.Source = source end
                instance.Parent = parent
                return instance
            end",
        )
        .expect("instance maker")
}

/// The example's script with its requires switched from the synced modules to the package
/// required at `package` (`ReplicatedStorage.Packages.ArenaNet` as Wally installs it).
pub fn using_the_package(script: &str, package: &str) -> String {
    // The example's server script finds its modules in ServerScriptService; the installed
    // package is under ReplicatedStorage, where Wally and pesde put shared packages.
    let script = if script.contains("local ReplicatedStorage =") {
        script.to_string()
    } else {
        script.replace(
            "local ServerScriptService = game:GetService(\"ServerScriptService\")",
            "local ReplicatedStorage = game:GetService(\"ReplicatedStorage\")",
        )
    };
    let out = switch_arena_requires(&script, |schema, side| format!("require({package}).{schema}.{side}"));
    assert!(
        !out.contains("Shared.Net") && !out.contains("Server.Net"),
        "every require was switched:\n{out}"
    );
    out
}
