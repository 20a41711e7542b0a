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

    /// Appends one line at the current indentation.
    pub fn line(&mut self, line: impl AsRef<str>) {
        let line = line.as_ref();
        if line.is_empty() {
            self.text.push('\n');
            return;
        }
        for _ in 0..self.depth {
            self.text.push('\t');
        }
        self.text.push_str(line);
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
    pub fn raw(&mut self, block: &str) {
        for line in block.lines() {
            self.line(line);
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
    fn fresh_names_do_not_repeat() {
        let mut b = CodeBuilder::new();
        assert_ne!(b.fresh("V"), b.fresh("V"));
    }
}
