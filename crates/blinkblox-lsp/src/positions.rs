//! Byte offsets (what spans hold) to LSP positions and back, in the encoding agreed with
//! the client: UTF-8 bytes when it offers them, UTF-16 code units otherwise.

use lsp_types::{Position, Range};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Where each line of a text starts.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: u32) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    pub fn line_start(&self, line: usize) -> u32 {
        self.starts
            .get(line)
            .copied()
            .unwrap_or_else(|| *self.starts.last().unwrap_or(&0))
    }

    pub fn position(&self, text: &str, offset: u32, encoding: Encoding) -> Position {
        let offset = floor_boundary(text, offset as usize);
        let line = self.line_of(offset as u32);
        let start = (self.line_start(line) as usize).min(offset);
        let prefix = &text[start..offset];
        let character = match encoding {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.encode_utf16().count(),
        };
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, text: &str, start: u32, end: u32, encoding: Encoding) -> Range {
        Range::new(self.position(text, start, encoding), self.position(text, end, encoding))
    }

    /// The byte offset of a position; past the end of a line is its end, past the last
    /// line the end of the text.
    pub fn offset(&self, text: &str, position: Position, encoding: Encoding) -> u32 {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return text.len() as u32;
        }
        let start = self.starts[line] as usize;
        let end = self.starts.get(line + 1).map_or(text.len(), |&next| next as usize);
        let line_text = text.get(start..end).unwrap_or("");
        let line_text = line_text.strip_suffix('\n').unwrap_or(line_text);
        let wanted = position.character as usize;
        let within = match encoding {
            Encoding::Utf8 => floor_boundary(line_text, wanted.min(line_text.len())),
            Encoding::Utf16 => {
                let mut units = 0;
                let mut bytes = line_text.len();
                for (index, c) in line_text.char_indices() {
                    if units >= wanted {
                        bytes = index;
                        break;
                    }
                    units += c.len_utf16();
                }
                bytes
            }
        };
        (start + within) as u32
    }
}

/// `offset` moved back onto a character boundary of `text` (and into it).
pub fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_utf8_columns_round_trip() {
        let text = "ab\n€x𝄞y\nlast";
        let index = LineIndex::new(text);
        let y = text.find('y').unwrap() as u32;
        assert_eq!(index.position(text, y, Encoding::Utf16), Position::new(1, 4));
        assert_eq!(index.position(text, y, Encoding::Utf8), Position::new(1, 8));
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            let position = index.position(text, y, encoding);
            assert_eq!(index.offset(text, position, encoding), y);
        }
        assert_eq!(index.offset(text, Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            index.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len() as u32
        );
        assert_eq!(index.position(text, 999, Encoding::Utf8), Position::new(2, 4));
    }
}
