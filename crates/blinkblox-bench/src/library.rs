//! A runtime networking library's source folder mounted into a world as a ModuleScript tree,
//! laid out as Rojo would: `init.luau` (or `init.lua`) makes its folder the ModuleScript, other
//! `.luau`/`.lua` files are ModuleScripts named after their stem, and a file `X.luau` beside a
//! folder `X/` takes that folder's contents as its children (QuickNet's layout).
//!
//! The libraries require their parts by instance (`script.Parent.X`) or by string (`./X`,
//! `@self/X`), so each must find the same tree it finds in Studio; the runtime's mock resolves
//! both against the instances made here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::BenchError;
use blinkblox_luau::World;

/// A library file's text on its way in: given the file's path, returns what to mount.
pub(crate) type Transform<'a> = &'a dyn Fn(&Path, String) -> Result<String, BenchError>;

/// One ModuleScript of a library: its path below the library's root module (empty for the root
/// itself), one name per level, and its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryModule {
    pub path: Vec<String>,
    pub source: String,
}

/// A library read from disk: every module, parents before their children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    pub modules: Vec<LibraryModule>,
}

fn module_stem(path: &Path) -> Option<&str> {
    let extension = path.extension()?.to_str()?;
    if extension != "luau" && extension != "lua" {
        return None;
    }
    path.file_stem()?.to_str()
}

fn read_source(path: &Path, transform: Transform) -> Result<String, BenchError> {
    let text = std::fs::read_to_string(path).map_err(|err| {
        BenchError::io("read", path, &err).with_help("reinstall the tool: `blinkblox bench --download --tools NAME`")
    })?;
    transform(path, text)
}

/// The `init` file of a folder, if the folder is a module.
fn init_file(folder: &Path) -> Option<PathBuf> {
    ["init.luau", "init.lua"]
        .iter()
        .map(|name| folder.join(name))
        .find(|path| path.is_file())
}

impl Library {
    /// Reads the library whose root module is `entry` (a tool's `entry` in tools.toml, joined
    /// to its folder): an `init` file makes its folder the root; any other file is the root and
    /// takes the same-named sibling folder, if there is one, as its children.
    pub fn read(entry: &Path) -> Result<Library, BenchError> {
        Library::read_with(entry, &|_, text| Ok(text))
    }

    /// [`read`](Self::read), passing each file's text through `transform`.
    pub(crate) fn read_with(entry: &Path, transform: Transform) -> Result<Library, BenchError> {
        let Some(stem) = module_stem(entry) else {
            return Err(
                BenchError::new(format!("`{}` is not a Luau module (.luau or .lua)", entry.display()))
                    .with_help("point the tool's `entry` in benchmark/tools.toml at the library's main module"),
            );
        };
        if !entry.is_file() {
            return Err(
                BenchError::new(format!("the library module `{}` does not exist", entry.display()))
                    .with_help("install the tool with `blinkblox bench --download`, or pass --source NAME=PATH"),
            );
        }
        let mut modules = vec![LibraryModule {
            path: Vec::new(),
            source: read_source(entry, transform)?,
        }];
        let children_folder = if stem == "init" {
            entry.parent().map(Path::to_path_buf)
        } else {
            entry
                .parent()
                .map(|parent| parent.join(stem))
                .filter(|folder| folder.is_dir())
        };
        if let Some(folder) = children_folder {
            read_children(&folder, &[], transform, &mut modules)?;
        }
        Ok(Library { modules })
    }

    /// Makes the tree in `world` under the dotted path `at` (e.g. `ReplicatedStorage.ByteNet`),
    /// without running any of it. Under ReplicatedStorage on the server it replicates to the
    /// clients, which then require their own copies.
    pub fn mount(&self, world: &World, at: &str) -> mlua::Result<()> {
        for module in &self.modules {
            let mut path = at.to_string();
            for name in &module.path {
                path.push('.');
                path.push_str(name);
            }
            world.create_module_script(&path, &module.source)?;
        }
        Ok(())
    }
}

/// Adds the modules of `folder` (whose module path is `prefix`), parents first, in name order.
fn read_children(
    folder: &Path,
    prefix: &[String],
    transform: Transform,
    modules: &mut Vec<LibraryModule>,
) -> Result<(), BenchError> {
    let entries = std::fs::read_dir(folder).map_err(|err| BenchError::io("list", folder, &err))?;
    // Sorted so the tree (and any error) is the same on every machine.
    let mut children: BTreeMap<String, PathBuf> = BTreeMap::new();
    for entry in entries {
        let entry = entry.map_err(|err| BenchError::io("list", folder, &err))?;
        if let Some(name) = entry.file_name().to_str() {
            children.insert(name.to_string(), entry.path());
        }
    }
    for (name, path) in children {
        if path.is_dir() {
            let mut child = prefix.to_vec();
            child.push(name);
            if let Some(init) = init_file(&path) {
                modules.push(LibraryModule {
                    path: child.clone(),
                    source: read_source(&init, transform)?,
                });
                read_children(&path, &child, transform, modules)?;
            } else if contains_modules(&path) {
                read_children(&path, &child, transform, modules)?;
            }
            continue;
        }
        let Some(stem) = module_stem(&path) else { continue };
        if stem == "init" || stem.contains('.') {
            // The folder's own module, or a name a dotted instance path cannot hold (`x.spec`).
            continue;
        }
        let mut child = prefix.to_vec();
        child.push(stem.to_string());
        modules.push(LibraryModule {
            path: child,
            source: read_source(&path, transform)?,
        });
    }
    Ok(())
}

/// Whether a folder without an `init` file holds modules anywhere below it (it becomes a Folder).
fn contains_modules(folder: &Path) -> bool {
    walkdir::WalkDir::new(folder)
        .into_iter()
        .filter_map(Result::ok)
        .any(|entry| entry.file_type().is_file() && module_stem(entry.path()).is_some())
}
