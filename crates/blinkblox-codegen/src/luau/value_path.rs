//! Where a value sits, for WriteValidations errors (`Value.items[3].hp`) and decode
//! errors (`Value.items[].hp`).

use super::naming::{is_identifier, string_literal};

/// A path from a payload's value down to one of its parts.
#[derive(Debug, Clone)]
pub struct ValuePath {
    parts: Vec<PathPart>,
}

#[derive(Debug, Clone)]
enum PathPart {
    Text(String),
    /// A Luau loop variable holding an index or key.
    Dynamic(String),
}

impl ValuePath {
    pub fn root(name: &str) -> ValuePath {
        ValuePath {
            parts: vec![PathPart::Text(name.to_string())],
        }
    }

    pub fn field(&self, name: &str) -> ValuePath {
        let mut parts = self.parts.clone();
        let piece = if is_identifier(name) {
            format!(".{name}")
        } else {
            format!("[{name:?}]")
        };
        parts.push(PathPart::Text(piece));
        ValuePath { parts }
    }

    pub fn element(&self, variable: &str) -> ValuePath {
        let mut parts = self.parts.clone();
        parts.push(PathPart::Text("[".into()));
        parts.push(PathPart::Dynamic(variable.to_string()));
        parts.push(PathPart::Text("]".into()));
        ValuePath { parts }
    }

    /// A Luau expression building the path text at run time.
    pub fn luau(&self) -> String {
        let mut pieces: Vec<String> = Vec::new();
        let mut text = String::new();
        for part in &self.parts {
            match part {
                PathPart::Text(t) => text.push_str(t),
                PathPart::Dynamic(var) => {
                    if !text.is_empty() {
                        pieces.push(string_literal(&text));
                        text.clear();
                    }
                    pieces.push(format!("tostring({var})"));
                }
            }
        }
        if !text.is_empty() || pieces.is_empty() {
            pieces.push(string_literal(&text));
        }
        pieces.join(" .. ")
    }

    /// The path with loop positions left out, as a constant.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            if let PathPart::Text(t) = part {
                out.push_str(t);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_static_and_dynamic_parts() {
        let path = ValuePath::root("Value").field("items").element("I1").field("hp");
        assert_eq!(path.luau(), "\"Value.items[\" .. tostring(I1) .. \"].hp\"");
        assert_eq!(path.text(), "Value.items[].hp");
    }
}
