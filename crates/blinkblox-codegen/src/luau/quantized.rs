//! Quantized numbers, `f32(-2048..2048 step 1/64)`: the expressions both sides share. A value
//! travels as `q = round((value - min) / step)`, an unsigned little-endian integer of the
//! type's bytes (three bytes as a `u16` and a `u8`), and is received as `min + q * step`.
//! Where the step is `1/n` for a whole `n`, both sides multiply or divide by `n` instead:
//! exact for every power of two, and the nearest double for a decimal step such as `0.1`.

use blinkblox_schema::model::Quantized;

use super::layout::offset_plus;
use super::naming::number_literal;

/// `n` when the step is exactly `1/n` for a whole `n`.
fn inverse(quantized: &Quantized) -> Option<f64> {
    let inverse = 1.0 / quantized.step;
    (inverse.fract() == 0.0 && 1.0 / inverse == quantized.step).then_some(inverse)
}

/// `value - min`, written without a double sign.
fn from_min(value: &str, min: f64) -> String {
    if min == 0.0 {
        value.to_string()
    } else if min < 0.0 {
        format!("{value} + {}", number_literal(-min))
    } else {
        format!("{value} - {}", number_literal(min))
    }
}

/// The steps from the minimum to `value`, rounded to the nearest (not yet range-checked).
pub fn steps_of(quantized: &Quantized, value: &str) -> String {
    let shifted = from_min(value, quantized.min);
    let shifted = if quantized.min == 0.0 {
        shifted
    } else {
        format!("({shifted})")
    };
    let scaled = match inverse(quantized) {
        Some(1.0) => shifted,
        Some(inverse) => format!("{shifted} * {}", number_literal(inverse)),
        None => format!("{shifted} / {}", number_literal(quantized.step)),
    };
    format!("math.floor({scaled} + 0.5)")
}

/// The value `q` steps stand for.
pub fn value_of(quantized: &Quantized, q: &str) -> String {
    let scaled = match inverse(quantized) {
        Some(1.0) => q.to_string(),
        Some(inverse) => format!("{q} / {}", number_literal(inverse)),
        None => format!("{q} * {}", number_literal(quantized.step)),
    };
    if quantized.min == 0.0 {
        scaled
    } else {
        format!("{} + {scaled}", number_literal(quantized.min))
    }
}

/// The calls writing `q` at `offset` of `buffer`, low bytes first. `followed`: the next bytes
/// are written after these, so three bytes may go as one `u32` whose top byte (0) the next
/// write covers.
pub fn write_steps(quantized: &Quantized, buffer: &str, offset: &str, q: &str, followed: bool) -> Vec<String> {
    match quantized.bytes() {
        1 => vec![format!("buffer.writeu8({buffer}, {offset}, {q})")],
        2 => vec![format!("buffer.writeu16({buffer}, {offset}, {q})")],
        3 if followed => vec![format!("buffer.writeu32({buffer}, {offset}, {q})")],
        3 => vec![
            format!("buffer.writeu16({buffer}, {offset}, {q})"),
            format!("buffer.writeu8({buffer}, {}, {q} // 65536)", offset_plus(offset, 2)),
        ],
        _ => vec![format!("buffer.writeu32({buffer}, {offset}, {q})")],
    }
}

/// The expression reading `q` at `offset` of the packet `B`. `followed`: more bytes of the same
/// value follow these, so three bytes may be read as one `u32` without its top byte.
pub fn read_steps(quantized: &Quantized, offset: &str, followed: bool) -> String {
    match quantized.bytes() {
        1 => format!("buffer.readu8(B, {offset})"),
        2 => format!("buffer.readu16(B, {offset})"),
        3 if followed => format!("bit32.band(buffer.readu32(B, {offset}), 0xFFFFFF)"),
        3 => format!(
            "buffer.readu16(B, {offset}) + buffer.readu8(B, {}) * 65536",
            offset_plus(offset, 2)
        ),
        _ => format!("buffer.readu32(B, {offset})"),
    }
}
