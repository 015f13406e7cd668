//! DynamoDB's order of key values.

use std::cmp::Ordering;

use crate::item::number::{compare_numbers, parse_decimal};
use crate::item::value::AttrValue;

/// Orders two key values as DynamoDB orders sort keys: S by UTF-8 bytes, N numerically, B as
/// unsigned bytes. Values of different types order by type name; two values of the same
/// non-key type (M, L, BOOL, …) are equal. An N whose text is not a number at all sorts after
/// every real number (by text among themselves), so the order stays total.
pub fn dynamo_cmp(a: &AttrValue, b: &AttrValue) -> Ordering {
    match (a, b) {
        (AttrValue::S(x), AttrValue::S(y)) => x.as_bytes().cmp(y.as_bytes()),
        (AttrValue::N(x), AttrValue::N(y)) => compare_number_text(x, y),
        (AttrValue::B(x), AttrValue::B(y)) => x.cmp(y),
        _ => a.type_name().cmp(b.type_name()),
    }
}

fn compare_number_text(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    // `compare_numbers` falls back to text when either side is not a number, which mixes two
    // orders and is not transitive ("2" < "10" < "1x" < "2"); keep non-numbers apart instead.
    match (is_number(a), is_number(b)) {
        (true, true) => compare_numbers(a, b),
        (false, false) => a.cmp(b),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// Number syntax only: values beyond DynamoDB's range still compare numerically.
fn is_number(text: &str) -> bool {
    parse_decimal(text).is_some()
}

#[cfg(test)]
#[path = "ordering_tests.rs"]
mod tests;
