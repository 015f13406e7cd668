use super::*;
use crate::design::collection::fixtures::*;
use crate::item::value::Item;

#[test]
fn dynamo_cmp_orders_key_values() {
    use Ordering::*;
    let cases: Vec<(AttrValue, AttrValue, Ordering)> = vec![
        // S: UTF-8 byte order, not case-folded or locale-aware.
        (s("a"), s("b"), Less),
        (s("B"), s("a"), Less),
        (s("a"), s("ab"), Less),
        (s(""), s("a"), Less),
        (s("z"), s("é"), Less),
        (s("\u{ffff}"), s("\u{10000}"), Less),
        (s("x"), s("x"), Equal),
        // N: numeric, whatever the lexicographic order.
        (n("9"), n("10"), Less),
        (n("-5"), n("1"), Less),
        (n("2"), n("2.5"), Less),
        (n("2.5"), n("9"), Less),
        (n("-10"), n("-9"), Less),
        (n("1e2"), n("100"), Equal),
        (n("0"), n("-0"), Equal),
        // Not numbers at all: after every number, by text among themselves.
        (n("2"), n("1x"), Less),
        (n("1x"), n("2x"), Less),
        // B: unsigned bytes.
        (b(&[0x7f]), b(&[0x80]), Less),
        (b(&[]), b(&[0]), Less),
        (b(&[1]), b(&[1, 0]), Less),
        (b(&[0xff]), b(&[0xff]), Equal),
        // Different types: by type name.
        (b(&[0xff]), n("1"), Less),
        (n("9"), s("1"), Less),
        (s("a"), b(&[0]), Greater),
        (AttrValue::Bool(true), s("a"), Less),
        // Same non-key type: equal.
        (AttrValue::Bool(true), AttrValue::Bool(false), Equal),
        (AttrValue::Null, AttrValue::Null, Equal),
        (AttrValue::L(vec![s("a")]), AttrValue::L(vec![]), Equal),
        (
            AttrValue::M(Item::new()),
            AttrValue::M(pk_sk("a", "b")),
            Equal,
        ),
    ];
    for (a, b, want) in cases {
        assert_eq!(dynamo_cmp(&a, &b), want, "{a:?} vs {b:?}");
        assert_eq!(dynamo_cmp(&b, &a), want.reverse(), "{b:?} vs {a:?}");
    }
}

#[test]
fn number_syntax_matches_validate_number() {
    use crate::item::number::{validate_number, NumberError};
    let cases = [
        "0", "-1", "+1", ".5", "5.", "-.5e3", "1e5", "1E+5", "1e-5", "1e126", "1e-200", "", "-",
        "+", ".", "e5", "1e", "1e+", "1.2.3", "1 ", " 1", "0x10", "NaN", "Infinity", "١", "1e5.5",
        "--1",
    ];
    for text in cases {
        let syntax_ok = !matches!(validate_number(text), Err(NumberError::Syntax(_)));
        assert_eq!(parse_decimal(text).is_some(), syntax_ok, "{text:?}");
    }
}
