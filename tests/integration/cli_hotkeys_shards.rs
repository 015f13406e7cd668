//! Headless `hotkeys` tells write shards from ids on tables nobody here designed: 1,000
//! employees `e#1`..`e#1000` are ids (no family), and a GSI keyed `shard#1`..`shard#10` is one
//! family of ten shards that is not told to "add a write-shard suffix".

use crate::common;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use aws_sdk_dynamodb::Client;
use common::tables::{self, TableSpec};
use common::*;
use serde_json::Value;

/// A `PK`/`SK` table, with a KEYS_ONLY GSI `GSI1` on `GSI1PK`/`SK` when `gsi`.
async fn create(c: &Client, table: &str, gsi: bool) {
    let mut spec = TableSpec::pk_sk(table);
    if gsi {
        spec = spec.gsi(
            "GSI1",
            tables::s("GSI1PK"),
            Some(tables::s("SK")),
            aws_sdk_dynamodb::types::ProjectionType::KeysOnly,
        );
    }
    spec.create(c).await;
}

/// Writes `items` (attribute name → string value) 25 at a time, retrying what DynamoDB
/// returns unprocessed until nothing is left.
async fn put_all(c: &Client, table: &str, items: Vec<Vec<(&str, String)>>) {
    let requests: Vec<WriteRequest> = items
        .into_iter()
        .map(|attrs| {
            let item: HashMap<String, AttributeValue> = attrs
                .into_iter()
                .map(|(k, v)| (k.to_string(), AttributeValue::S(v)))
                .collect();
            WriteRequest::builder()
                .put_request(PutRequest::builder().set_item(Some(item)).build().unwrap())
                .build()
        })
        .collect();
    for chunk in requests.chunks(25) {
        let mut pending = HashMap::from([(table.to_string(), chunk.to_vec())]);
        while !pending.is_empty() {
            let out = c
                .batch_write_item()
                .set_request_items(Some(pending))
                .send()
                .await
                .unwrap();
            pending = out.unprocessed_items.unwrap_or_default();
            pending.retain(|_, requests| !requests.is_empty());
        }
    }
}

fn hotkeys(args: &[&str]) -> Value {
    let mut all = vec!["hotkeys"];
    all.extend_from_slice(args);
    let out = ok(run(&all));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not one JSON object ({e}): {out}"))
}

fn messages(report: &Value) -> Vec<&str> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_thousand_employees_are_ids_not_write_shards() {
    let c = client().await;
    let table = table_name("employees");
    create(&c, &table, false).await;
    let items = (1..=1000)
        .flat_map(|n| {
            ["#META", "ADDRESS", "MANAGER", "SALARY"]
                .into_iter()
                .map(move |sk| vec![("PK", format!("e#{n}")), ("SK", sk.to_string())])
        })
        .collect();
    put_all(&c, &table, items).await;

    let report = hotkeys(&[&table]);
    assert_eq!(report["total_items"], 4000, "{report}");
    assert_eq!(report["distinct_keys"], 1000, "{report}");
    assert_eq!(report["shard_families"], serde_json::json!([]), "{report}");
    assert_eq!(report["warnings"], serde_json::json!([]), "{report}");
    let text = ok(run(&["hotkeys", &table, "--output", "table"]));
    assert!(text.contains("\nshard families: none\n"), "{text}");
}

#[tokio::test]
async fn a_gsi_sharded_over_ten_keys_is_one_family_not_told_to_add_a_suffix() {
    let c = client().await;
    let table = table_name("sharded");
    create(&c, &table, true).await;
    // 600 items with ids of their own, spread round-robin over `shard#1`..`shard#10`.
    let items = (0..600)
        .map(|n| {
            vec![
                ("PK", format!("item#{n}")),
                ("SK", "#META".to_string()),
                ("GSI1PK", format!("shard#{}", n % 10 + 1)),
            ]
        })
        .collect();
    put_all(&c, &table, items).await;

    let report = hotkeys(&[&table, "--index", "GSI1"]);
    assert_eq!(report["total_items"], 600, "{report}");
    let families = report["shard_families"].as_array().unwrap();
    assert_eq!(families.len(), 1, "{report}");
    let f = &families[0];
    assert_eq!(f["prefix"], "shard#");
    assert_eq!(f["shards"], 10);
    assert_eq!(
        (&f["lowest_suffix"], &f["highest_suffix"]),
        (&1.into(), &10.into())
    );
    assert_eq!(
        (&f["items"], &f["min_items"], &f["max_items"]),
        (&600.into(), &60.into(), &60.into())
    );
    assert_eq!(f["skew"].as_f64(), Some(1.0), "{f}");
    let warnings = messages(&report);
    assert_eq!(warnings.len(), 1, "{report}");
    assert!(
        warnings[0].starts_with("low-cardinality: GSI 'GSI1'")
            && warnings[0].contains("already write-sharded: 'shard#{1..10}' spreads 600 items (100.0%) evenly over 10 shards")
            && warnings[0].contains("add shards (widen the suffix range to 1..20)")
            && !warnings[0].contains("add a write-shard suffix"),
        "{}",
        warnings[0]
    );
    let text = ok(run(&[
        "hotkeys", &table, "--index", "GSI1", "--output", "table",
    ]));
    assert!(
        text.contains("SHARD FAMILY") && text.contains("10 (1-10)"),
        "{text}"
    );
    assert!(!text.contains("add a write-shard suffix"), "{text}");

    // The table's own keys `item#0`..`item#599` are ids.
    let table_report = hotkeys(&[&table]);
    assert_eq!(
        table_report["shard_families"],
        serde_json::json!([]),
        "{table_report}"
    );
}
