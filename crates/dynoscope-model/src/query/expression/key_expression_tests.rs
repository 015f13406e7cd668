use super::*;
use crate::design::schema::KeyType;
use crate::query::expression::check::check_expression;
use crate::query::expression::fixtures::{keys, names, values};
use crate::query::key_condition::KeyConditionError;

fn parse(expr: &str, schema: &KeySchema) -> Result<KeyCondition, ExpressionError> {
    parse_key_condition(expr, &names(), &values(), schema)
}

#[test]
fn parses_key_conditions() {
    let s = |v: &str| KeyValue::S(v.into());
    let n = |v: &str| KeyValue::N(v.into());
    let text = keys(KeyType::S, Some(KeyType::S));
    let num = keys(KeyType::S, Some(KeyType::N));
    let cases = [
        (&text, "PK = :pk", None),
        (&text, "#pk = :pk", None),
        (&text, "(PK = :pk)", None),
        (&text, ":pk = PK", None),
        (
            &text,
            "PK = :pk AND SK = :s",
            Some(SortCondition::Eq(s("ORDER#"))),
        ),
        (
            &text,
            "SK = :s AND PK = :pk",
            Some(SortCondition::Eq(s("ORDER#"))),
        ),
        (
            &num,
            "PK = :pk and #sk < :n",
            Some(SortCondition::Lt(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND SK <= :n",
            Some(SortCondition::Le(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND SK > :n",
            Some(SortCondition::Gt(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND SK >= :n",
            Some(SortCondition::Ge(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND :n > SK",
            Some(SortCondition::Lt(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND :n <= SK",
            Some(SortCondition::Ge(n("10"))),
        ),
        (
            &num,
            "PK = :pk AND SK BETWEEN :n9 AND :n",
            Some(SortCondition::Between(n("9"), n("10"))),
        ),
        (
            &num,
            "(SK between :n9 and :n) AND (#pk = :pk)",
            Some(SortCondition::Between(n("9"), n("10"))),
        ),
        (
            &text,
            "PK = :pk AND begins_with(SK, :s)",
            Some(SortCondition::BeginsWith(s("ORDER#"))),
        ),
        (
            &text,
            "((PK = :pk) AND (begins_with(#sk, :s)))",
            Some(SortCondition::BeginsWith(s("ORDER#"))),
        ),
        (
            &text,
            "begins_with ( SK , :s ) AND PK=:pk",
            Some(SortCondition::BeginsWith(s("ORDER#"))),
        ),
    ];
    for (schema, expr, expected) in cases {
        let condition = parse(expr, schema).unwrap_or_else(|e| panic!("{expr:?}: {e}"));
        assert_eq!(*condition.pk_value(), s("USER#1"), "{expr:?}");
        assert_eq!(
            condition.sort().map(|(_, c)| c.clone()),
            expected,
            "{expr:?}"
        );
    }
}

#[test]
fn key_condition_rules() {
    let text = keys(KeyType::S, Some(KeyType::S));
    let num = keys(KeyType::S, Some(KeyType::N));
    let pk_only = keys(KeyType::S, None);
    let cases = [
        (&text, "PK < :pk", "partition key 'PK' only supports '=', not '<'; use a Scan with --filter for ranges"),
        (&text, "PK BETWEEN :pk AND :s", "partition key 'PK' only supports '=', not 'BETWEEN'"),
        (&text, "begins_with(PK, :pk)", "partition key 'PK' only supports '=', not 'begins_with'"),
        (&text, "PK <> :pk", "'<>' is not supported in a key condition; move it to --filter-expression"),
        (&text, "PK = :pk OR SK = :s", "'OR' is not supported in a key condition"),
        (&text, "NOT PK = :pk", "'NOT' is not supported in a key condition"),
        (&text, "PK IN (:pk, :s)", "'IN' is not supported in a key condition"),
        (&text, "PK = :pk AND contains(SK, :s)", "'contains' is not supported in a key condition"),
        (&text, "PK = :pk AND size(SK) > :n", "'size' is not supported in a key condition"),
        (&text, "PK = :pk AND starts_with(SK, :s)", "unknown function 'starts_with' at column 14 in key condition expression"),
        (&text, "PK = :pk AND foo = :s", "'foo' is not a key of this table/index (keys: PK, SK)"),
        (&pk_only, "PK = :pk AND SK = :s", "'SK' is not a key of this table/index (keys: PK);"),
        (&text, "PK = :pk AND SK.x = :s", "'SK.x' is not a key"),
        (&text, "PK = :pk AND #data.#n = :s", "'data.name' is not a key"),
        (&text, "PK = :pk AND SK[0] = :s", "'SK[0]' is not a key"),
        (&text, "SK = :s", "the key condition does not compare partition key 'PK'; add 'PK = :pk'"),
        (&text, "", "does not compare partition key 'PK'"),
        (&text, "PK = :pk AND PK = :pk", "partition key 'PK' is compared twice"),
        (&text, "PK = :pk AND SK = :s AND SK = :s2", "sort key 'SK' has two conditions"),
        (&text, "PK = :pk AND SK > :s AND begins_with(SK, :s)", "sort key 'SK' has two conditions"),
        (&text, "PK = 'USER#1'", "literal 'USER#1' at column 6 is not allowed in a key condition expression; use a placeholder like ':v'"),
        (&num, "PK = :pk AND SK > 5", "literal '5' at column 19"),
        (&text, "PK = SK", "'PK = SK' at column 1 in key condition expression must compare a key name with a :placeholder"),
        (&text, ":pk = :s", "':pk = :s' at column 1"),
        (&text, "begins_with(:s, SK) AND PK = :pk", "'begins_with ( :s , SK )' at column 1"),
        (&text, "status = :pk", "'status' is a reserved word in DynamoDB expressions; write '#status'"),
        (&text, "#nope = :pk", "unknown placeholder '#nope' in key condition expression; define it in --names"),
        (&text, "PK = :nope", "unknown placeholder ':nope' in key condition expression; define it in --values"),
        (&text, "(PK = :pk", "'(' at column 1 in key condition expression is never closed"),
        (&text, "PK = :pk)", "unmatched ')' at column 9"),
        (&text, "PK = :pk SK = :s", "expected AND or the end of the key condition at column 10 in key condition expression, found 'SK'"),
        (&text, "PK = :pk AND", "expected a key name or a :placeholder at column 13 in key condition expression, found the end"),
        (&text, "PK", "expected a comparison like '=' or BETWEEN at column 3"),
        (&text, "PK = :pk AND SK BETWEEN :s :s2", "expected AND between the two BETWEEN values at column 28"),
        // Typing goes through key_condition, with the placeholder named.
        (&num, "PK = :pk AND SK = :s", "key 'SK' is a number (N) but ':s' is a string (S)"),
        (&text, "PK = :n", "key 'PK' is a string (S) but ':n' is a number (N)"),
        (&text, "PK = :map", "key 'PK' is a string (S) but ':map' is a map (M)"),
        (&text, "PK = :empty", "key 'PK' cannot be empty"),
        (&num, "PK = :pk AND begins_with(SK, :n)", "begins_with is not allowed on number (N) sort key 'SK'; use between"),
        (&num, "PK = :pk AND begins_with(SK, :s)", "begins_with is not allowed on number (N) sort key 'SK'"),
        (&num, "PK = :pk AND SK BETWEEN :n AND :n9", "between on sort key 'SK' needs low <= high, but '10' is greater than '9'"),
        (&text, "PK = :pk AND SK BETWEEN :s2 AND :s", "'ORDER#9' is greater than 'ORDER#'"),
    ];
    for (schema, expr, expected) in cases {
        let message = parse(expr, schema).unwrap_err().to_string();
        assert!(message.contains(expected), "{expr:?}: got {message:?}");
        assert!(!message.contains('\n'));
    }
}

#[test]
fn key_condition_errors_wrap_key_condition_error() {
    let num = keys(KeyType::S, Some(KeyType::N));
    let err = parse("PK = :pk AND begins_with(SK, :n)", &num).unwrap_err();
    assert_eq!(
        err,
        ExpressionError::Key(KeyConditionError::BeginsWithOnNumber { key: "SK".into() })
    );
}

#[test]
fn key_condition_reports_used_placeholders() {
    let text = keys(KeyType::S, Some(KeyType::S));
    let (_, used) = parse_key_condition_with_usage(
        "#pk = :pk AND begins_with(#sk, :s)",
        &names(),
        &values(),
        &text,
    )
    .unwrap();
    assert_eq!(used.names.into_iter().collect::<Vec<_>>(), ["#pk", "#sk"]);
    assert_eq!(used.values.into_iter().collect::<Vec<_>>(), [":pk", ":s"]);
}

/// parse → to_expression → parse again gives the same condition, and the generated text is
/// itself a valid expression for `check_expression`.
#[test]
fn round_trips_through_to_expression() {
    let text = keys(KeyType::S, Some(KeyType::S));
    let num = keys(KeyType::S, Some(KeyType::N));
    let bin = keys(KeyType::S, Some(KeyType::B));
    let cases = [
        (&text, "PK = :pk", "#pk = :pk"),
        (&text, "SK = :s AND PK = :pk", "#pk = :pk AND #sk = :sk"),
        (&num, ":n9 < SK AND PK = :pk", "#pk = :pk AND #sk > :sk"),
        (&num, "PK = :pk AND SK <= :n", "#pk = :pk AND #sk <= :sk"),
        (
            &num,
            "PK = :pk AND SK BETWEEN :n9 AND :n",
            "#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi",
        ),
        (
            &text,
            "PK = :pk AND begins_with(SK, :s)",
            "#pk = :pk AND begins_with(#sk, :sk)",
        ),
        (
            &bin,
            "PK = :pk AND begins_with(SK, :b)",
            "#pk = :pk AND begins_with(#sk, :sk)",
        ),
    ];
    for (schema, expr, expected) in cases {
        let condition = parse(expr, schema).unwrap();
        let parts = condition.to_expression();
        assert_eq!(parts.key_condition, expected);
        let again = parse_key_condition(&parts.key_condition, &parts.names, &parts.values, schema)
            .unwrap_or_else(|e| panic!("{expected:?}: {e}"));
        assert_eq!(again, condition);
        let used = check_expression(
            KEY_CONDITION,
            &parts.key_condition,
            &parts.names,
            &parts.values,
        )
        .unwrap();
        assert_eq!(used.values.len(), parts.values.len());
        assert_eq!(used.names.len(), parts.names.len());
    }
}
