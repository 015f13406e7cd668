use super::*;
use crate::query::partiql::error::ErrorKind;
use crate::query::partiql::fixtures::app;
use crate::query::partiql::{parse, parse_parameters, Statement};

fn plan_with(text: &str, parameters: &str) -> Result<Plan, PartiqlError> {
    let Statement::Select(select) = parse(text).unwrap() else {
        panic!("not a select")
    };
    translate(&select, &parse_parameters(parameters).unwrap(), &app())
}

fn plan(text: &str) -> Plan {
    plan_with(text, "[]").unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

#[test]
fn a_partition_key_equality_is_a_query() {
    let p = plan(r#"SELECT * FROM "app" WHERE PK = 'USER#1'"#);
    assert_eq!(p.kind, ReadKind::Query);
    assert_eq!(p.key_condition.as_deref(), Some("#pk = :pk"));
    assert_eq!(p.names, [("#pk".into(), "PK".into())]);
    assert_eq!(p.values, [(":pk".into(), s("USER#1"))]);
    assert_eq!(p.filter, None);
    assert!(p.queries.is_empty());
}

#[test]
fn every_sort_key_operator_is_the_key_condition() {
    for (condition, key_condition) in [
        ("SK = 'a'", "#pk = :pk AND #sk = :sk"),
        ("SK < 'a'", "#pk = :pk AND #sk < :sk"),
        ("'a' < SK", "#pk = :pk AND #sk > :sk"),
        ("SK <= 'a'", "#pk = :pk AND #sk <= :sk"),
        ("SK > 'a'", "#pk = :pk AND #sk > :sk"),
        ("SK >= 'a'", "#pk = :pk AND #sk >= :sk"),
        (
            "SK BETWEEN 'a' AND 'b'",
            "#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi",
        ),
        (
            "begins_with(SK, 'ORDER#')",
            "#pk = :pk AND begins_with(#sk, :sk)",
        ),
    ] {
        let p = plan(&format!("SELECT * FROM app WHERE {condition} AND PK = 'u'"));
        assert_eq!(
            p.key_condition.as_deref(),
            Some(key_condition),
            "{condition}"
        );
        assert_eq!(p.filter, None, "{condition}");
    }
}

#[test]
fn the_rest_is_the_filter_with_placeholders() {
    let p = plan(
        r#"SELECT "name", a FROM app."GSI1" WHERE GSI1PK = 'STATUS#SHIPPED' AND (total > 5 OR "order-id" IS MISSING) AND NOT contains(tags, 'x') AND size(tags) >= 2"#,
    );
    assert_eq!(p.index.as_deref(), Some("GSI1"));
    assert_eq!(p.key_condition.as_deref(), Some("#pk = :pk"));
    assert_eq!(
        p.filter.as_deref(),
        Some("(#total > :v1 OR attribute_not_exists(#a2)) AND NOT (contains(#tags, :v2)) AND size(#tags) >= :v3")
    );
    assert_eq!(p.projection.as_deref(), Some("#name, #a"));
    assert!(p.names.contains(&("#a2".into(), "order-id".into())));
}

#[test]
fn in_of_partition_keys_is_several_queries() {
    let p = plan("SELECT * FROM app WHERE PK IN ['a', 'b', 'a'] AND SK > 'x' ORDER BY SK DESC");
    assert_eq!(p.kind, ReadKind::Query);
    assert_eq!(
        p.queries,
        [
            vec![(":pk".to_string(), s("a"))],
            vec![(":pk".to_string(), s("b"))]
        ]
    );
    assert_eq!(
        p.request_values()[1],
        [(":pk".into(), s("b")), (":sk".into(), s("x"))]
    );
    assert!(p.ordered && p.descending);
}

/// DynamoDB's PartiQL scans an OR of partition keys (DynamoDB Local shows it:
/// tests/integration/partiql_oracle.rs); here it is one Query per value, like an IN, and the note says so.
#[test]
fn an_or_of_partition_keys_is_several_queries_like_in() {
    for (text, sort) in [
        ("SELECT * FROM app WHERE PK = 'a' OR PK = 'b'", None),
        (
            "SELECT * FROM app WHERE (PK = 'a' OR PK = 'b' OR PK = 'a') AND SK > 'x' ORDER BY SK DESC",
            Some("#sk > :sk"),
        ),
        (
            "SELECT * FROM app WHERE SK > 'x' AND (PK IN ['a'] OR 'b' = PK)",
            Some("#sk > :sk"),
        ),
    ] {
        let p = plan(text);
        assert_eq!(p.kind, ReadKind::Query, "{text}");
        assert_eq!(
            p.queries,
            [
                vec![(":pk".to_string(), s("a"))],
                vec![(":pk".to_string(), s("b"))]
            ],
            "{text}"
        );
        let condition = p.key_condition.clone().unwrap_or_default();
        assert_eq!(condition.contains("#sk > :sk"), sort.is_some(), "{text}");
        assert_eq!(p.filter, None, "{text}");
        assert!(p.dynamodb_scans, "{text}");
        let note = p.note.unwrap_or_default();
        assert!(
            note.contains("would scan the whole table for an OR of partition keys"),
            "{text}: {note}"
        );
    }
    let p = plan("SELECT * FROM app WHERE (PK = 'a' OR PK = 'b') AND total > 5");
    assert_eq!(p.filter.as_deref(), Some("#total > :v1"));
    let p = plan("SELECT * FROM app WHERE PK = 'a' ORDER BY SK");
    assert!(!p.dynamodb_scans && p.note.is_none());
}

/// Every other OR stays a Scan: a key OR a non-key condition, or an OR beside the key.
#[test]
fn other_ors_are_scans() {
    for text in [
        "SELECT * FROM app WHERE PK = 'a' OR total > 5",
        "SELECT * FROM app WHERE PK = 'a' OR SK = 'b'",
        "SELECT * FROM app WHERE (PK = 'a' AND SK = 'x') OR PK = 'b'",
        "SELECT * FROM app WHERE PK > 'a' OR PK = 'b'",
    ] {
        let p = plan(text);
        assert_eq!(p.kind, ReadKind::Scan, "{text}");
        assert!(p.filter.unwrap_or_default().contains(" OR "), "{text}");
    }
}

/// DynamoDB's PartiQL scans these although they pin the partition key (DynamoDB Local shows it:
/// tests/integration/partiql_oracle.rs), so they are Scans here too, saying why.
#[test]
fn what_dynamodb_scans_despite_a_pinned_key_is_a_scan_with_a_note() {
    for (text, note) in [
        (
            "SELECT * FROM app WHERE (PK = 'a' OR PK = 'b') AND SK IN ['x', 'y']",
            "key attribute 'SK'",
        ),
        (
            "SELECT * FROM app WHERE PK = 'a' AND SK IN ['x', 'y']",
            "key attribute 'SK'",
        ),
        (
            "SELECT * FROM app WHERE PK = 'a' AND SK > 'a' AND SK < 'z'",
            "key attribute 'SK'",
        ),
        (
            "SELECT * FROM app WHERE PK = 'a' AND SK <> 'a'",
            "key attribute 'SK'",
        ),
    ] {
        let p = plan(text);
        assert_eq!(p.kind, ReadKind::Scan, "{text}");
        assert!(p.dynamodb_scans, "{text}");
        assert!(
            p.note.as_deref().unwrap_or_default().contains(note),
            "{text}: {:?}",
            p.note
        );
        assert!(
            p.filter.as_deref().unwrap_or_default().contains("#PK"),
            "{text}"
        );
    }
}

#[test]
fn scan_shaped_statements_are_scans_with_their_equalities() {
    for text in [
        "SELECT * FROM app WHERE status = 'SHIPPED'",
        "SELECT * FROM app WHERE PK > 'A' AND status = 'SHIPPED'",
        "SELECT * FROM app WHERE status = 'SHIPPED' AND (PK = 'a' OR total > 5)",
        "SELECT * FROM app WHERE status = 'SHIPPED' AND PK <> 'a'",
    ] {
        let p = plan(text);
        assert_eq!(p.kind, ReadKind::Scan, "{text}");
        assert!(p.dynamodb_scans, "{text}");
        assert_eq!(p.key_condition, None);
        assert_eq!(
            p.equalities,
            [("status".to_string(), s("SHIPPED"))],
            "{text}"
        );
    }
    assert_eq!(plan("SELECT * FROM app").filter, None);
}

#[test]
fn parameters_are_typed_plain_or_dynamo_json() {
    let p = plan_with(
        "SELECT * FROM app.LSI1 WHERE PK = ? AND total BETWEEN ? AND ? AND flag = ?",
        r#"["u", {"N": "5"}, 10, {"BOOL": true}]"#,
    )
    .unwrap();
    assert_eq!(
        p.values,
        [
            (":pk".into(), s("u")),
            (":sk_lo".into(), AttrValue::N("5".into())),
            (":sk_hi".into(), AttrValue::N("10".into())),
            (":v1".into(), AttrValue::Bool(true)),
        ]
    );
}

#[test]
fn bad_statements_say_what_to_do() {
    let cases = [
        (
            "SELECT * FROM app WHERE PK = ?",
            "[]",
            ErrorKind::BadInput,
            "the statement has 1 ? parameter but --parameters gives 0",
        ),
        (
            "SELECT * FROM app.GSI9 WHERE PK = 'a'",
            "[]",
            ErrorKind::BadInput,
            "index 'GSI9' not found on table 'app'; its indexes are: GSI1, LSI1",
        ),
        (
            "SELECT * FROM app WHERE PK = 5",
            "[]",
            ErrorKind::BadInput,
            "PK",
        ),
        (
            "SELECT * FROM app WHERE PK = 'a' ORDER BY total",
            "[]",
            ErrorKind::BadInput,
            "ORDER BY 'total' is not the sort key of table 'app'; order by 'SK'",
        ),
        (
            "SELECT * FROM app WHERE status = 'x' ORDER BY SK",
            "[]",
            ErrorKind::BadInput,
            "ORDER BY needs the partition key 'PK' pinned with = or IN",
        ),
        (
            "SELECT * FROM app WHERE total BETWEEN 9 AND 2",
            "[]",
            ErrorKind::BadInput,
            "BETWEEN 9 AND 2 has its bounds the wrong way round",
        ),
        (
            "SELECT a.b FROM app WHERE PK = 'a'",
            "[]",
            ErrorKind::Unsupported,
            "the nested path \"a\".\"b\" in the projection is not translated",
        ),
        (
            "SELECT * FROM app WHERE PK = 'a' AND SK BETWEEN 'z' AND 'a'",
            "[]",
            ErrorKind::BadInput,
            "'z'",
        ),
        (
            "SELECT * FROM app.LSI1 WHERE PK = 'a' AND begins_with(total, 1)",
            "[]",
            ErrorKind::BadInput,
            "total",
        ),
    ];
    for (text, params, kind, part) in cases {
        let e = plan_with(text, params).expect_err(text);
        assert_eq!(e.kind, kind, "{text}: {e}");
        assert!(e.message.contains(part), "{text}: {e}");
    }
}

#[test]
fn too_many_queries_are_refused() {
    let values: Vec<String> = (0..101).map(|i| format!("'k{i}'")).collect();
    let text = format!("SELECT * FROM app WHERE PK IN [{}]", values.join(", "));
    let e = plan_with(&text, "[]").unwrap_err();
    assert!(e.message.contains("101 Queries"), "{e}");
    assert!(e.message.contains("at most 50"), "{e}");
}
