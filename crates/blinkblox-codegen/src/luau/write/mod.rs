//! Emits the sending side: serializers that write values into the current batch, and
//! WriteValidations checks that run before anything is written (`validations.rs`).
//!
//! Fixed-size runs are written into one `Allocate` with constant offsets
//! ([`Writer::write_at`]); variable parts allocate as they go ([`Writer::write`]). Both
//! follow the model's `Layout` and `StructLayout` exactly, so the reader (`read/`)
//! mirrors them field for field. Each kind is written in the files of this folder:
//! `scalars.rs`, `lengths.rs` (strings, buffers and the length prefixes),
//! `optionals.rs`, `collections.rs`, `string_arrays.rs`, `structs.rs`, `enums.rs`, and
//! `byte_runs.rs` for arrays of structs written in two forms.

mod byte_runs;
mod collections;
mod enums;
mod lengths;
mod optionals;
mod scalars;
mod string_arrays;
mod structs;
mod validations;

use blinkblox_schema::model::{Schema, Type, TypeKind};
use blinkblox_schema::wire::resolve;

use super::builder::CodeBuilder;
use super::forms::{Form, TwoForms};
use super::layout::fixed_size_of;
use super::lookups::Lookups;
use super::naming::is_identifier;

pub struct Writer<'a> {
    pub schema: &'a Schema,
    pub b: &'a mut CodeBuilder,
    pub lookups: &'a mut Lookups,
    /// Names the operation in WriteValidations errors, as a Luau string literal.
    pub context: String,
    pub allow_non_finite: bool,
    /// The branch of a two-form path being emitted into (`forms.rs`).
    pub form: Form,
}

impl TwoForms for Writer<'_> {
    fn form_mut(&mut self) -> &mut Form {
        &mut self.form
    }

    fn builder(&mut self) -> &mut CodeBuilder {
        self.b
    }
}

impl Writer<'_> {
    /// Writes `value` at the end of the batch, allocating as it goes.
    pub fn write(&mut self, ty: &Type, value: &str) {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        if let Some(size) = ty.layout.fixed_size {
            if size == 0 {
                self.write_at(ty, value, "0");
            } else {
                let offset = self.b.fresh("O");
                self.b.line_fmt(format_args!("local {offset} = Allocate({size})"));
                self.write_at(ty, value, &offset);
            }
            return;
        }
        match &ty.kind {
            TypeKind::Optional(inner) => self.write_optional(inner, value),
            TypeKind::String { length } => self.write_string(length, value),
            TypeKind::Buffer { length } => self.write_buffer(length, value),
            TypeKind::Array { element, length } => self.write_array(element, length, value),
            TypeKind::Struct(body) => {
                let value = self.bind(value);
                self.write_struct(body, &value);
            }
            TypeKind::TaggedEnum(tagged) => self.write_tagged_enum(tagged, value),
            TypeKind::Map {
                key,
                value: value_ty,
                length,
            } => self.write_map(key, value_ty, length, value),
            // Fixed-size kinds were handled above; a model without a layout for them is
            // written through the fixed path with a fresh allocation.
            _ => {
                let size = fixed_size_of(schema, ty);
                let offset = self.b.fresh("O");
                self.b.line_fmt(format_args!("local {offset} = Allocate({size})"));
                self.write_at(ty, value, &offset);
            }
        }
    }

    /// Writes a fixed-size value at `offset` of the current batch (already allocated).
    pub fn write_at(&mut self, ty: &Type, value: &str, offset: &str) {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        match &ty.kind {
            TypeKind::Number { kind, .. } => self.write_number(*kind, value, offset),
            TypeKind::Quantized(quantized) => self.write_quantized(quantized, value, offset, false),
            TypeKind::Boolean => {
                self.b.line_fmt(format_args!(
                    "buffer.writeu8(SendBuffer, {offset}, if {value} then 1 else 0)"
                ));
            }
            TypeKind::String { length } => self.write_exact_string(length, value, offset),
            TypeKind::Buffer { length } => self.write_exact_buffer(length, value, offset),
            TypeKind::Vector {
                quantized: Some(quantized),
                ..
            } => self.write_quantized_vector(quantized, value, offset),
            TypeKind::Vector { component, .. } => self.write_vector(*component, value, offset),
            TypeKind::CFrame { position, rotation } => self.write_cframe(*position, *rotation, value, offset),
            TypeKind::Color3 => self.write_color3(value, offset),
            TypeKind::BrickColor => {
                self.b
                    .line_fmt(format_args!("buffer.writeu16(SendBuffer, {offset}, {value}.Number)"));
            }
            TypeKind::DateTime => {
                self.b.line_fmt(format_args!(
                    "buffer.writef64(SendBuffer, {offset}, {value}.UnixTimestamp)"
                ));
            }
            TypeKind::DateTimeMillis => {
                self.b.line_fmt(format_args!(
                    "buffer.writef64(SendBuffer, {offset}, {value}.UnixTimestampMillis)"
                ));
            }
            TypeKind::Instance { .. } | TypeKind::Unknown => {
                self.b.line_fmt(format_args!("WriteSlot({value})"));
            }
            TypeKind::Optional(inner) => self.write_optional_at(inner, value, offset),
            TypeKind::Array { element, length } => self.write_exact_array(element, length, value, offset),
            TypeKind::Struct(body) => {
                let v = self.bind(value);
                self.write_struct_block(body, &v, offset);
            }
            TypeKind::Enum(unit) => self.write_enum(&unit.variants, value, offset),
            TypeKind::Set(set) => self.write_set(&set.flags, value, offset),
            TypeKind::TaggedEnum(tagged) => self.write_tagged_enum_at(tagged, value, offset),
            TypeKind::Map {
                key, value: value_ty, ..
            } => self.write_exact_map(key, value_ty, value, offset),
            TypeKind::Named(_) => {
                // `resolve` never returns a named type for a well-formed model.
                self.b.line("error(\"[BlinkBlox] internal: unresolved named type\")");
            }
        }
    }

    /// A name for `value` that is cheap to repeat: identifiers as they are, anything
    /// else bound to a fresh local.
    pub(crate) fn bind(&mut self, value: &str) -> String {
        if is_identifier(value) {
            return value.to_string();
        }
        let name = self.b.fresh("W");
        self.b.line_fmt(format_args!("local {name} = {value}"));
        name
    }

    /// Runs `emit`, putting what it writes in a block of its own when it declares locals
    /// ([`CodeBuilder::scope_since`]): each field of a struct and each value of a tuple,
    /// so that their locals do not add up in one function.
    pub(crate) fn scoped(&mut self, emit: impl FnOnce(&mut Self)) {
        let mark = self.b.mark();
        emit(self);
        self.b.scope_since(mark, "", "");
    }
}
