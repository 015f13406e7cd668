//! Access patterns (`run`) and write-sharded fan-out (`--pk-shards`) against DynamoDB Local.

use crate::common;

use std::collections::BTreeSet;

use common::*;

const PATTERNS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo-patterns.toml");

fn demo() -> &'static str {
    shared_demo(80)
}

fn run_pattern(name: &str, params: &[&str], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--patterns", PATTERNS, "run", name, "--table", demo()];
    for p in params {
        args.push("--param");
        args.push(p);
    }
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn each_demo_pattern_matches_its_hand_written_query() {
    let t = demo();
    let cases: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        (
            "user-by-id",
            vec!["userId=u00007"],
            vec!["query", t, "--pk", "USER#u00007", "--sk-eq", "PROFILE"],
        ),
        (
            "user-orders",
            vec!["userId=celebrity"],
            vec![
                "query",
                t,
                "--pk",
                "USER#celebrity",
                "--sk-begins",
                "ORDER#",
                "--desc",
            ],
        ),
        (
            "order-with-lines",
            vec!["orderId=o000003"],
            vec!["query", t, "--pk", "ORDER#o000003"],
        ),
        (
            "orders-by-status",
            vec!["status=SHIPPED", "month=2026-0"],
            vec![
                "query",
                t,
                "--index",
                "GSI1",
                "--pk",
                "STATUS#SHIPPED",
                "--sk-begins",
                "2026-0",
                "--desc",
            ],
        ),
        (
            "products-in-category",
            vec!["category=games"],
            vec!["query", t, "--index", "GSI1", "--pk", "CATEGORY#games"],
        ),
    ];
    for (name, params, query) in cases {
        let got = ok(run_pattern(name, &params, &[]));
        let want = ok(run(&query));
        assert!(
            !want.is_empty(),
            "{name}: the equivalent query returned nothing"
        );
        assert_eq!(got, want, "{name}");
    }
}

fn gsi1sk(line: &serde_json::Value) -> String {
    line["GSI1SK"].as_str().unwrap().to_string()
}

#[test]
fn sharded_fan_out_merges_every_shard_in_order() {
    let t = demo();
    // Each shard on its own: the expected set.
    let mut expected = BTreeSet::new();
    for shard in 0..10 {
        for item in lines(&ok(run(&[
            "query",
            t,
            "--index",
            "GSI1",
            "--pk",
            &format!("STATUS#PENDING#{shard}"),
        ]))) {
            expected.insert((
                item["PK"].as_str().unwrap().to_string(),
                item["SK"].as_str().unwrap().to_string(),
            ));
        }
    }
    assert!(
        expected.len() > 20,
        "too few pending orders: {}",
        expected.len()
    );
    let out = run(&[
        "query",
        t,
        "--index",
        "GSI1",
        "--pk",
        "STATUS#PENDING#{shard}",
        "--pk-shards",
        "0..9",
        "--desc",
        "--stats",
    ]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    let got: BTreeSet<_> = items
        .iter()
        .map(|i| {
            (
                i["PK"].as_str().unwrap().to_string(),
                i["SK"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(items.len(), got.len(), "duplicates in the merge");
    assert_eq!(got, expected, "exact item set");
    let keys: Vec<String> = items.iter().map(gsi1sk).collect();
    assert!(keys.windows(2).all(|w| w[0] >= w[1]), "merged newest first");
    assert!(
        stats["requests"].as_u64().unwrap() >= 10,
        "one request per shard: {stats}"
    );

    // The pattern does the same, and --limit keeps the newest across all shards.
    let limited = lines(&ok(run_pattern("pending-orders", &[], &["--limit", "5"])));
    assert_eq!(limited.len(), 5);
    assert_eq!(
        limited.iter().map(gsi1sk).collect::<Vec<_>>(),
        keys[..5].to_vec()
    );
}

#[test]
fn pattern_and_shard_errors_name_the_fix() {
    let t = demo();
    let cases: Vec<(std::process::Output, Vec<&str>)> = vec![
        (
            run_pattern("orders-by-status", &["status=SHIPPED"], &[]),
            vec!["'month'", "--param month=VALUE"],
        ),
        (
            run_pattern("no-such", &[], &[]),
            vec!["'no-such'", "user-by-id"],
        ),
        (
            run_pattern("user-by-id", &["userId"], &[]),
            vec!["'userId'", "NAME=VALUE"],
        ),
        (
            run_pattern("user-by-id", &["userId=1", "userId=2"], &[]),
            vec!["--param 'userId' is given twice ('1' and '2'); pass it once"],
        ),
        (
            run(&["query", t, "--pk", "X#{shard}", "--pk-shards", "9..1"]),
            vec!["'9..1'"],
        ),
        (
            run(&["query", t, "--pk", "X", "--pk-shards", "0..3"]),
            vec!["'X'", "{shard}"],
        ),
        (
            run(&["--patterns", "/nonexistent/p.toml", "run", "x"]),
            vec!["'/nonexistent/p.toml'"],
        ),
    ];
    for (out, needles) in cases {
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for n in needles {
            assert!(err.contains(n), "{err:?} lacks {n:?}");
        }
    }
}
