//! `opt name = value` → `option Name = Value`.
//!
//! Options with a BlinkBlox counterpart become `option` lines, in the zap file's order:
//! outputs, `typescript`, `casing`, `write_checks` (`WriteValidations`), `manual_event_loop`
//! (`ManualReplication`), `remote_scope` (`RemoteScope`) and `async_lib` (`FutureLibrary` or
//! `PromiseLibrary`, as `yield_type` says). `call_default` and `yield_type` are written into
//! each event and function instead. Options that only shape zap's own output are dropped with
//! a warning and a comment in the schema. zap's defaults that differ from BlinkBlox's (the
//! output paths, sender-side checks) are written out, so the schema behaves as the zap file
//! did.

use std::collections::HashMap;

use blinkblox_schema::diagnostics::Diagnostic;

use super::Translation;
use crate::Settings;
use crate::codes;
use crate::syntax::{Opt, OptValueKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Casing {
    #[default]
    Pascal,
    Camel,
    Snake,
}

impl Casing {
    pub(crate) fn pick(self, pascal: &'static str, camel: &'static str, snake: &'static str) -> &'static str {
        match self {
            Casing::Pascal => pascal,
            Casing::Camel => camel,
            Casing::Snake => snake,
        }
    }
}

/// What the options decide for the declarations.
#[derive(Debug, Clone, Default)]
pub(crate) struct ZapOptions {
    pub casing: Casing,
    /// `Yield:` of every function: `Coroutine`, `Future` or `Promise`.
    pub yield_word: Option<&'static str>,
    /// `call_default`, for events without `call`.
    pub call_default: Option<&'static str>,
}

/// zap's call modes are BlinkBlox's words (`SingleSync`, …), matched ignoring case.
pub(crate) fn calls() -> Vec<&'static str> {
    blinkblox_schema::vocabulary::fields::CALL
        .iter()
        .map(|choice| choice.word)
        .collect()
}

/// zap's options that only shape zap's own output, with what to say about each.
const DROPPED: &[(&str, &str)] = &[
    (
        "remote_folder",
        "BlinkBlox's remotes are created directly in ReplicatedStorage",
    ),
    ("tooling", "BlinkBlox writes no PacketProfiler module"),
    ("tooling_output", "BlinkBlox writes no PacketProfiler module"),
    (
        "tooling_show_internal_data",
        "BlinkBlox writes no PacketProfiler module",
    ),
    (
        "typescript_max_tuple_length",
        "BlinkBlox's .d.ts files write every tuple out",
    ),
    ("disable_fire_all", "BlinkBlox's server modules always have FireAll"),
    (
        "include_profile_labels",
        "BlinkBlox's modules have no microprofiler labels",
    ),
];

enum Value<'o> {
    Str(&'o str, char),
    Bool(bool),
}

impl<'a> Translation<'a> {
    pub(super) fn options(&mut self, opts: &'a [Opt], has_functions: bool, settings: &Settings<'_>) {
        // The last of each name counts, as in zap.
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (index, opt) in opts.iter().enumerate() {
            if let Some(&earlier) = last.get(opt.name.text.as_str()) {
                self.report(
                    Diagnostic::warning(
                        codes::OPTION_SET_TWICE,
                        format!("option `{}` is set twice", opt.name.text),
                        opt.span,
                        "this value counts",
                    )
                    .with_secondary(opts[earlier].span, "ignored")
                    .with_note("zap uses the last value, and so does the translation; remove the other line"),
                );
            }
            last.insert(&opt.name.text, index);
        }
        let effective = |name: &str| last.get(name).map(|&index| &opts[index]);
        if let Some(opt) = effective("casing") {
            self.options.casing = match self.choice(opt, &["PascalCase", "camelCase", "snake_case"]) {
                Some("camelCase") => Casing::Camel,
                Some("snake_case") => Casing::Snake,
                _ => Casing::Pascal,
            };
        }
        if let Some(opt) = effective("call_default") {
            self.options.call_default = self.choice(opt, &calls());
        }
        let mut yield_opt = None;
        self.options.yield_word = Some("Coroutine");
        if let Some(opt) = effective("yield_type") {
            yield_opt = Some(opt);
            self.options.yield_word = match self.choice(opt, &["yield", "future", "promise"]) {
                Some("future") => Some("Future"),
                Some("promise") => Some("Promise"),
                _ => Some("Coroutine"),
            };
        }
        let asynchronous = self.options.yield_word != Some("Coroutine");
        if let (true, true, Some(opt), None) = (asynchronous, has_functions, yield_opt, effective("async_lib")) {
            self.report(
                Diagnostic::error(
                    codes::ASYNC_LIBRARY,
                    "functions that return a future or a promise need `async_lib`",
                    opt.value.span,
                    "no library given",
                )
                .with_note(
                    "BlinkBlox's clients require the library themselves: add `opt async_lib = \"require(path.to.Library)\"`",
                ),
            );
        }

        let start = self.out.len();
        for (index, opt) in opts.iter().enumerate() {
            if last.get(opt.name.text.as_str()) != Some(&index) {
                self.leading(&opt.comments, 0);
                continue;
            }
            self.leading(&opt.comments, 0);
            if let Some(line) = self.option_line(opt, asynchronous, has_functions, settings) {
                self.out.push_str(&line);
                self.end_line(&opt.comments);
            }
        }
        let mut defaults = Vec::new();
        for (name, blink, default) in [
            ("server_output", "ServerOutput", "network/server.lua"),
            ("client_output", "ClientOutput", "network/client.lua"),
        ] {
            if effective(name).is_none() {
                defaults.push(format!("option {blink} = \"{}\"", (settings.rebase_output)(default)));
            }
        }
        if effective("write_checks").is_none() {
            defaults.push("option WriteValidations = true".to_string());
        }
        if !defaults.is_empty() {
            self.line(0, "-- zap's defaults, where BlinkBlox's differ:");
            for line in defaults {
                self.line(0, &line);
            }
        }
        if self.out.len() > start {
            self.out.push('\n');
        }
    }

    /// The `option` line for one zap option (without its newline), or `None` when it has
    /// no line of its own.
    fn option_line(
        &mut self,
        opt: &Opt,
        asynchronous: bool,
        has_functions: bool,
        settings: &Settings<'_>,
    ) -> Option<String> {
        let name = opt.name.text.as_str();
        let output = |blink: &str, path: &str, quote: char| {
            let path = (settings.rebase_output)(path);
            Some(format!("option {blink} = {quote}{path}{quote}"))
        };
        match name {
            "server_output" | "client_output" | "types_output" => {
                let blink = match name {
                    "server_output" => "ServerOutput",
                    "client_output" => "ClientOutput",
                    _ => "TypesOutput",
                };
                let Value::Str(path, quote) = self.value(opt, "a string")? else {
                    return None;
                };
                output(blink, path, quote)
            }
            "typescript" | "write_checks" | "manual_event_loop" => {
                let blink = match name {
                    "typescript" => "Typescript",
                    "write_checks" => "WriteValidations",
                    _ => "ManualReplication",
                };
                let Value::Bool(flag) = self.value(opt, "`true` or `false`")? else {
                    return None;
                };
                Some(format!("option {blink} = {flag}"))
            }
            "remote_scope" => {
                let Value::Str(scope, quote) = self.value(opt, "a string")? else {
                    return None;
                };
                Some(format!("option RemoteScope = {quote}{scope}{quote}"))
            }
            "casing" => {
                // Checked (and any bad value reported) when the options were read.
                let OptValueKind::Str(text, _) = &opt.value.kind else {
                    return None;
                };
                let word = match text.as_str() {
                    "PascalCase" => "Pascal",
                    "camelCase" => "Camel",
                    "snake_case" => "Snake",
                    _ => return None,
                };
                Some(format!("option Casing = {word}"))
            }
            "call_default" | "yield_type" => None,
            "async_lib" => self.async_library(opt, asynchronous, has_functions),
            "typescript_enum" => {
                match self.choice(opt, &["StringLiteral", "StringConstEnum", "ConstEnum"])? {
                    "ConstEnum" => self.report(
                        Diagnostic::error(
                            codes::CONST_ENUM,
                            "`typescript_enum = \"ConstEnum\"` makes zap's enums numbers in Luau",
                            opt.value.span,
                            "BlinkBlox's enums are always their names",
                        )
                        .with_note("use the names in game code (`\"Starting\"`, not `0`), then remove the option"),
                    ),
                    "StringConstEnum" => self.dropped(opt, "BlinkBlox's .d.ts files write enums as string unions"),
                    _ => {}
                }
                None
            }
            _ => {
                if let Some((_, reason)) = DROPPED.iter().find(|(dropped, _)| *dropped == name) {
                    self.dropped(opt, reason);
                } else {
                    self.report(
                        Diagnostic::warning(
                            codes::UNKNOWN_OPTION,
                            format!("zap has no option `{name}`"),
                            opt.name.span,
                            "ignored",
                        )
                        .with_note("zap ignores it too; remove the line"),
                    );
                }
                None
            }
        }
    }

    /// `async_lib = "require(X)"` → `FutureLibrary`/`PromiseLibrary = "X"`.
    fn async_library(&mut self, opt: &Opt, asynchronous: bool, has_functions: bool) -> Option<String> {
        let Value::Str(text, quote) = self.value(opt, "a string")? else {
            return None;
        };
        if !asynchronous {
            self.report(
                Diagnostic::warning(
                    codes::ASYNC_LIBRARY_UNUSED,
                    "`async_lib` is set, but functions yield (`yield_type` is `yield`)",
                    opt.span,
                    "dropped",
                )
                .with_note("remove the line, or set `opt yield_type` to `future` or `promise`"),
            );
            return None;
        }
        let blink = if self.options.yield_word == Some("Future") {
            "FutureLibrary"
        } else {
            "PromiseLibrary"
        };
        match required_module(text) {
            Some(module) => Some(format!("option {blink} = {quote}{module}{quote}")),
            None if has_functions => {
                self.report(
                    Diagnostic::error(
                        codes::ASYNC_LIBRARY,
                        "`async_lib` must be `require(…)` of the library's module",
                        opt.value.span,
                        "not one `require(…)` call",
                    )
                    .with_note(format!(
                        "BlinkBlox's `{blink}` names the module and requires it itself: write `opt async_lib = \"require(path.to.Library)\"`"
                    )),
                );
                None
            }
            None => {
                self.dropped(opt, "no function returns a future or a promise");
                None
            }
        }
    }

    fn dropped(&mut self, opt: &Opt, reason: &str) {
        let written = format!(
            "-- not translated: opt {} = {} ({reason})",
            opt.name.text,
            self.source(opt.value.span)
        );
        self.report(
            Diagnostic::warning(
                codes::OPTION_DROPPED,
                format!("option `{}` has no BlinkBlox counterpart", opt.name.text),
                opt.span,
                "dropped",
            )
            .with_note(format!("{reason}; the schema keeps it as a comment")),
        );
        self.out.push_str(&written);
        self.out.push('\n');
    }

    fn value<'o>(&mut self, opt: &'o Opt, expected: &str) -> Option<Value<'o>> {
        let value = match (&opt.value.kind, expected) {
            (OptValueKind::Str(text, quote), "a string") => Value::Str(text, *quote),
            (OptValueKind::Bool(flag), "`true` or `false`") => Value::Bool(*flag),
            _ => {
                let found = match &opt.value.kind {
                    OptValueKind::Str(..) => "a string".to_string(),
                    OptValueKind::Num(text) => format!("`{text}`"),
                    OptValueKind::Bool(flag) => format!("`{flag}`"),
                };
                self.report(
                    Diagnostic::error(
                        codes::INVALID_OPTION_VALUE,
                        format!("option `{}` takes {expected}, not {found}", opt.name.text),
                        opt.value.span,
                        format!("expected {expected}"),
                    )
                    .with_note("zap rejects this value too"),
                );
                return None;
            }
        };
        Some(value)
    }

    /// A string option that must be one of `choices`.
    fn choice(&mut self, opt: &Opt, choices: &[&'static str]) -> Option<&'static str> {
        let Value::Str(text, _) = self.value(opt, "a string")? else {
            return None;
        };
        if let Some(&choice) = choices.iter().find(|choice| **choice == text) {
            return Some(choice);
        }
        let listed: Vec<String> = choices.iter().map(|choice| format!("\"{choice}\"")).collect();
        self.report(
            Diagnostic::error(
                codes::INVALID_OPTION_VALUE,
                format!("option `{}` cannot be \"{text}\"", opt.name.text),
                opt.value.span,
                "not one of its values",
            )
            .with_note(format!("the values are {}", listed.join(", "))),
        );
        None
    }
}

/// `X` of `require(X)`, when the text is exactly one such call.
fn required_module(text: &str) -> Option<&str> {
    let inner = text
        .trim()
        .strip_prefix("require")?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')?;
    // The last `)` must close the first `(`: `require(a).b(c)` is not one call.
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    let inner = inner.trim();
    (depth == 0 && !inner.is_empty()).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::required_module;

    #[test]
    fn a_require_call_names_its_module() {
        assert_eq!(
            required_module("require(game:GetService('ReplicatedStorage').Promise)"),
            Some("game:GetService('ReplicatedStorage').Promise")
        );
        assert_eq!(
            required_module(" require ( script.Parent.Future ) "),
            Some("script.Parent.Future")
        );
        assert_eq!(required_module("require(a).b(c)"), None);
        assert_eq!(required_module("require()"), None);
        assert_eq!(required_module("Promise"), None);
    }
}
