//! WriteValidations (`option WriteValidations = true`): checks a value against its
//! type on the sending side, before any byte is written, and raises a clear Luau
//! error naming the operation and the value's path (`Value.items[3].hp`).

use blinkblox_schema::model::{Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::Writer;
use crate::luau::conditions::{instance_condition, join_and, length_condition, number_condition, range_condition};
use crate::luau::naming::{index, string_literal};
use crate::luau::value_path::ValuePath;

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
            // The range is the writer's: it raises in Studio and clamps in a live game.
            TypeKind::Quantized(_) => {
                self.fail_unless(&format!("type({value}) == \"number\""), path, "a number", value)
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
                    let (bounds, text) = range_condition(magnitude, &format!("{value}.Magnitude"));
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
                self.b.open_fmt(format_args!("if {v} ~= nil then"));
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
                self.b.open_fmt(format_args!("for {position} = 1, #{v} do"));
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
                let tag = self.variant_chain(tagged, &v, |writer, _, variant| {
                    for field in &variant.body.fields {
                        let access = format!("{v}{}", index(&field.name));
                        writer.scoped(|w| w.check(&field.ty, &access, &path.field(&field.name)));
                    }
                });
                let names: Vec<&str> = tagged.variants.iter().map(|v| v.name.as_str()).collect();
                let expected = format!("one of {}", names.join(", "));
                let tag_path = path.field(&tagged.tag);
                self.b.line_fmt(format_args!(
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
                self.b.line_fmt(format_args!("local {count} = 0"));
                self.b.open_fmt(format_args!("for {k}, {item} in {v} do"));
                self.b.line_fmt(format_args!("{count} += 1"));
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
        self.b.line_fmt(format_args!(
            "if not ({condition}) then WriteError({}, {}, {}, {value}) end",
            self.context,
            path.luau(),
            string_literal(expected)
        ));
    }
}
