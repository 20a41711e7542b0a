//! A small builder for Luau source: lines with tab indentation and fresh local names.

/// Accumulates Luau source text. Indentation is tabs, one per level, as Luau style
/// guides and Blink's output use.
#[derive(Debug, Default)]
pub struct CodeBuilder {
    text: String,
    depth: usize,
    next_local: usize,
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

    /// Appends a line and indents what follows (`if … then`, `do`, `function(…)`).
    pub fn open(&mut self, line: impl AsRef<str>) {
        self.line(line);
        self.depth += 1;
    }

    /// Dedents, then appends a line (`end`, `end)`, `},`).
    pub fn close(&mut self, line: impl AsRef<str>) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
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
    /// runs of text: the runtime and the separately built bodies are most of a module's bytes,
    /// and copying them line by line was about 40% of generating one (perf-log, issue 8).
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

    /// A fresh local name with the given stem, unique within this builder (`Value3`).
    pub fn fresh(&mut self, stem: &str) -> String {
        self.next_local += 1;
        format!("{stem}{}", self.next_local)
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
    fn fresh_names_do_not_repeat() {
        let mut b = CodeBuilder::new();
        assert_ne!(b.fresh("V"), b.fresh("V"));
    }
}
