//! The table a module returns: scopes nest, each declaration is a frozen table of its
//! members, and a no-op twin of the same shape is returned in edit mode.

use blinkblox_schema::model::ScopePath;

use super::builder::CodeBuilder;
use super::naming::table_key;

/// A node of the API table: scopes nest, declarations are table constructors.
#[derive(Default)]
pub struct ApiNode {
    pub entries: Vec<(String, ApiItem)>,
}

pub enum ApiItem {
    /// Lines (or multi-line blocks) of a constructor `{ … }` (without braces), real and edit-mode versions.
    Members {
        real: Vec<String>,
        noop: Vec<String>,
    },
    /// A single value (`StepReplication = StepReplication`).
    Value {
        real: String,
        noop: String,
    },
    Scope(ApiNode),
}

impl ApiNode {
    pub fn scope_mut(&mut self, path: &[String]) -> &mut ApiNode {
        let Some((first, rest)) = path.split_first() else {
            return self;
        };
        let position = match self
            .entries
            .iter()
            .position(|(n, item)| n == first && matches!(item, ApiItem::Scope(_)))
        {
            Some(position) => position,
            None => {
                self.entries.push((first.clone(), ApiItem::Scope(ApiNode::default())));
                self.entries.len() - 1
            }
        };
        match &mut self.entries[position].1 {
            ApiItem::Scope(node) => node.scope_mut(rest),
            ApiItem::Members { .. } | ApiItem::Value { .. } => unreachable!("position was chosen among scopes"),
        }
    }

    pub fn add(&mut self, scope: &ScopePath, name: &str, real: Vec<String>, noop: Vec<String>) {
        self.scope_mut(scope)
            .entries
            .push((name.to_string(), ApiItem::Members { real, noop }));
    }

    /// Emits `table.freeze({ … })` for this node, real or edit-mode.
    pub fn emit(&self, b: &mut CodeBuilder, noop: bool, first_line: &str, last_line: &str) {
        b.open_fmt(format_args!("{first_line}table.freeze({{"));
        for (name, item) in &self.entries {
            match item {
                ApiItem::Scope(node) => node.emit(b, noop, &format!("{} = ", table_key(name)), ","),
                ApiItem::Value { real, noop: noop_value } => {
                    // A value may be a function over several lines (`raw` re-indents them).
                    b.raw(&format!(
                        "{} = {},",
                        table_key(name),
                        if noop { noop_value } else { real }
                    ));
                }
                ApiItem::Members { real, noop: noop_lines } => {
                    b.open_fmt(format_args!("{} = table.freeze({{", table_key(name)));
                    // An entry is one line or a block of lines (`raw` re-indents it).
                    for line in if noop { noop_lines } else { real } {
                        if line.is_empty() {
                            b.line("");
                        } else {
                            b.raw(line);
                        }
                    }
                    b.close("}),");
                }
            }
        }
        b.close(format!("}}){last_line}"));
    }

    /// The end of a Server or Client module: the API table as `Returns`, its no-op twin
    /// returned instead while the game is not running (edit mode), else `Start()`.
    pub fn emit_returns(&self, out: &mut CodeBuilder) {
        self.emit(out, false, "local Returns = ", "");
        out.open("if not RunService:IsRunning() then");
        self.emit(out, true, "return (", " :: any) :: typeof(Returns)");
        out.close("end");
        out.line("Start()");
        out.line("return Returns");
    }
}
