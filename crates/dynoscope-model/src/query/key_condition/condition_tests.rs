use super::*;
use crate::query::key_condition::fixtures::{attr, n, s, schema};

#[test]
fn build_accepts_valid_conditions() {
    use SortInput as I;
    let num = schema(KeyType::S, Some(KeyType::N));
    let text = schema(KeyType::S, Some(KeyType::S));
    let bin = schema(KeyType::N, Some(KeyType::B));
    let cases = [
        (&text, "u#1", None, None),
        (
            &text,
            "u#1",
            Some(I::Eq("a".into())),
            Some(SortCondition::Eq(s("a"))),
        ),
        (
            &num,
            "u#1",
            Some(I::Lt("5".into())),
            Some(SortCondition::Lt(n("5"))),
        ),
        (
            &num,
            "u#1",
            Some(I::Le("5".into())),
            Some(SortCondition::Le(n("5"))),
        ),
        (
            &num,
            "u#1",
            Some(I::Gt("5".into())),
            Some(SortCondition::Gt(n("5"))),
        ),
        (
            &num,
            "u#1",
            Some(I::Ge("5".into())),
            Some(SortCondition::Ge(n("5"))),
        ),
        // Numeric, not textual, order: "9" < "10".
        (
            &num,
            "u#1",
            Some(I::Between("9".into(), "10".into())),
            Some(SortCondition::Between(n("9"), n("10"))),
        ),
        (
            &num,
            "u#1",
            Some(I::Between("1e2".into(), "100".into())),
            Some(SortCondition::Between(n("1e2"), n("100"))),
        ),
        (
            &text,
            "u#1",
            Some(I::Between("A".into(), "a".into())),
            Some(SortCondition::Between(s("A"), s("a"))),
        ),
        (
            &text,
            "u#1",
            Some(I::BeginsWith("ORDER#".into())),
            Some(SortCondition::BeginsWith(s("ORDER#"))),
        ),
        (
            &bin,
            "42",
            Some(I::BeginsWith("AQ==".into())),
            Some(SortCondition::BeginsWith(KeyValue::B(vec![1]))),
        ),
        (
            &bin,
            "42",
            Some(I::Between("AQ==".into(), "Ag==".into())),
            Some(SortCondition::Between(
                KeyValue::B(vec![1]),
                KeyValue::B(vec![2]),
            )),
        ),
    ];
    for (keys, pk, input, expected) in cases {
        let condition = KeyCondition::build(keys, pk, input.clone())
            .unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(&condition.partition()[0].0, keys.partition_key());
        assert_eq!(
            condition.sort().map(|(_, c)| c.clone()),
            expected,
            "{input:?}"
        );
    }
}

#[test]
fn build_enforces_dynamodb_rules() {
    use SortInput as I;
    let num = schema(KeyType::S, Some(KeyType::N));
    let text = schema(KeyType::S, Some(KeyType::S));
    let bin = schema(KeyType::S, Some(KeyType::B));
    let pk_only = schema(KeyType::S, None);
    let cases = [
        (&text, "", None, "key 'PK' cannot be empty"),
        (&num, "x", Some(I::Eq("abc".into())), "key 'SK' is a number (N) but 'abc' is not a number"),
        (
            &num,
            "x",
            Some(I::BeginsWith("12".into())),
            "begins_with is not allowed on number (N) sort key 'SK'; use between with a low and a high number instead",
        ),
        // The operator rule wins over the operand's type.
        (&num, "x", Some(I::BeginsWith("abc".into())), "begins_with is not allowed"),
        (
            &num,
            "x",
            Some(I::Between("10".into(), "9".into())),
            "between on sort key 'SK' needs low <= high, but '10' is greater than '9'; swap the two values",
        ),
        (&num, "x", Some(I::Between("-1".into(), "-2".into())), "'-1' is greater than '-2'"),
        (&text, "x", Some(I::Between("b".into(), "a".into())), "'b' is greater than 'a'"),
        // Byte order: lower case sorts after upper case.
        (&text, "x", Some(I::Between("a".into(), "B".into())), "'a' is greater than 'B'"),
        (&bin, "x", Some(I::Between("Ag==".into(), "AQ==".into())), "'Ag==' is greater than 'AQ=='"),
        (&text, "x", Some(I::Between("".into(), "a".into())), "key 'SK' cannot be empty"),
        (
            &pk_only,
            "x",
            Some(I::Eq("a".into())),
            "this table/index has no sort key, only partition key 'PK'; drop the sort key condition",
        ),
        (&pk_only, "x", Some(I::BeginsWith("a".into())), "no sort key"),
    ];
    for (keys, pk, input, expected) in cases {
        let message = KeyCondition::build(keys, pk, input.clone())
            .unwrap_err()
            .to_string();
        assert!(message.contains(expected), "{input:?}: {message}");
        assert!(!message.contains('\n'));
    }
}

#[test]
fn from_typed_rechecks_hand_built_values() {
    let num = schema(KeyType::S, Some(KeyType::N));
    let cases = [
        (s(""), None, "key 'PK' cannot be empty"),
        (
            n("1"),
            None,
            "key 'PK' is a string (S) but '1' is a number (N)",
        ),
        (
            s("x"),
            Some(SortCondition::Eq(s("a"))),
            "key 'SK' is a number (N) but 'a' is a string (S)",
        ),
        (
            s("x"),
            Some(SortCondition::Gt(n("1x"))),
            "'1x' is not a number",
        ),
        (
            s("x"),
            Some(SortCondition::BeginsWith(n("1"))),
            "begins_with is not allowed",
        ),
        (
            s("x"),
            Some(SortCondition::Between(n("2"), n("1"))),
            "'2' is greater than '1'",
        ),
    ];
    for (pk, sort, expected) in cases {
        let message = KeyCondition::from_typed(&num, pk, sort)
            .unwrap_err()
            .to_string();
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn to_expression_uses_placeholders() {
    use SortInput as I;
    let keys = KeySchema::simple(attr("status", KeyType::S), Some(attr("date", KeyType::N)));
    let cases = [
        (None, "#pk = :pk"),
        (Some(I::Eq("1".into())), "#pk = :pk AND #sk = :sk"),
        (Some(I::Lt("1".into())), "#pk = :pk AND #sk < :sk"),
        (Some(I::Le("1".into())), "#pk = :pk AND #sk <= :sk"),
        (Some(I::Gt("1".into())), "#pk = :pk AND #sk > :sk"),
        (Some(I::Ge("1".into())), "#pk = :pk AND #sk >= :sk"),
        (
            Some(I::Between("1".into(), "2".into())),
            "#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi",
        ),
    ];
    for (input, expected) in cases {
        let parts = KeyCondition::build(&keys, "OPEN", input)
            .unwrap()
            .to_expression();
        assert_eq!(parts.key_condition, expected);
        assert_eq!(parts.names[0], ("#pk".into(), "status".into()));
        assert_eq!(parts.values[0], (":pk".into(), AttrValue::S("OPEN".into())));
    }

    let parts = KeyCondition::build(&keys, "OPEN", Some(I::Between("1".into(), "2".into())))
        .unwrap()
        .to_expression();
    assert_eq!(
        parts.names,
        [
            ("#pk".into(), "status".into()),
            ("#sk".into(), "date".into())
        ]
    );
    assert_eq!(
        parts.values,
        [
            (":pk".into(), AttrValue::S("OPEN".into())),
            (":sk_lo".into(), AttrValue::N("1".into())),
            (":sk_hi".into(), AttrValue::N("2".into())),
        ]
    );

    let text = schema(KeyType::S, Some(KeyType::S));
    let parts = KeyCondition::build(&text, "u", Some(I::BeginsWith("O#".into())))
        .unwrap()
        .to_expression();
    assert_eq!(parts.key_condition, "#pk = :pk AND begins_with(#sk, :sk)");
    assert_eq!(parts.values[1], (":sk".into(), AttrValue::S("O#".into())));
}
