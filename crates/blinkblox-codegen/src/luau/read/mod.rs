//! Emits the receiving side: decoders that read values from the current packet and
//! check them as they go.
//!
//! Every decoder mirrors the writer in `write/` field for field. Reads return Luau
//! *expressions* so that a decoded struct is built with one table constructor holding
//! every field; an expression only refers to locals that never change after it is made
//! (fixed-block offsets), or is consumed before the loop cursor it uses moves.
//!
//! The checks: lengths against their bounds and against the bytes left before anything
//! is allocated or looped over; numbers against ranges; floats finite unless the schema
//! allows non-finite values; enum, variant and set values against their declarations;
//! boolean bytes 0 or 1; Instances by `typeof` and `IsA`. A failed check raises, which
//! ends the packet inside its pcall. The floats of an array or a map are checked together,
//! once after their loop (`finite.rs`).
//!
//! [`Reader::read`] reads at the cursor and [`Reader::read_at`] at a fixed offset; each
//! hands the kinds to the files of this folder: `scalars.rs`, `lengths.rs` (strings,
//! buffers and the length prefixes), `optionals.rs`, `instances.rs`, `collections.rs`,
//! `string_arrays.rs`, `structs.rs`, `enums.rs`, and `byte_runs.rs` for arrays of structs read in two forms.

mod byte_runs;
mod collections;
mod delta;
mod enums;
mod finite;
mod instances;
mod lengths;
mod optionals;
mod scalars;
mod string_arrays;
mod structs;

use blinkblox_schema::model::{Schema, Type, TypeKind};
use blinkblox_schema::wire::{optional_has_flag, resolve};

use super::builder::{CodeBuilder, Mark};
use super::decode_checks::decode_checks_enabled;
use super::forms::{Form, TwoForms};
use super::lookups::Lookups;
use super::naming::string_literal;
use super::value_path::ValuePath;

/// Reads use the packet's buffer through the local `B` (bound once per packet or per
/// reader function), a cursor and the packet's size.
pub struct Reader<'a> {
    pub schema: &'a Schema,
    pub b: &'a mut CodeBuilder,
    pub lookups: &'a mut Lookups,
    pub allow_non_finite: bool,
    /// The variable holding the read position: the module's `RecvCursor`, or the decode
    /// loop's local `Cursor` (a register rather than an upvalue read and written per
    /// value; the loop writes it back before anything that reads `RecvCursor`).
    pub cursor: &'static str,
    /// The variable holding the end of the packet: `RecvSize`, or the loop's `Size`.
    pub size: &'static str,
    /// The branch of a two-form path being emitted into (`forms.rs`).
    pub form: Form,
    /// In the interpreted loop of an array of structs with byte runs (`byte_runs.rs`):
    /// the local holding the packet as a string.
    pub packet_text: Option<String>,
    /// Inside a loop whose floats are checked together (`finite.rs`): the local each float
    /// read adds `N - N` to, tested once after the loop.
    pub finite_sum: Option<String>,
}

impl TwoForms for Reader<'_> {
    fn form_mut(&mut self) -> &mut Form {
        &mut self.form
    }

    fn builder(&mut self) -> &mut CodeBuilder {
        self.b
    }
}

impl Reader<'_> {
    /// Reads a value at the cursor and returns an expression for it.
    pub fn read(&mut self, ty: &Type, path: &ValuePath) -> String {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        if let Some(size) = ty.layout.fixed_size {
            if size == 0 {
                return self.read_at(ty, "0", path);
            }
            let cursor = self.cursor;
            let offset = self.local("O", cursor);
            self.b.line_fmt(format_args!("{cursor} = {offset} + {size}"));
            self.check_cursor_in_packet();
            return self.read_at(ty, &offset, path);
        }
        match &ty.kind {
            TypeKind::Optional(inner) => self.read_optional(inner, path),
            TypeKind::String { length } => self.read_string(length, path),
            TypeKind::Buffer { length } => self.read_buffer(length, path),
            TypeKind::Array { element, length } => self.read_array(element, length, path),
            TypeKind::Struct(body) => self.read_struct(body, None, path),
            TypeKind::TaggedEnum(tagged) => self.read_tagged_enum(tagged, path),
            TypeKind::Map { key, value, length } => self.read_map(key, value, length, path),
            _ => {
                // Every other kind is fixed-size in a well-formed model.
                let fail = self.fail(path, "type has no layout");
                self.b.line(fail);
                "nil".into()
            }
        }
    }

    /// Reads a fixed-size value at `offset` (the bytes are already reserved).
    pub fn read_at(&mut self, ty: &Type, offset: &str, path: &ValuePath) -> String {
        let schema = self.schema;
        let ty = resolve(schema, ty);
        match &ty.kind {
            TypeKind::Number { kind, range } => self.read_number(*kind, range, offset, path),
            TypeKind::Quantized(quantized) => self.read_quantized(quantized, offset, false, path),
            TypeKind::Boolean => self.read_boolean(offset, path),
            TypeKind::String { length } => {
                format!("buffer.readstring(B, {offset}, {})", length.exact().unwrap_or(0))
            }
            TypeKind::Buffer { length } => self.read_exact_buffer(length, offset),
            TypeKind::Vector {
                component,
                quantized: None,
                magnitude,
            } => self.read_vector(*component, magnitude, offset, path),
            TypeKind::Vector {
                quantized: Some(quantized),
                ..
            } => self.read_quantized_vector(quantized, offset, path),
            TypeKind::CFrame { position, rotation } => self.read_cframe(*position, *rotation, offset, path),
            TypeKind::Color3 => self.read_color3(offset),
            TypeKind::BrickColor => format!("BrickColor.new(buffer.readu16(B, {offset}))"),
            TypeKind::DateTime | TypeKind::DateTimeMillis => {
                self.read_date_time(matches!(ty.kind, TypeKind::DateTime), offset, path)
            }
            TypeKind::Instance { class } => self.read_instance(class.as_deref(), path),
            TypeKind::Unknown => self.local("Unknown", "ReadSlot()"),
            TypeKind::Optional(inner) if optional_has_flag(schema, inner) => self.read_optional_at(inner, offset, path),
            TypeKind::Optional(inner) => self.read_optional_slot(inner, path),
            TypeKind::Array { element, length } => self.read_exact_array(element, length, offset, path),
            TypeKind::Struct(body) => self.read_fixed_struct(body, None, offset, path),
            TypeKind::Enum(unit) => self.read_enum(&unit.variants, offset, path),
            TypeKind::Set(set) => self.read_set(&set.flags, offset, path),
            TypeKind::TaggedEnum(tagged) => self.read_tagged_enum_at(tagged, offset, path),
            TypeKind::Map { key, value, length } => self.read_exact_map(key, value, length, offset, path),
            TypeKind::Named(_) => {
                let fail = self.fail(path, "type has no fixed layout");
                self.b.line(fail);
                "nil".into()
            }
        }
    }

    /// Like [`Reader::read`], but the locals the value's code declares end with it
    /// ([`CodeBuilder::scope_since`]); the value is then held in one local named from `stem`.
    /// For the parts of a struct or a tuple: otherwise each part's locals would live until
    /// the whole is built.
    pub fn read_scoped(&mut self, ty: &Type, path: &ValuePath, stem: &str) -> String {
        let mark = self.b.mark();
        let value = self.read(ty, path);
        self.bind_scoped(mark, value, stem)
    }

    /// `value`, computed by the code written since `mark`: as it is when that code declared
    /// at most one local (holding it in a local of its own would keep as many), else held in
    /// one local while the code goes in a block of its own.
    pub(crate) fn bind_scoped(&mut self, mark: Mark, value: String, stem: &str) -> String {
        if self.b.declared_count_since(mark) < 2 {
            return value;
        }
        let name = self.b.fresh(stem);
        self.bind_local(mark, &value, &name);
        name
    }

    /// `local {name} = {value}`, `value` computed by the code written since `mark`; when that
    /// code declared locals, it goes in a block of its own that ends them, with `name` declared
    /// ahead of it.
    pub(crate) fn bind_local(&mut self, mark: Mark, value: &str, name: &str) {
        if !self
            .b
            .scope_since(mark, &format!("local {name}: any"), &format!("{name} = {value}"))
        {
            self.b.line_fmt(format_args!("local {name} = {value}"));
        }
    }

    /// The statement that ends the packet because the value at `path` has `problem`.
    fn fail(&self, path: &ValuePath, problem: &str) -> String {
        format!(
            "error(Failed({}), 0)",
            string_literal(&format!("{}: {problem}", path.text()))
        )
    }

    /// Checks that `bytes` are left at the cursor before they are read: a read never raises
    /// on its own, so that a failure after a Sync listener is not taken for its error.
    fn need_at_cursor(&mut self, bytes: u32) {
        let (cursor, size) = (self.cursor, self.size);
        if bytes == 1 {
            self.guard(format!("if {cursor} >= {size} then OutOfBytes() end"));
        } else {
            self.guard(format!("if {cursor} + {bytes} > {size} then OutOfBytes() end"));
        }
    }

    /// After the cursor moved past a block about to be read at its old place: the block
    /// must end within the packet (one comparison, the cursor already holding its end).
    fn check_cursor_in_packet(&mut self) {
        let (cursor, size) = (self.cursor, self.size);
        self.guard(format!("if {cursor} > {size} then OutOfBytes() end"));
    }

    /// Emits a check line, unless the checks are compiled out for a measurement.
    fn guard(&mut self, line: String) {
        if decode_checks_enabled() {
            self.b.line(line);
        }
    }

    /// A fresh local with a type annotation (tables filled after they are made).
    fn typed_local(&mut self, stem: &str, luau_type: &str, expr: &str) -> String {
        let name = self.b.fresh(stem);
        self.b.line_fmt(format_args!("local {name}: {luau_type} = {expr}"));
        name
    }

    fn local(&mut self, stem: &str, expr: &str) -> String {
        let name = self.b.fresh(stem);
        self.b.line_fmt(format_args!("local {name} = {expr}"));
        name
    }
}
