//! Headless `query`: every sort-key operator on S and N keys, indexes, order, limits, filters,
//! projections, the aws-cli spelling and consumed capacity, against DynamoDB Local.

use crate::common;

use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity, ScalarAttributeType};
use common::tables::{self, TableSpec};
use common::*;

/// A table with PK (S) and a numeric SK whose lexicographic order differs from numeric order.
async fn numeric_table() -> String {
    let table = table_name("num");
    create(&table, ScalarAttributeType::N).await;
    let c = client().await;
    for sk in ["1", "2", "9", "10", "11", "100", "-5", "2.5"] {
        c.put_item()
            .table_name(&table)
            .item("PK", AttributeValue::S("P".into()))
            .item("SK", AttributeValue::N(sk.into()))
            .send()
            .await
            .unwrap();
    }
    table
}

async fn string_table() -> String {
    let table = table_name("str");
    create(&table, ScalarAttributeType::S).await;
    let c = client().await;
    for sk in ["a", "ab", "abc", "b", "ba", "c"] {
        c.put_item()
            .table_name(&table)
            .item("PK", AttributeValue::S("P".into()))
            .item("SK", AttributeValue::S(sk.into()))
            .send()
            .await
            .unwrap();
    }
    table
}

async fn create(table: &str, sk_type: ScalarAttributeType) {
    TableSpec::new(table, tables::s("PK"))
        .range(("SK", sk_type))
        .create(&client().await)
        .await;
}

fn sks(out: &str) -> Vec<String> {
    lines(out)
        .iter()
        .map(|v| v["SK"].to_string().trim_matches('"').to_string())
        .collect()
}

fn demo() -> &'static str {
    shared_demo(40)
}

#[tokio::test]
async fn every_sort_key_operator_on_numbers_compares_numerically() {
    let table = numeric_table().await;
    let cases: &[(&[&str], &[&str])] = &[
        (&[], &["-5", "1", "2", "2.5", "9", "10", "11", "100"]),
        (&["--sk-eq", "10"], &["10"]),
        (&["--sk-lt", "10"], &["-5", "1", "2", "2.5", "9"]),
        (&["--sk-le", "10"], &["-5", "1", "2", "2.5", "9", "10"]),
        (&["--sk-gt", "9"], &["10", "11", "100"]),
        (&["--sk-ge", "9"], &["9", "10", "11", "100"]),
        (&["--sk-between", "2", "10"], &["2", "2.5", "9", "10"]),
        (
            &["--sk-between", "-10", "1e1"],
            &["-5", "1", "2", "2.5", "9", "10"],
        ),
    ];
    for (args, want) in cases {
        let mut full = vec!["query", table.as_str(), "--pk", "P"];
        full.extend_from_slice(args);
        assert_eq!(sks(&ok(run(&full))), *want, "{args:?}");
    }
}

#[tokio::test]
async fn every_sort_key_operator_on_strings() {
    let table = string_table().await;
    let cases: &[(&[&str], &[&str])] = &[
        (&["--sk-eq", "ab"], &["ab"]),
        (&["--sk-lt", "b"], &["a", "ab", "abc"]),
        (&["--sk-le", "b"], &["a", "ab", "abc", "b"]),
        (&["--sk-gt", "b"], &["ba", "c"]),
        (&["--sk-ge", "b"], &["b", "ba", "c"]),
        (&["--sk-between", "ab", "b"], &["ab", "abc", "b"]),
        (&["--sk-begins", "ab"], &["ab", "abc"]),
        (&["--sk-begins", "a", "--desc"], &["abc", "ab", "a"]),
    ];
    for (args, want) in cases {
        let mut full = vec!["query", table.as_str(), "--pk", "P"];
        full.extend_from_slice(args);
        assert_eq!(sks(&ok(run(&full))), *want, "{args:?}");
    }
}

#[tokio::test]
async fn gsi_and_lsi_queries() {
    let table = demo();
    let shipped = lines(&ok(run(&[
        "query",
        table,
        "--index",
        "GSI1",
        "--pk",
        "STATUS#SHIPPED",
        "--sk-begins",
        "2026-",
    ])));
    assert!(!shipped.is_empty());
    for item in &shipped {
        assert_eq!(item["GSI1PK"], "STATUS#SHIPPED");
        assert!(item["GSI1SK"].as_str().unwrap().starts_with("2026-"));
    }
    let books = lines(&ok(run(&[
        "query",
        table,
        "--index-name",
        "GSI1",
        "--pk",
        "CATEGORY#books",
    ])));
    assert_eq!(books.len(), 20, "120 products over 6 categories");
    // LSI1SK is the order total in cents (a number): a numeric range on the celebrity's orders.
    let out = ok(run(&[
        "query",
        table,
        "--index",
        "LSI1",
        "--pk",
        "USER#celebrity",
        "--sk-between",
        "1000",
        "5000",
    ]));
    let cents: Vec<u64> = lines(&out)
        .iter()
        .map(|v| v["LSI1SK"].as_u64().unwrap())
        .collect();
    assert!(!cents.is_empty());
    assert!(
        cents.windows(2).all(|w| w[0] <= w[1]),
        "LSI order is numeric: {cents:?}"
    );
    assert!(cents.iter().all(|c| (1000..=5000).contains(c)));
}

#[tokio::test]
async fn descending_order_and_limit_across_pages() {
    let table = demo();
    let out = run(&[
        "query",
        table,
        "--pk",
        "USER#celebrity",
        "--sk-begins",
        "ORDER#",
        "--desc",
        "--limit",
        "7",
        "--page-size",
        "3",
        "--stats",
    ]);
    let stats = stats(&out);
    let orders = sks(&ok(out));
    assert_eq!(orders.len(), 7);
    let mut sorted = orders.clone();
    sorted.sort();
    sorted.reverse();
    assert_eq!(orders, sorted, "newest first");
    assert_eq!(stats["pages"], 3, "{stats}");
    assert_eq!(stats["count"], 7, "{stats}");
}

#[tokio::test]
async fn filter_reads_more_than_it_returns_and_projection_trims() {
    let table = demo();
    let out = run(&[
        "query",
        table,
        "--pk",
        "USER#celebrity",
        "--sk-begins",
        "ORDER#",
        "--filter",
        "#s = :s",
        "--names",
        r##"{"#s":"status"}"##,
        "--values",
        r#"{":s":"SHIPPED"}"#,
        "--projection",
        "SK, #s",
        "--stats",
    ]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    assert!(!items.is_empty());
    for item in &items {
        assert_eq!(item["status"], "SHIPPED");
        let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["SK", "status"],
            "projection keeps only SK and status"
        );
    }
    assert_eq!(stats["count"].as_u64().unwrap(), items.len() as u64);
    assert!(
        stats["scanned_count"].as_u64().unwrap() > stats["count"].as_u64().unwrap(),
        "{stats}"
    );
}

#[tokio::test]
async fn aws_cli_spelling_matches_the_short_form() {
    let table = demo();
    let short = ok(run(&[
        "query",
        table,
        "--pk",
        "USER#u00003",
        "--sk-begins",
        "ORDER#",
    ]));
    let cli = ok(run(&[
        "query",
        table,
        "--key-condition-expression",
        "PK = :pk AND begins_with(SK, :sk)",
        "--expression-attribute-values",
        r#"{":pk":{"S":"USER#u00003"},":sk":{"S":"ORDER#"}}"#,
    ]));
    assert_eq!(short, cli);
    let named = ok(run(&[
        "query",
        table,
        "--key-condition-expression",
        "#p = :pk AND begins_with(#k, :sk)",
        "--expression-attribute-names",
        r##"{"#p":"PK","#k":"SK"}"##,
        "--expression-attribute-values",
        r#"{":pk":{"S":"USER#u00003"},":sk":{"S":"ORDER#"}}"#,
    ]));
    assert_eq!(short, named);
}

#[tokio::test]
async fn consumed_capacity_sums_equal_what_dynamodb_reports() {
    let table = demo();
    let out = run(&[
        "query",
        table,
        "--index",
        "GSI1",
        "--pk",
        "STATUS#SHIPPED",
        "--page-size",
        "7",
        "--stats",
    ]);
    let stats = stats(&out);
    ok(out);
    // The same pages read directly with the SDK.
    let c = client().await;
    let (mut total, mut gsi, mut pages) = (0.0, 0.0, 0);
    let mut start = None;
    loop {
        let page = c
            .query()
            .table_name(table)
            .index_name("GSI1")
            .key_condition_expression("GSI1PK = :p")
            .expression_attribute_values(":p", AttributeValue::S("STATUS#SHIPPED".into()))
            .limit(7)
            .set_exclusive_start_key(start)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .unwrap();
        let cc = page.consumed_capacity.unwrap();
        total += cc.capacity_units.unwrap();
        gsi += cc.global_secondary_indexes.unwrap()["GSI1"]
            .capacity_units
            .unwrap();
        pages += 1;
        start = page.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    assert!(total > 0.0);
    assert_eq!(stats["pages"], pages, "{stats}");
    assert_eq!(
        stats["consumed_capacity"]["total"].as_f64().unwrap(),
        total,
        "{stats}"
    );
    assert_eq!(
        stats["consumed_capacity"]["indexes"]["GSI1"]
            .as_f64()
            .unwrap(),
        gsi,
        "{stats}"
    );
    assert!(stats["attempts"].as_u64().unwrap() >= pages, "{stats}");
}
