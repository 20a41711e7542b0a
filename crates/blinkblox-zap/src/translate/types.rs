//! zap types → BlinkBlox types, as text.
//!
//! Numbers, strings, buffers, arrays, optionals, maps, structs, unit and tagged enums,
//! `Instance(Class)`, `CFrame`, `Color3`, `BrickColor`, `DateTime(Millis)`, `boolean` and
//! `unknown` have the same meaning in both. `Vector3` and three-component `vector(T, T, T)`
//! are BlinkBlox's `vector<T>`; a zap `set { K }` (a table of `K` → `true`) is a
//! `map { [K]: boolean }`. OR types, `Vector2`, `AlignedCFrame` and other vectors have no
//! equivalent and are errors.

use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::Span;

use super::names::Resolved;
use super::{INDENT, Translation, key_text, quoted};
use crate::codes;
use crate::syntax::{Comments, Member, NumberKind, Range, StringKind, Ty, TyKind};

/// Past this many characters (with the indentation), a struct or an enum takes a line per
/// member.
const MAX_LINE: usize = 100;

/// zap's own limit on string, buffer and array lengths.
const MAX_LENGTH: f64 = 65535.0;

/// The bounds written in a range (`n` is both bounds, written once).
fn bounds(range: &Range) -> impl Iterator<Item = &crate::syntax::Number> {
    let max = if range.exact { None } else { range.max.as_ref() };
    range.min.iter().chain(max)
}

/// A range as BlinkBlox writes it inside `(…)` or `[…]`; empty when it bounds nothing.
fn range_body(range: &Range) -> String {
    match (&range.min, &range.max) {
        (Some(n), _) if range.exact => n.text.clone(),
        (None, None) => String::new(),
        (min, max) => format!(
            "{}..{}",
            min.as_ref().map_or("", |n| n.text.as_str()),
            max.as_ref().map_or("", |n| n.text.as_str())
        ),
    }
}

fn parenthesised(range: Option<&Range>) -> String {
    match range.map(range_body) {
        Some(body) if !body.is_empty() => format!("({body})"),
        _ => String::new(),
    }
}

impl<'a> Translation<'a> {
    /// The BlinkBlox text of `ty`, seen from namespace `scope`, for a line at `indent`;
    /// `None` when something in it has no equivalent (reported). Every part is translated,
    /// so every problem is reported. Structs and enums stay on one line while they are
    /// short and uncommented, and take a line per member otherwise.
    pub(super) fn ty(&mut self, ty: &'a Ty, scope: usize, indent: usize) -> Option<String> {
        match &ty.kind {
            TyKind::Num(kind, range) => {
                let ok = range.as_ref().is_none_or(|range| self.number_range(*kind, range));
                ok.then(|| format!("{}{}", kind.keyword(), parenthesised(range.as_ref())))
            }
            TyKind::Str(kind, range) => {
                let ok = range
                    .as_ref()
                    .is_none_or(|range| self.length_range(range, "a string's length"));
                if !ok {
                    return None;
                }
                if *kind != StringKind::Utf8 {
                    return Some(format!("string{}", parenthesised(range.as_ref())));
                }
                Some(self.utf8_string(ty.span, range.as_ref()))
            }
            TyKind::Buffer(range) => {
                let ok = range
                    .as_ref()
                    .is_none_or(|range| self.length_range(range, "a buffer's length"));
                ok.then(|| format!("buffer{}", parenthesised(range.as_ref())))
            }
            TyKind::Vector(components) => self.vector(ty.span, components),
            TyKind::Array(element, length) => {
                let element = self.ty(element, scope, indent);
                let ok = length
                    .as_ref()
                    .is_none_or(|range| self.length_range(range, "an array's length"));
                let body = length.as_ref().map(range_body).unwrap_or_default();
                Some(format!("{}[{body}]", element.filter(|_| ok)?))
            }
            TyKind::Map(key, value) => {
                let key = self.map_part(key, scope, indent, "key");
                let value = self.map_part(value, scope, indent, "value");
                Some(format!("map {{ [{}]: {} }}", key?, value?))
            }
            TyKind::Set(element) => {
                let element = self.map_part(element, scope, indent, "set element");
                Some(format!("map {{ [{}]: boolean }}", element?))
            }
            TyKind::Optional(inner) => Some(format!("{}?", self.ty(inner, scope, indent)?)),
            TyKind::Ref(path) => match self.resolve(scope, path, ty.span)? {
                Resolved::Builtin(blink) => Some(blink.to_string()),
                Resolved::Declared(_) => Some(path.iter().map(|n| n.text.as_str()).collect::<Vec<_>>().join(".")),
                Resolved::Unsupported(name) => {
                    self.unsupported_builtin(name, ty.span);
                    None
                }
            },
            TyKind::UnitEnum(members) => Some(format!("enum {}", self.unit_members(members, ty.span, indent, false)?)),
            TyKind::TaggedEnum { tag, variants } => Some(format!(
                "enum {} {}",
                quoted(&tag.text),
                self.variants(tag, variants, scope, ty.span, indent, false)?
            )),
            TyKind::Struct(fields) => Some(format!("struct {}", self.fields(fields, scope, indent, false)?)),
            TyKind::Instance(class) => Some(match class {
                Some(class) => format!("Instance({})", class.text),
                None => "Instance".to_string(),
            }),
            TyKind::Or(options) => {
                for option in options {
                    // Still translated, for the errors inside.
                    let _ = self.ty(option, scope, indent);
                }
                self.report(
                    Diagnostic::error(
                        codes::UNION,
                        "BlinkBlox has no OR types",
                        ty.span,
                        "a value of one of several types",
                    )
                    .with_note(
                        "use a tagged enum (`enum \"kind\" { Text { value: string }, Number { value: f64 } }`), or `unknown` for any value",
                    ),
                );
                None
            }
        }
    }

    /// `string.utf8(a..b)`: BlinkBlox counts bytes and does not check UTF-8, so the length
    /// becomes up to 4 bytes a character, as zap budgets it.
    fn utf8_string(&mut self, span: Span, range: Option<&Range>) -> String {
        let scaled = range.and_then(|range| {
            let max = range.max.as_ref()?;
            let min = range.min.as_ref().map_or(String::new(), |n| n.text.clone());
            Some(format!("({min}..{})", (max.value * 4.0).round() as u64))
        });
        let note = match &scaled {
            Some(_) => "the length is in bytes: the most characters zap allowed, times 4 (the longest UTF-8 character)",
            None => "the length is in bytes",
        };
        self.report(
            Diagnostic::warning(
                codes::UTF8_STRING,
                "`string.utf8` becomes `string`: BlinkBlox does not check that it is valid UTF-8",
                span,
                "translated as `string`",
            )
            .with_note(note),
        );
        match (scaled, range) {
            (Some(scaled), _) => format!("string{scaled}"),
            // A lower bound alone stays: a string of n characters has at least n bytes.
            (None, range) => format!("string{}", parenthesised(range)),
        }
    }

    fn vector(&mut self, span: Span, components: &'a [Ty]) -> Option<String> {
        if components.is_empty() {
            return Some("vector".to_string());
        }
        let kinds: Vec<Option<NumberKind>> = components
            .iter()
            .map(|component| match &component.kind {
                TyKind::Num(kind, range) if range.as_ref().is_none_or(|r| range_body(r).is_empty()) => Some(*kind),
                _ => None,
            })
            .collect();
        if let [Some(x), Some(y), Some(z)] = kinds.as_slice()
            && x == y
            && y == z
        {
            return Some(match x {
                NumberKind::F32 => "vector".to_string(),
                kind => format!("vector<{}>", kind.keyword()),
            });
        }
        let why = if components.len() != 3 {
            "BlinkBlox's vectors always have X, Y and Z"
        } else if kinds.iter().any(Option::is_none) {
            "BlinkBlox bounds a vector's magnitude, not its components"
        } else {
            "BlinkBlox's vectors use one number type for X, Y and Z"
        };
        self.report(
            Diagnostic::error(
                codes::VECTOR_COMPONENTS,
                format!("this `vector` has no BlinkBlox equivalent: {why}"),
                span,
                "no equivalent",
            )
            .with_note(
                "write `vector(T, T, T)` with one number type T (`vector<T>` in BlinkBlox), or a struct of numbers",
            ),
        );
        None
    }

    fn unsupported_builtin(&mut self, name: &str, span: Span) {
        let (message, note) = if name == "Vector2" {
            (
                "BlinkBlox has no `Vector2`",
                "use `Vector3` (BlinkBlox's `vector`, which also sends Z) or `struct { x: f32, y: f32 }`",
            )
        } else {
            (
                "BlinkBlox has no `AlignedCFrame`",
                "use `CFrame`: any rotation, 24 bytes instead of zap's 13 for an axis-aligned one",
            )
        };
        let code = if name == "Vector2" {
            codes::VECTOR2
        } else {
            codes::ALIGNED_CFRAME
        };
        self.report(Diagnostic::error(code, message, span, "no equivalent").with_note(note));
    }

    /// A map key or value (or a set element). BlinkBlox rejects `?` there: a Luau table
    /// holds no nil keys or values, so the `?` meant nothing and is dropped.
    fn map_part(&mut self, ty: &'a Ty, scope: usize, indent: usize, what: &str) -> Option<String> {
        if let TyKind::Optional(inner) = &ty.kind {
            self.report(
                Diagnostic::warning(
                    codes::OPTIONAL_IN_MAP,
                    format!("an optional map {what} is translated without its `?`"),
                    ty.span,
                    "`?` dropped",
                )
                .with_note("a Luau table holds no nil keys or values, so nothing changes; BlinkBlox rejects the `?`"),
            );
            return self.map_part(inner, scope, indent, what);
        }
        self.ty(ty, scope, indent)
    }

    /// `{ name: T, … }` of a struct or a variant.
    pub(super) fn fields(
        &mut self,
        fields: &'a [Member<Ty>],
        scope: usize,
        indent: usize,
        force: bool,
    ) -> Option<String> {
        self.check_unique(fields.iter().map(|f| (&f.name.text, f.name.span)), "field");
        let mut members = Vec::new();
        let mut ok = true;
        for field in fields {
            match self.ty(&field.value, scope, indent + 1) {
                Some(ty) => members.push((&field.comments, format!("{}: {ty}", key_text(&field.name.text)))),
                None => ok = false,
            }
        }
        ok.then(|| self.block(&members, indent, force))
    }

    /// `{ A, B, … }` of a unit enum.
    pub(super) fn unit_members(
        &mut self,
        members: &'a [Member<()>],
        span: Span,
        indent: usize,
        force: bool,
    ) -> Option<String> {
        if members.is_empty() {
            self.empty_enum(span);
            return None;
        }
        self.check_unique(members.iter().map(|m| (&m.name.text, m.name.span)), "enumerator");
        let members: Vec<(&Comments, String)> = members.iter().map(|m| (&m.comments, key_text(&m.name.text))).collect();
        Some(self.block(&members, indent, force))
    }

    /// `{ Variant { … }, … }` of a tagged enum.
    pub(super) fn variants(
        &mut self,
        tag: &crate::syntax::Name,
        variants: &'a [Member<Vec<Member<Ty>>>],
        scope: usize,
        span: Span,
        indent: usize,
        force: bool,
    ) -> Option<String> {
        if variants.is_empty() {
            self.empty_enum(span);
            return None;
        }
        self.check_unique(variants.iter().map(|v| (&v.name.text, v.name.span)), "variant");
        let mut members = Vec::new();
        let mut ok = true;
        for variant in variants {
            if let Some(field) = variant.value.iter().find(|field| field.name.text == tag.text) {
                self.report(
                    Diagnostic::error(
                        codes::TAG_FIELD_CONFLICT,
                        format!(
                            "variant `{}` has a field named like the tag `{}`",
                            variant.name.text, tag.text
                        ),
                        field.name.span,
                        "the tag's own field",
                    )
                    .with_secondary(tag.span, "the tag")
                    .with_note("rename the field (zap rejects this too)"),
                );
                ok = false;
            }
            match self.fields(&variant.value, scope, indent + 1, false) {
                Some(fields) => members.push((&variant.comments, format!("{} {fields}", key_text(&variant.name.text)))),
                None => ok = false,
            }
        }
        ok.then(|| self.block(&members, indent, force))
    }

    /// Members in braces: on one line when short, uncommented and not `force`d, else one
    /// line each (with their comments) at `indent + 1`.
    fn block(&self, members: &[(&Comments, String)], indent: usize, force: bool) -> String {
        if members.is_empty() {
            return "{}".to_string();
        }
        let texts: Vec<&str> = members.iter().map(|(_, text)| text.as_str()).collect();
        let one_line = format!("{{ {} }}", texts.join(", "));
        let commented = members.iter().any(|(comments, _)| **comments != Comments::default());
        let multiline = members.iter().any(|(_, text)| text.contains('\n'));
        if !force && !commented && !multiline && INDENT.len() * indent + one_line.len() <= MAX_LINE {
            return one_line;
        }
        let inner = INDENT.repeat(indent + 1);
        let mut out = String::from("{\n");
        for (comments, text) in members {
            for &span in &comments.leading {
                out.push_str(&format!("{inner}{}\n", self.source(span)));
            }
            out.push_str(&format!("{inner}{text},"));
            if let Some(span) = comments.trailing {
                out.push_str(&format!(" {}", self.source(span)));
            }
            out.push('\n');
        }
        out.push_str(&INDENT.repeat(indent));
        out.push('}');
        out
    }

    fn empty_enum(&mut self, span: Span) {
        self.report(
            Diagnostic::error(codes::EMPTY_ENUM, "this enum has no members", span, "empty")
                .with_note("give it at least one member (zap rejects this too)"),
        );
    }

    fn check_unique<'n>(&mut self, names: impl Iterator<Item = (&'n String, Span)>, what: &str) {
        let mut seen: Vec<(&String, Span)> = Vec::new();
        for (name, span) in names {
            if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == name) {
                let first = *first;
                self.report(
                    Diagnostic::error(
                        codes::DUPLICATE_MEMBER,
                        format!("{what} `{name}` is declared twice"),
                        span,
                        "declared again here",
                    )
                    .with_secondary(first, "first declared here")
                    .with_note(format!("rename or remove one of the two {what}s")),
                );
            } else {
                seen.push((name, span));
            }
        }
    }

    fn number_range(&mut self, kind: NumberKind, range: &Range) -> bool {
        let (low, high) = kind.limits();
        let mut ok = true;
        for bound in bounds(range) {
            if !kind.is_float() && bound.value.fract() != 0.0 {
                self.range_error(
                    bound.span,
                    format!(
                        "`{}` is an integer type, but `{}` is not an integer",
                        kind.keyword(),
                        bound.text
                    ),
                    "use a whole number, or a float type",
                );
                ok = false;
            } else if bound.value < low || bound.value > high {
                let limits = if kind.is_float() {
                    format!("BlinkBlox's `{}` ranges go from {low} to {high}", kind.keyword())
                } else {
                    format!("`{}` holds {low} to {high}", kind.keyword())
                };
                self.range_error(
                    bound.span,
                    format!("`{}` is outside the limits of `{}`", bound.text, kind.keyword()),
                    &format!("{limits}; use a wider type or a bound inside the limits"),
                );
                ok = false;
            }
        }
        ok && self.ordered(range)
    }

    fn length_range(&mut self, range: &Range, what: &str) -> bool {
        let mut ok = true;
        for bound in bounds(range) {
            if bound.value.fract() != 0.0 || bound.value < 0.0 || bound.value > MAX_LENGTH {
                self.range_error(
                    bound.span,
                    format!(
                        "{what} must be a whole number from 0 to {MAX_LENGTH}, not `{}`",
                        bound.text
                    ),
                    "lengths count bytes or elements (zap rejects this too)",
                );
                ok = false;
            }
        }
        ok && self.ordered(range)
    }

    fn ordered(&mut self, range: &Range) -> bool {
        if let (Some(min), Some(max)) = (&range.min, &range.max)
            && min.value > max.value
        {
            self.range_error(
                range.span,
                format!("the range `{}..{}` is reversed", min.text, max.text),
                &format!("write the smaller bound first: `{}..{}`", max.text, min.text),
            );
            return false;
        }
        true
    }

    fn range_error(&mut self, span: Span, message: String, note: &str) {
        self.report(Diagnostic::error(codes::INVALID_RANGE, message, span, "invalid range").with_note(note));
    }
}
