use super::*;

#[test]
fn filters_compile_to_placeholders() {
    let cases = [
        (
            "status = \"SHIPPED\"",
            "#status = :f1",
            vec![(":f1", AttrValue::S("SHIPPED".into()))],
        ),
        (
            "total > 100 and not (status = 'X')",
            "#total > :f1 AND NOT (#status = :f2)",
            vec![
                (":f1", AttrValue::N("100".into())),
                (":f2", AttrValue::S("X".into())),
            ],
        ),
        (
            "begins_with(SK, \"ORDER#\")",
            "begins_with(#SK, :f1)",
            vec![(":f1", AttrValue::S("ORDER#".into()))],
        ),
        (
            "attribute_exists(email)",
            "attribute_exists(#email)",
            vec![],
        ),
        (
            "qty between 1 and 3",
            "#qty BETWEEN :f1 AND :f2",
            vec![
                (":f1", AttrValue::N("1".into())),
                (":f2", AttrValue::N("3".into())),
            ],
        ),
        (
            "flag = true",
            "#flag = :f1",
            vec![(":f1", AttrValue::Bool(true))],
        ),
        (
            "price >= -1.5e2",
            "#price >= :f1",
            vec![(":f1", AttrValue::N("-1.5e2".into()))],
        ),
    ];
    for (text, expr, values) in cases {
        let c = compile_filter(text, "f").unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(c.expression, expr, "{text}");
        let got: Vec<(&str, AttrValue)> = c
            .values
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        assert_eq!(got, values, "{text}");
    }
}

#[test]
fn bad_filters_are_named() {
    for (text, needle) in [
        ("status = \"open", "never closed"),
        ("(status = \"x\"", "never closed"),
        ("price > 12a", "'12a'"),
        ("", "empty"),
        // Issue 21.8: compiled to `#total = = :f1` and shown as sendable.
        (
            "total = = 5",
            "expected an attribute or a value after 'total =' in filter expression, found '='",
        ),
        ("total >", "found the end"),
        (
            "a = 1 b = 2",
            "expected AND, OR or the end of the condition after 'a = 1'",
        ),
        ("qty between 1 3", "AND between the two bounds"),
        ("x in (1, 2", "never closed"),
        ("not", "expected an attribute or a value after 'NOT'"),
        ("begins_with(SK)", "',' and the function's second argument"),
        ("status and total > 1", "a comparison"),
    ] {
        let e = compile_filter(text, "f").unwrap_err();
        assert!(e.contains(needle), "{text}: {e}");
    }
}

#[test]
fn any_attribute_name_can_be_written_in_backticks() {
    let c = compile_filter("`State#Date` = \"x\" and `order id` > 3", "f").unwrap();
    assert_eq!(c.expression, "#State_Date = :f1 AND #order_id > :f2");
    assert_eq!(
        c.names,
        [
            ("#State_Date".to_string(), "State#Date".to_string()),
            ("#order_id".to_string(), "order id".to_string())
        ]
    );
    // Dots inside backticks are part of the name, outside they are a path.
    let c = compile_filter("attribute_exists(`a.b`) and c.d = 1", "f").unwrap();
    assert_eq!(c.expression, "attribute_exists(#a_b) AND #c.#d = :f1");
    assert_eq!(c.names[0], ("#a_b".to_string(), "a.b".to_string()));
    // Names cleaning to the same placeholder stay apart.
    let c = compile_filter("`a#b` = 1 and `a b` = 2", "f").unwrap();
    assert_eq!(c.expression, "#a_b = :f1 AND #a_b_2 = :f2");
    for (text, needle) in [
        ("State#Date = \"x\"", "'State#Date' at column 1"),
        ("`State#Date = 1", "never closed"),
        ("`` = 1", "empty attribute name"),
    ] {
        let e = compile_filter(text, "f").unwrap_err();
        assert!(e.contains(needle), "{text}: {e}");
    }
    assert!(compile_filter("State#Date = 1", "f")
        .unwrap_err()
        .contains("`State#Date`"));
}

#[test]
fn placeholders_beside_the_key_conditions_never_redefine_them() {
    let taken = vec![
        ("#pk".to_string(), "PK".to_string()),
        ("#sk".to_string(), "SK".to_string()),
    ];
    let c = compile_filter_beside("pk = \"a\" and PK = \"b\"", "f", &taken).unwrap();
    assert_eq!(c.expression, "#pk_3 = :f1 AND #pk = :f2");
    assert_eq!(c.names, [("#pk_3".to_string(), "pk".to_string())]);
    let c = compile_projection_beside("sk, SK", &taken).unwrap();
    assert_eq!(c.expression, "#sk_3, #sk");
    assert_eq!(c.names, [("#sk_3".to_string(), "sk".to_string())]);
}

#[test]
fn projections_take_backticked_names() {
    let c = compile_projection("`State#Date`, name, `a.b`.c").unwrap();
    assert_eq!(c.expression, "#State_Date, #name, #a_b.#c");
    assert_eq!(
        c.names[0],
        ("#State_Date".to_string(), "State#Date".to_string())
    );
    assert_eq!(c.names[2], ("#a_b".to_string(), "a.b".to_string()));
    assert!(compile_projection("`a`b")
        .unwrap_err()
        .contains("follows a backticked"));
    assert!(compile_projection("`a")
        .unwrap_err()
        .contains("never closed"));
}

#[test]
fn projections_compile() {
    let c = compile_projection("name, status, address.city").unwrap();
    assert_eq!(c.expression, "#name, #status, #address.#city");
    assert_eq!(c.names.len(), 4);
    assert!(compile_projection("a,,b").unwrap_err().contains("empty"));
}
