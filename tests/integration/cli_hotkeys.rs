//! Headless `hotkeys` against DynamoDB Local: the demo's hot keys are found and counted exactly
//! (checked against independent `query`/`scan` runs), write shards are grouped, parallel
//! segments change nothing, and bad inputs fail with one line.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{AttributeValue, ScalarAttributeType};
use common::tables::{self, TableSpec};
use common::*;
use serde_json::Value;

/// One demo table shared by the read-only tests of this binary.
fn demo() -> &'static str {
    shared_demo(60)
}

fn hotkeys(args: &[&str]) -> Value {
    let mut all = vec!["hotkeys"];
    all.extend_from_slice(args);
    let out = ok(run(&all));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not one JSON object ({e}): {out}"))
}

/// Items per value of `attr`, counted from a plain `scan` (of `index` when given).
fn scan_counts(table: &str, index: Option<&str>, attr: &str) -> BTreeMap<String, u64> {
    let mut args = vec!["scan", table];
    if let Some(index) = index {
        args.extend(["--index", index]);
    }
    let mut counts = BTreeMap::new();
    for item in lines(&ok(run(&args))) {
        let key = match &item[attr] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        *counts.entry(key).or_insert(0u64) += 1;
    }
    counts
}

fn top(report: &Value) -> Vec<(String, u64)> {
    report["top"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["key"].as_str().unwrap().to_string(),
                e["items"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn assert_consistent(report: &Value, counts: &BTreeMap<String, u64>) {
    let total: u64 = counts.values().sum();
    assert_eq!(report["total_items"].as_u64().unwrap(), total, "{report}");
    assert_eq!(
        report["distinct_keys"].as_u64().unwrap(),
        counts.len() as u64
    );
    assert!(report["total_bytes"].as_u64().unwrap() > total);
    let entries = report["top"].as_array().unwrap();
    for pair in entries.windows(2) {
        assert!(
            pair[0]["items"].as_u64() >= pair[1]["items"].as_u64(),
            "top is not sorted by items: {report}"
        );
    }
    for e in entries {
        let key = e["key"].as_str().unwrap();
        let items = e["items"].as_u64().unwrap();
        assert_eq!(Some(&items), counts.get(key), "items of {key}");
        let share = e["share"].as_f64().unwrap();
        assert!((share - items as f64 / total as f64).abs() < 1e-9, "{e}");
    }
    // Nothing left out of the top holds more items than its last entry.
    let last = entries.last().unwrap()["items"].as_u64().unwrap();
    let listed: BTreeSet<&str> = entries.iter().map(|e| e["key"].as_str().unwrap()).collect();
    assert!(counts
        .iter()
        .all(|(k, n)| listed.contains(k.as_str()) || *n <= last));
    // Top 1% of keys (at least one), computed independently.
    let mut sorted: Vec<u64> = counts.values().copied().collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let n = counts.len().div_ceil(100).max(1);
    let want = sorted[..n].iter().sum::<u64>() as f64 / total as f64;
    let got = report["top_one_percent_share"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-9, "top 1%: {got} != {want}");
}

fn warnings(report: &Value, rule: &str) -> Vec<String> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["rule"] == rule)
        .map(|w| w["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn celebrity_ranks_first_with_its_exact_item_count() {
    let table = demo();
    let report = hotkeys(&[table]);
    assert_eq!(report["table"], table);
    assert_eq!(report["index"], Value::Null);

    let celebrity = lines(&ok(run(&["query", table, "--pk", "USER#celebrity"]))).len() as u64;
    assert!(celebrity > 50, "celebrity has {celebrity} items");
    let top = top(&report);
    assert_eq!(top.len(), 10, "--top defaults to 10");
    assert_eq!(top[0], ("USER#celebrity".to_string(), celebrity));

    let counts = scan_counts(table, None, "PK");
    let plain_scan_items = lines(&ok(run(&["scan", table]))).len() as u64;
    assert_eq!(report["total_items"].as_u64().unwrap(), plain_scan_items);
    assert_consistent(&report, &counts);
    // Table keys (USER#u00042, ORDER#o000123, PRODUCT#p0001) are ids, not write shards.
    assert_eq!(report["shard_families"], serde_json::json!([]), "{report}");
    // The celebrity holds well under 10% of this table's items.
    assert!(warnings(&report, "low-cardinality").is_empty(), "{report}");
}

#[test]
fn gsi_shows_status_keys_and_a_low_cardinality_warning() {
    let table = demo();
    let report = hotkeys(&[table, "--index", "GSI1", "--top", "100"]);
    assert_eq!(report["index"], "GSI1");
    let counts = scan_counts(table, Some("GSI1"), "GSI1PK");
    assert_consistent(&report, &counts);
    let top = top(&report);
    assert_eq!(top.len(), counts.len(), "--top larger than the key count");
    assert!(top[0].0.starts_with("STATUS#"), "{top:?}");
    for status in ["STATUS#SHIPPED", "STATUS#DELIVERED", "STATUS#CANCELLED"] {
        assert!(top.iter().any(|(k, _)| k == status), "{status}: {top:?}");
    }
    let low = warnings(&report, "low-cardinality");
    assert_eq!(low.len(), 1, "{report}");
    assert!(low[0].contains("'GSI1'"), "{}", low[0]);
    assert!(low[0].contains(&format!("'{}'", top[0].0)), "{}", low[0]);
    assert!(
        low[0].contains(&format!("{} distinct values", counts.len())),
        "{}",
        low[0]
    );
    assert!(warnings(&report, "item-size").is_empty());
    // The GSI's key is not the table's: no item-collection rule for it.
    assert!(warnings(&report, "item-collection-size").is_empty());
}

#[test]
fn pending_shards_form_one_family_of_ten() {
    let table = demo();
    let report = hotkeys(&[table, "--index", "GSI1"]);
    let counts = scan_counts(table, Some("GSI1"), "GSI1PK");
    let shards: Vec<u64> = (0..10)
        .map(|n| counts[&format!("STATUS#PENDING#{n}")])
        .collect();
    let families = report["shard_families"].as_array().unwrap();
    assert_eq!(families.len(), 1, "{report}");
    let f = &families[0];
    assert_eq!(f["prefix"], "STATUS#PENDING#");
    assert_eq!(f["shards"], 10);
    assert_eq!(
        (f["lowest_suffix"].as_u64(), f["highest_suffix"].as_u64()),
        (Some(0), Some(9))
    );
    let items: u64 = shards.iter().sum();
    let (min, max) = (*shards.iter().min().unwrap(), *shards.iter().max().unwrap());
    assert_eq!(f["items"].as_u64(), Some(items));
    assert_eq!(f["min_items"].as_u64(), Some(min));
    assert_eq!(f["max_items"].as_u64(), Some(max));
    let mean = items as f64 / 10.0;
    assert!((f["mean_items"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!((f["skew"].as_f64().unwrap() - max as f64 / mean).abs() < 1e-9);
}

#[test]
fn segments_do_not_change_the_numbers() {
    let table = demo();
    for index in [None, Some("GSI1"), Some("LSI1")] {
        let mut base = vec![table, "--top", "25"];
        base.extend(index.iter().flat_map(|i| ["--index", *i]));
        let one = hotkeys(&[&base[..], &["--segments", "1"][..]].concat());
        let mut args = base.clone();
        args.extend(["--segments", "4", "--stats"]);
        let mut all = vec!["hotkeys"];
        all.extend_from_slice(&args);
        let out = run(&all);
        let stats = stats(&out);
        let four: Value = serde_json::from_str(&ok(out)).unwrap();
        assert_eq!(one, four, "{index:?}: 1 vs 4 segments");
        assert_eq!(stats["count"], four["total_items"], "{index:?}");
        assert!(stats["requests"].as_u64().unwrap() >= 4, "{stats}");
        assert!(stats["consumed_capacity"]["total"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn table_output_is_aligned_with_a_histogram_and_warnings() {
    let table = demo();
    let out = ok(run(&[
        "hotkeys", table, "--index", "GSI1", "--output", "table", "--top", "5",
    ]));
    assert!(!out.contains('\u{1b}'));
    for needle in [
        "GSI 'GSI1' of table",
        "partition key GSI1PK",
        "RANK",
        "ITEMS PER KEY",
        "2-9",
        "1000+",
        "STATUS#PENDING#",
        "SKEW",
        "! low-cardinality: ",
    ] {
        assert!(out.contains(needle), "{needle:?} missing:\n{out}");
    }
    // Right-aligned last column: every row of the top table ends where its rule ends.
    let block: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("RANK"))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(block.len(), 2 + 5, "{out}");
    let width = block[1].chars().count();
    assert!(block.iter().all(|l| l.chars().count() == width), "{out}");
}

/// Partition-key values with the number of items to put under each.
type KeyCounts = Vec<(AttributeValue, u32)>;

#[tokio::test]
async fn numeric_binary_and_hostile_keys_are_counted_as_text() {
    let c = client().await;
    let cases: [(ScalarAttributeType, KeyCounts, &str, u64); 3] = [
        (
            ScalarAttributeType::N,
            vec![
                (AttributeValue::N("10.50".into()), 3),
                (AttributeValue::N("-7".into()), 1),
            ],
            "10.5",
            3,
        ),
        (
            ScalarAttributeType::B,
            vec![
                (AttributeValue::B(Blob::new(vec![0u8, 1, 255])), 2),
                (AttributeValue::B(Blob::new(vec![9u8])), 1),
            ],
            "AAH/",
            2,
        ),
        (
            ScalarAttributeType::S,
            vec![
                (AttributeValue::S("EVIL\u{1b}[2J\u{202e}".into()), 4),
                (AttributeValue::S("calm".into()), 1),
            ],
            "EVIL\u{1b}[2J\u{202e}",
            4,
        ),
    ];
    for (key_type, keys, want_key, want_items) in cases {
        let table = table_name("hotkeys-types");
        TableSpec::new(&table, ("id", key_type.clone()))
            .range(tables::n("n"))
            .create(&c)
            .await;
        for (key, count) in &keys {
            for n in 0..*count {
                c.put_item()
                    .table_name(&table)
                    .item("id", key.clone())
                    .item("n", AttributeValue::N(n.to_string()))
                    .send()
                    .await
                    .unwrap();
            }
        }
        let report = hotkeys(&[&table]);
        assert_eq!(
            top(&report)[0],
            (want_key.to_string(), want_items),
            "{key_type:?}: {report}"
        );
        let text = ok(run(&["hotkeys", &table, "--output", "table"]));
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{key_type:?}: {text}"
        );
        if key_type == ScalarAttributeType::S {
            assert!(text.contains("EVIL\\x1b[2J\\u{202e}"), "{text}");
        }
    }
}

#[test]
fn bad_inputs_exit_2_with_one_line_naming_the_value() {
    let table = demo();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["hotkeys", table, "--index", "NOPE"],
            vec!["'NOPE'", "GSI1", "LSI1"],
        ),
        (
            vec!["hotkeys", table, "--segments", "0"],
            vec!["'0'", "--segments"],
        ),
        (
            vec!["hotkeys", table, "--segments", "1001"],
            vec!["'1001'", "--segments"],
        ),
        (vec!["hotkeys", table, "--top", "0"], vec!["'0'", "--top"]),
        (vec!["hotkeys", "no-such-table"], vec!["'no-such-table'"]),
        (vec!["hotkeys", table, "--output", "xml"], vec!["'xml'"]),
        (vec!["hotkeys", table, "--top", "-3"], vec!["-3"]),
    ];
    for (args, needles) in cases {
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        }
    }
}
