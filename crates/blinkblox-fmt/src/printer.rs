//! From the syntax tree to the laid-out text: files, declarations, and the lists that
//! carry the comments found between their entries.

use blinkblox_schema::ast::{self, DeclField, DeclValue, Item};
use blinkblox_schema::source::Span;
use pretty::RcDoc;

use crate::comments::Comment;
use crate::{INDENT, WIDTH};

pub(crate) type Doc<'a> = RcDoc<'a, ()>;

/// The brackets around a list and how its entries are separated.
#[derive(Clone, Copy)]
pub(crate) struct Brackets {
    open: &'static str,
    close: &'static str,
    /// `{ a, b }` rather than `(a, b)` when on one line.
    padded: bool,
    /// Entries end with `,` (always on separate lines, between them on one line).
    commas: bool,
}

pub(crate) const BRACES: Brackets = Brackets {
    open: "{",
    close: "}",
    padded: true,
    commas: true,
};
pub(crate) const PARENS: Brackets = Brackets {
    open: "(",
    close: ")",
    padded: false,
    commas: true,
};
pub(crate) const ANGLES: Brackets = Brackets {
    open: "<",
    close: ">",
    padded: false,
    commas: true,
};
/// The declarations of a scope: one per line, no commas.
const BLOCK: Brackets = Brackets {
    open: "{",
    close: "}",
    padded: true,
    commas: false,
};

/// Whether a list may go on one line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One entry per line whenever it has entries.
    Broken,
    /// On one line when it fits and holds no comment or blank line.
    Fit,
}

/// One line's worth of a list: an entry (with the comments after it on its line) or a
/// comment on a line of its own.
struct Unit<'a> {
    doc: Doc<'a>,
    blank_before: bool,
    entry: bool,
    trailing: Vec<Comment>,
}

pub(crate) struct Printer<'a> {
    text: &'a str,
    comments: Vec<Comment>,
    /// The first comment not printed yet.
    next: usize,
}

impl<'a> Printer<'a> {
    pub(crate) fn new(text: &'a str, comments: Vec<Comment>) -> Printer<'a> {
        Printer {
            text,
            comments,
            next: 0,
        }
    }

    /// The source text of a span.
    pub(crate) fn src(&self, span: Span) -> &'a str {
        self.text.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    pub(crate) fn file(mut self, file: &ast::File) -> String {
        let end = self.text.len() as u32;
        let units = self.units(&file.items, Item::span, Self::item, end);
        let doc = join_units(units, false);
        let mut rendered = String::new();
        // Writing into a String cannot fail.
        let _ = doc.render_fmt(WIDTH, &mut rendered);
        // A file written with Windows line endings keeps them.
        let newline = if self.text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut out = String::with_capacity(rendered.len() + 1);
        for line in rendered.lines() {
            out.push_str(line.trim_end_matches([' ', '\t', '\r']));
            out.push_str(newline);
        }
        out
    }

    /// Comments that start before `position`.
    fn take_before(&mut self, position: u32) -> Vec<Comment> {
        let mut taken = Vec::new();
        while let Some(comment) = self.comments.get(self.next) {
            if comment.start >= position {
                break;
            }
            taken.push(comment.clone());
            self.next += 1;
        }
        taken
    }

    /// Comments after an entry ending at `end` on the same line, and any left inside it,
    /// up to `limit`.
    fn take_trailing(&mut self, mut end: u32, limit: u32) -> Vec<Comment> {
        let mut taken = Vec::new();
        while let Some(comment) = self.comments.get(self.next) {
            if comment.start >= limit {
                break;
            }
            let inside = comment.start < end;
            let gap = self.text.get(end as usize..comment.start as usize).unwrap_or("");
            if !inside && gap.contains('\n') {
                break;
            }
            end = end.max(comment.end);
            taken.push(comment.clone());
            self.next += 1;
        }
        taken
    }

    fn blank_line_between(&self, from: u32, to: u32) -> bool {
        let gap = self.text.get(from as usize..to as usize).unwrap_or("");
        gap.bytes().filter(|&b| b == b'\n').count() >= 2
    }

    /// The entries of a list with the comments around them, up to `close` (the position of
    /// the list's closing bracket).
    fn units<T>(
        &mut self,
        entries: &[T],
        span_of: impl Fn(&T) -> Span,
        print: impl Fn(&mut Self, &T) -> Doc<'a>,
        close: u32,
    ) -> Vec<Unit<'a>> {
        let mut units: Vec<Unit<'a>> = Vec::new();
        let mut previous_end: Option<u32> = None;
        for (index, entry) in entries.iter().enumerate() {
            let span = span_of(entry);
            self.comment_units(span.start, &mut previous_end, &mut units);
            let blank_before = previous_end.is_some_and(|end| self.blank_line_between(end, span.start));
            let doc = print(self, entry);
            let limit = entries.get(index + 1).map_or(close, |next| span_of(next).start);
            let trailing = self.take_trailing(span.end, limit);
            previous_end = Some(trailing.last().map_or(span.end, |c| c.end.max(span.end)));
            units.push(Unit {
                doc,
                blank_before,
                entry: true,
                trailing,
            });
        }
        self.comment_units(close, &mut previous_end, &mut units);
        units
    }

    /// The comments before `until`, each a unit of its own, keeping a blank line before one
    /// where the source had it.
    fn comment_units(&mut self, until: u32, previous_end: &mut Option<u32>, units: &mut Vec<Unit<'a>>) {
        for comment in self.take_before(until) {
            let blank_before = previous_end.is_some_and(|end| self.blank_line_between(end, comment.start));
            *previous_end = Some(comment.end);
            units.push(Unit {
                doc: Doc::text(comment.text.clone()),
                blank_before,
                entry: false,
                trailing: Vec::new(),
            });
        }
    }

    /// A bracketed list: on one line when `layout` allows and it fits, otherwise one entry
    /// per line with trailing commas.
    pub(crate) fn list<T>(
        &mut self,
        entries: &[T],
        span_of: impl Fn(&T) -> Span,
        print: impl Fn(&mut Self, &T) -> Doc<'a>,
        close: u32,
        brackets: Brackets,
        layout: Layout,
    ) -> Doc<'a> {
        let units = self.units(entries, span_of, print, close);
        let open = Doc::text(brackets.open);
        let close = Doc::text(brackets.close);
        if units.is_empty() {
            return open.append(close);
        }
        let must_break = layout == Layout::Broken
            || units
                .iter()
                .any(|unit| !unit.entry || unit.blank_before || !unit.trailing.is_empty());
        if must_break {
            let body = join_units(units, brackets.commas);
            return open
                .append(Doc::hardline().append(body).nest(INDENT))
                .append(Doc::hardline())
                .append(close);
        }
        let line = if brackets.padded { Doc::line() } else { Doc::line_() };
        let separator = if brackets.commas {
            Doc::text(",").append(Doc::line())
        } else {
            Doc::line()
        };
        let mut parts = Vec::with_capacity(units.len() * 2);
        for (index, unit) in units.into_iter().enumerate() {
            if index > 0 {
                parts.push(separator.clone());
            }
            parts.push(unit.doc);
        }
        let mut body = balanced(parts);
        if brackets.commas {
            body = body.append(Doc::text(",").flat_alt(Doc::nil()));
        }
        open.append(line.clone().append(body).nest(INDENT))
            .append(line)
            .append(close)
            .group()
    }

    fn item(&mut self, item: &Item) -> Doc<'a> {
        match item {
            Item::Option(option) => Doc::text("option ")
                .append(self.src(option.name.span))
                .append(" = ")
                .append(self.src(option.value.span)),
            Item::Import(import) => {
                let mut doc = Doc::text("import ").append(self.src(import.path_span));
                if let Some(alias) = &import.alias {
                    doc = doc.append(" as ").append(self.src(alias.span));
                }
                doc
            }
            Item::Type(type_item) => self.type_item(type_item),
            Item::Event(event) => self.block_item("event", &event.name, &event.fields, event.span),
            Item::Function(function) => self.block_item("function", &function.name, &function.fields, function.span),
            Item::Stream(stream) => self.block_item("stream", &stream.name, &stream.fields, stream.span),
            Item::Scope(scope) => {
                let close = scope.span.end.saturating_sub(1);
                let body = self.list(&scope.items, Item::span, Self::item, close, BLOCK, Layout::Broken);
                Doc::text("scope ")
                    .append(self.src(scope.name.span))
                    .append(" ")
                    .append(body)
            }
        }
    }

    fn type_item(&mut self, item: &ast::TypeItem) -> Doc<'a> {
        let mut doc = Doc::nil();
        if item.exported.is_some() {
            doc = doc.append("export ");
        }
        doc = doc
            .append(item.keyword.keyword())
            .append(" ")
            .append(self.src(item.name.span));
        if let Some(span) = item.generics_span {
            let generics = self.list(
                &item.generics,
                |name| name.span,
                |printer, name| Doc::text(printer.src(name.span)),
                span.end.saturating_sub(1),
                ANGLES,
                Layout::Fit,
            );
            doc = doc.append(generics);
        }
        let separator = if item.keyword == ast::TypeKeyword::Struct {
            " "
        } else {
            " = "
        };
        doc.append(separator).append(self.ty(&item.body, Some(item.keyword)))
    }

    /// `event`, `function` and `stream`: `Key: value` fields, one per line.
    fn block_item(&mut self, keyword: &'static str, name: &ast::Name, fields: &[DeclField], span: Span) -> Doc<'a> {
        let close = span.end.saturating_sub(1);
        let body = self.list(
            fields,
            |field| field.span,
            Self::decl_field,
            close,
            BRACES,
            Layout::Broken,
        );
        Doc::text(keyword)
            .append(" ")
            .append(self.src(name.span))
            .append(" ")
            .append(body)
    }

    fn decl_field(&mut self, field: &DeclField) -> Doc<'a> {
        let value = match &field.value {
            DeclValue::Literal(literal) => Doc::text(self.src(literal.span)),
            DeclValue::Type(ty) => self.ty(ty, None),
            DeclValue::Tuple(types, span) => self.list(
                types,
                |ty| ty.span,
                |printer, ty| printer.ty(ty, None),
                span.end.saturating_sub(1),
                PARENS,
                Layout::Fit,
            ),
        };
        Doc::text(self.src(field.key.span)).append(": ").append(value)
    }
}

/// Units one per line (the caller indents them), with a blank line where the source had
/// one, commas after entries when the list has them, and trailing comments after those.
fn join_units(units: Vec<Unit<'_>>, commas: bool) -> Doc<'_> {
    let mut parts = Vec::with_capacity(units.len() * 2);
    for (index, unit) in units.into_iter().enumerate() {
        if index > 0 {
            if unit.blank_before {
                parts.push(Doc::hardline());
            }
            parts.push(Doc::hardline());
        }
        let mut doc = unit.doc;
        if unit.entry && commas {
            doc = doc.append(",");
        }
        for comment in unit.trailing {
            doc = doc.append(" ").append(comment.text);
        }
        parts.push(doc);
    }
    balanced(parts)
}

/// The concatenation of `parts` as a balanced tree: a document's depth is what rendering
/// and dropping it recurse through, so a schema of tens of thousands of declarations must
/// give a tree about 16 deep, not one as deep as the file is long.
fn balanced(mut parts: Vec<Doc<'_>>) -> Doc<'_> {
    while parts.len() > 1 {
        let mut pairs = Vec::with_capacity(parts.len().div_ceil(2));
        let mut rest = parts.into_iter();
        while let Some(left) = rest.next() {
            pairs.push(match rest.next() {
                Some(right) => left.append(right),
                None => left,
            });
        }
        parts = pairs;
    }
    parts.pop().unwrap_or_else(Doc::nil)
}
