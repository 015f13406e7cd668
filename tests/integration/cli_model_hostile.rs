//! `seed --model` with hostile Workbench models against DynamoDB Local, through the fault
//! proxy that counts what DynamoDB received: a second table breaking a rule only DynamoDB used
//! to check (an empty binary key, a set with a duplicate, a document nested 33 deep, an
//! attribute with an empty name, INCLUDE projections of 120 attributes) is refused whole with
//! not one request sent; and when DynamoDB refuses a later table anyway, the tables the run
//! created are deleted again, so a rerun does not find "already exists".

use crate::common::fault_proxy::{FaultConfig, FaultProxy};
use crate::common::{local, run_raw, stderr, stdout, table_name};

const KEYS: &str = r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}}"#;

fn good_table(name: &str) -> String {
    let items: Vec<String> = (0..30)
        .map(|i| format!(r#"{{"PK":{{"S":"item{i}"}}}}"#))
        .collect();
    format!(
        r#"{{"TableName":"{name}",{KEYS},"TableData":[{}]}}"#,
        items.join(",")
    )
}

fn seed(endpoint: &str, model: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.json");
    std::fs::write(&path, model).unwrap();
    run_raw(
        &[
            "--endpoint-url",
            endpoint,
            "seed",
            "--model",
            path.to_str().unwrap(),
        ],
        &[],
    )
}

#[test]
fn a_hostile_second_table_sends_nothing_at_all() {
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let first = good_table(&table_name("wb-hostile"));
    let second = table_name("wb-hostile2");
    let with = |rest: &str| format!(r#"{{"TableName":"{second}",{KEYS}{rest}}}"#);
    let item = |extra: &str| format!(r#","TableData":[{{"PK":{{"S":"a"}}{extra}}}]"#);
    let deep = format!(
        r#","d":{}{{"N":"1"}}{}"#,
        r#"{"M":{"x":"#.repeat(33),
        "}}".repeat(33)
    );
    let attrs: Vec<String> = (0..120).map(|i| format!(r#""p{i}""#)).collect();
    let include = format!(
        r#","GlobalSecondaryIndexes":[{{"IndexName":"wide","KeyAttributes":{{"PartitionKey":{{"AttributeName":"G","AttributeType":"S"}}}},"Projection":{{"ProjectionType":"INCLUDE","NonKeyAttributes":[{}]}}}}]"#,
        attrs.join(",")
    );
    let cases = [
        (
            format!(
                r#"{{"TableName":"{second}","KeyAttributes":{{"PartitionKey":{{"AttributeName":"PK","AttributeType":"B"}}}},"TableData":[{{"PK":{{"B":""}}}}]}}"#
            ),
            "is an empty binary",
        ),
        (with(&item(r#","s":{"NS":["7","7.0"]}"#)), "holds 7.0 twice"),
        (with(&item(&deep)), "more than 32 levels deep"),
        (
            with(&item(r#","":{"S":"x"}"#)),
            "an attribute with an empty name",
        ),
        (with(&include), "project 120 non-key attributes"),
    ];
    for (bad, wanted) in cases {
        let out = seed(&proxy.url, &format!(r#"{{"DataModel":[{first},{bad}]}}"#));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("DataModel[1]") && err.contains(wanted),
            "{wanted}: {err}"
        );
        assert!(stdout(&out).is_empty());
        assert!(proxy.log().is_empty(), "sent: {}", proxy.summary());
    }
}

#[test]
fn a_table_dynamodb_refuses_after_the_first_was_loaded_leaves_no_table_behind() {
    let first = table_name("wb-undo");
    let second = table_name("wb-undo2");
    let refused = r#"{"__type":"com.amazonaws.dynamodb.v20120810#LimitExceededException","message":"Subscriber limit exceeded: too many tables being created at once"}"#;
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::none().answer_when("CreateTable", &second, 400, refused),
    );
    let model = format!(
        r#"{{"DataModel":[{},{}]}}"#,
        good_table(&first),
        good_table(&second)
    );
    let out = seed(&proxy.url, &model);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("('{first}') were deleted again")),
        "{err}"
    );
    assert!(proxy.requests("BatchWriteItem") >= 1, "{}", proxy.summary());
    assert_eq!(proxy.requests("DeleteTable"), 1, "{}", proxy.summary());
    // The first table is gone: the whole model seeds cleanly once DynamoDB takes it.
    let out = seed(&local().endpoint, &model);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("loaded 30 items into '{first}'")),
        "{}",
        stderr(&out)
    );
}
