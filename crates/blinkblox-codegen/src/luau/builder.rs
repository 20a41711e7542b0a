//! A small builder for Luau source: lines with tab indentation and fresh local names,
//! numbered per stem and afresh in each function.

use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// A position in a builder's text and its count of fresh names ([`CodeBuilder::mark`]).
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    at: usize,
    next_local: usize,
}

/// Accumulates Luau source text. Indentation is tabs, one per level, as Luau style
/// guides and Blink's output use.
#[derive(Debug, Default)]
pub struct CodeBuilder {
    text: String,
    depth: usize,
    /// Fresh names taken so far (never reset: marks count the names taken since them).
    next_local: usize,
    /// Fresh names taken per stem since the current function began.
    stems: BTreeMap<String, usize>,
}

impl CodeBuilder {
    pub fn new() -> CodeBuilder {
        CodeBuilder::default()
    }

    /// A builder whose text can grow to `bytes` without reallocating: a module is hundreds
    /// of kilobytes, and growing it by doubling copied it several times over.
    pub fn with_capacity(bytes: usize) -> CodeBuilder {
        CodeBuilder {
            text: String::with_capacity(bytes),
            ..CodeBuilder::default()
        }
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Bytes of text so far.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Appends one line at the current indentation.
    pub fn line(&mut self, line: impl AsRef<str>) {
        let line = line.as_ref();
        if !line.is_empty() {
            self.indent();
            self.text.push_str(line);
        }
        self.text.push('\n');
    }

    /// [`CodeBuilder::line`] for `format_args!`: the line is formatted straight into the
    /// module's text rather than into a string of its own first.
    pub fn line_fmt(&mut self, line: fmt::Arguments<'_>) {
        let start = self.text.len();
        self.indent();
        let indented = self.text.len();
        // Writing into a String cannot fail.
        let _ = self.text.write_fmt(line);
        if self.text.len() == indented {
            // An empty line has no indentation, as with `line`.
            self.text.truncate(start);
        }
        self.text.push('\n');
    }

    /// [`CodeBuilder::open`] for `format_args!`, as [`CodeBuilder::line_fmt`].
    pub fn open_fmt(&mut self, line: fmt::Arguments<'_>) {
        self.line_fmt(line);
        self.depth += 1;
    }

    /// Appends a line and indents what follows (`if … then`, `do`, `function(…)`).
    pub fn open(&mut self, line: impl AsRef<str>) {
        self.line(line);
        self.depth += 1;
    }

    /// Opens a function (`local function WriteHit(Value: number)`): its locals are numbered
    /// from 1 again, so editing one declaration renames nothing in another's code.
    pub fn open_function(&mut self, line: impl AsRef<str>) {
        self.stems.clear();
        self.open(line);
    }

    /// Dedents, then appends a line (`end`, `end)`, `},`).
    pub fn close(&mut self, line: impl AsRef<str>) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
    }

    /// Indents what follows (after a line that both closes and opens, such as `} = {`).
    pub fn depth_in(&mut self) {
        self.depth += 1;
    }

    /// Dedents for one line (`else`, `elseif … then`) and indents again after it.
    pub fn middle(&mut self, line: impl AsRef<str>) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
        self.depth += 1;
    }

    /// Appends a block of text verbatim (used for the fixed `.luau` runtime parts),
    /// re-indented to the current depth.
    ///
    /// Equivalent to calling [`CodeBuilder::line`] on each of `block.lines()`, but copies whole
    /// runs of text: the runtime and the separately built bodies are most of a module's bytes.
    pub fn raw(&mut self, block: &str) {
        if block.is_empty() {
            return;
        }
        if block.contains('\r') {
            // `lines()` also drops a `\r` before each `\n`; keep its exact behaviour.
            for line in block.lines() {
                self.line(line);
            }
            return;
        }
        if self.depth == 0 {
            self.text.push_str(block);
        } else {
            self.text.reserve(block.len() + block.len() / 8);
            for line in block.split_inclusive('\n') {
                if line != "\n" {
                    self.indent();
                }
                self.text.push_str(line);
            }
        }
        if !block.ends_with('\n') {
            self.text.push('\n');
        }
    }

    fn indent(&mut self) {
        const TABS: &str = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
        let mut left = self.depth;
        while left > 0 {
            let run = left.min(TABS.len());
            self.text.push_str(&TABS[..run]);
            left -= run;
        }
    }

    /// Opens branch `position` (from 0) of an `if … elseif …` chain on `condition`.
    pub fn branch(&mut self, position: usize, condition: &str) {
        if position == 0 {
            self.open_fmt(format_args!("if {condition} then"));
        } else {
            self.middle(format!("elseif {condition} then"));
        }
    }

    /// Opens the last branch of a chain of `branches` branches: its `else`, or a `do` block
    /// when the chain has none.
    pub fn otherwise(&mut self, branches: usize) {
        if branches == 0 {
            self.open("do");
        } else {
            self.middle("else");
        }
    }

    /// Where the code written next starts, for [`CodeBuilder::scope_since`].
    pub fn mark(&self) -> Mark {
        Mark {
            at: self.text.len(),
            next_local: self.next_local,
        }
    }

    /// Whether the code written since `mark` took fresh names (declared locals).
    pub fn declared_since(&self, mark: Mark) -> bool {
        self.declared_count_since(mark) > 0
    }

    /// Replaces `from` with `to` in the code written since `mark`.
    pub fn replace_since(&mut self, mark: Mark, from: &str, to: &str) {
        if mark.at <= self.text.len() {
            let body = self.text.split_off(mark.at).replace(from, to);
            self.text.push_str(&body);
        }
    }

    /// How many fresh names (declared locals) the code written since `mark` took.
    pub fn declared_count_since(&self, mark: Mark) -> usize {
        self.next_local - mark.next_local
    }

    /// Puts the code written since `mark` in a `do … end` block of its own when it declared
    /// locals, so that they end with it: the generated functions write whole values out in
    /// place, and Luau allows a function 200 locals. `before` goes ahead of the block and
    /// `last` becomes its last line (`local Field7: any` and `Field7 = Text4`, for a value
    /// the block computes); empty strings add nothing. Returns whether it made a block.
    pub fn scope_since(&mut self, mark: Mark, before: &str, last: &str) -> bool {
        if !self.declared_since(mark) || mark.at > self.text.len() {
            return false;
        }
        let body = self.text.split_off(mark.at);
        if !before.is_empty() {
            self.line(before);
        }
        self.open("do");
        self.text.reserve(body.len() + body.len() / 8);
        for line in body.split_inclusive('\n') {
            if line != "\n" {
                self.text.push('\t');
            }
            self.text.push_str(line);
        }
        if !last.is_empty() {
            self.line(last);
        }
        self.close("end");
        true
    }

    /// A fresh local name with the given stem, unique within the current function
    /// (`Length1`, `Length2`, `Array1`).
    pub fn fresh(&mut self, stem: &str) -> String {
        self.next_local += 1;
        let count = self.stems.entry(stem.to_string()).or_insert(0);
        *count += 1;
        format!("{stem}{count}")
    }

    pub fn finish(self) -> String {
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_blocks_with_tabs() {
        let mut b = CodeBuilder::new();
        b.open("if x then");
        b.line("y()");
        b.middle("else");
        b.line("z()");
        b.close("end");
        assert_eq!(b.finish(), "if x then\n\ty()\nelse\n\tz()\nend\n");
    }

    #[test]
    fn raw_matches_line_by_line() {
        let blocks = ["", "\n", "a", "a\n", "a\n\nb", "a\n\tb\n\n", "x\r\ny\r\n", "\n\nz"];
        for depth in [0, 1, 3, 20] {
            for block in blocks {
                let mut fast = CodeBuilder::new();
                let mut slow = CodeBuilder::new();
                for _ in 0..depth {
                    fast.open("do");
                    slow.open("do");
                }
                fast.raw(block);
                for line in block.lines() {
                    slow.line(line);
                }
                assert_eq!(fast.finish(), slow.finish(), "block {block:?} at depth {depth}");
            }
        }
    }

    #[test]
    fn code_that_declares_locals_is_scoped_in_a_block() {
        let mut b = CodeBuilder::new();
        b.open("function F()");
        let mark = b.mark();
        b.line("Cursor += 1");
        assert!(!b.scope_since(mark, "", ""), "no locals, no block");
        let mark = b.mark();
        let text = b.fresh("Text");
        b.line_fmt(format_args!("local {text} = Read()"));
        assert!(b.scope_since(mark, "local Field: any", &format!("Field = {text}")));
        b.close("end");
        assert_eq!(
            b.finish(),
            "function F()\n\tCursor += 1\n\tlocal Field: any\n\tdo\n\t\tlocal Text1 = Read()\n\t\tField = Text1\n\tend\nend\n"
        );
    }

    #[test]
    fn fresh_names_do_not_repeat_and_restart_in_each_function() {
        let mut b = CodeBuilder::new();
        b.open_function("local function A()");
        assert_eq!([b.fresh("V"), b.fresh("V"), b.fresh("W")], ["V1", "V2", "W1"]);
        b.close("end");
        b.open_function("local function B()");
        assert_eq!(b.fresh("V"), "V1");
    }
}
