//! Property tests of everything that parses user input before a request: no input panics, and
//! every input either parses or gets a one-line error naming what is wrong.

use dynoscope::model::design::access_pattern::parse_patterns_file;
use dynoscope::model::design::schema::{KeyAttr, KeySchema, KeyType};
use dynoscope::model::fixtures::proptest_cases;
use dynoscope::model::formats::json::{parse_dynamo_values, parse_plain_values};
use dynoscope::model::item::number::validate_number;
use dynoscope::model::item::value::AttrValue;
use dynoscope::model::query::expression::{check_expression, parse_key_condition};
use dynoscope::model::query::filter_compile::{compile_filter, compile_projection};
use dynoscope::model::query::key_condition::{KeyCondition, SortInput};
use proptest::prelude::*;

fn keys(sk: KeyType) -> KeySchema {
    KeySchema::simple(KeyAttr::new("PK", KeyType::S), Some(KeyAttr::new("SK", sk)))
}

/// Token soup that looks like DynamoDB expressions, so the parser's deep paths are reached,
/// plus arbitrary text.
fn expression() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("PK".to_string()),
        Just("SK".to_string()),
        Just("#pk".to_string()),
        Just(":v".to_string()),
        Just(":w".to_string()),
        Just("=".to_string()),
        Just("<>".to_string()),
        Just("<=".to_string()),
        Just(">".to_string()),
        Just("AND".to_string()),
        Just("OR".to_string()),
        Just("NOT".to_string()),
        Just("BETWEEN".to_string()),
        Just("IN".to_string()),
        Just("begins_with".to_string()),
        Just("contains".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just(",".to_string()),
        Just("status".to_string()),
        Just("a.b[0]".to_string()),
        Just("\"x\"".to_string()),
        Just("12".to_string()),
        "[a-z#:]{1,6}",
        "\\PC{0,4}",
    ];
    prop::collection::vec(token, 0..14).prop_map(|t| t.join(" "))
}

fn one_line(e: impl ToString) -> bool {
    let s = e.to_string();
    !s.is_empty() && !s.contains('\n')
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(4_000), ..ProptestConfig::default() })]

    #[test]
    fn key_conditions_and_filters_never_panic(expr in expression(), sk_numeric in any::<bool>()) {
        let names = vec![("#pk".to_string(), "PK".to_string())];
        let values = vec![
            (":v".to_string(), AttrValue::S("x".into())),
            (":w".to_string(), AttrValue::N("5".into())),
        ];
        let schema = keys(if sk_numeric { KeyType::N } else { KeyType::S });
        if let Err(e) = parse_key_condition(&expr, &names, &values, &schema) {
            prop_assert!(one_line(&e), "{}", e);
        }
        if let Err(e) = check_expression("filter", &expr, &names, &values) {
            prop_assert!(one_line(&e), "{}", e);
        }
        if let Err(e) = compile_filter(&expr, "f") {
            prop_assert!(one_line(&e), "{}", e);
        }
        if let Err(e) = compile_projection(&expr) {
            prop_assert!(one_line(&e), "{}", e);
        }
    }

    #[test]
    fn typed_key_values_never_panic(pk in "\\PC{0,12}", a in "[-+.eE0-9a-z]{0,12}", b in "\\PC{0,12}", op in 0u8..7) {
        for sk in [KeyType::S, KeyType::N, KeyType::B] {
            let sort = match op {
                0 => SortInput::Eq(a.clone()),
                1 => SortInput::Lt(a.clone()),
                2 => SortInput::Le(b.clone()),
                3 => SortInput::Gt(a.clone()),
                4 => SortInput::Ge(b.clone()),
                5 => SortInput::Between(a.clone(), b.clone()),
                _ => SortInput::BeginsWith(a.clone()),
            };
            if let Err(e) = KeyCondition::build(&keys(sk), &pk, Some(sort)) {
                prop_assert!(one_line(&e), "{}", e);
            }
        }
        let _ = validate_number(&a);
    }

    #[test]
    fn json_flags_and_pattern_files_never_panic(text in "\\PC{0,40}") {
        if let Err(e) = parse_plain_values(&text) {
            prop_assert!(one_line(&e), "{}", e);
        }
        if let Err(e) = parse_dynamo_values(&text) {
            prop_assert!(one_line(&e), "{}", e);
        }
        if let Err(e) = parse_patterns_file(&text, "p.toml") {
            prop_assert!(one_line(&e), "{}", e);
        }
    }
}

/// The builder's friendly filters, built from DynamoDB's condition grammar: bare attribute
/// names (reserved words among them), quoted text, numbers and booleans.
fn friendly_filter() -> impl Strategy<Value = String> {
    let path = prop_oneof![
        Just("total".to_string()),
        Just("status".to_string()),
        Just("a_b".to_string()),
        Just("address.city".to_string()),
    ];
    let value = prop_oneof![
        Just("5".to_string()),
        Just("-1.5e2".to_string()),
        Just("\"SHIPPED\"".to_string()),
        Just(r"'o\'k'".to_string()),
        Just("true".to_string()),
    ];
    let operand = prop_oneof![
        path.clone(),
        value.clone(),
        path.clone().prop_map(|p| format!("size({p})"))
    ];
    let cmp = prop_oneof![Just("="), Just("<>"), Just("<"), Just(">=")];
    let leaf = prop_oneof![
        (path.clone(), cmp, operand.clone()).prop_map(|(a, c, b)| format!("{a} {c} {b}")),
        (path.clone(), value.clone(), value.clone())
            .prop_map(|(a, lo, hi)| format!("{a} between {lo} and {hi}")),
        (path.clone(), prop::collection::vec(value.clone(), 1..4))
            .prop_map(|(a, list)| format!("{a} in ({})", list.join(", "))),
        path.clone().prop_map(|p| format!("attribute_exists({p})")),
        (path, value).prop_map(|(p, v)| format!("begins_with({p}, {v})")),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} and {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} OR {b}")),
            inner.clone().prop_map(|a| format!("not {a}")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(2_000), ..ProptestConfig::default() })]

    /// Every filter the grammar allows compiles; the same with a comparator doubled (issue
    /// 21.8: `total = = 5` was shown as sendable) or a connective left dangling is refused in
    /// one line.
    #[test]
    fn builder_filters_compile_exactly_when_the_grammar_allows(filter in friendly_filter()) {
        prop_assert!(compile_filter(&filter, "f").is_ok(), "{}", filter);
        let broken = [
            filter.replacen(" = ", " = = ", 1),
            format!("{filter} and"),
            format!("or {filter}"),
        ];
        for bad in broken.iter().filter(|b| **b != filter) {
            match compile_filter(bad, "f") {
                Ok(c) => prop_assert!(false, "{} compiled to {}", bad, c.expression),
                Err(e) => prop_assert!(one_line(&e), "{}", e),
            }
        }
    }
}
