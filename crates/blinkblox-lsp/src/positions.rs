//! Byte offsets (what spans hold) to LSP positions and back, in the encoding agreed with
//! the client: UTF-8 bytes when it offers them, UTF-16 code units otherwise.

use lsp_types::{Position, Range};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Bytes between two UTF-16 checkpoints: a column costs at most this much counting.
const CHECKPOINT_BYTES: usize = 64;

/// Where each line of a text starts, and how many UTF-16 code units come before every
/// [`CHECKPOINT_BYTES`]-th byte: a UTF-16 column is counted from the checkpoint before it,
/// not from the start of its line, so converting every token of a one-line file of a
/// megabyte takes as long as of the same text on many lines.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<u32>,
    /// `(byte offset, UTF-16 units before it)`, the offset the character boundary at or
    /// before each multiple of [`CHECKPOINT_BYTES`].
    checkpoints: Vec<(u32, u32)>,
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
        let mut checkpoints = Vec::with_capacity(text.len() / CHECKPOINT_BYTES + 1);
        let (mut at, mut units) = (0usize, 0usize);
        for block in 0..=text.len() / CHECKPOINT_BYTES {
            let next = floor_boundary(text, block * CHECKPOINT_BYTES);
            units += text[at..next].encode_utf16().count();
            at = next;
            checkpoints.push((at as u32, units as u32));
        }
        LineIndex { starts, checkpoints }
    }

    /// UTF-16 code units in `text[..offset]` (`offset` on a character boundary).
    fn utf16_before(&self, text: &str, offset: usize) -> usize {
        let block = (offset / CHECKPOINT_BYTES).min(self.checkpoints.len().saturating_sub(1));
        let (at, units) = self.checkpoints.get(block).copied().unwrap_or((0, 0));
        let at = (at as usize).min(offset);
        units as usize + text[at..offset].encode_utf16().count()
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
        let character = match encoding {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => self.utf16_before(text, offset) - self.utf16_before(text, start),
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
    fn columns_on_a_long_line_are_counted_from_a_checkpoint_and_agree_with_counting_the_line() {
        let text: String = (0..2000)
            .map(|i| if i % 7 == 0 { "é😀a" } else { "ab" })
            .collect::<String>()
            + "\nx😀";
        let index = LineIndex::new(&text);
        for offset in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
            let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
            let expected = text[line_start..offset].encode_utf16().count() as u32;
            let position = index.position(&text, offset as u32, Encoding::Utf16);
            assert_eq!(position.character, expected, "at byte {offset}");
            assert_eq!(index.offset(&text, position, Encoding::Utf16), offset as u32);
        }
    }

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
