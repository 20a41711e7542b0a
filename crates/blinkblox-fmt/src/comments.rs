//! Comments, found between the tokens.
//!
//! The lexer skips comments; the formatter must keep them. Between two tokens of a file
//! that lexes without errors there is only whitespace and comments, so every comment is
//! found by scanning the gaps between consecutive tokens.

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::lexer::{Lexer, TokenKind};
use blinkblox_schema::scan::{self, CommentScan};
use blinkblox_schema::source::FileId;

/// One `-- line` or `--[[ block ]]` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Byte offsets in the source.
    pub start: u32,
    pub end: u32,
    /// The comment as written (a line comment without its trailing whitespace).
    pub text: String,
}

/// Every comment of `text`, in order, with the lexer's diagnostics (comments after a
/// lexical error are still found).
pub fn collect(text: &str) -> (Vec<Comment>, Vec<Diagnostic>) {
    let mut lexer = Lexer::new(FileId(0), text);
    let mut diagnostics = Vec::new();
    let mut comments = Vec::new();
    let mut previous_end = 0usize;
    loop {
        let token = lexer.next_token(&mut diagnostics);
        scan_gap(text, previous_end, token.span.start as usize, &mut comments);
        previous_end = token.span.end as usize;
        if token.kind == TokenKind::Eof {
            break;
        }
    }
    (comments, diagnostics)
}

/// Comments in `text[start..end]`, which holds only whitespace and comments (and, in a
/// file that does not lex, stray characters).
fn scan_gap(text: &str, start: usize, end: usize, out: &mut Vec<Comment>) {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < end {
        if scan::starts_comment(bytes, i) {
            // A block comment never closed is read to its line's end, as a line comment.
            let (comment_end, is_block) = match scan::comment(text, i) {
                CommentScan::Block(close) => (close.min(end), true),
                CommentScan::Line(_) | CommentScan::OpenBlock { .. } => {
                    (text[i..end].find('\n').map_or(end, |n| i + n), false)
                }
            };
            let raw = &text[i..comment_end];
            let shown = if is_block { raw } else { raw.trim_end() };
            out.push(Comment {
                start: i as u32,
                end: comment_end as u32,
                text: shown.to_string(),
            });
            i = comment_end;
        } else {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_line_and_block_comments_between_tokens() {
        let text = "-- a  \ntype --[[ b\n c ]] X = u8 --[==[ ]] ]==]\n-- d";
        let (comments, diagnostics) = collect(text);
        assert!(diagnostics.is_empty());
        let texts: Vec<&str> = comments.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["-- a", "--[[ b\n c ]]", "--[==[ ]] ]==]", "-- d"]);
        assert_eq!(
            &text[comments[1].start as usize..comments[1].end as usize],
            "--[[ b\n c ]]"
        );
    }

    #[test]
    fn a_file_that_does_not_lex_gives_its_diagnostics_and_its_comments() {
        let (comments, diagnostics) = collect("type X = u8 @ -- after\n'open -- in the string");
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(comments.len(), 1);
    }
}
