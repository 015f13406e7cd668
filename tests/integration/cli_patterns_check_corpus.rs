//! Issue 34, `patterns check` on designs written by the modelling libraries themselves
//! (tests/integration/common/corpus.rs): ElectroDB's task manager and OneTable's arcade, each
//! with the indexes an operator adds on attributes the library writes (a KEYS_ONLY copy, a GSI
//! keyed on a status-like attribute; common/corpus_indexes.rs) and a patterns file with the
//! five shapes the primer warns about: one served by a Query, one that needs a GSI, one whose
//! filter returns under 5 % of what it reads, one on a KEYS_ONLY index that fetches back, one
//! on a low-cardinality GSI key. Each gets its verdict; every call's RCU is what the fault
//! proxy's log says DynamoDB consumed for that request; one --max-rcu holds for them all.

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

/// Loads the design (with `extra` indexes) as a fresh table, writes `patterns` (with
/// `{TABLE}` standing for its name) to a file, and runs `patterns check` through a fault
/// proxy. Returns the report, the proxy and the table's name.
async fn check(
    name: &str,
    extra: &[ExtraIndex<'_>],
    patterns: &str,
    calls: &str,
    max_rcu: &str,
) -> (Value, FaultProxy, String) {
    let d = with_indexes(&design(name), extra);
    let table = table_name(&format!("pc-{}", name.replace('_', "-")));
    corpus::load(&d, &table).await;
    let file = std::env::temp_dir().join(format!("dynoscope-{table}.toml"));
    std::fs::write(&file, patterns.replace("{TABLE}", &table)).unwrap();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "--patterns",
            file.to_str().unwrap(),
            "patterns",
            "check",
            &table,
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
    (report, proxy, table)
}

fn pattern<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pattern '{name}' in {report:#}"))
}

fn verdicts(report: &Value) -> BTreeMap<String, String> {
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

fn want(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// What every call reported is what DynamoDB's responses said, request by request (the
/// Queries are the calls, in pattern order; the Scans are the key samples), and the whole
/// check spent no more than `max_rcu`.
fn assert_costs_are_the_logs(report: &Value, proxy: &FaultProxy, max_rcu: f64) {
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

fn assert_filter_heavy(report: &Value, name: &str, read: u64, returned: u64) {
    let m = &pattern(report, name)["measured"];
    assert_eq!(
        (m["items_read"].as_u64(), m["items_returned"].as_u64()),
        (Some(read), Some(returned)),
        "{m}"
    );
    let share = m["filter_efficiency"].as_f64().unwrap();
    assert!(share > 0.0 && share < 0.05, "{m}");
}

fn assert_fetch_back(report: &Value, name: &str, missing: &[&str]) {
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

/// ElectroDB's task manager: tasks by employee on its own `gsi2` (the assignments
/// collection), an operator's KEYS_ONLY copy of it, and a GSI on the task's `status` enum.
const ELECTRODB_PATTERNS: &str = r#"
[[pattern]]
table = "{TABLE}"
name = "tasks-of-an-employee"
index = "gsi2pk-gsi2sk-index"
pk = "$task-manager#employee_{employee}"
sk = { begins_with = "$assignments#task_1" }

[[pattern]]
table = "{TABLE}"
name = "employees-in-a-team"
index = "byTeam"
index_pk = "team"
pk = "{team}"

[[pattern]]
table = "{TABLE}"
name = "big-blockers-of-an-employee"
index = "gsi2pk-gsi2sk-index"
pk = "$task-manager#employee_{employee}"
sk = { begins_with = "$assignments#task_1" }
filter = 'points = 13 AND status = "blocked"'

[[pattern]]
table = "{TABLE}"
name = "task-summaries-of-an-employee"
index = "assignments-keys"
pk = "$task-manager#employee_{employee}"
projection = "description, points"

[[pattern]]
table = "{TABLE}"
name = "tasks-in-a-status"
index = "byStatus"
pk = "{status}"
"#;

#[tokio::test]
async fn electrodb_task_manager_patterns_get_the_verdicts_their_design_implies() {
    let extra = [
        ExtraIndex {
            name: "assignments-keys",
            hash: "gsi2pk",
            range: Some("gsi2sk"),
            projection: "KEYS_ONLY",
        },
        ExtraIndex {
            name: "byStatus",
            hash: "status",
            range: Some("task"),
            projection: "ALL",
        },
    ];
    // 40 calls: each of the 40 employees once (the gsi2 sample holds all 100 of its items),
    // so the filter reads every one of the 60 tasks and returns the 2 blocked 13-pointers.
    let (report, proxy, table) = check(
        "electrodb_task_manager",
        &extra,
        ELECTRODB_PATTERNS,
        "40",
        "200",
    )
    .await;
    assert_eq!(
        verdicts(&report),
        want(&[
            ("tasks-of-an-employee", "served"),
            ("employees-in-a-team", "needs-gsi"),
            ("big-blockers-of-an-employee", "filter-heavy"),
            ("task-summaries-of-an-employee", "fetch-back"),
            ("tasks-in-a-status", "low-cardinality"),
        ])
    );
    assert_eq!(
        pattern(&report, "tasks-of-an-employee")["verdict"]["text"],
        "served by one Query"
    );
    let gsi = pattern(&report, "employees-in-a-team");
    let text = gsi["verdict"]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("aws dynamodb update-table --table-name {table}"))
            && text.contains("\"AttributeName\":\"team\""),
        "{text}"
    );
    assert!(gsi["measured"].is_null(), "{gsi}");
    assert_filter_heavy(&report, "big-blockers-of-an-employee", 60, 2);
    assert_fetch_back(
        &report,
        "task-summaries-of-an-employee",
        &["description", "points"],
    );
    let risk = &pattern(&report, "tasks-in-a-status")["risk"];
    assert_eq!(
        (risk["attribute"].as_str(), risk["values"].as_u64()),
        (Some("status"), Some(4)),
        "{risk}"
    );
    assert_eq!(risk["sampled_items"], 60, "{risk}");
    assert_eq!(risk["hottest"], "blocked", "17 of the 60 tasks: {risk}");
    assert_costs_are_the_logs(&report, &proxy, 200.0);
}

/// OneTable's arcade: scores on the table, a player's scores on its own `gs1`, a KEYS_ONLY
/// index on the player's handle, and a GSI on OneTable's `_type`.
const ONETABLE_PATTERNS: &str = r#"
[[pattern]]
table = "{TABLE}"
name = "scores-of-a-match"
pk = "match:{matchId}"
sk = { begins_with = "score:" }

[[pattern]]
table = "{TABLE}"
name = "players-in-a-country"
index = "byCountry"
index_pk = "country"
pk = "{country}"

[[pattern]]
table = "{TABLE}"
name = "near-perfect-scores-of-a-player"
index = "gs1"
pk = "player:{playerId}"
sk = { begins_with = "score#" }
filter = "points > 49000"

[[pattern]]
table = "{TABLE}"
name = "player-by-handle"
index = "byHandle"
pk = "{handle}"
projection = "rating, country"

[[pattern]]
table = "{TABLE}"
name = "items-of-a-type"
index = "byType"
pk = "{kind}"
"#;

#[tokio::test]
async fn onetable_game_patterns_get_the_verdicts_their_design_implies() {
    let extra = [
        ExtraIndex {
            name: "byHandle",
            hash: "handle",
            range: None,
            projection: "KEYS_ONLY",
        },
        ExtraIndex {
            name: "byType",
            hash: "_type",
            range: Some("created"),
            projection: "ALL",
        },
    ];
    // 17 calls: each of the 17 players with a score once, so the filter reads all 61 scores
    // and returns the 2 above 49,000.
    let (report, proxy, table) =
        check("onetable_game", &extra, ONETABLE_PATTERNS, "17", "150").await;
    assert_eq!(
        verdicts(&report),
        want(&[
            ("scores-of-a-match", "served"),
            ("players-in-a-country", "needs-gsi"),
            ("near-perfect-scores-of-a-player", "filter-heavy"),
            ("player-by-handle", "fetch-back"),
            ("items-of-a-type", "low-cardinality"),
        ])
    );
    let text = pattern(&report, "players-in-a-country")["verdict"]["text"]
        .as_str()
        .unwrap();
    assert!(
        text.contains(&format!("aws dynamodb update-table --table-name {table}"))
            && text.contains("\"AttributeName\":\"country\""),
        "{text}"
    );
    assert_filter_heavy(&report, "near-perfect-scores-of-a-player", 61, 2);
    assert_fetch_back(&report, "player-by-handle", &["rating", "country"]);
    let risk = &pattern(&report, "items-of-a-type")["risk"];
    assert_eq!(
        (risk["attribute"].as_str(), risk["values"].as_u64()),
        (Some("_type"), Some(4)),
        "{risk}"
    );
    assert_eq!(risk["hottest"], "Score", "{risk}");
    assert_costs_are_the_logs(&report, &proxy, 150.0);
}
