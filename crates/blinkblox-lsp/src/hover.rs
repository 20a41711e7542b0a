//! Hover: what the word under the cursor is — a declaration with its resolved type, its
//! size on the wire and the generated API; a field with its type and size; a primitive,
//! an option or a field key with what it means.

use blinkblox_schema::model::{Field, Payload, Reliability, Schema, Side, StructType, Type, TypeKind};
use blinkblox_schema::source::Span;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use crate::analysis::{Analysis, ROOT};
use crate::api;
use crate::index::{OccurrenceKind, SymbolId, SymbolKind};
use crate::positions::Encoding;
use crate::sizes::{Size, breakdown, bytes, size};
use blinkblox_schema::print::type_text;
use blinkblox_schema::vocabulary;
use blinkblox_schema::wire::resolve;

/// Lines of a declaration shown in a hover before it is cut.
const SHOWN_LINES: usize = 16;

pub fn hover(analysis: &Analysis, offset: u32, encoding: Encoding) -> Option<Hover> {
    let occurrence = analysis.index.at(ROOT, offset)?;
    let word = analysis
        .text(ROOT)
        .get(occurrence.span.start as usize..occurrence.span.end as usize)?;
    let markdown = match &occurrence.kind {
        OccurrenceKind::Symbol(id) => symbol(analysis, *id),
        OccurrenceKind::Primitive => format!("```blink\n{word}\n```\n{}", vocabulary::primitive(word)?.about),
        OccurrenceKind::Unresolved => format!("`{word}` is not declared"),
        OccurrenceKind::FieldKey { owner } => {
            let keyword = analysis.index.symbols[*owner].kind.describe();
            let field = vocabulary::field(keyword, word)?;
            let mut text = format!("**{}** — {}", field.key, field.about);
            for (value, about) in field.takes.words() {
                text.push_str(&format!(
                    "\n- `{value}`{}",
                    if about.is_empty() {
                        String::new()
                    } else {
                        format!(": {about}")
                    }
                ));
            }
            text
        }
        OccurrenceKind::FieldValue { owner, key } => {
            let keyword = analysis.index.symbols[*owner].kind.describe();
            let field = vocabulary::field(keyword, key)?;
            let (value, about) = field
                .takes
                .words()
                .into_iter()
                .find(|(value, _)| value.eq_ignore_ascii_case(word))?;
            format!("`{}: {value}` — {about}", field.key)
        }
        OccurrenceKind::OptionName => option(word)?,
        OccurrenceKind::OptionValue { option: name } => option(name)?,
        OccurrenceKind::ImportPath(file) => match file.and_then(|file| analysis.files.get(file.0 as usize)) {
            Some(info) => format!("imports `{}`", info.path.display()),
            None => "the imported file was not found".to_string(),
        },
        OccurrenceKind::Class => format!("an `Instance` of class `{word}` (checked with `IsA` when received)"),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(analysis.range(occurrence.span, encoding)),
    })
}

fn option(name: &str) -> Option<String> {
    let option = vocabulary::option(name)?;
    let default = match option.default_text() {
        text if text.is_empty() => "not set".to_string(),
        text => format!("`{text}`"),
    };
    Some(format!(
        "**option {}** — {}\n\nDefault: {default}",
        option.name, option.about
    ))
}

/// The source of a declaration, cut after a few lines.
fn source_of(analysis: &Analysis, span: Span) -> String {
    let text = analysis
        .text(span.file)
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let mut lines: Vec<&str> = text.lines().take(SHOWN_LINES + 1).collect();
    if lines.len() > SHOWN_LINES {
        lines.truncate(SHOWN_LINES);
        lines.push("…");
    }
    format!("```blink\n{}\n```", lines.join("\n"))
}

fn symbol(analysis: &Analysis, id: SymbolId) -> String {
    let index = &analysis.index;
    let symbol = &index.symbols[id];
    let mut out = match symbol.kind {
        SymbolKind::Generic | SymbolKind::EnumMember | SymbolKind::SetFlag | SymbolKind::Variant => {
            let parent = symbol.parent.map(|p| index.qualified_name(p)).unwrap_or_default();
            format!(
                "```blink\n{}\n```\n{} of `{parent}`",
                symbol.name,
                symbol.kind.describe()
            )
        }
        SymbolKind::Import { .. } => {
            let file = symbol.file.and_then(|file| analysis.files.get(file.0 as usize));
            let shown = file.map_or("a file that was not found".to_string(), |f| {
                format!("`{}`", f.path.display())
            });
            format!(
                "```blink\nscope {}\n```\nthe declarations of {shown}",
                index.qualified_name(id)
            )
        }
        SymbolKind::Scope => format!("```blink\nscope {}\n```", index.qualified_name(id)),
        _ => source_of(analysis, symbol.item_span),
    };
    let Some(schema) = &analysis.schema else {
        if !matches!(
            symbol.kind,
            SymbolKind::Scope | SymbolKind::Import { .. } | SymbolKind::Generic
        ) {
            out.push_str("\n\n*Sizes and the generated API show once the schema has no errors.*");
        }
        return out;
    };
    let casing = schema.options.casing;
    let mut api_lines = Vec::new();
    match symbol.kind {
        SymbolKind::Type(_) => {
            if let Some(decl) = schema.types.iter().find(|decl| decl.span == symbol.span) {
                out.push_str(&format!("\n\n**Type:** `{}`", type_text(schema, &decl.ty, 2)));
                wire_size(schema, &decl.ty, &mut out);
                if decl.exported {
                    api_lines = api::exported(&decl.scope, &decl.name, casing);
                }
            } else if is_generic(analysis, id) {
                out.push_str("\n\nA generic declaration: its size depends on the arguments it is used with.");
            }
        }
        SymbolKind::Event => {
            if let Some(event) = schema.events.iter().find(|e| e.span == symbol.span) {
                let channel = channel(event.reliability);
                out.push_str(&format!(
                    "\n\nFrom the {} · {channel} · `{:?}` · index {} on the {channel} channel",
                    side(event.from),
                    event.call,
                    event.index
                ));
                record(schema, &event.data, index_bytes(schema, event.reliability), 0, &mut out);
                api_lines = api::event(event, casing);
            }
        }
        SymbolKind::Function => {
            if let Some(function) = schema.functions.iter().find(|f| f.span == symbol.span) {
                out.push_str(&format!("\n\nIndex {} on the reliable channel", function.index));
                record(
                    schema,
                    &function.data,
                    index_bytes(schema, Reliability::Reliable),
                    2,
                    &mut out,
                );
                let returns = payload_size(schema, &function.returns);
                out.push_str(&format!("\n\n**Answer:** {} of return values", returns.describe()));
                api_lines = api::function(function, casing);
            }
        }
        SymbolKind::Stream => {
            if let Some(stream) = schema.streams.iter().find(|s| s.span == symbol.span) {
                let channel = channel(stream.reliability);
                out.push_str(&format!(
                    "\n\nFrom the {} · {channel}{} · index {} on the {channel} channel",
                    side(stream.from),
                    if stream.per_player {
                        " · one value per player"
                    } else {
                        ""
                    },
                    stream.index
                ));
                // An unreliable stream's record carries the sender's flush number.
                let header = u64::from(stream.reliability == Reliability::Unreliable);
                let payload = Payload::Single(stream.data.clone());
                record(
                    schema,
                    &payload,
                    index_bytes(schema, stream.reliability),
                    header,
                    &mut out,
                );
                api_lines = api::stream(stream, casing);
            }
        }
        SymbolKind::Field => {
            if let Some(field) = find_field(schema, symbol.span) {
                out = format!("```blink\n{}: {}\n```", symbol.name, type_text(schema, &field.ty, 1));
                wire_size(schema, &field.ty, &mut out);
            }
        }
        _ => {}
    }
    if !api_lines.is_empty() {
        let casing_name = match casing {
            blinkblox_schema::model::Casing::Pascal => "Pascal",
            blinkblox_schema::model::Casing::Camel => "Camel",
            blinkblox_schema::model::Casing::Snake => "Snake",
        };
        out.push_str(&format!("\n\n**Generated API** ({casing_name} casing)"));
        for (module, member) in api_lines {
            out.push_str(&format!("\n- {module}: `{member}`"));
        }
    }
    out
}

fn is_generic(analysis: &Analysis, id: SymbolId) -> bool {
    analysis
        .index
        .symbols
        .iter()
        .any(|s| s.kind == SymbolKind::Generic && s.parent == Some(id))
}

fn side(side: Side) -> &'static str {
    match side {
        Side::Server => "server",
        Side::Client => "client",
    }
}

fn channel(reliability: Reliability) -> &'static str {
    match reliability {
        Reliability::Reliable => "reliable",
        Reliability::Unreliable => "unreliable",
    }
}

fn index_bytes(schema: &Schema, reliability: Reliability) -> u64 {
    u64::from(match reliability {
        Reliability::Reliable => schema.reliable.index_bytes,
        Reliability::Unreliable => schema.unreliable.index_bytes,
    })
}

fn wire_size(schema: &Schema, ty: &Type, out: &mut String) {
    out.push_str(&format!("\n\n**Wire size:** {}", size(schema, ty).describe()));
    for line in breakdown(schema, ty) {
        out.push_str(&format!("\n- {line}"));
    }
    if let TypeKind::Quantized(quantized) = &resolve(schema, ty).kind {
        out.push_str(&format!(
            "\n\n**Quantized:** {} values from {} to {} in steps of {}; a value arrives at the nearest step, at most {} from what was sent",
            u64::from(quantized.steps) + 1,
            quantized.min,
            quantized.max,
            quantized.step_text,
            quantized.step / 2.0
        ));
    }
}

fn payload_size(schema: &Schema, payload: &Payload) -> Size {
    let mut total = Size { min: 0, max: Some(0) };
    for ty in payload.types() {
        let one = size(schema, ty);
        total.min += one.min;
        total.max = total.max.zip(one.max).map(|(a, b)| a + b);
    }
    total
}

/// One record on the wire: the index, a header (a call id, a flush number), the data.
fn record(schema: &Schema, data: &Payload, index: u64, header: u64, out: &mut String) {
    let data_size = payload_size(schema, data);
    let mut parts = vec![format!("{} of index", bytes(index))];
    if header > 0 {
        parts.push(format!("{} of header", bytes(header)));
    }
    parts.push(format!("{} of data", data_size.describe()));
    let whole = Size {
        min: data_size.min + index + header,
        max: data_size.max.map(|max| max + index + header),
    };
    out.push_str(&format!(
        "\n\n**Wire size:** {} per record ({})",
        whole.describe(),
        parts.join(" + ")
    ));
    match data.types() {
        [single] => {
            for line in breakdown(schema, single) {
                out.push_str(&format!("\n- {line}"));
            }
        }
        many => {
            for (position, ty) in many.iter().enumerate() {
                out.push_str(&format!(
                    "\n- value {}: `{}` — {}",
                    position + 1,
                    type_text(schema, ty, 1),
                    size(schema, ty).describe()
                ));
            }
        }
    }
}

/// The struct field declared at `span`, wherever its struct is.
fn find_field(schema: &Schema, span: Span) -> Option<&Field> {
    let mut roots: Vec<&Type> = schema.types.iter().map(|decl| &decl.ty).collect();
    for event in &schema.events {
        roots.extend(event.data.types());
    }
    for function in &schema.functions {
        roots.extend(function.data.types());
        roots.extend(function.returns.types());
    }
    roots.extend(schema.streams.iter().map(|stream| &stream.data));
    roots.into_iter().find_map(|ty| field_in(ty, span, 0))
}

fn field_in(ty: &Type, span: Span, depth: usize) -> Option<&Field> {
    if depth > 200 {
        return None;
    }
    match &ty.kind {
        TypeKind::Struct(body) => field_in_struct(body, span, depth),
        TypeKind::TaggedEnum(tagged) => tagged
            .variants
            .iter()
            .find_map(|variant| field_in_struct(&variant.body, span, depth)),
        TypeKind::Optional(inner) => field_in(inner, span, depth + 1),
        TypeKind::Array { element, .. } => field_in(element, span, depth + 1),
        TypeKind::Map { key, value, .. } => field_in(key, span, depth + 1).or_else(|| field_in(value, span, depth + 1)),
        _ => None,
    }
}

fn field_in_struct(body: &StructType, span: Span, depth: usize) -> Option<&Field> {
    body.fields.iter().find(|field| field.span == span).or_else(|| {
        body.fields
            .iter()
            .find_map(|field| field_in(&field.ty, span, depth + 1))
    })
}
