//! Issue 50, `patterns check` judging what its sample can support and going on past a refusal:
//! a GSI keyed by customer (40 customers of 60 orders) is not called low-cardinality from the
//! one partition a Scan returns first, the verdict says what it rests on; a pattern DynamoDB
//! refuses (a filter on a key attribute) fails by name with DynamoDB's reason while the others
//! are checked, and the exit code says something failed.

use std::collections::HashMap;
use std::path::Path;

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use serde_json::Value;

use crate::common::fault_proxy::{FaultConfig, FaultProxy};
use crate::common::tables::{s, TableSpec};
use crate::common::*;

const NO_CONFIG: &[(&str, &str)] = &[
    ("XDG_CONFIG_HOME", "/nonexistent/xdg"),
    ("HOME", "/nonexistent/home"),
];

/// 40 customers of 60 orders each, every order under its customer on GSI1.
async fn customers_table(endpoint: &str) -> String {
    let client = client_at(endpoint).await;
    let table = table_name("pc-spread");
    TableSpec::pk_sk(&table)
        .gsi(
            "GSI1",
            s("GSI1PK"),
            Some(s("GSI1SK")),
            aws_sdk_dynamodb::types::ProjectionType::All,
        )
        .create(&client)
        .await;
    let mut requests = Vec::new();
    for c in 0..40 {
        for o in 0..60 {
            let item: HashMap<String, AttributeValue> = [
                ("PK", format!("ORDER#{c:03}-{o:03}")),
                ("SK", "ORDER".to_string()),
                ("GSI1PK", format!("CUSTOMER#{c:03}")),
                ("GSI1SK", format!("ORDER#{o:03}")),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), AttributeValue::S(v)))
            .collect();
            let put = PutRequest::builder().set_item(Some(item)).build().unwrap();
            requests.push(WriteRequest::builder().put_request(put).build());
        }
    }
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

/// `patterns check TABLE --output json` with `patterns` (`{TABLE}` standing for the table)
/// through a proxy of `endpoint`.
fn check(endpoint: &str, table: &str, patterns: &str) -> std::process::Output {
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{table}.toml"));
    std::fs::write(&file, patterns.replace("{TABLE}", table)).unwrap();
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "--patterns",
            file.to_str().unwrap(),
            "patterns",
            "check",
            table,
            "--calls",
            "1",
            "--output",
            "json",
        ],
        NO_CONFIG,
    );
    let _ = std::fs::remove_file(&file);
    out
}

fn report(out: &std::process::Output) -> Value {
    serde_json::from_str(&stdout(out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(out), stderr(out)))
}

fn pattern<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern '{name}' in {report:#}"))
}

#[tokio::test]
async fn a_gsi_keyed_by_customer_is_not_judged_from_the_first_partition_a_scan_returns() {
    let endpoint = &local().endpoint;
    let table = customers_table(endpoint).await;
    let out = check(
        endpoint,
        &table,
        r#"
[[pattern]]
table = "{TABLE}"
name = "orders-of-a-customer"
index = "GSI1"
pk = "CUSTOMER#{customer}"
sk = { begins_with = "ORDER#" }
"#,
    );
    let report = report(&out);
    let p = pattern(&report, "orders-of-a-customer");
    assert_eq!(p["verdict"]["kind"], "served", "{p:#}");
    assert!(p["risk"].is_null(), "{p:#}");
    // What the judgement rests on: items and segments of the sample.
    let basis = p["key_sample"].as_str().unwrap_or_default();
    assert!(
        basis.contains("no sign of few values") && basis.contains("of 16 scan segments"),
        "{basis}"
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[tokio::test]
async fn a_pattern_dynamodb_refuses_fails_by_name_and_the_others_are_checked() {
    let endpoint = &local().endpoint;
    let table = customers_table(endpoint).await;
    let out = check(
        endpoint,
        &table,
        r#"
[[pattern]]
table = "{TABLE}"
name = "orders-filtered-on-their-key"
index = "GSI1"
pk = "CUSTOMER#{customer}"
filter = 'GSI1SK = "ORDER#001"'

[[pattern]]
table = "{TABLE}"
name = "orders-of-a-customer"
index = "GSI1"
pk = "CUSTOMER#{customer}"
sk = { begins_with = "ORDER#" }
"#,
    );
    // Something failed: exit 3, the report on stdout, the refused pattern named.
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report = report(&out);
    let refused = pattern(&report, "orders-filtered-on-their-key");
    assert_eq!(refused["verdict"]["kind"], "refused", "{refused:#}");
    let why = refused["verdict"]["text"].as_str().unwrap();
    assert!(
        why.contains("primary key") || why.contains("key attribute"),
        "{why}"
    );
    let served = pattern(&report, "orders-of-a-customer");
    assert_eq!(served["verdict"]["kind"], "served", "{served:#}");
    assert_eq!(
        served["measured"]["calls"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        report["failed"],
        serde_json::json!(["orders-filtered-on-their-key"])
    );
    let last = stderr(&out).lines().last().unwrap_or_default().to_string();
    assert!(last.contains("orders-filtered-on-their-key"), "{last}");
}
