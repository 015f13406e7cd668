//! The grammar accepts every form DynamoDB documents, refuses broken ones with what it
//! expected, and holds for generated conditions: every one built from the grammar is accepted,
//! and the same with a comparator doubled or a bound dropped is refused.

use proptest::prelude::*;

use super::check_condition_grammar;

fn check(expr: &str) -> Result<(), String> {
    check_condition_grammar("filter", expr, &|t| t.to_string()).map_err(|e| e.to_string())
}

#[test]
fn every_documented_form_is_accepted() {
    for expr in [
        "#a = :v",
        ":v = #a",
        "#a <> :v AND #b < :w OR #c >= :x",
        "#a.#b[0].c[12] <= :v",
        "#a BETWEEN :lo AND :hi",
        "#a IN (:x)",
        "#a IN (:x, :y, :z)",
        "NOT attribute_exists(#a)",
        "NOT NOT (#a = :v)",
        "attribute_not_exists(a.b)",
        "attribute_type(#a, :t)",
        "begins_with(#a, :p) AND contains(#tags, :t)",
        "contains(#a, #b)",
        "size(#a) > :n",
        "size(#a.#b) BETWEEN :lo AND :hi",
        "((#a = :v) OR (#b = :w)) AND #c = :x",
        "#a = size(#b)",
    ] {
        assert_eq!(check(expr), Ok(()), "{expr}");
    }
}

#[test]
fn broken_forms_say_what_was_expected() {
    for (expr, needle) in [
        (
            "#total = = :f1",
            "expected an attribute or a value after '#total =' in filter expression, found '='",
        ),
        ("#a =", "found the end"),
        ("= :v", "at the start"),
        ("#a :v", "a comparison"),
        ("#a = :v #b = :w", "AND, OR or the end"),
        ("#a BETWEEN :lo :hi", "AND between the two bounds"),
        ("#a IN :x", "'(' and the values IN compares with"),
        ("#a IN ()", "an attribute or a value"),
        ("attribute_exists(:v)", "an attribute name"),
        ("begins_with(#a)", "second argument"),
        ("size(#a)", "a comparison"),
        ("#a = :v AND", "found the end"),
        ("#a[x] = :v", "a list index"),
        ("(#a = :v) (#b = :w)", "AND, OR or the end"),
        ("#a = :v OR NOT", "found the end"),
    ] {
        let e = check(expr).expect_err(expr);
        assert!(e.contains(needle), "{expr}: {e}");
    }
}

/// Conditions built from the grammar, as placeholders.
fn condition() -> impl Strategy<Value = String> {
    let path = prop_oneof![
        Just("#a".to_string()),
        Just("b".to_string()),
        Just("#m.#k".to_string()),
        Just("l[3]".to_string()),
        Just("#m.l[0].#k".to_string()),
    ];
    let value = prop_oneof![Just(":v".to_string()), Just(":w2".to_string())];
    let operand = prop_oneof![
        path.clone(),
        value.clone(),
        path.clone().prop_map(|p| format!("size({p})")),
    ];
    let cmp = prop_oneof![
        Just("="),
        Just("<>"),
        Just("<"),
        Just("<="),
        Just(">"),
        Just(">=")
    ];
    let leaf = prop_oneof![
        (operand.clone(), cmp, operand.clone()).prop_map(|(a, c, b)| format!("{a} {c} {b}")),
        (operand.clone(), operand.clone(), operand.clone())
            .prop_map(|(a, lo, hi)| format!("{a} BETWEEN {lo} AND {hi}")),
        (
            operand.clone(),
            prop::collection::vec(operand.clone(), 1..4)
        )
            .prop_map(|(a, list)| format!("{a} IN ({})", list.join(", "))),
        path.clone().prop_map(|p| format!("attribute_exists({p})")),
        path.clone()
            .prop_map(|p| format!("attribute_not_exists({p})")),
        (path.clone(), operand.clone()).prop_map(|(p, o)| format!("begins_with({p}, {o})")),
        (path.clone(), operand).prop_map(|(p, o)| format!("contains({p}, {o})")),
        (path, value).prop_map(|(p, v)| format!("attribute_type({p}, {v})")),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} AND {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} or {b}")),
            inner.clone().prop_map(|a| format!("NOT {a}")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(500)))]

    #[test]
    fn generated_conditions_are_accepted(expr in condition()) {
        prop_assert_eq!(check(&expr), Ok(()), "{}", expr);
    }

    #[test]
    fn a_doubled_comparator_or_a_dangling_connective_is_refused(
        expr in condition(),
        cut in any::<prop::sample::Index>(),
    ) {
        if let Some(at) = expr.find(" = ") {
            let doubled = format!("{} = = {}", &expr[..at], &expr[at + 3..]);
            prop_assert!(check(&doubled).is_err(), "{}", doubled);
        }
        let (dangling, leading) = (format!("{expr} AND"), format!("OR {expr}"));
        prop_assert!(check(&dangling).is_err(), "{}", dangling);
        prop_assert!(check(&leading).is_err(), "{}", leading);
        // Cut anywhere between tokens: a prefix is a condition only where one ends.
        let words: Vec<&str> = expr.split(' ').collect();
        let n = cut.index(words.len());
        let prefix = words[..n].join(" ");
        if check(&prefix).is_ok() {
            prop_assert!(!prefix.is_empty());
            prop_assert!(!prefix.ends_with("AND") && !prefix.ends_with("or") && !prefix.ends_with("NOT"));
        }
    }
}
