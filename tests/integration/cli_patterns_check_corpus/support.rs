//! What the corpus checks share: loading a library's design with the indexes an operator adds,
//! running `patterns check` on it through a fault proxy, and the assertions every design's
//! report must pass (its verdicts, its costs against the proxy's log, the budget).

use crate::common;

use std::collections::BTreeMap;

use common::corpus::{self, design};
use common::corpus_indexes::{with_indexes, ExtraIndex};
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;
use serde_json::Value;

/// Nothing is read from the user's config: the patterns file is all.
const NO_CONFIG: &[(&str, &str)] = &[
    ("XDG_CONFIG_HOME", "/nonexistent/xdg"),
    ("HOME", "/nonexistent/home"),
];

/// Loads the design (with `extra` indexes) as a fresh table; returns its name.
pub async fn load(name: &str, extra: &[ExtraIndex<'_>]) -> String {
    let d = with_indexes(&design(name), extra);
    let table = table_name(&format!("pc-{}", name.replace('_', "-")));
    corpus::load(&d, &table).await;
    table
}

/// Loads the design (with `extra` indexes) as a fresh table and checks `patterns` on it
/// ([`check_loaded`]). Returns the report, the proxy and the table's name.
pub async fn check(
    name: &str,
    extra: &[ExtraIndex<'_>],
    patterns: &str,
    calls: &str,
    max_rcu: &str,
) -> (Value, FaultProxy, String) {
    let table = load(name, extra).await;
    let (report, proxy) = check_loaded(&table, patterns, calls, max_rcu);
    (report, proxy, table)
}

/// Writes `patterns` (with `{TABLE}` standing for `table`) to a file and runs `patterns
/// check` on the table through a fault proxy. Returns the report and the proxy.
pub fn check_loaded(
    table: &str,
    patterns: &str,
    calls: &str,
    max_rcu: &str,
) -> (Value, FaultProxy) {
    let file = std::env::temp_dir().join(format!("dynoscope-{table}.toml"));
    std::fs::write(&file, patterns.replace("{TABLE}", table)).unwrap();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
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
            calls,
            "--max-rcu",
            max_rcu,
            "--output",
            "json",
        ],
        NO_CONFIG,
    );
    let _ = std::fs::remove_file(&file);
    // Four of the five fail the check: exit 3.
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out)));
    (report, proxy)
}

pub fn pattern<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern '{name}' in {report:#}"))
}

pub fn verdicts(report: &Value) -> BTreeMap<String, String> {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["verdict"]["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn want(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// What every call reported is what DynamoDB's responses said, request by request (the
/// Queries are the calls, in pattern order; the Scans are the key samples), and the whole
/// check spent no more than `max_rcu`.
pub fn assert_costs_are_the_logs(report: &Value, proxy: &FaultProxy, max_rcu: f64) {
    let reported: Vec<f64> = report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["measured"]["calls"].as_array())
        .flatten()
        .map(|c| c["rcu"].as_f64().unwrap())
        .collect();
    let pages: u64 = report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["measured"]["pages"].as_u64())
        .sum();
    assert_eq!(pages as usize, reported.len(), "one page a call here");
    assert_eq!(reported, proxy.consumed("Query"), "{}", proxy.summary());
    let samples: f64 = proxy.consumed("Scan").iter().sum();
    assert!(
        (report["sample_rcu"].as_f64().unwrap() - samples).abs() < 1e-9,
        "{report:#}"
    );
    let spent = samples + proxy.consumed("Query").iter().sum::<f64>();
    assert!(
        (report["spent_rcu"].as_f64().unwrap() - spent).abs() < 1e-9,
        "{report:#}"
    );
    assert!(spent > 0.0 && spent <= max_rcu, "{spent} of {max_rcu}");
    // Nothing else read: no fetch-backs, no GetItem, no statement.
    for op in ["GetItem", "BatchGetItem", "ExecuteStatement"] {
        assert_eq!(proxy.requests(op), 0, "{op}: {}", proxy.summary());
    }
    // The would-be Scan of the pattern on a missing index read nothing: every Scan is a
    // one-page key sample.
    assert!(
        proxy
            .bodies("Scan")
            .iter()
            .all(|b| b.contains("\"Limit\"") && !b.contains("FilterExpression")),
        "{}",
        proxy.summary()
    );
}

pub fn assert_filter_heavy(report: &Value, name: &str, read: u64, returned: u64) {
    let m = &pattern(report, name)["measured"];
    assert_eq!(
        (m["items_read"].as_u64(), m["items_returned"].as_u64()),
        (Some(read), Some(returned)),
        "{m}"
    );
    let share = m["filter_efficiency"].as_f64().unwrap();
    assert!(share > 0.0 && share < 0.05, "{m}");
}

pub fn assert_fetch_back(report: &Value, name: &str, missing: &[&str]) {
    let p = pattern(report, name);
    assert_eq!(p["plan"]["projection"], "KEYS_ONLY", "{p}");
    assert_eq!(p["plan"]["fit"]["fit"], "needs-fetch", "{p}");
    assert_eq!(
        p["plan"]["fit"]["missing"],
        serde_json::json!(missing),
        "{p}"
    );
    assert!(p["measured"]["items_returned"].as_u64().unwrap() > 0, "{p}");
}
