//! A runtime library (ByteNet, Packet, QuickNet, Warp, Lync, NetRay, Jolt): no compiler, but a Luau source tree
//! mounted into every world as a ModuleScript tree ([`Library`]), from `--source NAME=PATH`
//! (with tools.toml's patches applied as it is read) or from what `--download` put, patched,
//! in `benchmark/tools/NAME/`. A library sends its packets on a frame event by itself, so its
//! rows count that frame's time as its flush.

use std::path::{Path, PathBuf};

use super::competitor::{Code, Competitor, Context, RivalsCode, RuntimeCode, origin_version};
use crate::BenchError;
use crate::library::Library;

/// A runtime library: what its file in [`crate::competitors`] declares.
pub struct RuntimeLibrary {
    /// Its `--tools` key and folder name.
    pub key: &'static str,
    /// The name the tables show.
    pub name: &'static str,
    /// Where it is mounted in every world (its adapter requires it from there). Under
    /// ReplicatedStorage on the server, so each client gets its own replicated copy.
    pub mount: &'static str,
}

impl Competitor for RuntimeLibrary {
    fn key(&self) -> &'static str {
        self.key
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn is_library(&self) -> bool {
        true
    }

    fn missing(&self, context: &Context) -> Option<String> {
        if self.installed_entry(context).is_some() {
            return None;
        }
        let (dir, _) = context.tool_dir(self.key);
        Some(format!(
            "not installed (no library in `{}`): run `blinkblox bench --download --tools {}`, or pass --source {}=PATH",
            dir.display(),
            self.key,
            self.key
        ))
    }

    fn provenance(&self, context: &Context, _runtime_rows: bool) -> String {
        let (dir, from_source) = context.tool_dir(self.key);
        let version = origin_version(&dir).unwrap_or_else(|| format!("from `{}`", dir.display()));
        let patched = if from_source {
            "tools.toml's patches applied as it was read"
        } else {
            "patched by --download"
        };
        format!("{version}, its source mounted as a ModuleScript tree ({patched})")
    }

    fn runtime_code(&self, context: &Context) -> Result<RuntimeCode, BenchError> {
        self.mounted(context)
    }

    fn is_rival(&self) -> bool {
        true
    }

    fn rivals_code(&self, context: &Context) -> Result<RivalsCode, BenchError> {
        self.mounted(context)
    }
}

impl RuntimeLibrary {
    /// The library's root module file, when the tool's folder holds it.
    pub fn installed_entry(&self, context: &Context) -> Option<PathBuf> {
        let declared = context.declared_tool(self.key).ok()?;
        let (dir, _) = context.tool_dir(self.key);
        let entry = dir.join(declared.entry?);
        entry.is_file().then_some(entry)
    }

    fn mounted<M>(&self, context: &Context) -> Result<Code<M>, BenchError> {
        Ok(Code::Library {
            library: self.load(context)?,
            at: self.mount,
        })
    }

    /// Reads the library. A folder given with `--source` is a plain checkout, so the patches of
    /// tools.toml are applied to the text read (each must match as declared); an installed folder
    /// was patched by `--download`.
    pub fn load(&self, context: &Context) -> Result<Library, BenchError> {
        let declared = context.declared_tool(self.key)?;
        let (dir, from_source) = context.tool_dir(self.key);
        let Some(entry) = declared.entry.as_deref() else {
            return Err(
                BenchError::new(format!("tool `{}` has no `entry` in benchmark/tools.toml", self.key))
                    .with_help("name the library's main module, e.g. entry = \"src/init.luau\""),
            );
        };
        let entry = dir.join(entry);
        if !from_source {
            return Library::read(&entry);
        }
        let applied = std::cell::RefCell::new(Vec::new());
        let patch = |path: &Path, mut text: String| -> Result<String, BenchError> {
            for (index, recipe) in declared.patches.iter().enumerate() {
                if path != dir.join(&recipe.file) {
                    continue;
                }
                let found = text.matches(recipe.find.as_str()).count();
                if found != recipe.count {
                    return Err(BenchError::new(format!(
                        "tool `{}`: patch on `{}` (tools.toml line {}) expected `{}` {} time(s) but found it {found} time(s) in `{}`",
                        self.key,
                        recipe.file,
                        recipe.line,
                        recipe.find,
                        recipe.count,
                        path.display()
                    ))
                    .with_help("the source given with --source is not the version tools.toml patches"));
                }
                text = text.replace(recipe.find.as_str(), &recipe.replace);
                applied.borrow_mut().push(index);
            }
            Ok(text)
        };
        let library = Library::read_with(&entry, &patch)?;
        let applied = applied.into_inner();
        if let Some((_, missing)) = declared
            .patches
            .iter()
            .enumerate()
            .find(|(index, _)| !applied.contains(index))
        {
            return Err(BenchError::new(format!(
                "tool `{}`: the patch on `{}` (tools.toml line {}) cannot apply: `{}` is not one of the library's modules",
                self.key,
                missing.file,
                missing.line,
                dir.join(&missing.file).display()
            ))
            .with_help("the source given with --source is not the version tools.toml patches"));
        }
        Ok(library)
    }
}
