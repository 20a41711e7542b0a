//! The documents the editor has open: their text as edited (not as saved), and the latest
//! analysis of it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use blinkblox_schema::loader::normalize;
use lsp_types::{TextDocumentContentChangeEvent, Url};

use crate::analysis::Analysis;
use crate::positions::{Encoding, LineIndex};

#[derive(Debug)]
pub struct Document {
    pub uri: Url,
    /// Where the schema is (imports are relative to it); for a document that is not a
    /// file, a name in the current folder.
    pub path: PathBuf,
    pub is_file: bool,
    pub version: i32,
    pub text: Arc<String>,
    pub lines: LineIndex,
    /// The analysis of `version`, or of an earlier one.
    pub analysis: Option<(i32, Arc<Analysis>)>,
    /// When the document should be analysed again (after an edit, once typing pauses).
    pub due: Option<Instant>,
}

impl Document {
    pub fn new(uri: Url, version: i32, text: String) -> Document {
        let (path, is_file) = match uri.to_file_path() {
            Ok(path) => (normalize(&path), true),
            Err(()) => {
                let name = uri
                    .path_segments()
                    .and_then(|mut s| s.next_back())
                    .unwrap_or("untitled.blink");
                (
                    PathBuf::from(if name.is_empty() { "untitled.blink" } else { name }),
                    false,
                )
            }
        };
        Document {
            uri,
            path,
            is_file,
            version,
            lines: LineIndex::new(&text),
            text: Arc::new(text),
            analysis: None,
            due: None,
        }
    }

    /// Applies the editor's changes, in order.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>, encoding: Encoding) {
        for change in changes {
            match change.range {
                None => {
                    self.text = Arc::new(change.text);
                }
                Some(range) => {
                    let text = Arc::make_mut(&mut self.text);
                    let start = self.lines.offset(text, range.start, encoding) as usize;
                    let end = (self.lines.offset(text, range.end, encoding) as usize).max(start);
                    text.replace_range(start..end, &change.text);
                }
            }
            self.lines = LineIndex::new(&self.text);
        }
        self.version = version;
    }

    /// The analysis of the current text, if it is done.
    pub fn current_analysis(&self) -> Option<&Arc<Analysis>> {
        match &self.analysis {
            Some((version, analysis)) if *version == self.version => Some(analysis),
            _ => None,
        }
    }
}
