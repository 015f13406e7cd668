//! DynamoDB numbers as exact decimal text.
//!
//! DynamoDB keeps up to 38 significant digits, more than `f64` can hold, so numbers are checked,
//! compared and re-spelled digit by digit and never pass through floating point.

use std::borrow::Cow;
use std::cmp::Ordering;

const MAX_DIGITS: usize = 38;

/// Range of the exponent `e` when a non-zero value is written as `0.d1d2… × 10^e` with `d1 != 0`:
/// 1E-130 is `0.1 × 10^-129`, and with at most 38 digits everything up to `0.99…9 × 10^126`
/// (= 9.99…9E+125, DynamoDB's largest) fits.
const MIN_EXPONENT: i64 = -129;
const MAX_EXPONENT: i64 = 126;

/// Exponents written in the text are clamped here while parsing; anything this far out is
/// already out of range, and the clamp keeps the arithmetic away from overflow.
const EXPONENT_CLAMP: i64 = 1_000_000_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("'{0}' is not a number (expected digits like 42, -1.5 or 6.02E23)")]
    Syntax(String),
    #[error(
        "'{value}' has {digits} significant digits; DynamoDB keeps at most 38, so round it or store it as a string"
    )]
    TooManyDigits { value: String, digits: usize },
    #[error(
        "'{0}' is too large for DynamoDB; the largest magnitude is 9.9999999999999999999999999999999999999E+125"
    )]
    TooLarge(String),
    #[error(
        "'{0}' is too small for DynamoDB; the smallest non-zero magnitude is 1E-130 (write 0 for zero)"
    )]
    TooSmall(String),
}

/// A number reduced to sign, significant digits and exponent, so equal values have equal parts
/// however they were spelled ("1e2", "100", "0100.0").
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub(crate) negative: bool,
    /// ASCII digits without leading or trailing zeros; empty means zero.
    pub(crate) digits: Vec<u8>,
    /// Value is `0.digits × 10^exponent`; 0 when the value is zero.
    pub(crate) exponent: i64,
}

impl Decimal {
    fn signum(&self) -> i8 {
        match (self.digits.is_empty(), self.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }
}

/// Syntax only: DynamoDB's limits are checked by `validate_number`, so `compare_numbers` also
/// works on numbers outside them.
pub(crate) fn parse(text: &str) -> Option<Decimal> {
    let DecimalText {
        negative,
        int: int_part,
        frac: frac_part,
        exponent: written_exponent,
    } = parse_decimal(text)?;
    let all: Vec<u8> = int_part.iter().chain(frac_part).copied().collect();
    let leading = all.iter().take_while(|&&d| d == b'0').count();
    if leading == all.len() {
        return Some(Decimal {
            negative,
            digits: Vec::new(),
            exponent: 0,
        });
    }
    let trailing = all.iter().rev().take_while(|&&d| d == b'0').count();
    let exponent = int_part.len() as i64 - leading as i64 + written_exponent;
    Some(Decimal {
        negative,
        digits: all[leading..all.len() - trailing].to_vec(),
        exponent,
    })
}

/// The parts of a number's text: `[+-]digits[.digits][(e|E)[+-]digits]`, at least one digit
/// before the exponent (the syntax `number::validate_number` accepts).
pub(crate) struct DecimalText<'a> {
    pub negative: bool,
    pub int: &'a [u8],
    pub frac: &'a [u8],
    /// Written exponent, clamped to ±[`EXPONENT_CLAMP`].
    pub exponent: i64,
}

pub(crate) fn parse_decimal(text: &str) -> Option<DecimalText<'_>> {
    let bytes = text.as_bytes();
    let digits_from = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let (negative, mut i) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let int_start = i;
    i = digits_from(i);
    let int = &bytes[int_start..i];
    let mut frac: &[u8] = &[];
    if bytes.get(i) == Some(&b'.') {
        let frac_start = i + 1;
        i = digits_from(frac_start);
        frac = &bytes[frac_start..i];
    }
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut exponent: i64 = 0;
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exponent_negative = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let exp_start = i;
        i = digits_from(i);
        if exp_start == i {
            return None;
        }
        for &b in &bytes[exp_start..i] {
            exponent = (exponent * 10 + i64::from(b - b'0')).min(EXPONENT_CLAMP);
        }
        if exponent_negative {
            exponent = -exponent;
        }
    }
    (i == bytes.len()).then_some(DecimalText {
        negative,
        int,
        frac,
        exponent,
    })
}

/// Checks `text` against DynamoDB's number syntax, precision and range.
pub fn validate_number(text: &str) -> Result<(), NumberError> {
    let decimal = parse(text).ok_or_else(|| NumberError::Syntax(text.to_string()))?;
    check_limits(&decimal, text)
}

/// DynamoDB's precision and range, checked on a parsed number's parts (`text` is how it was
/// written, for the message). Never on its expanded digits: `1d999999999` is refused at once,
/// with nothing allocated for its exponent.
pub(crate) fn check_limits(decimal: &Decimal, text: &str) -> Result<(), NumberError> {
    if decimal.digits.len() > MAX_DIGITS {
        return Err(NumberError::TooManyDigits {
            value: text.to_string(),
            digits: decimal.digits.len(),
        });
    }
    if decimal.digits.is_empty() {
        return Ok(());
    }
    if decimal.exponent > MAX_EXPONENT {
        return Err(NumberError::TooLarge(text.to_string()));
    }
    if decimal.exponent < MIN_EXPONENT {
        return Err(NumberError::TooSmall(text.to_string()));
    }
    Ok(())
}

/// Whether [`validate_number`] accepts `text`, without its allocations: the size-and-key pass
/// of `hotkeys --export` checks every number of every item, and only needs the yes.
pub(crate) fn number_fits(text: &str) -> bool {
    let Some(parts) = parse_decimal(text) else {
        return false;
    };
    let all = || parts.int.iter().chain(parts.frac);
    let total = parts.int.len() + parts.frac.len();
    let leading = all().take_while(|&&d| d == b'0').count();
    if leading == total {
        return true;
    }
    let trailing = all().rev().take_while(|&&d| d == b'0').count();
    let exponent = parts.int.len() as i64 - leading as i64 + parts.exponent;
    total - leading - trailing <= MAX_DIGITS && (MIN_EXPONENT..=MAX_EXPONENT).contains(&exponent)
}

/// Exact numeric order of two numbers ("9" < "10", "1e2" == "100", "0" == "-0.0").
///
/// Meant for validated numbers; if either side is not a number at all, falls back to comparing
/// the text so sorting still has a total order instead of panicking.
pub fn compare_numbers(a: &str, b: &str) -> Ordering {
    let (Some(x), Some(y)) = (parse(a), parse(b)) else {
        return a.cmp(b);
    };
    let by_sign = x.signum().cmp(&y.signum());
    if by_sign != Ordering::Equal {
        return by_sign;
    }
    // Same sign from here; compare magnitudes. Digit strings without trailing zeros order like
    // the fractions they spell once exponents agree (a proper prefix is the smaller one).
    let magnitude = x
        .exponent
        .cmp(&y.exponent)
        .then_with(|| x.digits.cmp(&y.digits));
    if x.signum() < 0 {
        magnitude.reverse()
    } else {
        magnitude
    }
}

/// The same value spelled as a JSON number, keeping every digit: DynamoDB accepts ".5", "+5" and
/// "5." but JSON does not. Text that is already valid JSON (or not a number at all) is returned
/// unchanged and borrowed.
pub fn to_json_number(text: &str) -> Cow<'_, str> {
    if is_json_number(text) || parse(text).is_none() {
        return Cow::Borrowed(text);
    }
    let (negative, unsigned) = match text.as_bytes()[0] {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => unsigned.split_at(at),
        None => (unsigned, ""),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // JSON forbids leading zeros and an empty integer part; neither carries a digit of value.
    let int_part = match int_part.trim_start_matches('0') {
        "" => "0",
        digits => digits,
    };

    let mut out = String::with_capacity(text.len() + 1);
    if negative {
        out.push('-');
    }
    out.push_str(int_part);
    if !frac_part.is_empty() {
        out.push('.');
        out.push_str(frac_part);
    }
    out.push_str(exponent);
    Cow::Owned(out)
}

/// RFC 8259 number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
pub fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let run = |mut i: usize| {
        let start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i, i - start)
    };

    let (end, len) = run(i);
    if len == 0 || (len > 1 && bytes[i] == b'0') {
        return false;
    }
    i = end;
    if bytes.get(i) == Some(&b'.') {
        let (end, len) = run(i + 1);
        if len == 0 {
            return false;
        }
        i = end;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let (end, len) = run(i);
        if len == 0 {
            return false;
        }
        i = end;
    }
    i == bytes.len()
}

#[cfg(test)]
#[path = "number_tests.rs"]
mod tests;
