//! Constant tables the serializers share (enum names and indices), emitted once as fields
//! of the module-level `Lookups` table, each with its type: the names an enum decodes to are
//! its own string literals, not any string.

use std::collections::BTreeMap;

use super::builder::CodeBuilder;
use super::naming::string_literal;

/// The module's constant tables, deduplicated by content.
#[derive(Debug, Default)]
pub struct Lookups {
    /// `(key, Luau type, constructor)` of each table, in the order they were first used.
    definitions: Vec<(String, String, String)>,
    by_content: BTreeMap<String, String>,
}

impl Lookups {
    /// Returns the Luau expression naming a constant table of this type and constructor.
    pub fn intern(&mut self, luau_type: String, constructor: String) -> String {
        if let Some(name) = self.by_content.get(&constructor) {
            return name.clone();
        }
        let key = format!("L{}", self.definitions.len() + 1);
        let name = format!("Lookups.{key}");
        self.definitions.push((key, luau_type, constructor.clone()));
        self.by_content.insert(constructor, name.clone());
        name
    }

    /// Enum variant names by index (1-based Luau array); past the last, nil.
    pub fn enum_names(&mut self, variants: &[String]) -> String {
        let names: Vec<String> = variants.iter().map(|v| string_literal(v)).collect();
        let union = if names.is_empty() {
            "never".to_string()
        } else {
            names.join(" | ")
        };
        self.intern(
            format!("{{ [number]: ({union})? }}"),
            format!("{{ {} }}", names.join(", ")),
        )
    }

    /// Enum variant name -> wire index.
    pub fn enum_indices(&mut self, variants: &[String]) -> String {
        let entries: Vec<String> = variants
            .iter()
            .enumerate()
            .map(|(i, v)| format!("[{}] = {i}", string_literal(v)))
            .collect();
        self.intern("{ [string]: number? }".into(), format!("{{ {} }}", entries.join(", ")))
    }

    /// `local Lookups: { … } = { … }`, nothing when no table was used.
    pub fn emit(&self, b: &mut CodeBuilder) {
        if self.definitions.is_empty() {
            return;
        }
        b.open("local Lookups: {");
        for (key, luau_type, _) in &self.definitions {
            b.line_fmt(format_args!("{key}: {luau_type},"));
        }
        b.close("} = {");
        b.depth_in();
        for (key, _, constructor) in &self.definitions {
            b.line_fmt(format_args!("{key} = {constructor},"));
        }
        b.close("}");
        b.line("");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_are_deduplicated() {
        let mut lookups = Lookups::default();
        let a = lookups.enum_names(&["A".into(), "B".into()]);
        let b = lookups.enum_names(&["A".into(), "B".into()]);
        assert_eq!(a, b);
        let mut out = CodeBuilder::new();
        lookups.emit(&mut out);
        assert_eq!(
            out.finish(),
            "local Lookups: {\n\tL1: { [number]: (\"A\" | \"B\")? },\n} = {\n\tL1 = { \"A\", \"B\" },\n}\n\n"
        );
    }
}
