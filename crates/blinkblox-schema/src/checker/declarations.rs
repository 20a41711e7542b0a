//! Pass 3: events, functions and streams — their fields, payloads, channel indices
//! and the size limits that can be decided at compile time.

use super::{Checker, MemberItem};
use crate::ast::{self, DeclField, DeclValue, LiteralKind};
use crate::codes;
use crate::diagnostics::Diagnostic;
use crate::model::{CallMode, EventDecl, FunctionDecl, Payload, Reliability, ScopePath, Side, StreamDecl, YieldMode};
use crate::source::Span;
use crate::suggest::closest;
use crate::wire;

use super::types::Context;
use crate::vocabulary::fields::{
    CALL, Choice, EVENT_FIELDS, FROM, FUNCTION_FIELDS, Field, PER, RELIABILITY, STREAM_FIELDS, YIELD,
};

/// Declarations a channel can index with two bytes.
const MAX_CHANNEL: u32 = 65536;
/// Values in one type pack. Each is a local and an argument of the listener call in the
/// generated code, and Luau gives a function 200 locals and 255 registers in all.
const MAX_TUPLE_VALUES: usize = 32;
/// Type nodes in one `Data`/`Return` with its named types expanded. The generators inline
/// named types into each declaration's code, so a struct used twice at every level of a
/// chain doubles it per level: past this, the modules would run to megabytes and past
/// Luau's limits on one function.
const MAX_INLINED_NODES: u32 = 4096;

/// A declaration's minimum size, checked against the limits once every index width
/// is known.
struct SizeCheck {
    what: &'static str,
    name: String,
    span: Span,
    reliability: Reliability,
    from_client: bool,
    data_min: u64,
    /// Bytes a record carries between its index and its data (a function's call id).
    header: u64,
}

/// The `Key: value` fields of one declaration, matched case-insensitively.
struct Fields<'f> {
    found: Vec<(&'static str, &'f DeclField)>,
}

impl<'f> Fields<'f> {
    fn get(&self, key: &str) -> Option<&'f DeclField> {
        self.found.iter().find(|(k, _)| *k == key).map(|(_, f)| *f)
    }
}

impl<'a> Checker<'a> {
    pub(super) fn check_members(&mut self) {
        let mut sizes = Vec::new();
        for index in 0..self.members.len() {
            let scope = self.members[index].scope;
            let path = self.scopes[scope].path.clone();
            match self.members[index].item {
                MemberItem::Event(event) => self.check_event(event, scope, path, &mut sizes),
                MemberItem::Function(function) => self.check_function(function, scope, path, &mut sizes),
                MemberItem::Stream(stream) => self.check_stream(stream, scope, path, &mut sizes),
            }
        }
        self.reliable.index_bytes = if self.reliable.count > 256 { 2 } else { 1 };
        self.unreliable.index_bytes = if self.unreliable.count > 256 { 2 } else { 1 };
        for size in sizes {
            self.check_size(size);
        }
    }

    fn check_event(&mut self, event: &'a ast::EventItem, scope: usize, path: ScopePath, sizes: &mut Vec<SizeCheck>) {
        let fields = self.fields(&event.fields, EVENT_FIELDS, "event");
        let from = self.required(&fields, "From", FROM, &event.name, "event", "From: Server");
        let reliability = self.required(&fields, "Type", RELIABILITY, &event.name, "event", "Type: Reliable");
        let poll = match fields.get("Poll") {
            None => false,
            Some(field) => match &field.value {
                DeclValue::Literal(ast::Literal {
                    kind: LiteralKind::Bool(flag),
                    ..
                }) => *flag,
                _ => {
                    self.invalid_value(field, "`true` or `false`");
                    false
                }
            },
        };
        let call = match fields.get("Call") {
            Some(field) => self.choice(field, CALL),
            None if poll => Some(CallMode::Polling),
            None => {
                self.missing(&event.name, "event", "Call", "Call: SingleSync");
                None
            }
        };
        let (data, data_span) = self.payload(fields.get("Data"), scope, &event.name);
        let (Some(from), Some(reliability), Some(call), Some(data)) = (from, reliability, call, data) else {
            return;
        };
        let call = if poll || self.options.use_polling {
            CallMode::Polling
        } else {
            call
        };
        let index = self.next_index(reliability, event.name.span);
        sizes.push(SizeCheck {
            what: "event",
            name: event.name.text.clone(),
            span: data_span.unwrap_or(event.name.span),
            reliability,
            from_client: from == Side::Client,
            data_min: wire::payload_min_size(&data),
            header: 0,
        });
        self.events.push(EventDecl {
            name: event.name.text.clone(),
            scope: path,
            from,
            reliability,
            call,
            data,
            index,
            span: event.name.span,
        });
    }

    fn check_function(
        &mut self,
        function: &'a ast::FunctionItem,
        scope: usize,
        path: ScopePath,
        sizes: &mut Vec<SizeCheck>,
    ) {
        let fields = self.fields(&function.fields, FUNCTION_FIELDS, "function");
        let yield_mode = self.required(&fields, "Yield", YIELD, &function.name, "function", "Yield: Coroutine");
        let (data, data_span) = self.payload(fields.get("Data"), scope, &function.name);
        let (returns, _) = self.payload(fields.get("Return"), scope, &function.name);
        let timeout = match fields.get("Timeout") {
            None => Some(None),
            Some(field) => match &field.value {
                DeclValue::Literal(ast::Literal {
                    kind: LiteralKind::Number { value, .. },
                    ..
                }) if *value > 0.0 && value.is_finite() => Some(Some(*value)),
                _ => {
                    self.report(
                        Diagnostic::error(
                            codes::INVALID_TIMEOUT,
                            "`Timeout` must be a positive number of seconds",
                            field.value.span(),
                            "not a positive number",
                        )
                        .with_note("for example `Timeout: 5`; leave it out to wait forever"),
                    );
                    None
                }
            },
        };
        if let Some(mode) = yield_mode {
            let (library, option) = match mode {
                YieldMode::Future => (&self.options.future_library, "FutureLibrary"),
                YieldMode::Promise => (&self.options.promise_library, "PromiseLibrary"),
                YieldMode::Coroutine => (&None, ""),
            };
            if mode != YieldMode::Coroutine && library.is_none() {
                let span = fields.get("Yield").map_or(function.name.span, |f| f.value.span());
                // The generated client's `Invoke` returns the library's object: without the
                // library's path it would call a global that does not exist.
                let value = if mode == YieldMode::Future {
                    "a Future"
                } else {
                    "a Promise"
                };
                self.report(
                    Diagnostic::error(
                        codes::MISSING_LIBRARY,
                        format!(
                            "function `{}` returns {value} from `Invoke`, but `{option}` is not set",
                            function.name.text
                        ),
                        span,
                        format!("needs option `{option}`"),
                    )
                    .with_note(format!(
                        "add `option {option} = \"ReplicatedStorage.Packages.{}\"` (the path the client requires the library from), or set `{option}` in blinkblox.toml's `[options]`; `Yield: Coroutine` needs no library",
                        if mode == YieldMode::Future { "Future" } else { "Promise" }
                    )),
                );
            }
        }
        let (Some(yield_mode), Some(data), Some(returns), Some(timeout)) = (yield_mode, data, returns, timeout) else {
            return;
        };
        let index = self.next_index(Reliability::Reliable, function.name.span);
        sizes.push(SizeCheck {
            what: "function",
            name: function.name.text.clone(),
            span: data_span.unwrap_or(function.name.span),
            reliability: Reliability::Reliable,
            from_client: true,
            data_min: wire::payload_min_size(&data),
            // An invocation is `[index][call id u16][data]`.
            header: 2,
        });
        self.functions.push(FunctionDecl {
            name: function.name.text.clone(),
            scope: path,
            yield_mode,
            data,
            returns,
            timeout,
            index,
            span: function.name.span,
        });
    }

    fn check_stream(&mut self, stream: &'a ast::StreamItem, scope: usize, path: ScopePath, sizes: &mut Vec<SizeCheck>) {
        let fields = self.fields(&stream.fields, STREAM_FIELDS, "stream");
        let from = self.required(&fields, "From", FROM, &stream.name, "stream", "From: Server");
        let reliability = self.required(&fields, "Type", RELIABILITY, &stream.name, "stream", "Type: Unreliable");
        let per_player = match fields.get("Per") {
            None => Some(false),
            Some(field) => match self.choice_with(field, PER, codes::INVALID_PER) {
                None => None,
                Some(()) if from == Some(Side::Client) => {
                    let from_span = fields.get("From").map(|f| f.span);
                    let mut diagnostic = Diagnostic::error(
                        codes::INVALID_PER,
                        "`Per: Player` needs `From: Server`",
                        field.span,
                        "only a server stream can hold one value per player",
                    )
                    .with_note("a client stream already comes from one player; remove `Per`");
                    if let Some(from_span) = from_span {
                        diagnostic = diagnostic.with_secondary(from_span, "the stream comes from the client");
                    }
                    self.report(diagnostic);
                    None
                }
                Some(()) => Some(true),
            },
        };
        let data = match fields.get("Data") {
            None => {
                self.missing(&stream.name, "stream", "Data", "Data: u8");
                None
            }
            Some(field) => match &field.value {
                DeclValue::Type(ty) => self
                    .resolve(ty, Context { scope, generics: &[] })
                    .filter(|t| self.check_inlined_nodes(t.layout.inlined_nodes, ty.span))
                    .map(|t| (t, ty.span)),
                DeclValue::Tuple(_, span) => {
                    self.report(
                        Diagnostic::error(
                            codes::STREAM_TUPLE,
                            "a stream's `Data` must be one type, not a type pack",
                            *span,
                            "a type pack",
                        )
                        .with_note("a stream holds one value; wrap the parts in a struct"),
                    );
                    None
                }
                DeclValue::Literal(_) => None,
            },
        };
        let (Some(from), Some(reliability), Some(per_player), Some((data, data_span))) =
            (from, reliability, per_player, data)
        else {
            return;
        };
        let delta = match fields.get("Delta") {
            None => false,
            Some(field) => match &field.value {
                DeclValue::Literal(ast::Literal {
                    kind: LiteralKind::Bool(flag),
                    ..
                }) => *flag && self.delta_allowed(field.span, from, reliability, &data, data_span),
                _ => {
                    self.invalid_value(field, "`true` or `false`");
                    return;
                }
            },
        };
        let index = self.next_index(reliability, stream.name.span);
        sizes.push(SizeCheck {
            what: "stream",
            name: stream.name.text.clone(),
            span: data_span,
            reliability,
            from_client: from == Side::Client,
            data_min: u64::from(data.layout.min_size),
            header: 0,
        });
        self.streams.push(StreamDecl {
            name: stream.name.text.clone(),
            scope: path,
            from,
            reliability,
            per_player,
            delta,
            data,
            index,
            span: stream.name.span,
        });
    }

    /// Matches field keys (case-insensitively) against `allowed`; reports unknown and
    /// repeated keys.
    fn fields<'f>(&mut self, fields: &'f [DeclField], allowed: &'static [Field], what: &str) -> Fields<'f> {
        let mut found: Vec<(&'static str, &'f DeclField)> = Vec::new();
        let keys = allowed.iter().map(|allowed| allowed.key);
        for field in fields {
            let Some(key) = keys.clone().find(|k| k.eq_ignore_ascii_case(&field.key.text)) else {
                let mut diagnostic = Diagnostic::error(
                    codes::UNKNOWN_FIELD,
                    format!("{what}s have no field `{}`", field.key.text),
                    field.key.span,
                    "unknown field",
                );
                if let Some(suggestion) = closest(&field.key.text, keys.clone()) {
                    diagnostic = diagnostic.with_did_you_mean(field.key.span, suggestion);
                }
                let list: Vec<String> = keys.clone().map(|k| format!("`{k}`")).collect();
                let article = if what.starts_with('e') { "an" } else { "a" };
                self.report(diagnostic.with_note(format!("{article} {what} has the fields {}", list.join(", "))));
                continue;
            };
            if let Some((_, first)) = found.iter().find(|(k, _)| *k == key) {
                let first_span = first.span;
                self.report(
                    Diagnostic::error(
                        codes::DUPLICATE_FIELD,
                        format!("`{key}` is given twice"),
                        field.span,
                        "given again here",
                    )
                    .with_secondary(first_span, "first given here")
                    .with_note("keep one of them"),
                );
                continue;
            }
            found.push((key, field));
        }
        Fields { found }
    }

    fn required<T: Copy>(
        &mut self,
        fields: &Fields<'_>,
        key: &str,
        choices: &[Choice<T>],
        name: &ast::Name,
        what: &str,
        example: &str,
    ) -> Option<T> {
        match fields.get(key) {
            Some(field) => self.choice(field, choices),
            None => {
                self.missing(name, what, key, example);
                None
            }
        }
    }

    fn missing(&mut self, name: &ast::Name, what: &str, key: &str, example: &str) {
        self.report(
            Diagnostic::error(
                codes::MISSING_FIELD,
                format!("{what} `{}` has no `{key}`", name.text),
                name.span,
                format!("`{key}` is required"),
            )
            .with_note(format!("add `{example}`")),
        );
    }

    fn choice<T: Copy>(&mut self, field: &DeclField, choices: &[Choice<T>]) -> Option<T> {
        self.choice_with(field, choices, codes::INVALID_FIELD_VALUE)
    }

    fn choice_with<T: Copy>(&mut self, field: &DeclField, choices: &[Choice<T>], code: &'static str) -> Option<T> {
        if let DeclValue::Literal(ast::Literal {
            kind: LiteralKind::Ident(word),
            ..
        }) = &field.value
            && let Some(choice) = choices.iter().find(|choice| choice.word.eq_ignore_ascii_case(word))
        {
            return Some(choice.value);
        }
        let list: Vec<String> = choices.iter().map(|choice| format!("`{}`", choice.word)).collect();
        let expected = match list.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            [] => String::new(),
        };
        let suggestion = match &field.value {
            DeclValue::Literal(ast::Literal {
                kind: LiteralKind::Ident(word),
                ..
            }) => crate::suggest::closest(word, choices.iter().map(|choice| choice.word)),
            _ => None,
        };
        self.invalid_value_with(field, &expected, code, suggestion);
        None
    }

    fn invalid_value(&mut self, field: &DeclField, expected: &str) {
        self.invalid_value_with(field, expected, codes::INVALID_FIELD_VALUE, None);
    }

    fn invalid_value_with(&mut self, field: &DeclField, expected: &str, code: &'static str, suggestion: Option<&str>) {
        let key = &field.key.text;
        let mut diagnostic = Diagnostic::error(
            code,
            format!("`{key}` must be {expected}"),
            field.value.span(),
            "not allowed here",
        );
        if let DeclValue::Literal(ast::Literal {
            kind: LiteralKind::Ident(word),
            ..
        }) = &field.value
            && word == "Both"
        {
            diagnostic = diagnostic.with_note("declare two events, one from each side");
        }
        if let Some(suggestion) = suggestion {
            diagnostic = diagnostic.with_did_you_mean(field.value.span(), suggestion);
        }
        self.report(diagnostic);
    }

    /// `Data`/`Return`: nothing, one type or a type pack.
    fn payload(
        &mut self,
        field: Option<&DeclField>,
        scope: usize,
        _owner: &ast::Name,
    ) -> (Option<Payload>, Option<Span>) {
        let context = Context { scope, generics: &[] };
        let Some(field) = field else {
            return (Some(Payload::None), None);
        };
        let span = Some(field.value.span());
        let payload = match &field.value {
            DeclValue::Type(ty) => self.resolve(ty, context).map(Payload::Single),
            DeclValue::Tuple(types, tuple_span) => {
                let resolved: Vec<_> = types.iter().map(|ty| self.resolve(ty, context)).collect();
                if types.len() > MAX_TUPLE_VALUES {
                    self.report(
                        Diagnostic::error(
                            codes::TUPLE_TOO_LONG,
                            format!(
                                "a type pack carries at most {MAX_TUPLE_VALUES} values; this one has {}",
                                types.len()
                            ),
                            *tuple_span,
                            "too many values",
                        )
                        .with_note("each value is a separate argument in Luau; group them into a struct"),
                    );
                    return (None, span);
                }
                resolved.into_iter().collect::<Option<Vec<_>>>().map(Payload::Tuple)
            }
            DeclValue::Literal(_) => None,
        };
        if let (Some(payload), Some(span)) = (&payload, span)
            && !self.check_inlined_nodes(payload.inlined_nodes(), span)
        {
            return (None, Some(span));
        }
        (payload, span)
    }

    /// Reports data whose code would be too large once its named types are inlined.
    pub(super) fn check_inlined_nodes(&mut self, nodes: u32, span: Span) -> bool {
        if nodes <= MAX_INLINED_NODES {
            return true;
        }
        let shown = if nodes == u32::MAX {
            "over four billion".to_string()
        } else {
            nodes.to_string()
        };
        self.report(
            Diagnostic::error(
                codes::DATA_TOO_LARGE,
                format!("this data expands to {shown} types when its named types are written out, more than {MAX_INLINED_NODES}"),
                span,
                "too large to generate",
            )
            .with_note(
                "the generated code writes every field of every named type it uses in place; a struct used twice in a struct used twice … doubles at each level: send fewer nested copies, or an array of them",
            ),
        );
        false
    }

    fn next_index(&mut self, reliability: Reliability, span: Span) -> u16 {
        let channel = match reliability {
            Reliability::Reliable => &mut self.reliable,
            Reliability::Unreliable => &mut self.unreliable,
        };
        let index = channel.count;
        channel.count += 1;
        if index == MAX_CHANNEL {
            let name = match reliability {
                Reliability::Reliable => "reliable",
                Reliability::Unreliable => "unreliable",
            };
            self.report(
                Diagnostic::error(
                    codes::CHANNEL_FULL,
                    format!("the {name} channel holds more than {MAX_CHANNEL} declarations"),
                    span,
                    "this one does not fit",
                )
                .with_note("split the schema into several schemas, each with its own `RemoteScope`"),
            );
        }
        index as u16
    }

    fn check_size(&mut self, size: SizeCheck) {
        let index_bytes = match size.reliability {
            Reliability::Reliable => self.reliable.index_bytes,
            Reliability::Unreliable => self.unreliable.index_bytes,
        };
        let record = u64::from(index_bytes) + size.header + size.data_min;
        if size.reliability == Reliability::Unreliable && record > u64::from(self.options.max_unreliable_size) {
            let limit = self.options.max_unreliable_size;
            self.report(
                Diagnostic::error(
                    codes::UNRELIABLE_TOO_LARGE,
                    format!(
                        "unreliable {} `{}` takes at least {record} bytes, more than `MaxUnreliableSize` ({limit})",
                        size.what, size.name
                    ),
                    size.span,
                    size_label(size.data_min, index_bytes, size.header),
                )
                .with_note("make it `Type: Reliable`, bound the lengths lower, or raise `option MaxUnreliableSize`"),
            );
        }
        if size.from_client && record > u64::from(self.options.max_packet_size) {
            let limit = self.options.max_packet_size;
            self.report(
                Diagnostic::error(
                    codes::PACKET_TOO_LARGE,
                    format!(
                        "{} `{}` from the client takes at least {record} bytes, more than `MaxPacketSize` ({limit})",
                        size.what, size.name
                    ),
                    size.span,
                    size_label(size.data_min, index_bytes, size.header),
                )
                .with_note(
                    "the server would drop every packet carrying it; shrink the data or raise `option MaxPacketSize`",
                ),
            );
        }
    }
}

/// "12 bytes of data at least, plus 1 of index" (and the call id of an invocation).
fn size_label(data_min: u64, index_bytes: u8, header: u64) -> String {
    if header > 0 {
        format!("{data_min} bytes of data at least, plus {index_bytes} of index and {header} of call id")
    } else {
        format!("{data_min} bytes of data at least, plus {index_bytes} of index")
    }
}
