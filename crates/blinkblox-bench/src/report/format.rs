//! How the tables write a figure.

/// A time in milliseconds, with three decimals under 1 ms and two above.
pub(super) fn ms(value: f64) -> String {
    if value < 1.0 {
        format!("{value:.3}")
    } else {
        format!("{value:.2}")
    }
}

/// Bytes or calls: a whole number when it is one, else one decimal.
pub(super) fn bytes(value: f64) -> String {
    if (value - value.round()).abs() < 0.005 {
        format!("{}", value.round())
    } else {
        format!("{value:.1}")
    }
}
