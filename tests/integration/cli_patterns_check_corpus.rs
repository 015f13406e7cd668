//! Issue 34, `patterns check` on designs written by the modelling libraries themselves
//! (tests/integration/common/corpus.rs): ElectroDB's task manager and OneTable's arcade here,
//! dynamodb-toolbox's shop in toolbox.rs. Each has the indexes an operator adds on attributes
//! the library writes (a KEYS_ONLY index, a GSI keyed on a status-like attribute;
//! common/corpus_indexes.rs) and a patterns file with the five shapes the primer warns about:
//! one served by a Query, one that needs a GSI, one whose filter returns under 5 % of what it
//! reads, one on a KEYS_ONLY index that fetches back, one on a low-cardinality GSI key. Each
//! gets its verdict; every call's RCU is what the fault proxy's log says DynamoDB consumed for
//! that request; one --max-rcu holds for them all. The loading, the run and those assertions
//! are shared (support.rs).

pub mod support;
mod toolbox;

use support::{assert_costs_are_the_logs, assert_fetch_back, assert_filter_heavy};
use support::{check, pattern, verdicts, want};

use crate::common::corpus_indexes::ExtraIndex;

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
