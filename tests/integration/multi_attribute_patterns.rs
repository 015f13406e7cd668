//! Saved patterns on multi-attribute GSIs (issue 52): `run` of a `[[pattern]]` with a template
//! per key attribute reads what `query` with `--pk` and `--sk-eq` repeated reads (itself held
//! to boto3's Query in multi_attribute_query.rs); a pattern missing a parameter, or giving
//! fewer partition templates than the index has attributes, is refused in one line before
//! any Query is sent (the fault proxy counts them); `patterns check` calls such patterns with
//! the multi-attribute Query and judges the primer's pattern 4 by the whole partition key: a
//! status enum first that the next attribute does not spread is the classic hot GSI, one
//! spread by many customers is not.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, PutRequest, ScalarAttributeType, WriteRequest,
};
use serde_json::Value;

use super::matches;
use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;

/// Nothing is read from the user's config: the patterns come from the file given.
const NO_CONFIG: &[(&str, &str)] = &[
    ("XDG_CONFIG_HOME", "/nonexistent/xdg"),
    ("HOME", "/nonexistent/home"),
];

/// `text` as a patterns file under cargo's scratch folder, `{TABLE}` standing for `table`.
fn patterns_file(table: &str, text: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{table}.patterns.toml"));
    std::fs::write(&path, text.replace("{TABLE}", table)).unwrap();
    path
}

/// `dynoscope --endpoint-url ENDPOINT --patterns FILE ARGS…` with no config file.
fn with_patterns(endpoint: &str, file: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec![
        "--endpoint-url",
        endpoint,
        "--patterns",
        file.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    run_raw(&all, NO_CONFIG)
}

const ROUND_PATTERNS: &str = r#"
[[pattern]]
table = "{TABLE}"
name = "matches-of-a-round"
index = "TournamentRegionIndex"
pk = ["{tournamentId}", "{region}"]
sk_eq = ["{round}"]
sk = { begins_with = "{bracket}" }

[[pattern]]
table = "{TABLE}"
name = "matches-of-a-tournament"
index = "TournamentRegionIndex"
pk = "{tournamentId}"
"#;

#[test]
fn run_of_a_saved_multi_attribute_pattern_reads_what_query_reads_and_refusals_send_nothing() {
    let table = matches();
    let file = patterns_file(table, ROUND_PATTERNS);
    let local = &local().endpoint;
    let ran = ok(with_patterns(
        local,
        &file,
        &[
            "run",
            "matches-of-a-round",
            "--param",
            "tournamentId=WINTER2024",
            "--param",
            "region=EU-WEST",
            "--param",
            "round=SEMIFINALS",
            "--param",
            "bracket=UP",
            "--output",
            "ddb-jsonl",
        ],
    ));
    let queried = ok(run(&[
        "query",
        table,
        "--index",
        "TournamentRegionIndex",
        "--pk",
        "WINTER2024",
        "--pk",
        "EU-WEST",
        "--sk-eq",
        "SEMIFINALS",
        "--sk-begins",
        "UP",
        "--output",
        "ddb-jsonl",
    ]));
    assert!(!lines(&queried).is_empty(), "query read nothing");
    assert_eq!(lines(&ran), lines(&queried));

    let proxy = FaultProxy::start(local, FaultConfig::none());
    #[rustfmt::skip]
    let cases: [(&[&str], &str); 2] = [
        (&["run", "matches-of-a-round", "--param", "tournamentId=WINTER2024", "--param", "round=FINAL", "--param", "bracket=UP"],
            "pattern 'matches-of-a-round' needs parameter 'region'; pass --param region=VALUE"),
        (&["run", "matches-of-a-tournament", "--param", "tournamentId=WINTER2024"],
            "pattern 'matches-of-a-tournament' gives 1 partition template but index 'TournamentRegionIndex' is keyed by tournamentId S + region S"),
    ];
    for (args, want) in cases {
        let out = with_patterns(&proxy.url, &file, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    assert_eq!(proxy.requests("Query"), 0, "{}", proxy.summary());
    let _ = std::fs::remove_file(&file);
}

/// 60 orders keyed by `orderId`: half PENDING, the rest SHIPPED or DELIVERED, in two regions,
/// of 30 customers; `StatusRegionIndex` is keyed by status + region, `StatusCustomerIndex` by
/// status + customerId, both sorted by orderDate.
async fn orders_table(endpoint: &str) -> String {
    let client = client_at(endpoint).await;
    let table = table_name("ma-orders");
    let s = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    let key = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .unwrap()
    };
    let gsi = |name: &str, second: &str| {
        GlobalSecondaryIndex::builder()
            .index_name(name)
            .key_schema(key("status", KeyType::Hash))
            .key_schema(key(second, KeyType::Hash))
            .key_schema(key("orderDate", KeyType::Range))
            .projection(
                Projection::builder()
                    .projection_type(ProjectionType::All)
                    .build(),
            )
            .build()
            .unwrap()
    };
    client
        .create_table()
        .table_name(&table)
        .billing_mode(BillingMode::PayPerRequest)
        .set_attribute_definitions(Some(
            ["orderId", "status", "region", "customerId", "orderDate"]
                .map(s)
                .to_vec(),
        ))
        .key_schema(key("orderId", KeyType::Hash))
        .global_secondary_indexes(gsi("StatusRegionIndex", "region"))
        .global_secondary_indexes(gsi("StatusCustomerIndex", "customerId"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("create {table}: {e:?}"));
    let requests: Vec<WriteRequest> = (0..60)
        .map(|i| {
            let item: HashMap<String, AttributeValue> = [
                ("orderId", format!("O{i:03}")),
                (
                    "status",
                    ["PENDING", "SHIPPED", "PENDING", "DELIVERED"][i % 4].into(),
                ),
                ("region", ["EU-WEST", "US-EAST"][(i / 4) % 2].into()),
                ("customerId", format!("C{:02}", i % 30)),
                ("orderDate", format!("2026-01-{:02}", 1 + i % 28)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), AttributeValue::S(v)))
            .collect();
            let put = PutRequest::builder().set_item(Some(item)).build().unwrap();
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    for chunk in requests.chunks(25) {
        client
            .batch_write_item()
            .request_items(&table, chunk.to_vec())
            .send()
            .await
            .unwrap();
    }
    table
}

const STATUS_PATTERNS: &str = r#"
[[pattern]]
table = "{TABLE}"
name = "orders-by-status"
index = "StatusRegionIndex"
pk = ["{status}", "{region}"]
sk = { begins_with = "2026-" }

[[pattern]]
table = "{TABLE}"
name = "orders-of-a-customer-by-status"
index = "StatusCustomerIndex"
pk = ["{status}", "{customer}"]
"#;

fn pattern<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern '{name}' in {report:#}"))
}

#[tokio::test]
async fn patterns_check_judges_a_status_first_multi_attribute_gsi_by_its_whole_key() {
    let local = &local().endpoint;
    let table = orders_table(local).await;
    let file = patterns_file(&table, STATUS_PATTERNS);
    let proxy = FaultProxy::start(local, FaultConfig::none());
    let out = with_patterns(
        &proxy.url,
        &file,
        &[
            "patterns", "check", &table, "--calls", "1", "--output", "json",
        ],
    );
    let _ = std::fs::remove_file(&file);
    // The hot one fails the check: exit 3.
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out)));

    let hot = pattern(&report, "orders-by-status");
    assert_eq!(hot["verdict"]["kind"], "low-cardinality", "{hot:#}");
    let risk = &hot["risk"];
    assert_eq!(risk["attribute"], "status + region", "{risk}");
    assert_eq!(risk["values"], 6, "{risk}");
    // What the verdict rests on: the items DynamoDB Local's segments returned of the 60.
    let sampled = risk["sampled_items"].as_u64().unwrap();
    assert!((20..=60).contains(&sampled), "{risk}");
    assert_eq!(risk["hottest"], "PENDING · EU-WEST", "{risk}");
    let text = hot["verdict"]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("takes 6 values in {sampled} sampled items"))
            && text.contains("status takes 3 values and region (2 values) does not spread them")
            && text.contains("a classic hot GSI"),
        "{text}"
    );

    let spread = pattern(&report, "orders-of-a-customer-by-status");
    assert_eq!(spread["verdict"]["kind"], "served", "{spread:#}");
    assert!(spread["risk"].is_null(), "{spread:#}");
    let basis = spread["key_sample"].as_str().unwrap_or_default();
    assert!(
        basis.starts_with("status + customerId: ") && basis.contains("no sign of few values"),
        "{basis}"
    );

    // Each pattern was called once with the multi-attribute Query, which DynamoDB answered
    // with the items of the partition drawn from the sample.
    for p in [hot, spread] {
        let calls = p["measured"]["calls"].as_array().expect("measured");
        assert_eq!(calls.len(), 1, "{p:#}");
        assert!(p["measured"]["items_returned"].as_u64() > Some(0), "{p:#}");
    }
    assert_eq!(proxy.requests("Query"), 2, "{}", proxy.summary());
}
