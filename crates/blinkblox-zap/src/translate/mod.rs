//! The translation: a parsed zap file → `.blink` text and diagnostics.
//!
//! Options come first ([`options`]); then every declaration is registered by namespace
//! ([`names`]) so references can be resolved and recursive types found; then the
//! declarations are written in the zap file's order, namespaces as `scope`s ([`decls`]),
//! their types through [`types`]. Comments before a declaration, a struct field or an enum
//! member, and the comment ending its line, are carried over.

mod decls;
mod names;
mod options;
mod types;

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::Span;

use crate::Settings;
use crate::syntax::{Comments, Decl, File};
use names::{Scope, TypeEntry};
pub(crate) use options::ZapOptions;

const INDENT: &str = "    ";

/// Translates a parsed file. The text is meaningful only when no diagnostic is an error.
pub fn translate(file: &File, text: &str, name: &str, settings: &Settings<'_>) -> (String, Vec<Diagnostic>) {
    let mut translation = Translation {
        text,
        diagnostics: Vec::new(),
        scopes: Vec::new(),
        types: Vec::new(),
        options: ZapOptions::default(),
        out: String::new(),
        header_end: 0,
    };
    translation.out.push_str(&format!(
        "-- Translated from {} by `blinkblox import-zap`.\n",
        file_name(name)
    ));
    translation.header(file);
    let has_functions = has_functions(&file.decls);
    translation.options(&file.opts, has_functions, settings);
    let root = translation.new_scope(Vec::new(), None);
    translation.collect(&file.decls, root);
    translation.check_recursion();
    translation.decls(&file.decls, root, 0);
    (translation.out, translation.diagnostics)
}

fn file_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

fn has_functions(decls: &[Decl]) -> bool {
    decls.iter().any(|decl| match decl {
        Decl::Function(_) => true,
        Decl::Namespace(namespace) => has_functions(&namespace.decls),
        _ => false,
    })
}

pub(crate) struct Translation<'a> {
    text: &'a str,
    diagnostics: Vec<Diagnostic>,
    scopes: Vec<Scope<'a>>,
    types: Vec<TypeEntry<'a>>,
    options: ZapOptions,
    out: String,
    /// The file's header comments end here: they are written at the top, not again before
    /// the first item.
    header_end: u32,
}

impl<'a> Translation<'a> {
    pub(crate) fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The zap source text of a span (comments).
    fn source(&self, span: Span) -> &'a str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .trim_end()
    }

    /// The name BlinkBlox's modules keep for their flush function, in the file's casing.
    pub(crate) fn reserved_name(&self) -> &'static str {
        self.options
            .casing
            .pick("StepReplication", "stepReplication", "step_replication")
    }

    fn write_indent(&mut self, indent: usize) {
        for _ in 0..indent {
            self.out.push_str(INDENT);
        }
    }

    /// The comments at the top of the file that a blank line separates from the first
    /// option or declaration: they describe the file, and stay at its top.
    fn header(&mut self, file: &File) {
        let first = match (file.opts.first(), file.decls.first()) {
            (Some(opt), _) => (&opt.comments, opt.span.start),
            (None, Some(decl)) => (decl.comments(), decl.span().start),
            (None, None) => return,
        };
        let (comments, item_start) = first;
        let mut header = 0;
        for (index, span) in comments.leading.iter().enumerate() {
            let next = comments.leading.get(index + 1).map_or(item_start, |next| next.start);
            let between = self.text.get(span.end as usize..next as usize).unwrap_or("");
            if between.matches('\n').count() >= 2 {
                header = index + 1;
            }
        }
        let header: Vec<Span> = comments.leading[..header].to_vec();
        for span in &header {
            let comment = self.source(*span);
            self.out.push_str(comment);
            self.out.push('\n');
        }
        if let Some(last) = header.last() {
            self.header_end = last.end;
            self.out.push('\n');
        }
    }

    /// The comments on the lines above an item.
    fn leading(&mut self, comments: &Comments, indent: usize) {
        let header_end = self.header_end;
        for &span in comments.leading.iter().filter(|span| span.start >= header_end) {
            let comment = self.source(span);
            self.write_indent(indent);
            self.out.push_str(comment);
            self.out.push('\n');
        }
    }

    /// Ends the current line, with the item's trailing comment if it has one.
    fn end_line(&mut self, comments: &Comments) {
        if let Some(span) = comments.trailing {
            let comment = self.source(span);
            self.out.push(' ');
            self.out.push_str(comment);
        }
        self.out.push('\n');
    }

    /// An item's text (one line or several) at `indent`, its trailing comment at the end of
    /// its first line.
    fn item(&mut self, indent: usize, text: &str, comments: &Comments) {
        self.write_indent(indent);
        let (first, rest) = match text.split_once('\n') {
            Some((first, rest)) => (first, Some(rest)),
            None => (text, None),
        };
        self.out.push_str(first);
        self.end_line(comments);
        if let Some(rest) = rest {
            self.out.push_str(rest);
            self.out.push('\n');
        }
    }

    /// A line of the output, at `indent`.
    fn line(&mut self, indent: usize, text: &str) {
        self.write_indent(indent);
        self.out.push_str(text);
        self.out.push('\n');
    }
}

/// A name as BlinkBlox writes it: bare when it is an identifier, quoted otherwise.
pub(crate) fn key_text(text: &str) -> String {
    let mut chars = text.chars();
    let identifier = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier { text.to_string() } else { quoted(text) }
}

/// A string literal of `text` (zap's strings have no escapes, so neither do these: the quote
/// is the one the text does not contain).
pub(crate) fn quoted(text: &str) -> String {
    if text.contains('"') {
        format!("'{text}'")
    } else {
        format!("\"{text}\"")
    }
}
