//! Constant tables the serializers share (enum names and indices), emitted once as fields
//! of the module-level `Lookups` table.

use std::collections::BTreeMap;

use super::naming::string_literal;

/// The module's constant tables, deduplicated by content.
#[derive(Debug, Default)]
pub struct Lookups {
    definitions: Vec<String>,
    by_content: BTreeMap<String, String>,
}

impl Lookups {
    /// Returns the Luau expression naming a constant table with this constructor.
    pub fn intern(&mut self, constructor: String) -> String {
        if let Some(name) = self.by_content.get(&constructor) {
            return name.clone();
        }
        let name = format!("Lookups.L{}", self.definitions.len() + 1);
        self.definitions.push(format!("{name} = table.freeze({constructor})"));
        self.by_content.insert(constructor, name.clone());
        name
    }

    /// Enum variant names by index (1-based Luau array).
    pub fn enum_names(&mut self, variants: &[String]) -> String {
        let names: Vec<String> = variants.iter().map(|v| string_literal(v)).collect();
        self.intern(format!("{{ {} }}", names.join(", ")))
    }

    /// Enum variant name -> wire index.
    pub fn enum_indices(&mut self, variants: &[String]) -> String {
        let entries: Vec<String> = variants
            .iter()
            .enumerate()
            .map(|(i, v)| format!("[{}] = {i}", string_literal(v)))
            .collect();
        self.intern(format!("{{ {} }}", entries.join(", ")))
    }

    pub fn definitions(&self) -> &[String] {
        &self.definitions
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
        assert_eq!(lookups.definitions().len(), 1);
    }
}
