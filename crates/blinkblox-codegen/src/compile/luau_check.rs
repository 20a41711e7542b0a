//! The last check on generated modules: Luau's own compiler must accept them.
//!
//! The checker bounds what a declaration may carry (`MAX_TUPLE_VALUES`,
//! `MAX_INLINED_NODES`) and the generators end each field's locals with it, but data
//! nested a few dozen levels deep still needs more than the 200 locals (or 255 registers)
//! Luau gives one function, since each level holds its own while the next is read.
//! Writing such a module would hand the game a script that fails when it loads; `check`,
//! `compile` and `sync` report the declaration instead, and write nothing.

use blinkblox_schema::codes;
use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::model::{Payload, Schema, Type, TypeKind};
use blinkblox_schema::source::{FileId, Span};
use blinkblox_schema::wire::resolve;

use crate::generate::{GeneratedFile, OutputKind, RequirePaths, server_and_client};
use crate::luau::markers::{MARKER_ROLES, describe};

/// Where in a module a failure lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Marker {
    /// An event, function or stream, as `Scope.Name`.
    Declaration(String),
    /// An exported type's reader and writer, by its full name (`Scope.Name`).
    Export(String),
}

/// A generated module Luau's compiler rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileFailure {
    pub kind: OutputKind,
    /// Luau's message, without its chunk name and line.
    pub message: String,
    /// The line of the module Luau names (1-based; 0 when it names none).
    pub line: usize,
    /// The declaration whose code holds that line, when one can be told.
    pub declaration: Option<Marker>,
}

/// Payloads up to this many inlined type nodes, with loops nested no deeper than
/// `UNCHECKED_LOOPS`, fit Luau's limits whatever their shape: every field and tuple value
/// keeps at most one local past its own code (`CodeBuilder::scope_since`), so such a
/// payload needs about a local a type, and each loop a few registers more. Only schemas
/// with a larger one pay for the check: compiling the modules takes Luau several times as
/// long as generating them.
const UNCHECKED_NODES: u32 = 64;
/// Arrays and maps nested in one payload past which it is checked: each level holds its
/// loop's registers while the next is read (31 nested maps need more than 255).
const UNCHECKED_LOOPS: u32 = 8;

/// The diagnostic for the first generated module Luau would reject, when the schema has a
/// payload large or deep enough for that to be possible.
pub(crate) fn check(schema: &Schema, files: &[GeneratedFile]) -> Option<Diagnostic> {
    if !needs_check(schema) {
        return None;
    }
    first_failure(files).map(|failure| diagnostic(&failure, schema))
}

/// [`check`] for a schema nothing has generated modules for yet (`blinkblox check`): the
/// Server and Client modules are generated only when the schema needs the check.
pub(crate) fn check_schema(schema: &Schema) -> Option<Diagnostic> {
    if !needs_check(schema) {
        return None;
    }
    first_failure(&server_and_client(schema, &RequirePaths::default())).map(|failure| diagnostic(&failure, schema))
}

/// Whether any declaration's `Data` or `Return`, or an exported type (its reader and
/// writer are functions of their own), is past `UNCHECKED_NODES` or `UNCHECKED_LOOPS`:
/// only then can Luau reject the modules, so only then are they worth generating to check.
pub fn needs_check(schema: &Schema) -> bool {
    let large = |nodes: u32, types: &[Type]| {
        nodes > UNCHECKED_NODES || types.iter().any(|ty| loop_depth(schema, ty) > UNCHECKED_LOOPS)
    };
    let payload = |payload: &Payload| large(payload.inlined_nodes(), payload.types());
    let single = |ty: &Type| large(ty.layout.inlined_nodes, std::slice::from_ref(ty));
    schema.events.iter().any(|e| payload(&e.data))
        || schema.functions.iter().any(|f| payload(&f.data) || payload(&f.returns))
        || schema.streams.iter().any(|s| single(&s.data))
        || schema.types.iter().any(|t| t.exported && single(&t.ty))
}

/// Arrays and maps nested in `ty`. Only called on payloads of at most `UNCHECKED_NODES`
/// types once the node count is known, or stopped early past the bound.
fn loop_depth(schema: &Schema, ty: &Type) -> u32 {
    if ty.layout.inlined_nodes > UNCHECKED_NODES {
        return 0;
    }
    let deepest = |types: &mut dyn Iterator<Item = &Type>| types.map(|ty| loop_depth(schema, ty)).max().unwrap_or(0);
    match &resolve(schema, ty).kind {
        TypeKind::Array { element, .. } => 1 + loop_depth(schema, element),
        TypeKind::Map { key, value, .. } => 1 + deepest(&mut [key.as_ref(), value.as_ref()].into_iter()),
        TypeKind::Optional(inner) => loop_depth(schema, inner),
        TypeKind::Struct(body) => deepest(&mut body.fields.iter().map(|field| &field.ty)),
        TypeKind::TaggedEnum(tagged) => deepest(
            &mut tagged
                .variants
                .iter()
                .flat_map(|variant| variant.body.fields.iter().map(|field| &field.ty)),
        ),
        _ => 0,
    }
}

/// The first Luau module among `files` that Luau's compiler rejects.
pub fn first_failure(files: &[GeneratedFile]) -> Option<CompileFailure> {
    files
        .iter()
        .filter(|file| matches!(file.kind, OutputKind::Server | OutputKind::Client | OutputKind::Types))
        .find_map(|file| failure_of(file.kind, &file.contents))
}

fn failure_of(kind: OutputKind, source: &str) -> Option<CompileFailure> {
    let error = blinkblox_luau::roblox_compiler().compile(source).err()?;
    let text = match error {
        mlua::Error::SyntaxError { message, .. } => message,
        other => other.to_string(),
    };
    let (line, message) = split_location(&text);
    Some(CompileFailure {
        kind,
        message,
        line,
        declaration: declaration_at(source, line),
    })
}

/// Splits Luau's `LINE: message` (or `chunk:LINE: message`) into the line and the message.
fn split_location(text: &str) -> (usize, String) {
    let located = |text: &str| -> Option<(usize, String)> {
        let (line, message) = text.split_once(':')?;
        Some((line.trim().parse().ok()?, message.trim().to_string()))
    };
    located(text)
        .or_else(|| text.split_once(':').and_then(|(_, rest)| located(rest)))
        .unwrap_or_else(|| (0, text.trim().to_string()))
}

/// The declaration whose code holds `line`: the nearest marker above it, the comment
/// `markers::marker` opens each declaration's code with (`-- Net.Item (type)` for an
/// exported type's reader and writer).
fn declaration_at(source: &str, line: usize) -> Option<Marker> {
    let lines: Vec<&str> = source.lines().take(line).collect();
    lines.iter().rev().find_map(|text| {
        let comment = text.trim().strip_prefix("-- ")?;
        if let Some(name) = comment.strip_suffix(" (type)") {
            return is_name(name).then(|| Marker::Export(name.to_string()));
        }
        let name = MARKER_ROLES
            .iter()
            .find_map(|role| comment.strip_suffix(&format!(" ({role})")))
            .unwrap_or(comment);
        is_name(name).then(|| Marker::Declaration(name.to_string()))
    })
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The failure as a diagnostic on the declaration it names (or the schema's first one).
pub fn diagnostic(failure: &CompileFailure, schema: &Schema) -> Diagnostic {
    let declared = |wanted: &str| -> Option<Span> {
        let events = schema.events.iter().map(|e| (describe(&e.scope, &e.name), e.span));
        let functions = schema.functions.iter().map(|f| (describe(&f.scope, &f.name), f.span));
        let streams = schema.streams.iter().map(|s| (describe(&s.scope, &s.name), s.span));
        events
            .chain(functions)
            .chain(streams)
            .find(|(name, _)| name == wanted)
            .map(|(_, span)| span)
    };
    let first = schema
        .events
        .first()
        .map(|e| e.span)
        .or_else(|| schema.functions.first().map(|f| f.span))
        .or_else(|| schema.streams.first().map(|s| s.span))
        .unwrap_or(Span::new(FileId(0), 0, 0));
    let (span, whose) = match &failure.declaration {
        Some(Marker::Declaration(name)) => (declared(name), format!("the code for `{name}`")),
        Some(Marker::Export(flat)) => (
            schema
                .types
                .iter()
                .find(|t| t.exported && describe(&t.scope, &t.name) == *flat)
                .map(|t| t.span),
            format!("the reader and writer of the exported type `{flat}`"),
        ),
        None => (None, "it".to_string()),
    };
    let span = span.unwrap_or(first);
    let module = failure.kind.file_name();
    Diagnostic::error(
        codes::GENERATED_CODE_REJECTED,
        format!(
            "the generated {module} would not load: Luau rejects {whose} (line {}: {})",
            failure.line, failure.message
        ),
        span,
        "its data is too deep to write out in one function",
    )
    .with_note(
        "the generated code reads and writes nested data in place, and each level of structs, arrays and maps keeps its own locals: nest the data less deeply, or split it into several declarations",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luau_location_is_split_from_the_message() {
        assert_eq!(
            split_location("[string \"chunk\"]:12: Out of local registers"),
            (12, "Out of local registers".to_string())
        );
        assert_eq!(split_location("no location"), (0, "no location".to_string()));
        assert_eq!(
            split_location("204: Out of local registers: exceeded limit 200"),
            (204, "Out of local registers: exceeded limit 200".to_string())
        );
        assert_eq!(
            split_location("chunk:12: Out of local registers"),
            (12, "Out of local registers".to_string())
        );
    }

    #[test]
    fn a_module_with_too_many_locals_fails_and_names_its_declaration() {
        let mut source =
            String::from("local Api = {}\nApi.Big = table.freeze({\n\tFire = function()\n\t\t-- Api.Big\n");
        for index in 0..210 {
            source.push_str(&format!("\t\tlocal L{index} = tostring({index})\n"));
        }
        source.push_str("\tend,\n})\nreturn Api\n");
        let failure = failure_of(OutputKind::Client, &source).expect("Luau rejects 210 locals");
        assert!(failure.message.contains("Out of local registers"), "{failure:?}");
        assert!(failure.line > 200, "{failure:?}");
        assert_eq!(failure.declaration, Some(Marker::Declaration("Api.Big".into())));
    }

    #[test]
    fn markers_name_functions_streams_and_exported_types() {
        let source = "-- Chat.Say\nx\n-- Trade (invocation)\nx\n-- Feed (stream)\nx\n-- Net.Item (type)\nx\n";
        assert_eq!(declaration_at(source, 2), Some(Marker::Declaration("Chat.Say".into())));
        assert_eq!(declaration_at(source, 4), Some(Marker::Declaration("Trade".into())));
        assert_eq!(declaration_at(source, 6), Some(Marker::Declaration("Feed".into())));
        assert_eq!(declaration_at(source, 8), Some(Marker::Export("Net.Item".into())));
        assert_eq!(declaration_at("local x = 1\n", 1), None);
    }

    #[test]
    fn valid_luau_passes() {
        assert_eq!(failure_of(OutputKind::Server, "local x = 1\nreturn x\n"), None);
    }
}
