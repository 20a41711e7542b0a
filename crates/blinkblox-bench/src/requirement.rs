//! Wally version requirements, matched as Wally matches them: a bare version is a caret
//! requirement (`0.4.3` means `>=0.4.3, <0.5.0`; write `=0.4.3` to pin), comparators may be
//! comma-separated, `||` separates alternatives, and a prerelease matches only a requirement
//! naming the same major.minor.patch.

use semver::{Version, VersionReq};

/// A requirement as Wally reads it: `||`-separated alternatives of comma-separated comparators.
pub fn parse_requirement(text: &str) -> Result<Vec<VersionReq>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("it is empty".to_string());
    }
    text.split("||")
        .map(|alternative| {
            VersionReq::parse(alternative.trim()).map_err(|err| format!("`{}`: {err}", alternative.trim()))
        })
        .collect()
}

/// The highest of `versions` that `requirement` matches.
pub fn best_match<'a>(
    requirement: &[VersionReq],
    versions: impl IntoIterator<Item = &'a Version>,
) -> Option<&'a Version> {
    versions
        .into_iter()
        .filter(|version| requirement.iter().any(|req| req.matches(version)))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(requirement: &str, versions: &[&str]) -> Option<String> {
        let req = parse_requirement(requirement).expect("requirement");
        let versions: Vec<Version> = versions.iter().map(|v| Version::parse(v).expect("version")).collect();
        best_match(&req, &versions).map(Version::to_string)
    }

    #[test]
    fn requirements_match_as_wally_does() {
        let all = ["0.4.2", "0.4.3", "0.4.6", "0.5.0", "1.1.0-pre4", "1.1.0-pre7", "1.0.14"];
        assert_eq!(pick("0.4.3", &all).as_deref(), Some("0.4.6"), "bare is caret");
        assert_eq!(pick("=0.4.3", &all).as_deref(), Some("0.4.3"));
        assert_eq!(pick("~0.4.2", &all).as_deref(), Some("0.4.6"));
        assert_eq!(pick(">=0.4.0, <0.4.5", &all).as_deref(), Some("0.4.3"));
        assert_eq!(
            pick("1", &all).as_deref(),
            Some("1.0.14"),
            "no prerelease without asking"
        );
        assert_eq!(pick("1.1.0-pre4", &all).as_deref(), Some("1.1.0-pre7"));
        assert_eq!(pick("=0.4.2 || =0.5.0", &all).as_deref(), Some("0.5.0"));
        assert_eq!(pick("2", &all), None);
        assert!(parse_requirement("").is_err());
        assert!(parse_requirement("one").is_err());
    }
}
