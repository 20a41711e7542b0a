//! Luau conditions on values, with the text naming what they accept: number ranges,
//! lengths, Instance classes. The sending side's WriteValidations and the receiving
//! side's checks build on them.

use blinkblox_schema::model::{LengthRange, NumberKind, NumberRange};

use super::naming::{number_literal, string_literal};

/// The conditions joined with `and`, leaving out those that are always true.
pub fn join_and(parts: &[String]) -> String {
    let kept: Vec<&str> = parts.iter().map(String::as_str).filter(|p| *p != "true").collect();
    if kept.is_empty() {
        "true".into()
    } else {
        kept.join(" and ")
    }
}

/// A condition on a length expression and its description (" of 1..10 items").
pub fn length_condition(length: &LengthRange, measure: &str) -> (String, String) {
    match (length.min, length.max) {
        (min, Some(max)) if min == max => (format!("{measure} == {max}"), format!(" of length {max}")),
        (0, None) => ("true".into(), String::new()),
        (min, None) => (format!("{measure} >= {min}"), format!(" of length at least {min}")),
        (0, Some(max)) => (format!("{measure} <= {max}"), format!(" of length at most {max}")),
        (min, Some(max)) => (
            format!("{measure} >= {min} and {measure} <= {max}"),
            format!(" of length {min}..{max}"),
        ),
    }
}

/// A condition keeping `value` within a range (false for NaN), and the range as text.
pub fn range_condition(range: &NumberRange, value: &str) -> (String, String) {
    let min = range.min.map(number_literal);
    let max = range.max.map(number_literal);
    match (min, max) {
        (Some(a), Some(b)) if a == b => (format!("{value} == {a}"), a),
        (Some(a), Some(b)) => (format!("{value} >= {a} and {value} <= {b}"), format!("{a}..{b}")),
        (Some(a), None) => (format!("{value} >= {a}"), format!("{a}..")),
        (None, Some(b)) => (format!("{value} <= {b}"), format!("..{b}")),
        (None, None) => ("true".into(), "any".into()),
    }
}

/// The sending-side check of a number, and what it expects.
pub fn number_condition(
    kind: NumberKind,
    range: &NumberRange,
    value: &str,
    allow_non_finite: bool,
) -> (String, String) {
    let mut parts = vec![format!("type({value}) == \"number\"")];
    if kind.is_float() {
        let (bounds, text) = range_condition(range, value);
        if bounds != "true" {
            parts.push(bounds);
            return (join_and(&parts), format!("a number in {text}"));
        }
        if !allow_non_finite {
            parts.push(format!("{value} - {value} == 0"));
            return (join_and(&parts), "a finite number".into());
        }
        return (join_and(&parts), "a number".into());
    }
    let (low, high) = kind.limits();
    let effective = NumberRange {
        min: Some(range.min.unwrap_or(low)),
        max: Some(range.max.unwrap_or(high)),
    };
    let (bounds, text) = range_condition(&effective, value);
    parts.push(format!("{value} // 1 == {value}"));
    parts.push(bounds);
    (join_and(&parts), format!("an integer in {text}"))
}

/// A condition that `value` is an Instance (of `class`, when given), and its description.
pub fn instance_condition(class: Option<&str>, value: &str) -> (String, String) {
    match class {
        Some(class) => (
            format!(
                "typeof({value}) == \"Instance\" and {value}:IsA({})",
                string_literal(class)
            ),
            format!("an Instance of class {class}"),
        ),
        None => (format!("typeof({value}) == \"Instance\""), "an Instance".into()),
    }
}
