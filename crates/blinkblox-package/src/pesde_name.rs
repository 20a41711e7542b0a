//! pesde's rules for a package name, `scope/name`, checked where the manifest's
//! `[package]` table is read.

/// Longest scope or name pesde accepts.
pub const MAX_NAME_PART: usize = 32;
/// Shortest scope pesde accepts (a name may be one character).
pub const MIN_SCOPE: usize = 3;

/// Splits and checks a pesde `scope/name`: lowercase ASCII letters, digits and `_`, not
/// only digits, not starting or ending with `_`; a scope of 3 to 32 characters and a name
/// of 1 to 32.
pub fn check_name(full_name: &str) -> Result<(String, String), String> {
    let Some((scope, name)) = full_name.split_once('/') else {
        return Err("a package name is `scope/name`, with exactly one `/`".to_string());
    };
    if name.contains('/') {
        return Err("a package name is `scope/name`, with exactly one `/`".to_string());
    }
    for (what, part, min) in [("scope", scope, MIN_SCOPE), ("name", name, 1)] {
        if let Some(bad) = part
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
        {
            return Err(format!(
                "the {what} \"{part}\" contains {bad:?}; pesde allows only lowercase ASCII letters, digits and `_`"
            ));
        }
        if !(min..=MAX_NAME_PART).contains(&part.len()) {
            return Err(format!(
                "the {what} \"{part}\" is {} characters long; pesde allows {min} to {MAX_NAME_PART}",
                part.len()
            ));
        }
        if part.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!("the {what} \"{part}\" is only digits"));
        }
        if part.starts_with('_') || part.ends_with('_') {
            return Err(format!("the {what} \"{part}\" starts or ends with `_`"));
        }
    }
    Ok((scope.to_string(), name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_pesde_rules() {
        assert_eq!(check_name("studio/net"), Ok(("studio".into(), "net".into())));
        assert!(check_name("abc/a").is_ok());
        assert!(check_name("my_studio/arena_net2").is_ok());
        for (bad, needle) in [
            ("ab/net", "2 characters long; pesde allows 3 to 32"),
            ("studio/arena-net", "contains '-'"),
            ("Studio/net", "contains 'S'"),
            ("studio/_net", "starts or ends with `_`"),
            ("123/net", "only digits"),
            ("studio/net/x", "exactly one `/`"),
            ("studio", "exactly one `/`"),
        ] {
            let err = check_name(bad).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        assert!(check_name(&format!("studio/{}", "n".repeat(33))).is_err());
    }
}
