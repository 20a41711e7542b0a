//! Reading schema files and following their imports.
//!
//! The loader reads the root file, parses it, and for every `import` (at any scope
//! depth) finds the imported file (`path`, `path.txt`, `path.blink`, as Blink does),
//! parses it once however often it is imported, and reports missing files and import
//! cycles at the `import` that causes them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use blinkblox_fs::path::{display_name, normalize};
use blinkblox_fs::read::{ReadError, read_file};

use crate::ast::{self, Item};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::parser;
use crate::source::{FileId, SourceFile, SourceMap, Span};

/// Imports nested deeper than this are reported rather than followed.
const MAX_IMPORT_DEPTH: usize = 32;
/// Files larger than this are refused before lexing.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// One parsed file.
#[derive(Debug)]
pub struct Module {
    pub file: FileId,
    pub ast: ast::File,
}

/// Every file of a schema, parsed, with each import resolved to its module.
#[derive(Debug, Default)]
pub struct Loaded {
    pub modules: Vec<Module>,
    /// `(importing file, start of the import's path span)` → the imported module, or
    /// `None` when it could not be loaded (the error is already reported).
    pub imports: HashMap<(FileId, u32), Option<usize>>,
    /// The root module (the file being checked), when it could be read.
    pub root: Option<usize>,
}

pub struct Loader<'a> {
    pub sources: &'a mut SourceMap,
    pub diagnostics: &'a mut Vec<Diagnostic>,
    loaded: Loaded,
    /// Canonical path → module, so a file imported twice is parsed once.
    by_path: HashMap<PathBuf, usize>,
}

impl<'a> Loader<'a> {
    pub fn new(sources: &'a mut SourceMap, diagnostics: &'a mut Vec<Diagnostic>) -> Loader<'a> {
        Loader {
            sources,
            diagnostics,
            loaded: Loaded::default(),
            by_path: HashMap::new(),
        }
    }

    pub fn finish(self) -> Loaded {
        self.loaded
    }

    /// Reads and loads the root file from disk.
    pub fn load_root_file(&mut self, path: &Path) {
        let name = display_name(path);
        match read_source(path) {
            Ok(text) => self.load_root_text(path, name, text),
            Err(problem) => {
                let file = self
                    .sources
                    .add(SourceFile::new(path.to_path_buf(), name.clone(), String::new()));
                let message = match &problem {
                    ReadError::Io(error) => format!("cannot read `{name}`: {error}"),
                    ReadError::TooLarge(bytes) => {
                        format!("`{name}` is {bytes} bytes, more than a schema can be ({MAX_FILE_BYTES} bytes)")
                    }
                    ReadError::NotAFile(kind) => format!("`{name}` is {kind}, not a schema file"),
                    ReadError::Endless(bytes) => format!(
                        "`{name}` is not a schema file: reading it gave {bytes} bytes, more than a schema can be ({MAX_FILE_BYTES} bytes)"
                    ),
                };
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::UNREADABLE_FILE,
                        message,
                        Span::new(file, 0, 0),
                        "could not read this file",
                    )
                    .with_note(fix(&problem)),
                );
            }
        }
    }

    /// Loads a root file whose text is already known (it may still import from disk,
    /// relative to `path`).
    pub fn load_root_text(&mut self, path: &Path, name: String, text: SourceText) {
        let module = self.load_text(path.to_path_buf(), name, text, &mut Vec::new());
        self.loaded.root = Some(module);
        if let Ok(canonical) = path.canonicalize() {
            self.by_path.insert(canonical, module);
        }
    }

    /// Adds the file, parses it and follows its imports. `chain` is the canonical
    /// paths of the files importing this one (for cycle detection).
    fn load_text(&mut self, path: PathBuf, name: String, text: SourceText, chain: &mut Vec<PathBuf>) -> usize {
        let (text, bad_utf8_at) = match text {
            SourceText::Text(text) => (text, None),
            SourceText::Bytes(bytes) => match String::from_utf8(bytes) {
                Ok(text) => (text, None),
                Err(error) => {
                    let valid = error.utf8_error().valid_up_to();
                    (String::from_utf8_lossy(error.as_bytes()).into_owned(), Some(valid))
                }
            },
        };
        // A byte-order mark (Windows editors write one) is not part of the schema.
        let (text, bad_utf8_at) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (rest.to_string(), bad_utf8_at.map(|offset| offset.saturating_sub(3))),
            None => (text, bad_utf8_at),
        };
        let file = self.sources.add(SourceFile::new(path.clone(), name, text));
        let source = self.sources.get(file);
        let module_ast = if let Some(offset) = bad_utf8_at {
            let end = source.text[offset..]
                .chars()
                .next()
                .map_or(offset, |c| offset + c.len_utf8());
            self.diagnostics.push(
                Diagnostic::error(
                    codes::NOT_UTF8,
                    format!("`{}` is not valid UTF-8", source.name),
                    Span::new(file, offset, end),
                    "this byte is not UTF-8",
                )
                .with_note("save the schema as UTF-8 text"),
            );
            ast::File::default()
        } else {
            let (module_ast, diagnostics) = parser::parse(file, &source.text);
            self.diagnostics.extend(diagnostics);
            module_ast
        };
        let index = self.loaded.modules.len();
        self.loaded.modules.push(Module { file, ast: module_ast });
        let mut imports = Vec::new();
        collect_imports(&self.loaded.modules[index].ast.items, &mut imports);
        if !imports.is_empty() {
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            chain.push(canonical);
            for import in imports {
                let target = self.load_import(&path, &import, chain);
                self.loaded.imports.insert((file, import.path_span.start), target);
            }
            chain.pop();
        }
        index
    }

    fn load_import(&mut self, importer: &Path, import: &ast::ImportItem, chain: &mut Vec<PathBuf>) -> Option<usize> {
        let candidates = import_candidates(importer, &import.path);
        // A regular file first; failing that, something else by that name (a folder, a
        // device), which reading refuses by what it is, rather than "cannot find".
        let found = candidates
            .iter()
            .find(|candidate| candidate.is_file())
            .or_else(|| candidates.iter().find(|candidate| candidate.exists()));
        let Some(found) = found else {
            let tried: Vec<String> = candidates.iter().map(|c| display_name(&normalize(c))).collect();
            self.diagnostics.push(
                Diagnostic::error(
                    codes::IMPORT_NOT_FOUND,
                    format!("cannot find the imported file `{}`", import.path),
                    import.path_span,
                    "no such file",
                )
                .with_note(format!("looked for {}", tried.join(", ")))
                .with_note("import paths are relative to the importing file's folder"),
            );
            return None;
        };
        let canonical = found.canonicalize().unwrap_or_else(|_| found.clone());
        if let Some(position) = chain.iter().position(|p| *p == canonical) {
            let mut names: Vec<String> = chain[position..].iter().map(|p| display_name(p)).collect();
            names.push(display_name(&canonical));
            self.diagnostics.push(
                Diagnostic::error(
                    codes::IMPORT_CYCLE,
                    format!("import cycle: {}", names.join(" → ")),
                    import.span,
                    "this import closes the cycle",
                )
                .with_note("files cannot import each other; move what they share into a third file both import"),
            );
            return None;
        }
        if let Some(&module) = self.by_path.get(&canonical) {
            return Some(module);
        }
        if chain.len() >= MAX_IMPORT_DEPTH {
            self.diagnostics.push(
                Diagnostic::error(
                    codes::IMPORT_TOO_DEEP,
                    format!("imports nested more than {MAX_IMPORT_DEPTH} files deep"),
                    import.span,
                    "too deep",
                )
                .with_note("import the shared files from fewer levels"),
            );
            return None;
        }
        let name = display_name(&normalize(found));
        let text = match read_source(found) {
            Ok(text) => text,
            Err(problem) => {
                let detail = match &problem {
                    ReadError::Io(error) => error.to_string(),
                    ReadError::TooLarge(bytes) => {
                        format!("{bytes} bytes is more than a schema can be ({MAX_FILE_BYTES} bytes)")
                    }
                    ReadError::NotAFile(kind) => format!("it is {kind}, not a schema file"),
                    ReadError::Endless(bytes) => format!(
                        "it is not a schema file: reading it gave {bytes} bytes, more than a schema can be ({MAX_FILE_BYTES} bytes)"
                    ),
                };
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::IMPORT_UNREADABLE,
                        format!("cannot read the imported file `{name}`: {detail}"),
                        import.path_span,
                        "imported here",
                    )
                    .with_note(fix(&problem)),
                );
                return None;
            }
        };
        let module = self.load_text(found.clone(), name, text, chain);
        self.by_path.insert(canonical, module);
        Some(module)
    }
}

/// Raw file contents; UTF-8 is checked when the file is added (so the error can point
/// into it).
pub enum SourceText {
    Text(String),
    Bytes(Vec<u8>),
}

/// What to do about each.
fn fix(problem: &ReadError) -> &'static str {
    match problem {
        ReadError::Io(_) => "check that the path exists and is a readable file",
        ReadError::TooLarge(_) => "split the schema into smaller files that import each other",
        ReadError::NotAFile(_) | ReadError::Endless(_) => "name a .blink file",
    }
}

/// Reads a schema file: only a regular file, never more than [`MAX_FILE_BYTES`].
fn read_source(path: &Path) -> Result<SourceText, ReadError> {
    read_file(path, MAX_FILE_BYTES).map(SourceText::Bytes)
}

fn collect_imports(items: &[Item], out: &mut Vec<ast::ImportItem>) {
    for item in items {
        match item {
            Item::Import(import) => out.push(import.clone()),
            Item::Scope(scope) => collect_imports(&scope.items, out),
            _ => {}
        }
    }
}

/// The files an `import "written"` in `importer` may name, in the order they are tried,
/// relative to the importer's folder unless absolute. First Blink's order: the written name
/// without its extension, then with `.txt`, then with `.blink`, then as written — so
/// `import "./Shared.txt"` finds `Shared.blink`, as in Blink. Then, where Blink finds
/// nothing, the written name with `.txt` and with `.blink` added (`import "./a.b"` finds
/// `a.b.blink`).
pub fn import_candidates(importer: &Path, written: &str) -> Vec<PathBuf> {
    let base = importer.parent().unwrap_or(Path::new(""));
    let written = Path::new(written);
    let joined = if written.is_absolute() {
        written.to_path_buf()
    } else {
        base.join(written)
    };
    let stem = match (joined.extension(), joined.file_stem()) {
        (Some(_), Some(stem)) => joined.with_file_name(stem),
        _ => joined.clone(),
    };
    let mut candidates = Vec::with_capacity(6);
    for candidate in [
        stem.clone(),
        append_extension(&stem, "txt"),
        append_extension(&stem, "blink"),
        joined.clone(),
        append_extension(&joined, "txt"),
        append_extension(&joined, "blink"),
    ] {
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    candidates
}

fn append_extension(path: &Path, extension: &str) -> PathBuf {
    let mut text = path.as_os_str().to_os_string();
    text.push(".");
    text.push(extension);
    PathBuf::from(text)
}
