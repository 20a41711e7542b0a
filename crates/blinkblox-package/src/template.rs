//! Filling `wally-template/`: `{{field}}` placeholders replaced by values already written as
//! TOML or JSON literals (so quotes and backslashes in a description cannot break the
//! file). A line whose placeholder has no value (an unset optional field) is left out.
//! The template is compiled into the binary: a package depends on the compiler version
//! only, never on files next to the executable.

use std::collections::BTreeMap;

use crate::spec::PackageSpec;

/// `wally-template/wally.toml`.
pub const WALLY_TOML_TEMPLATE: &str = include_str!("../wally-template/wally.toml");
/// `wally-template/default.project.json`.
pub const PROJECT_JSON_TEMPLATE: &str = include_str!("../wally-template/default.project.json");

/// Placeholder values: `Some(literal)` is inserted, `None` drops the line.
pub type Values = BTreeMap<&'static str, Option<String>>;

/// Replaces every `{{key}}` in `template`. An unknown key or an unclosed `{{` is an error
/// naming the template line (the templates are ours, so this is a bug report, not a user
/// mistake).
pub fn fill(template_name: &str, template: &str, values: &Values) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + 256);
    'lines: for (index, line) in template.split_inclusive('\n').enumerate() {
        let mut filled = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(start) = rest.find("{{") {
            filled.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                return Err(format!("{template_name}:{}: `{{{{` without `}}}}`", index + 1));
            };
            let key = after[..end].trim();
            match values.get(key) {
                Some(Some(literal)) => filled.push_str(literal),
                Some(None) => continue 'lines,
                None => {
                    return Err(format!(
                        "{template_name}:{}: unknown placeholder `{{{{{key}}}}}`",
                        index + 1
                    ));
                }
            }
            rest = &after[end + 2..];
        }
        filled.push_str(rest);
        out.push_str(&filled);
    }
    Ok(out)
}

pub(crate) fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

pub(crate) fn toml_strings(values: &[String]) -> Option<String> {
    (!values.is_empty()).then(|| {
        let items: Vec<String> = values.iter().map(|v| toml_string(v)).collect();
        format!("[{}]", items.join(", "))
    })
}

/// The package's `wally.toml`.
pub fn wally_toml(spec: &PackageSpec) -> Result<String, String> {
    let optional = |value: &Option<String>| value.as_deref().map(toml_string);
    let values: Values = BTreeMap::from([
        ("name", Some(toml_string(&spec.full_name()))),
        ("version", Some(toml_string(&spec.version))),
        ("registry", Some(toml_string(&spec.registry))),
        ("realm", Some(toml_string(spec.realm.as_str()))),
        ("description", optional(&spec.description)),
        ("license", optional(&spec.license)),
        ("authors", toml_strings(&spec.authors)),
        ("homepage", optional(&spec.homepage)),
        ("repository", optional(&spec.repository)),
        ("private", spec.private.then(|| "true".to_string())),
        ("include", toml_strings(&spec.include)),
        ("exclude", toml_strings(&spec.exclude)),
    ]);
    let text = fill("wally-template/wally.toml", WALLY_TOML_TEMPLATE, &values)?;
    // The filled file must read back as the same fields, or Wally would see something else.
    let parsed: toml::Table =
        toml::from_str(&text).map_err(|err| format!("the filled wally.toml is not TOML: {err}"))?;
    let name = parsed
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str);
    if name != Some(spec.full_name().as_str()) {
        return Err("the filled wally.toml does not name the package in [package] name".to_string());
    }
    Ok(text)
}

/// The package's `default.project.json`, pretty-printed exactly as `wally package` writes
/// it into the zip (it re-serialises this file; see [`crate::archive`]).
pub fn project_json(spec: &PackageSpec) -> Result<String, String> {
    let values: Values = BTreeMap::from([(
        "project_name",
        Some(serde_json::Value::String(spec.name.clone()).to_string()),
    )]);
    let text = fill("wally-template/default.project.json", PROJECT_JSON_TEMPLATE, &values)?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|err| format!("the filled default.project.json is not JSON: {err}"))?;
    serde_json::to_string_pretty(&value).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{DEFAULT_REGISTRY, Realm};

    fn spec() -> PackageSpec {
        PackageSpec {
            scope: "studio".into(),
            name: "net".into(),
            version: "0.2.0".into(),
            realm: Realm::Shared,
            registry: DEFAULT_REGISTRY.into(),
            description: Some("Quotes \" and \\ backslashes".into()),
            license: None,
            authors: vec!["Ada".into(), "Grace <g@example.com>".into()],
            homepage: None,
            repository: Some("https://example.com/net".into()),
            private: false,
            include: vec![],
            exclude: vec![],
            wally: true,
            pesde: None,
        }
    }

    #[test]
    fn unset_fields_drop_their_lines_and_values_are_escaped() {
        let text = wally_toml(&spec()).expect("fill");
        assert!(!text.contains("{{"), "{text}");
        assert!(!text.contains("license"), "{text}");
        assert!(!text.contains("private"), "{text}");
        assert!(
            text.contains("authors = [\"Ada\", \"Grace <g@example.com>\"]\n"),
            "{text}"
        );
        let parsed: toml::Table = toml::from_str(&text).expect("toml");
        let package = &parsed["package"];
        assert_eq!(package["description"].as_str(), Some("Quotes \" and \\ backslashes"));
        assert_eq!(package["realm"].as_str(), Some("shared"));
        assert_eq!(package["registry"].as_str(), Some(DEFAULT_REGISTRY));
        assert!(parsed["dependencies"].as_table().is_some_and(|t| t.is_empty()));
    }

    #[test]
    fn project_json_names_the_package_and_maps_src() {
        let text = project_json(&spec()).expect("fill");
        assert_eq!(
            text,
            "{\n  \"name\": \"net\",\n  \"tree\": {\n    \"$path\": \"src\"\n  }\n}"
        );
    }

    #[test]
    fn unknown_and_unclosed_placeholders_are_errors() {
        let values: Values = BTreeMap::from([("a", Some("1".to_string()))]);
        assert_eq!(fill("t", "x = {{a}}\n", &values).expect("fill"), "x = 1\n");
        assert!(
            fill("t", "x\ny = {{b}}\n", &values)
                .unwrap_err()
                .starts_with("t:2: unknown placeholder")
        );
        assert!(fill("t", "y = {{a\n", &values).unwrap_err().contains("without"));
    }
}
