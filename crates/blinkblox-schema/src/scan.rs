//! The character-level scanning both languages BlinkBlox reads share (the schema language
//! and zap, for `import-zap`): where a name, a number, a string or a comment starting at a
//! position ends. Each language's lexer decides what the pieces are called, what counts as
//! an error and what it says; the scanning is done once, here.

/// A number's extent: `-?digits(.digits)?`, and the letters, digits, `_` and `.` glued to
/// its end (`12abc`), which a language may take as part of a malformed number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberScan {
    pub end: usize,
    /// Where the glued run ends, when there is one.
    pub glued_end: Option<usize>,
}

/// A string's extent, from its opening quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringScan {
    /// Closed on its line: the end is just after the closing quote.
    Closed(usize),
    /// Not closed before the line's end (the newline or the end of the file), where it ends.
    Open(usize),
}

/// A comment's extent, from its `--`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentScan {
    /// `-- …` to the end of its line (the newline is not part of it).
    Line(usize),
    /// `--[[ … ]]` or `--[==[ … ]==]`, closed: the end is just after the closing bracket.
    Block(usize),
    /// A block comment never closed: it runs to the end of the file; `open_end` is where
    /// its opening bracket ends, `level` its number of `=` (see [`closing_bracket`]).
    OpenBlock { open_end: usize, level: usize },
}

/// Whether a name can start with `byte`.
pub fn starts_word(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

/// Where a name starting at `start` ends: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn word_end(bytes: &[u8], start: usize) -> usize {
    run_end(bytes, start, |b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether a number starts at `at`: a digit, or `-` before one.
pub fn starts_number(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at) {
        Some(b) if b.is_ascii_digit() => true,
        Some(b'-') => bytes.get(at + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

/// A number starting at `start` (see [`starts_number`]). A fraction needs a digit after the
/// dot, so `0..10` is `0`, `..`, `10`.
pub fn number(bytes: &[u8], start: usize) -> NumberScan {
    let mut end = run_end(bytes, start + 1, |b| b.is_ascii_digit());
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = run_end(bytes, end + 1, |b| b.is_ascii_digit());
    }
    let glued = bytes.get(end).is_some_and(|&b| starts_word(b));
    let glued_end = glued.then(|| run_end(bytes, end, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.'));
    NumberScan { end, glued_end }
}

/// A string starting at its quote, `start`: closed by the same quote on its line.
pub fn string(bytes: &[u8], start: usize) -> StringScan {
    let quote = bytes[start];
    let end = run_end(bytes, start + 1, |b| b != quote && b != b'\n');
    if bytes.get(end) == Some(&quote) {
        StringScan::Closed(end + 1)
    } else {
        StringScan::Open(end)
    }
}

/// Whether a comment starts at `at`.
pub fn starts_comment(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b'-') && bytes.get(at + 1) == Some(&b'-')
}

/// A comment starting at its `--`, `start`.
pub fn comment(text: &str, start: usize) -> CommentScan {
    let bytes = text.as_bytes();
    let after = start + 2;
    if bytes.get(after) == Some(&b'[') {
        let level = run_end(bytes, after + 1, |b| b == b'=') - (after + 1);
        if bytes.get(after + 1 + level) == Some(&b'[') {
            let open_end = after + level + 2;
            let close = closing_bracket(level);
            return match text[open_end..].find(&close) {
                Some(offset) => CommentScan::Block(open_end + offset + close.len()),
                None => CommentScan::OpenBlock { open_end, level },
            };
        }
    }
    CommentScan::Line(run_end(bytes, after, |b| b != b'\n'))
}

/// The bracket that closes a block comment of `level` `=` signs (`]]`, `]==]`).
pub fn closing_bracket(level: usize) -> String {
    format!("]{}]", "=".repeat(level))
}

/// Where a run of bytes that `keep` accepts, from `at`, ends.
fn run_end(bytes: &[u8], mut at: usize, keep: impl Fn(u8) -> bool) -> usize {
    while bytes.get(at).is_some_and(|&b| keep(b)) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_stop_before_a_range() {
        assert_eq!(
            number(b"0..10", 0),
            NumberScan {
                end: 1,
                glued_end: None
            }
        );
        assert_eq!(
            number(b"-12.5)", 0),
            NumberScan {
                end: 5,
                glued_end: None
            }
        );
        assert_eq!(
            number(b"12abc.d ", 0),
            NumberScan {
                end: 2,
                glued_end: Some(7)
            }
        );
    }

    #[test]
    fn strings_end_at_their_quote_or_their_line() {
        assert_eq!(string(b"'a\"b' x", 0), StringScan::Closed(5));
        assert_eq!(string(b"\"open\nnext", 0), StringScan::Open(5));
        assert_eq!(string(b"\"open", 0), StringScan::Open(5));
    }

    #[test]
    fn comments_of_each_kind() {
        assert_eq!(comment("-- a\nb", 0), CommentScan::Line(4));
        assert_eq!(comment("--[[ a ]] b", 0), CommentScan::Block(9));
        assert_eq!(comment("--[==[ ]] ]==] b", 0), CommentScan::Block(14));
        assert_eq!(
            comment("--[[ open", 0),
            CommentScan::OpenBlock { open_end: 4, level: 0 }
        );
        assert_eq!(closing_bracket(2), "]==]");
    }
}
