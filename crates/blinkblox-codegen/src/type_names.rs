//! What the Luau and the TypeScript emitters write alike for a schema's types: a type name
//! made from a declaration's flat name, and a unit enum as a union of string literals. Each
//! language passes its own reserved words and its own string literal.

/// A type name for a declaration's flat name: characters other than letters, digits and `_`
/// become `_`, a leading digit gets a `_` before it, and a name `reserved` says the
/// language (or the module) already uses gets a trailing `_`, so the output still loads.
pub fn type_name_for(flat: &str, reserved: impl Fn(&str) -> bool) -> String {
    let mut out: String = flat
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if reserved(&out) {
        out.push('_');
    }
    out
}

/// A unit enum's type: its variants as string literals joined by `|`; `never` without any.
pub fn literal_union(variants: &[String], literal: impl Fn(&str) -> String) -> String {
    if variants.is_empty() {
        return "never".into();
    }
    let names: Vec<String> = variants.iter().map(|variant| literal(variant)).collect();
    names.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_safe() {
        let reserved = |name: &str| name == "end";
        assert_eq!(type_name_for("Combat_Hit", reserved), "Combat_Hit");
        assert_eq!(type_name_for("end", reserved), "end_");
        assert_eq!(type_name_for("9lives", reserved), "_9lives");
        assert_eq!(type_name_for("a-b", reserved), "a_b");
    }

    #[test]
    fn unions_of_literals() {
        let quote = |text: &str| format!("\"{text}\"");
        assert_eq!(literal_union(&["A".into(), "B".into()], quote), "\"A\" | \"B\"");
        assert_eq!(literal_union(&[], quote), "never");
    }
}
