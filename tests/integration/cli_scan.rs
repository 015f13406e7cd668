//! Headless `scan`: parallel segments return exactly the plain scan's items, every attribute
//! type survives both output formats, and output streams.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use common::*;

fn keys(out: &str) -> Vec<(String, String)> {
    lines(out)
        .iter()
        .map(|v| {
            (
                v["PK"].as_str().unwrap().to_string(),
                v["SK"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn parallel_scans_return_exactly_the_plain_scan() {
    let table = shared_demo(60).to_string();
    let plain = keys(&ok(run(&["scan", &table])));
    let plain_set: BTreeSet<_> = plain.iter().cloned().collect();
    assert_eq!(plain.len(), plain_set.len(), "plain scan has duplicates");
    assert!(plain.len() > 300, "demo table too small: {}", plain.len());
    for segments in ["1", "4", "16"] {
        // A small page size forces many pages per segment.
        let out = run(&[
            "scan",
            &table,
            "--segments",
            segments,
            "--page-size",
            "25",
            "--stats",
        ]);
        let stats = stats(&out);
        let got = keys(&ok(out));
        let set: BTreeSet<_> = got.iter().cloned().collect();
        assert_eq!(got.len(), set.len(), "{segments} segments: duplicates");
        assert_eq!(set, plain_set, "{segments} segments: different item set");
        assert_eq!(stats["count"].as_u64().unwrap(), plain.len() as u64);
        assert_eq!(stats["scanned_count"].as_u64().unwrap(), plain.len() as u64);
        assert!(stats["pages"].as_u64().unwrap() >= (plain.len() / 25) as u64);
        assert!(stats["consumed_capacity"]["total"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn scan_limit_is_exact_across_segments() {
    let table = seeded_demo(20);
    for segments in ["1", "4"] {
        let out = ok(run(&[
            "scan",
            &table,
            "--segments",
            segments,
            "--limit",
            "33",
            "--page-size",
            "10",
        ]));
        assert_eq!(keys(&out).len(), 33, "{segments} segments");
    }
}

#[tokio::test]
async fn every_type_round_trips_through_both_formats() {
    let table = table_name("types");
    ok(run(&["seed", "--table", &table, "--users", "1"]));
    let c = client().await;
    let big = "12345678901234567890123456789012345678";
    let tiny = "-0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001";
    let item: HashMap<String, AttributeValue> = [
        ("PK", AttributeValue::S("TYPES#1".into())),
        ("SK", AttributeValue::S("ALL".into())),
        ("big", AttributeValue::N(big.into())),
        ("tiny", AttributeValue::N(tiny.into())),
        (
            "s",
            AttributeValue::S("quote\" backslash\\ tab\t nl\n esc\u{1b}[2J é 漢".into()),
        ),
        ("b", AttributeValue::B(Blob::new(vec![0u8, 1, 255, 27]))),
        ("ss", AttributeValue::Ss(vec!["x".into(), "y".into()])),
        ("ns", AttributeValue::Ns(vec!["1".into(), big.into()])),
        (
            "bs",
            AttributeValue::Bs(vec![Blob::new(vec![1u8]), Blob::new(vec![2u8, 3])]),
        ),
        (
            "m",
            AttributeValue::M(HashMap::from([(
                "inner".to_string(),
                AttributeValue::L(vec![
                    AttributeValue::Null(true),
                    AttributeValue::Bool(false),
                ]),
            )])),
        ),
        (
            "l",
            AttributeValue::L(vec![
                AttributeValue::N("3.14".into()),
                AttributeValue::S("".into()),
            ]),
        ),
        ("nul", AttributeValue::Null(true)),
        ("t", AttributeValue::Bool(true)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    c.put_item()
        .table_name(&table)
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
    let stored = c
        .get_item()
        .table_name(&table)
        .key("PK", AttributeValue::S("TYPES#1".into()))
        .key("SK", AttributeValue::S("ALL".into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();

    // ddb-jsonl: exactly what the service returned, type for type.
    let ddb = ok(run(&[
        "query",
        &table,
        "--pk",
        "TYPES#1",
        "--output",
        "ddb-jsonl",
    ]));
    let parsed: serde_json::Value = serde_json::from_str(ddb.trim()).unwrap();
    for (name, value) in &stored {
        let got = &parsed[name];
        let want = match value {
            AttributeValue::S(s) => serde_json::json!({ "S": s }),
            AttributeValue::N(n) => serde_json::json!({ "N": n }),
            AttributeValue::B(_) => serde_json::json!({ "B": "AAH/Gw==" }),
            AttributeValue::Ss(_) => serde_json::json!({ "SS": ["x", "y"] }),
            AttributeValue::Ns(v) => {
                let mut v = v.clone();
                v.sort();
                let mut g: Vec<String> = got["NS"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap().to_string())
                    .collect();
                g.sort();
                assert_eq!(g, v);
                continue;
            }
            AttributeValue::Bs(_) => serde_json::json!({ "BS": ["AQ==", "AgM="] }),
            AttributeValue::M(_) => {
                serde_json::json!({ "M": { "inner": { "L": [{ "NULL": true }, { "BOOL": false }] } } })
            }
            AttributeValue::L(_) => serde_json::json!({ "L": [{ "N": "3.14" }, { "S": "" }] }),
            AttributeValue::Null(_) => serde_json::json!({ "NULL": true }),
            AttributeValue::Bool(b) => serde_json::json!({ "BOOL": b }),
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(got, &want, "attribute {name}");
    }
    assert_eq!(parsed.as_object().unwrap().len(), stored.len());
    assert!(
        ddb.contains(&format!("\"N\":\"{big}\"")),
        "38 digits kept: {ddb}"
    );

    // jsonl: plain JSON with exact number text.
    let plain = ok(run(&[
        "query", &table, "--pk", "TYPES#1", "--output", "jsonl",
    ]));
    assert!(plain.contains(&format!("\"big\":{big}")), "{plain}");
    let stored_tiny = match &stored["tiny"] {
        AttributeValue::N(n) => n.clone(),
        _ => unreachable!(),
    };
    assert!(
        plain.contains(&format!("\"tiny\":{stored_tiny}")),
        "{plain}"
    );
    assert!(!plain.contains('\u{1b}'), "JSON output escapes ESC");
    let v: serde_json::Value = serde_json::from_str(plain.trim()).unwrap();
    assert_eq!(v["b"], "AAH/Gw==");
    assert_eq!(v["nul"], serde_json::Value::Null);
    assert_eq!(v["m"]["inner"][1], false);
    assert_eq!(v["s"], "quote\" backslash\\ tab\t nl\n esc\u{1b}[2J é 漢");

    // table: sanitised, one row.
    let table_out = ok(run(&[
        "query", &table, "--pk", "TYPES#1", "--output", "table",
    ]));
    assert!(!table_out.contains('\u{1b}'));
    assert!(table_out.contains("tab\\t nl\\n"), "{table_out}");
}

#[test]
fn output_streams_before_the_scan_ends() {
    let table = shared_demo(200).to_string();
    let mut child = Command::new(bin());
    aws_env(&mut child)
        .args([
            "--endpoint-url",
            &local().endpoint,
            "scan",
            &table,
            "--page-size",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = child.spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('{'), "{first}");
    // Thousands of one-item pages remain: the process is still reading when the first arrives.
    assert!(
        child.try_wait().unwrap().is_none(),
        "scan finished before its first line was read"
    );
    child.kill().unwrap();
    let _ = child.wait();
}
