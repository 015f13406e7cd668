use crate::formats::workbench::parse_model;

const KEYS: &str = r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"},"SortKey":{"AttributeName":"SK","AttributeType":"S"}}"#;

fn table(name: &str, rest: &str) -> String {
    format!(r#"{{"TableName":"{name}",{KEYS}{rest}}}"#)
}

fn model(tables: &[String]) -> String {
    format!(r#"{{"DataModel":[{}]}}"#, tables.join(","))
}

fn item(pk: &str, extra: &str) -> String {
    format!(r#"{{"PK":{{"S":"{pk}"}},"SK":{{"S":"x"}}{extra}}}"#)
}

fn error(text: &str) -> String {
    parse_model(text, "m.json").unwrap_err().to_string()
}

/// Every table checked before any is created: a bad second table refuses the whole model.
#[test]
fn a_model_breaking_a_dynamodb_rule_anywhere_is_refused_whole() {
    let good = table("orders", &format!(r#","TableData":[{}]"#, item("a", "")));
    let big = "x".repeat(500 * 1024);
    let cases = [
        (
            model(&[good.clone(), table("bad name!", "")]),
            "DataModel[1]: table name 'bad name!' is not one DynamoDB accepts; rename it",
        ),
        (
            model(&[good.clone(), table("x; rm -rf ~", "")]),
            "table name 'x; rm -rf ~' is not one DynamoDB accepts",
        ),
        (model(&[table("ab", "")]), "table name 'ab'"),
        (
            model(&[
                good.clone(),
                table(
                    "second",
                    &format!(
                        r#","TableData":[{},{}]"#,
                        item("a", ""),
                        item("b", &format!(r#","blob":{{"S":"{big}"}}"#))
                    ),
                ),
            ]),
            "DataModel[1] ('second').TableData[1] is 512010 bytes by DynamoDB's item size rules, over its 409600-byte (400 KB) limit",
        ),
        (
            model(&[table(
                "orders",
                &format!(r#","TableData":[{}]"#, item(&"k".repeat(2049), "")),
            )]),
            "its partition key 'PK' is 2049 bytes; DynamoDB takes at most 2048",
        ),
        (
            model(&[table(
                "orders",
                r#","GlobalSecondaryIndexes":[{"IndexName":"by status","KeyAttributes":{"PartitionKey":{"AttributeName":"s","AttributeType":"S"}}}]"#,
            )]),
            "GlobalSecondaryIndexes[0]: index name 'by status' is not one DynamoDB accepts",
        ),
        (
            model(&[table(
                "orders",
                r#","LocalSecondaryIndexes":[{"IndexName":"l"}]"#,
            )]),
            "LocalSecondaryIndexes[0]: index name 'l' is not one DynamoDB accepts",
        ),
        (
            model(&[format!(
                r#"{{"TableName":"orders","KeyAttributes":{{"PartitionKey":{{"AttributeName":"{}","AttributeType":"S"}}}}}}"#,
                "a".repeat(256)
            )]),
            "is 256 bytes; DynamoDB takes 1 to 255",
        ),
    ];
    for (text, wanted) in cases {
        let err = error(&text);
        assert!(err.contains(wanted), "{err}\nwanted: {wanted}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.len() < 700, "one short line: {err}");
    }
}

#[test]
fn twenty_one_indexes_are_one_too_many_and_400_kb_fits() {
    let gsi = |i: usize| {
        format!(
            r#"{{"IndexName":"gsi{i}","KeyAttributes":{{"PartitionKey":{{"AttributeName":"g{i}","AttributeType":"S"}}}}}}"#
        )
    };
    let list = |n: usize| (0..n).map(gsi).collect::<Vec<_>>().join(",");
    let text = model(&[table(
        "orders",
        &format!(r#","GlobalSecondaryIndexes":[{}]"#, list(21)),
    )]);
    assert!(error(&text).contains("has 21 GlobalSecondaryIndexes; DynamoDB allows 20 per table"));
    let text = model(&[table(
        "orders",
        &format!(r#","GlobalSecondaryIndexes":[{}]"#, list(20)),
    )]);
    assert!(parse_model(&text, "m.json").is_ok());
    // PK (2+1) + SK (2+1) + "blob" (4) + the value: exactly the limit is accepted.
    let fill = "x".repeat(400 * 1024 - 10);
    let text = model(&[table(
        "orders",
        &format!(
            r#","TableData":[{}]"#,
            item("a", &format!(r#","blob":{{"S":"{fill}"}}"#))
        ),
    )]);
    parse_model(&text, "m.json").unwrap_or_else(|e| panic!("{e}"));
}

/// The rest of what DynamoDB checks, each in a second table after a good first one: an empty
/// binary key, a set holding a member twice (numbers by value) or nothing, a document nested
/// past 32 levels, an attribute with an empty name, and INCLUDE projections naming more than
/// 100 non-key attributes over the table's indexes.
#[test]
fn every_value_and_projection_dynamodb_refuses_is_refused_before_anything_is_created() {
    let good = table("orders", &format!(r#","TableData":[{}]"#, item("a", "")));
    let data = |extra: &str| format!(r#","TableData":[{}]"#, item("b", extra));
    let deep = format!(
        r#","doc":{}{{"S":"x"}}{}"#,
        r#"{"L":["#.repeat(33),
        "]}".repeat(33)
    );
    let attrs: Vec<String> = (0..120).map(|i| format!(r#""a{i}""#)).collect();
    let gsi = |name: &str, attrs: &[String]| {
        format!(
            r#"{{"IndexName":"{name}","KeyAttributes":{{"PartitionKey":{{"AttributeName":"G","AttributeType":"S"}}}},"Projection":{{"ProjectionType":"INCLUDE","NonKeyAttributes":[{}]}}}}"#,
            attrs.join(",")
        )
    };
    let binary_keys =
        r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"B"}}"#;
    let cases = [
        (
            format!(r#"{{"TableName":"second",{binary_keys},"TableData":[{{"PK":{{"B":""}}}}]}}"#),
            "key attribute 'PK' is an empty binary",
        ),
        (
            table("second", &data(r#","tags":{"SS":["a","b","a"]}"#)),
            "the SS 'tags' holds 'a' twice",
        ),
        (
            table("second", &data(r#","n":{"NS":["1","1.0"]}"#)),
            "the NS 'n' holds",
        ),
        (
            table("second", &data(r#","n":{"NS":[]}"#)),
            "a set cannot be empty",
        ),
        (table("second", &data(&deep)), "more than 32 levels deep"),
        (
            table("second", &data(r#","":{"S":"v"}"#)),
            "an attribute with an empty name",
        ),
        (
            table(
                "second",
                &format!(
                    r#","GlobalSecondaryIndexes":[{},{}]"#,
                    gsi("one", &attrs[..60]),
                    gsi("two", &attrs[60..])
                ),
            ),
            "project 120 non-key attributes (60 in 'one', 60 in 'two'); DynamoDB allows 100",
        ),
    ];
    for (second, wanted) in cases {
        let err = error(&model(&[good.clone(), second]));
        assert!(
            err.contains("DataModel[1]") && err.contains(wanted),
            "{wanted}: {err}"
        );
    }
    // At the limits: 32 levels and 100 projected attributes are taken.
    let deep_ok = format!(
        r#","doc":{}{{"S":"x"}}{}"#,
        r#"{"L":["#.repeat(32),
        "]}".repeat(32)
    );
    let ok = table(
        "second",
        &format!(
            r#","GlobalSecondaryIndexes":[{}],"TableData":[{}]"#,
            gsi("one", &attrs[..100]),
            item("b", &deep_ok)
        ),
    );
    parse_model(&model(&[good, ok]), "m.json").unwrap();
}

/// Every attribute of a GSI key is bounded like the table's key on its side (DynamoDB refuses
/// the write otherwise): `seed --model` would stop half-way on such an item, so the model is
/// refused whole, naming the index and the attribute. Here the second sort attribute of a
/// multi-attribute GSI, which only the first was read for before.
#[test]
fn an_oversize_attribute_of_a_gsi_key_is_refused_before_anything_is_created() {
    let gsi = r#","GlobalSecondaryIndexes":[{"IndexName":"TournamentRegionIndex","KeyAttributes":{"PartitionKey":[{"AttributeName":"t","AttributeType":"S"},{"AttributeName":"r","AttributeType":"S"}],"SortKey":[{"AttributeName":"round","AttributeType":"S"},{"AttributeName":"bracket","AttributeType":"S"}]}}]"#;
    let data = |bracket: &str| {
        let extra = format!(
            r#","t":{{"S":"W"}},"r":{{"S":"EU"}},"round":{{"S":"F"}},"bracket":{{"S":"{bracket}"}}"#
        );
        format!(r#"{gsi},"TableData":[{}]"#, item("a", &extra))
    };
    assert!(parse_model(
        &model(&[table("matches", &data(&"b".repeat(1024)))]),
        "m.json"
    )
    .is_ok());
    let e = error(&model(&[table("matches", &data(&"b".repeat(1025)))]));
    assert!(
        e.contains(
            "'bracket' of index 'TournamentRegionIndex' is 1025 bytes; DynamoDB takes at most 1024"
        ),
        "{e}"
    );
}
