//! dynamodb-toolbox's shop (tests/corpus/toolbox_shop.mjs): customers and their orders under
//! `CUSTOMER#<id>`, order lines under `ORDER#<id>`, the overloaded `GSI1`. An operator adds a
//! KEYS_ONLY index on the customer's `email` and a GSI on the order's `status` enum (5 values),
//! both attributes the library wrote. What the check reads is worked out from the items and from
//! the same one-page sample the check takes, not written down.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope::model::design::pattern_check::sample::sample_shape;
use serde_json::Value;

use super::support::{assert_costs_are_the_logs, assert_fetch_back, assert_filter_heavy};
use super::support::{check_loaded, load, pattern, verdicts, want};
use crate::common::{self, corpus::design, corpus_indexes::ExtraIndex};

const DESIGN: &str = "toolbox_shop";
/// The orders the filter keeps: over £900.
const BIG_ORDER_CENTS: u64 = 90_000;

/// A customer's orders by one Query on the table; a support desk's lookup by name, which no
/// index serves; the customer's orders over £900, a filter on those same orders; the name and
/// tier behind an email, which the KEYS_ONLY index does not hold; orders in one status.
const TOOLBOX_PATTERNS: &str = r#"
[[pattern]]
table = "{TABLE}"
name = "orders-of-a-customer"
pk = "CUSTOMER#{customerId}"
sk = { begins_with = "ORDER#" }

[[pattern]]
table = "{TABLE}"
name = "customer-by-name"
index = "byName"
index_pk = "name"
pk = "{name}"

[[pattern]]
table = "{TABLE}"
name = "big-orders-of-a-customer"
pk = "CUSTOMER#{customerId}"
sk = { begins_with = "ORDER#" }
filter = "totalCents > 90000"

[[pattern]]
table = "{TABLE}"
name = "customer-by-email"
index = "byEmail"
pk = "{email}"
projection = "name, tier"

[[pattern]]
table = "{TABLE}"
name = "orders-in-a-status"
index = "byStatus"
pk = "{status}"
"#;

fn text<'a>(item: &'a HashMap<String, AttributeValue>, name: &str) -> &'a str {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .map(String::as_str)
        .unwrap_or_default()
}

/// The check's key sample of the table, in segment order: the first items of each segment of
/// a parallel Scan, as the check reads them (the patterns on `CUSTOMER#{customerId}` draw
/// their parameters from it, the status index's key is judged on it). Read straight from
/// DynamoDB Local, not through the check's proxy.
async fn table_sample(table: &str) -> (Vec<HashMap<String, AttributeValue>>, (u32, i32)) {
    let client = common::client().await;
    let described = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .unwrap();
    let count = described.table().and_then(|t| t.item_count()).unwrap_or(0);
    let (segments, per_segment) = sample_shape(count);
    let mut items = Vec::new();
    for segment in 0..segments as i32 {
        let mut scan = client.scan().table_name(table).limit(per_segment);
        if segments > 1 {
            scan = scan.segment(segment).total_segments(segments as i32);
        }
        let page = scan.send().await.unwrap();
        items.extend(page.items().iter().cloned());
    }
    (items, (segments, per_segment))
}

/// The customers whose orders the sample holds, in the order it read them.
fn customers_in(sample: &[HashMap<String, AttributeValue>]) -> Vec<String> {
    let mut customers: Vec<String> = Vec::new();
    for item in sample {
        let (pk, sk) = (text(item, "PK"), text(item, "SK"));
        if let (Some(id), true) = (pk.strip_prefix("CUSTOMER#"), sk.starts_with("ORDER#")) {
            if !customers.iter().any(|c| c == id) {
                customers.push(id.to_string());
            }
        }
    }
    customers
}

/// The order items the library wrote.
fn orders() -> Vec<Value> {
    design(DESIGN)
        .items
        .into_iter()
        .filter(|i| i["_et"]["S"] == "order")
        .collect()
}

#[tokio::test]
async fn toolbox_shop_patterns_get_the_verdicts_their_design_implies() {
    let extra = [
        ExtraIndex {
            name: "byEmail",
            hash: "email",
            range: None,
            projection: "KEYS_ONLY",
        },
        ExtraIndex {
            name: "byStatus",
            hash: "status",
            range: Some("placedAt"),
            projection: "ALL",
        },
    ];
    let table = load(DESIGN, &extra).await;
    // One call per customer the sample holds orders of: the customer patterns read each of
    // their orders once.
    let (sample, (segments, per_segment)) = table_sample(&table).await;
    // One call for each of the first four customers the sample holds orders of (within the
    // budget): the customer patterns read each of their orders once.
    let mut customers = customers_in(&sample);
    customers.truncate(4);
    assert!(customers.len() >= 2, "{customers:?}");
    let calls = customers.len() as u64;
    let theirs: Vec<Value> = orders()
        .into_iter()
        .filter(|o| customers.iter().any(|c| o["customerId"]["S"] == c.as_str()))
        .collect();
    let big = theirs
        .iter()
        .filter(|o| {
            o["totalCents"]["N"]
                .as_str()
                .unwrap()
                .parse::<u64>()
                .unwrap()
                > BIG_ORDER_CENTS
        })
        .count() as u64;
    let (report, proxy) = check_loaded(&table, TOOLBOX_PATTERNS, &calls.to_string(), "100");
    // The check's sample of the table is those segments: the same Scans with the same Limit,
    // and no index is sampled (the table's items hold every index's keys).
    let scans: Vec<Value> = proxy
        .bodies("Scan")
        .iter()
        .map(|b| serde_json::from_str::<Value>(b).unwrap())
        .collect();
    assert_eq!(scans.len(), segments as usize, "{}", proxy.summary());
    assert!(
        scans.iter().all(|b| b.get("IndexName").is_none()
            && b["Limit"] == per_segment
            && (segments == 1 || b["TotalSegments"] == segments)),
        "{}",
        proxy.summary()
    );
    assert_eq!(
        verdicts(&report),
        want(&[
            ("orders-of-a-customer", "served"),
            ("customer-by-name", "needs-gsi"),
            ("big-orders-of-a-customer", "filter-heavy"),
            ("customer-by-email", "fetch-back"),
            ("orders-in-a-status", "low-cardinality"),
        ]),
        "{:#}",
        pattern(&report, "orders-in-a-status")
    );

    let served = pattern(&report, "orders-of-a-customer");
    assert_eq!(served["verdict"]["text"], "served by one Query");
    let m = &served["measured"];
    assert_eq!(
        m["calls"].as_array().map(Vec::len),
        Some(calls as usize),
        "{m}"
    );
    assert_eq!(
        (m["items_read"].as_u64(), m["items_returned"].as_u64()),
        (Some(theirs.len() as u64), Some(theirs.len() as u64)),
        "{m}"
    );

    let gsi = pattern(&report, "customer-by-name");
    let said = gsi["verdict"]["text"].as_str().unwrap();
    assert!(
        said.contains(&format!("aws dynamodb update-table --table-name {table}"))
            && said.contains("\"AttributeName\":\"name\""),
        "{said}"
    );
    assert!(gsi["measured"].is_null(), "{gsi}");

    match big {
        // These customers have no big order: the filter returns nothing of what it reads.
        0 => {
            let m = &pattern(&report, "big-orders-of-a-customer")["measured"];
            assert_eq!(
                (m["items_read"].as_u64(), m["items_returned"].as_u64()),
                (Some(theirs.len() as u64), Some(0)),
                "{m}"
            );
        }
        _ => assert_filter_heavy(
            &report,
            "big-orders-of-a-customer",
            theirs.len() as u64,
            big,
        ),
    }

    assert_fetch_back(&report, "customer-by-email", &["name", "tier"]);
    // An email is one customer: each call returns one key to fetch back.
    let fetch = &pattern(&report, "customer-by-email")["measured"];
    assert_eq!(fetch["items_returned"].as_u64(), Some(calls), "{fetch}");

    // The index holds every order (each has a status): judged on the orders of the sample,
    // the hottest the first of the most frequent in name order.
    let mut statuses: BTreeMap<String, u64> = BTreeMap::new();
    for item in sample.iter().filter(|i| i.contains_key("status")) {
        *statuses
            .entry(text(item, "status").to_string())
            .or_default() += 1;
    }
    let most = *statuses.values().max().unwrap();
    let hottest = statuses.iter().find(|(_, n)| **n == most).unwrap().0;
    let risk = &pattern(&report, "orders-in-a-status")["risk"];
    assert_eq!(
        (risk["attribute"].as_str(), risk["values"].as_u64()),
        (Some("status"), Some(statuses.len() as u64)),
        "{risk}"
    );
    assert_eq!(
        risk["sampled_items"],
        statuses.values().sum::<u64>(),
        "{risk}"
    );
    assert_eq!(risk["segments"], segments, "{risk}");
    assert_eq!(risk["hottest"], hottest.as_str(), "{risk}");

    assert_costs_are_the_logs(&report, &proxy, 100.0);
}
