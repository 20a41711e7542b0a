//! WriteValidations (`option WriteValidations = true`): checks a value against its
//! type on the sending side, before any byte is written, and raises a clear Luau
//! error naming the operation and the value's path (`Value.items[3].hp`).

use blinkblox_schema::model::{LengthRange, NumberKind, NumberRange, Type, TypeKind};

use super::naming::{index, number_literal, string_literal};
use super::write::Writer;
use super::{ValuePath, resolve};

impl Writer<'_> {
    /// WriteValidations: raises a clear error naming the operation and the value's
    /// path when `value` does not fit `ty`. Emitted before any byte is written, so a
    /// failed check leaves the batch as it was.
    pub fn check(&mut self, ty: &Type, value: &str, path: &ValuePath) {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        match &ty.kind {
            TypeKind::Number { kind, range } => {
                let (condition, expected) = number_condition(*kind, range, value, self.allow_non_finite);
                self.fail_unless(&condition, path, &expected, value);
            }
            TypeKind::Boolean => self.fail_unless(&format!("type({value}) == \"boolean\""), path, "a boolean", value),
            TypeKind::String { length } => {
                let (bounds, text) = length_condition(length, &format!("#{value}"));
                let condition = join_and(&[format!("type({value}) == \"string\""), bounds]);
                self.fail_unless(&condition, path, &format!("a string{text}"), value);
            }
            TypeKind::Buffer { length } => {
                let (bounds, text) = length_condition(length, &format!("buffer.len({value})"));
                let condition = join_and(&[format!("type({value}) == \"buffer\""), bounds]);
                self.fail_unless(&condition, path, &format!("a buffer{text}"), value);
            }
            TypeKind::Vector { magnitude, .. } => {
                let mut parts = vec![format!("typeof({value}) == \"Vector3\"")];
                let mut expected = "a Vector3".to_string();
                if magnitude.min.is_some() || magnitude.max.is_some() {
                    let (bounds, text) = range_condition(magnitude, &format!("vector.magnitude({value})"));
                    parts.push(bounds);
                    expected.push_str(&format!(" with a magnitude in {text}"));
                }
                self.fail_unless(&join_and(&parts), path, &expected, value);
            }
            TypeKind::CFrame { .. } => self.typeof_check("CFrame", value, path),
            TypeKind::Color3 => self.typeof_check("Color3", value, path),
            TypeKind::BrickColor => self.typeof_check("BrickColor", value, path),
            TypeKind::DateTime | TypeKind::DateTimeMillis => self.typeof_check("DateTime", value, path),
            TypeKind::Instance { class } => {
                let (condition, expected) = instance_condition(class.as_deref(), value);
                self.fail_unless(&condition, path, &expected, value);
            }
            TypeKind::Unknown => {}
            TypeKind::Optional(inner) => {
                let v = self.bind(value);
                self.b.open(format!("if {v} ~= nil then"));
                self.check(inner, &v, path);
                self.b.close("end");
            }
            TypeKind::Array { element, length } => {
                let v = self.bind(value);
                self.fail_unless(&format!("type({v}) == \"table\""), path, "an array (table)", &v);
                let (bounds, text) = length_condition(length, &format!("#{v}"));
                if bounds != "true" {
                    self.fail_unless(&bounds, path, &format!("an array{text}"), &v);
                }
                let position = self.b.fresh("I");
                self.b.open(format!("for {position} = 1, #{v} do"));
                let item_path = path.element(&position);
                self.check(element, &format!("{v}[{position}]"), &item_path);
                self.b.close("end");
            }
            TypeKind::Struct(body) => {
                let v = self.bind(value);
                self.fail_unless(&format!("type({v}) == \"table\""), path, "a table", &v);
                for field in &body.fields {
                    let access = format!("{v}{}", index(&field.name));
                    self.scoped(|w| w.check(&field.ty, &access, &path.field(&field.name)));
                }
            }
            TypeKind::Enum(unit) => {
                let table = self.lookups.enum_indices(&unit.variants);
                let names: Vec<&str> = unit.variants.iter().map(String::as_str).collect();
                let expected = format!("one of {}", names.join(", "));
                self.fail_unless(&format!("{table}[{value}] ~= nil"), path, &expected, value);
            }
            TypeKind::TaggedEnum(tagged) => {
                let v = self.bind(value);
                self.fail_unless(&format!("type({v}) == \"table\""), path, "a table", &v);
                let tag = self.b.fresh("Tag");
                self.b.line(format!("local {tag} = {v}{}", index(&tagged.tag)));
                for (position, variant) in tagged.variants.iter().enumerate() {
                    let keyword = if position == 0 { "if" } else { "elseif" };
                    let condition = format!("{keyword} {tag} == {} then", string_literal(&variant.name));
                    if position == 0 {
                        self.b.open(condition);
                    } else {
                        self.b.middle(condition);
                    }
                    for field in &variant.body.fields {
                        let access = format!("{v}{}", index(&field.name));
                        self.scoped(|w| w.check(&field.ty, &access, &path.field(&field.name)));
                    }
                }
                let names: Vec<&str> = tagged.variants.iter().map(|v| v.name.as_str()).collect();
                let expected = format!("one of {}", names.join(", "));
                let tag_path = path.field(&tagged.tag);
                if tagged.variants.is_empty() {
                    self.b.open("do");
                } else {
                    self.b.middle("else");
                }
                self.b.line(format!(
                    "WriteError({}, {}, {}, {tag})",
                    self.context,
                    tag_path.luau(),
                    string_literal(&expected)
                ));
                self.b.close("end");
            }
            TypeKind::Map {
                key,
                value: value_ty,
                length,
            } => {
                let v = self.bind(value);
                self.fail_unless(&format!("type({v}) == \"table\""), path, "a table", &v);
                let count = self.b.fresh("Count");
                let (k, item) = (self.b.fresh("Key"), self.b.fresh("Item"));
                self.b.line(format!("local {count} = 0"));
                self.b.open(format!("for {k}, {item} in {v} do"));
                self.b.line(format!("{count} += 1"));
                let key_path = path.element(&k);
                self.check(key, &k, &key_path);
                self.check(value_ty, &item, &key_path);
                self.b.close("end");
                let (bounds, text) = length_condition(length, &count);
                if bounds != "true" {
                    self.fail_unless(&bounds, path, &format!("a map{text}"), &v);
                }
            }
            TypeKind::Set(_) => self.fail_unless(&format!("type({value}) == \"table\""), path, "a table", value),
            TypeKind::Named(_) => {}
        }
    }

    fn typeof_check(&mut self, name: &str, value: &str, path: &ValuePath) {
        self.fail_unless(
            &format!("typeof({value}) == \"{name}\""),
            path,
            &format!("a {name}"),
            value,
        );
    }

    fn fail_unless(&mut self, condition: &str, path: &ValuePath, expected: &str, value: &str) {
        self.b.line(format!(
            "if not ({condition}) then WriteError({}, {}, {}, {value}) end",
            self.context,
            path.luau(),
            string_literal(expected)
        ));
    }
}

fn join_and(parts: &[String]) -> String {
    let kept: Vec<&str> = parts.iter().map(String::as_str).filter(|p| *p != "true").collect();
    if kept.is_empty() {
        "true".into()
    } else {
        kept.join(" and ")
    }
}

/// A condition on a length expression and its description (" of 1..10 items").
pub fn length_condition(length: &LengthRange, measure: &str) -> (String, String) {
    match (length.min, length.max) {
        (min, Some(max)) if min == max => (format!("{measure} == {max}"), format!(" of length {max}")),
        (0, None) => ("true".into(), String::new()),
        (min, None) => (format!("{measure} >= {min}"), format!(" of length at least {min}")),
        (0, Some(max)) => (format!("{measure} <= {max}"), format!(" of length at most {max}")),
        (min, Some(max)) => (
            format!("{measure} >= {min} and {measure} <= {max}"),
            format!(" of length {min}..{max}"),
        ),
    }
}

/// A condition keeping `value` within a range (false for NaN), and the range as text.
pub fn range_condition(range: &NumberRange, value: &str) -> (String, String) {
    let min = range.min.map(number_literal);
    let max = range.max.map(number_literal);
    match (min, max) {
        (Some(a), Some(b)) if a == b => (format!("{value} == {a}"), a),
        (Some(a), Some(b)) => (format!("{value} >= {a} and {value} <= {b}"), format!("{a}..{b}")),
        (Some(a), None) => (format!("{value} >= {a}"), format!("{a}..")),
        (None, Some(b)) => (format!("{value} <= {b}"), format!("..{b}")),
        (None, None) => ("true".into(), "any".into()),
    }
}

/// The sending-side check of a number, and what it expects.
fn number_condition(kind: NumberKind, range: &NumberRange, value: &str, allow_non_finite: bool) -> (String, String) {
    let mut parts = vec![format!("type({value}) == \"number\"")];
    if kind.is_float() {
        let (bounds, text) = range_condition(range, value);
        if bounds != "true" {
            parts.push(bounds);
            return (join_and(&parts), format!("a number in {text}"));
        }
        if !allow_non_finite {
            parts.push(format!("{value} - {value} == 0"));
            return (join_and(&parts), "a finite number".into());
        }
        return (join_and(&parts), "a number".into());
    }
    let (low, high) = kind.limits();
    let effective = NumberRange {
        min: Some(range.min.unwrap_or(low)),
        max: Some(range.max.unwrap_or(high)),
    };
    let (bounds, text) = range_condition(&effective, value);
    parts.push(format!("{value} // 1 == {value}"));
    parts.push(bounds);
    (join_and(&parts), format!("an integer in {text}"))
}

pub fn instance_condition(class: Option<&str>, value: &str) -> (String, String) {
    match class {
        Some(class) => (
            format!(
                "typeof({value}) == \"Instance\" and {value}:IsA({})",
                string_literal(class)
            ),
            format!("an Instance of class {class}"),
        ),
        None => (format!("typeof({value}) == \"Instance\""), "an Instance".into()),
    }
}
