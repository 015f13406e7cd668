use super::*;
use crate::query::expression::fixtures::{names, values};

#[test]
fn check_expression_accepts_valid_expressions() {
    let cases = [
        ("filter", "#status = :s", &["#status"][..], &[":s"][..]),
        (
            "filter",
            "price > :n AND NOT (#status = :s OR contains(tags, :s2))",
            &["#status"],
            &[":n", ":s", ":s2"],
        ),
        (
            "filter",
            "attribute_exists(a.b[0].c) and size(#data) < :n",
            &["#data"],
            &[":n"],
        ),
        (
            "filter",
            "a BETWEEN :n9 AND :n OR b IN (:s, :s2)",
            &[],
            &[":n", ":n9", ":s", ":s2"],
        ),
        ("filter", "x <> :s", &[], &[":s"]),
        (
            "projection",
            "PK, SK, #n, tags[12], m.inner_1",
            &["#n"],
            &[],
        ),
        ("projection", "#data.#n", &["#data", "#n"], &[]),
    ];
    for (kind, expr, want_names, want_values) in cases {
        let used = check_expression(kind, expr, &names(), &values())
            .unwrap_or_else(|e| panic!("{expr:?}: {e}"));
        assert_eq!(
            used.names.iter().collect::<Vec<_>>(),
            want_names,
            "{expr:?}"
        );
        assert_eq!(
            used.values.iter().collect::<Vec<_>>(),
            want_values,
            "{expr:?}"
        );
    }
}

#[test]
fn check_expression_rules() {
    let cases = [
        ("filter", "", "the filter expression is empty"),
        ("filter", "  ", "the filter expression is empty"),
        ("filter", "#st = :s", "unknown placeholder '#st' in filter expression; define it in --names"),
        ("filter", "a = :st", "unknown placeholder ':st' in filter expression; define it in --values"),
        (
            "filter",
            "status = :s",
            r##"'status' is a reserved word in DynamoDB expressions; write '#status' and pass --names '{"#status":"status"}'"##,
        ),
        ("projection", "PK, Name", "'Name' is a reserved word"),
        ("projection", "a.size", "'size' is a reserved word"),
        ("filter", "(a = :s", "'(' at column 1 in filter expression is never closed; add the matching ')'"),
        ("filter", "a = :s)", "unmatched ')' at column 7 in filter expression"),
        ("filter", "(a = :s))", "unmatched ')' at column 9"),
        ("projection", "a[0", "'[' at column 2 in projection expression is never closed; add the matching ']'"),
        ("filter", "(a[0)]", "unmatched ')' at column 5"),
        ("projection", "a[x]", "expected a list index like [0] at column 3 in projection expression, found 'x'"),
        ("projection", "a[]", "expected a list index like [0] at column 3"),
        ("projection", "a[1.5]", "expected a list index like [0] at column 3"),
        ("filter", "a = 5", "literal '5' at column 5 is not allowed in a filter expression; use a placeholder like ':v'"),
        ("filter", "a = 'x'", "literal 'x' at column 5"),
        ("filter", "a = \"x", "literal 'x' at column 5"),
        ("filter", "a = 1.5", "literal '1.5'"),
        ("filter", "user-id = :s", "unexpected character '-' at column 5 in filter expression; put attribute names"),
        ("filter", "é = :s", "unexpected character 'é' at column 1"),
        ("filter", "a != :s", "expected '<>' for not-equal at column 3 in filter expression, found '!='"),
        ("filter", "# = :s", "'#' at column 1 in filter expression has no name; write it like '#name'"),
        ("filter", "a = :", "':' at column 5 in filter expression has no name"),
        ("filter", "1st = :s", "'1st' at column 1 in filter expression starts with a digit; write '#1st'"),
        ("filter", "exists(a)", "unknown function 'exists' at column 1 in filter expression"),
        ("key condition", "PK = :nope", "unknown placeholder ':nope' in key condition expression"),
    ];
    for (kind, expr, expected) in cases {
        let message = check_expression(kind, expr, &names(), &values())
            .unwrap_err()
            .to_string();
        assert!(message.contains(expected), "{expr:?}: got {message:?}");
        assert!(!message.contains('\n'));
    }
}
