//! One document checked as `blinkblox check` checks it (the same compile step, the same
//! manifest defaults), with the syntax of every file it reads and the [`Index`] of
//! their names.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use blinkblox_codegen::{Outputs, Source, compile};
use blinkblox_schema::CheckSettings;
use blinkblox_schema::ast::{self, Item};
use blinkblox_schema::codes;
use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::loader::normalize;
use blinkblox_schema::model::Schema;
use blinkblox_schema::parser;
use blinkblox_schema::source::{FileId, SourceFile, SourceMap, Span};
use lsp_types::{Location, Range, Url};

use crate::index::{self, Index};
use crate::positions::{Encoding, LineIndex};

/// The document being analysed is always the first file.
pub const ROOT: FileId = FileId(0);

/// A file the analysis read.
#[derive(Debug)]
pub struct FileInfo {
    pub path: PathBuf,
    /// `None` for a file whose path makes no URI.
    pub uri: Option<Url>,
    pub lines: LineIndex,
}

#[derive(Debug)]
pub struct Analysis {
    pub sources: SourceMap,
    /// The manifest, when its `[options]` were applied as defaults.
    pub defaults_file: Option<FileId>,
    /// The checked schema, when it has no error.
    pub schema: Option<Schema>,
    pub diagnostics: Vec<Diagnostic>,
    pub files: Vec<FileInfo>,
    /// The syntax of every schema file read (not of the manifest).
    pub asts: HashMap<FileId, ast::File>,
    pub index: Index,
}

/// Checks `text` as the schema at `path` (imports are read from disk, relative to it).
pub fn analyze(path: &Path, uri: &Url, text: &str, settings: &CheckSettings) -> Analysis {
    let name = path.to_string_lossy().into_owned();
    let compiled = compile(Source::Text { name: &name, text }, settings, Outputs::Check);
    let sources = compiled.sources;
    let not_utf8: Vec<FileId> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.code == codes::NOT_UTF8)
        .map(|d| d.primary.span.file)
        .collect();
    let mut files = Vec::new();
    let mut asts = HashMap::new();
    for (index, file) in sources.files().iter().enumerate() {
        let id = FileId(index as u32);
        let uri = if id == ROOT {
            Some(uri.clone())
        } else {
            Url::from_file_path(normalize(&file.path)).ok()
        };
        files.push(FileInfo {
            path: normalize(&file.path),
            uri,
            lines: LineIndex::new(&file.text),
        });
        if Some(id) != compiled.defaults_file && !not_utf8.contains(&id) {
            let (ast, _) = parser::parse(id, &file.text);
            asts.insert(id, ast);
        }
    }
    let imports = resolve_imports(&sources, &asts);
    let index = {
        let borrowed: HashMap<FileId, &ast::File> = asts.iter().map(|(id, ast)| (*id, ast)).collect();
        index::build(&borrowed, ROOT, &imports)
    };
    Analysis {
        sources,
        defaults_file: compiled.defaults_file,
        schema: compiled.schema,
        diagnostics: compiled.diagnostics,
        files,
        asts,
        index,
    }
}

/// Which loaded file each `import` read, found as the loader finds it: the path, then
/// with `.txt`, then with `.blink`, relative to the importing file's folder.
fn resolve_imports(sources: &SourceMap, asts: &HashMap<FileId, ast::File>) -> HashMap<(FileId, u32), FileId> {
    let canonical = |path: &Path| path.canonicalize().unwrap_or_else(|_| normalize(path));
    let loaded: Vec<(PathBuf, FileId)> = sources
        .files()
        .iter()
        .enumerate()
        .map(|(index, file)| (canonical(&file.path), FileId(index as u32)))
        .collect();
    let mut resolved = HashMap::new();
    for (&file, ast) in asts {
        let mut imports = Vec::new();
        collect_imports(&ast.items, &mut imports);
        let importer = sources.get(file).path.clone();
        for import in imports {
            let candidates = blinkblox_schema::loader::import_candidates(&importer, &import.path);
            let Some(found) = candidates.iter().find(|candidate| candidate.is_file()) else {
                continue;
            };
            let found = canonical(found);
            if let Some((_, target)) = loaded.iter().find(|(path, _)| *path == found) {
                resolved.insert((file, import.path_span.start), *target);
            }
        }
    }
    resolved
}

fn collect_imports<'a>(items: &'a [Item], out: &mut Vec<&'a ast::ImportItem>) {
    for item in items {
        match item {
            Item::Import(import) => out.push(import),
            Item::Scope(scope) => collect_imports(&scope.items, out),
            _ => {}
        }
    }
}

impl Analysis {
    pub fn source(&self, file: FileId) -> Option<&SourceFile> {
        self.sources.files().get(file.0 as usize)
    }

    pub fn text(&self, file: FileId) -> &str {
        self.source(file).map_or("", |source| source.text.as_str())
    }

    pub fn range(&self, span: Span, encoding: Encoding) -> Range {
        match self.files.get(span.file.0 as usize) {
            Some(info) => info.lines.range(self.text(span.file), span.start, span.end, encoding),
            None => Range::default(),
        }
    }

    pub fn location(&self, span: Span, encoding: Encoding) -> Option<Location> {
        let uri = self.files.get(span.file.0 as usize)?.uri.clone()?;
        Some(Location::new(uri, self.range(span, encoding)))
    }

    pub fn offset(&self, file: FileId, position: lsp_types::Position, encoding: Encoding) -> u32 {
        match self.files.get(file.0 as usize) {
            Some(info) => info.lines.offset(self.text(file), position, encoding),
            None => 0,
        }
    }

    /// The file read from `path`, if this analysis read it.
    pub fn file_of(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|info| info.path == path)
            .map(|index| FileId(index as u32))
    }
}
