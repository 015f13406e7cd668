//! Item size as DynamoDB counts it against the item limit and capacity units.
//!
//! Rules from the DynamoDB developer guide, "Item sizes and formats"
//! (<https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html>):
//! each attribute costs the UTF-8 length of its name plus its value; strings are their UTF-8
//! bytes, binary its raw bytes, BOOL and NULL 1 byte, sets the sum of their elements; a List or
//! Map costs 3 bytes plus its elements, plus 1 byte per element (a Map element also pays for its
//! name). The guide calls the number rule approximate and DynamoDB does not publish its encoding,
//! so a number may be off by a byte.

use crate::item::value::{AttrValue, Item};

pub const MAX_ITEM_BYTES: usize = 400 * 1024;

pub(crate) const DOCUMENT_OVERHEAD: usize = 3;
pub(crate) const ELEMENT_OVERHEAD: usize = 1;

pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| attribute_size(name, value))
        .sum()
}

/// One attribute's share of [`item_size`], for a size of some of an item's attributes (an
/// index's projection).
pub(crate) fn attribute_size(name: &str, value: &AttrValue) -> usize {
    name.len() + value_size(value)
}

/// Fraction of the 400 KB limit, so 1.0 means exactly at the limit.
pub fn share_of_limit(size: usize) -> f64 {
    size as f64 / MAX_ITEM_BYTES as f64
}

fn value_size(value: &AttrValue) -> usize {
    match value {
        AttrValue::S(s) => s.len(),
        AttrValue::N(n) => number_size(n),
        AttrValue::B(b) => b.len(),
        AttrValue::Ss(items) => items.iter().map(String::len).sum(),
        AttrValue::Ns(items) => items.iter().map(|n| number_size(n)).sum(),
        AttrValue::Bs(items) => items.iter().map(Vec::len).sum(),
        AttrValue::Null | AttrValue::Bool(_) => 1,
        AttrValue::M(map) => {
            DOCUMENT_OVERHEAD
                + map
                    .iter()
                    .map(|(name, v)| name.len() + value_size(v) + ELEMENT_OVERHEAD)
                    .sum::<usize>()
        }
        AttrValue::L(list) => {
            DOCUMENT_OVERHEAD
                + list
                    .iter()
                    .map(|v| value_size(v) + ELEMENT_OVERHEAD)
                    .sum::<usize>()
        }
    }
}

/// One byte per two significant digits, plus one. Sign, decimal point and exponent are not
/// digits, and leading and trailing zeros are trimmed, so `-1.50E+3` has the digits `15`.
pub(crate) fn number_size(text: &str) -> usize {
    let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
    let digits = mantissa.trim_matches(|c: char| !c.is_ascii_digit() || c == '0');
    let significant = digits.bytes().filter(u8::is_ascii_digit).count();
    significant.div_ceil(2) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> AttrValue {
        AttrValue::S(v.into())
    }

    fn n(v: &str) -> AttrValue {
        AttrValue::N(v.into())
    }

    fn item(attrs: Vec<(&str, AttrValue)>) -> Item {
        Item::from_attrs(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    #[test]
    fn number_sizes() {
        let cases: &[(&str, usize)] = &[
            ("0", 1),
            ("-0.000", 1),
            ("5", 2),
            ("12", 2),
            ("123", 3),
            ("12345", 4),
            ("1000", 2),
            ("0.001", 2),
            ("-1.50", 2),
            ("-1.50E+3", 2),
            ("1.0203", 4),
            ("1e5", 2),
            ("99999999999999999999999999999999999999", 20),
        ];
        for (text, want) in cases {
            assert_eq!(number_size(text), *want, "{text}");
        }
    }

    #[test]
    fn item_sizes() {
        let cases: Vec<(&str, Item, usize)> = vec![
            ("empty item", Item::new(), 0),
            // 2 + 6
            ("string", item(vec![("pk", s("USER#1"))]), 8),
            // "név" is 4 bytes, "日本" 6
            ("utf-8 name and value", item(vec![("név", s("日本"))]), 10),
            ("empty string", item(vec![("s", s(""))]), 1),
            // 1 + 3 raw bytes, not the 4 base64 chars
            ("binary", item(vec![("b", AttrValue::B(vec![1, 2, 3]))]), 4),
            // 2 + 1 each
            (
                "bool and null",
                item(vec![("ok", AttrValue::Bool(true)), ("no", AttrValue::Null)]),
                6,
            ),
            // 5 + 4 (five digits: 3 bytes + 1)
            ("number", item(vec![("price", n("12345"))]), 9),
            // 4 + 1 + 2
            (
                "string set",
                item(vec![("tags", AttrValue::Ss(vec!["a".into(), "bc".into()]))]),
                7,
            ),
            // 4 + (2 + 2 + 3)
            (
                "number set",
                item(vec![(
                    "nums",
                    AttrValue::Ns(vec!["1".into(), "22".into(), "333".into()]),
                )]),
                11,
            ),
            // 2 + 1 + 2
            (
                "binary set",
                item(vec![("bs", AttrValue::Bs(vec![vec![1], vec![2, 3]]))]),
                5,
            ),
            // 1 + 3
            ("empty map", item(vec![("m", AttrValue::M(Item::new()))]), 4),
            ("empty list", item(vec![("l", AttrValue::L(vec![]))]), 4),
            // 1 + 3 + ("a" 1 + N 2 + 1)
            (
                "map",
                item(vec![("m", AttrValue::M(item(vec![("a", n("1"))])))]),
                8,
            ),
            // 1 + 3 + (1 + 1) + (1 + 1)
            (
                "list",
                item(vec![("l", AttrValue::L(vec![s("x"), AttrValue::Null]))]),
                8,
            ),
            // 3 + [3 + ("tags" 4 + [3 + ("ab" 2 + 1)] + 1)]
            (
                "nested",
                item(vec![(
                    "doc",
                    AttrValue::M(item(vec![("tags", AttrValue::L(vec![s("ab")]))])),
                )]),
                17,
            ),
            // 2 + 8 + 2 + 7 + 3 + 2
            (
                "typical single-table item",
                item(vec![
                    ("PK", s("USER#123")),
                    ("SK", s("PROFILE")),
                    ("age", n("42")),
                ]),
                24,
            ),
        ];
        for (name, item, want) in cases {
            assert_eq!(item_size(&item), want, "{name}");
        }
    }

    #[test]
    fn share_of_limit_is_a_fraction() {
        let cases: &[(usize, f64)] = &[
            (0, 0.0),
            (MAX_ITEM_BYTES / 4, 0.25),
            (MAX_ITEM_BYTES, 1.0),
            (MAX_ITEM_BYTES * 2, 2.0),
        ];
        for (size, want) in cases {
            assert_eq!(share_of_limit(*size), *want, "{size}");
        }
    }
}
