//! Document formatting: the whole document in `blinkblox fmt`'s layout, or nothing when it
//! does not parse (its diagnostics already say why).

use lsp_types::{Position, Range, TextEdit};

use crate::documents::Document;
use crate::positions::Encoding;

pub fn format(document: &Document, encoding: Encoding) -> Option<Vec<TextEdit>> {
    let formatted = blinkblox_fmt::format_source(&document.text).ok()?;
    if formatted == *document.text {
        return Some(Vec::new());
    }
    let end = document
        .lines
        .position(&document.text, document.text.len() as u32, encoding);
    Some(vec![TextEdit::new(Range::new(Position::new(0, 0), end), formatted)])
}
