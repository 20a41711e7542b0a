//! JSONC as Rojo 7.7 reads project files: JSON plus `//` and `/* */` comments and trailing
//! commas. Comments and trailing commas are blanked out (keeping byte offsets, so
//! serde_json's line numbers still point at the right place) and the rest is plain JSON.

/// Parses JSONC text into a JSON value.
pub fn parse(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_str(&strip(text))
}

/// Replaces comments and trailing commas with spaces; newlines are kept.
pub fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = bytes.to_vec();
    let mut i = 0;
    // Index in `out` of the last comma outside strings not yet followed by a value.
    let mut pending_comma: Option<usize> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                pending_comma = None;
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                let end = (i + 2).min(bytes.len());
                for byte in &mut out[start..end] {
                    if *byte != b'\n' {
                        *byte = b' ';
                    }
                }
                i = end;
            }
            b',' => {
                pending_comma = Some(i);
                i += 1;
            }
            b'}' | b']' => {
                if let Some(comma) = pending_comma.take() {
                    out[comma] = b' ';
                }
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            _ => {
                pending_comma = None;
                i += 1;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_comments_and_trailing_commas() {
        let value = parse(
            "{\n  // the tree\n  \"tree\": { /* root */ \"$path\": \"src\", },\n  \"list\": [1, 2,],\n  \"url\": \"http://x/*y*/\",\n}\n",
        )
        .expect("valid JSONC");
        assert_eq!(value["tree"]["$path"], "src");
        assert_eq!(value["list"], serde_json::json!([1, 2]));
        assert_eq!(value["url"], "http://x/*y*/");
    }

    #[test]
    fn keeps_line_numbers_for_errors() {
        let err = parse("{\n/* a\nb */\n\"x\": nope\n}").unwrap_err();
        assert_eq!(err.line(), 4);
    }

    #[test]
    fn escaped_quotes_stay_inside_strings() {
        let value = parse(r#"{"a": "say \"hi\" // not a comment",}"#).expect("valid");
        assert_eq!(value["a"], "say \"hi\" // not a comment");
    }
}
