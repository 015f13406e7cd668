//! Multi-attribute keys (issue 52): the `matches` table, whose GSIs have up to four partition
//! and four sort attributes, created and loaded by boto3 (multi_attribute/boto3_matches.py).
//! `describe` lists every key attribute in order; `clone` and `seed --model` create the same
//! schema (boto3's describe_table as the oracle); an endpoint that refuses such a schema is
//! named with the version needed; a path that does not read such keys yet refuses before it
//! sends anything (the fault proxy counts what DynamoDB received).

use std::path::Path;
use std::sync::OnceLock;

use serde_json::{json, Value};

use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;

// In this module, so its tests share the module's DynamoDB Local and its `matches` table.
#[path = "multi_attribute_query.rs"]
mod query;

#[path = "multi_attribute_patterns.rs"]
mod patterns;

pub(crate) fn boto3(endpoint: &str, table: &str, args: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/multi_attribute/boto3_matches.py");
    let out = common::pyfork::python()
        .arg(script)
        .args([endpoint, table])
        .args(args)
        .env_remove("AWS_PROFILE")
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "boto3 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `matches` table on the shared DynamoDB Local, created and loaded once.
pub(crate) fn matches() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table = table_name("matches");
        boto3(&local().endpoint, &table, &["setup"]);
        table
    })
}

fn attrs(keys: &Value, side: &str) -> Vec<String> {
    keys[side]
        .as_array()
        .unwrap_or_else(|| panic!("no {side} list in {keys}"))
        .iter()
        .map(|k| {
            format!(
                "{} {}",
                k["name"].as_str().unwrap(),
                k["type"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn describe_lists_every_key_attribute_in_order() {
    let described: Value = serde_json::from_str(&ok(run(&["describe", matches()]))).unwrap();
    assert_eq!(attrs(&described["keys"], "partition"), ["matchId S"]);
    assert!(attrs(&described["keys"], "sort").is_empty());
    let index = |name: &str| {
        described["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {described}"))
            .clone()
    };
    let tournament = index("TournamentRegionIndex");
    assert_eq!(
        attrs(&tournament["keys"], "partition"),
        ["tournamentId S", "region S"]
    );
    assert_eq!(
        attrs(&tournament["keys"], "sort"),
        ["round S", "bracket S", "matchId S"]
    );
    let seed = index("SeedIndex");
    assert_eq!(
        attrs(&seed["keys"], "partition"),
        ["tournamentId S", "seedGroup N"]
    );
    assert_eq!(attrs(&seed["keys"], "sort"), ["rating N", "token B"]);
}

#[test]
fn clone_creates_the_same_multi_attribute_schema() {
    let source = &local().endpoint;
    let copy = format!("{}-copy", matches());
    let out = run(&[
        "clone",
        matches(),
        "--to-endpoint",
        source,
        "--to-table",
        &copy,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let want = boto3(source, matches(), &["indexes"]);
    assert!(want.contains("\"region\", \"HASH\""), "{want}");
    assert_eq!(boto3(source, &copy, &["indexes"]), want);
}

/// What DynamoDB Local before 3.3.0 answers a CreateTable with several HASH or RANGE elements.
const TOO_BIG: &str = r#"{"__type":"com.amazon.coral.validate#ValidationException","message":"One or more parameter values were invalid: Key Schema too big"}"#;

#[test]
fn an_endpoint_without_multi_attribute_keys_is_named_with_the_version_needed() {
    let local = &local().endpoint;
    let old = FaultProxy::start(
        local,
        FaultConfig::none().answer("CreateTable", 400, TOO_BIG),
    );
    let copy = format!("{}-old", matches());
    let out = run(&[
        "clone",
        matches(),
        "--to-endpoint",
        &old.url,
        "--to-table",
        &copy,
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is keyed by")
            && err.contains("refuses multi-attribute keys ('Key Schema too big')")
            && err.contains("DynamoDB Local 3.3.0 or later"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(old.requests("BatchWriteItem") + old.requests("PutItem"), 0);

    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("matches.json");
    std::fs::write(&model, workbench_model(&table_name("seeded")).to_string()).unwrap();
    let out = run_at(&old.url, &["seed", "--model", model.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("DynamoDB Local 3.3.0 or later"), "{err}");
}

/// A NoSQL Workbench model whose GSI lists several partition and sort attributes.
fn workbench_model(table: &str) -> Value {
    let s = |name: &str| json!({"AttributeName": name, "AttributeType": "S"});
    json!({
        "ModelName": "matches",
        "DataModel": [{
            "TableName": table,
            "KeyAttributes": {"PartitionKey": s("matchId")},
            "GlobalSecondaryIndexes": [{
                "IndexName": "TournamentRegionIndex",
                "KeyAttributes": {
                    "PartitionKey": [s("tournamentId"), s("region")],
                    "SortKey": [s("round"), s("bracket")]
                },
                "Projection": {"ProjectionType": "ALL"}
            }],
            "TableData": [
                {"matchId": {"S": "M1"}, "tournamentId": {"S": "WINTER2024"},
                 "region": {"S": "EU-WEST"}, "round": {"S": "FINAL"}, "bracket": {"S": "UPPER"}},
                {"matchId": {"S": "M2"}, "tournamentId": {"S": "WINTER2024"}}
            ]
        }]
    })
}

#[test]
fn seed_model_creates_a_multi_attribute_gsi_as_the_model_lists_it() {
    let table = table_name("seeded");
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("matches.json");
    std::fs::write(&model, workbench_model(&table).to_string()).unwrap();
    ok(run(&["seed", "--model", model.to_str().unwrap()]));
    let shape: Value =
        serde_json::from_str(&boto3(&local().endpoint, &table, &["indexes"])).unwrap();
    assert_eq!(
        shape["GSI TournamentRegionIndex"][0],
        json!([
            ["tournamentId", "HASH", "S"],
            ["region", "HASH", "S"],
            ["round", "RANGE", "S"],
            ["bracket", "RANGE", "S"]
        ])
    );
}

#[test]
fn hotkeys_counts_partitions_by_the_whole_partition_key() {
    let index = "TournamentRegionIndex";
    let out = ok(run(&[
        "hotkeys",
        matches(),
        "--index",
        index,
        "--output",
        "json",
        "--top",
        "10",
    ]));
    let report: Value = serde_json::from_str(&out).unwrap();
    let want: Value =
        serde_json::from_str(&boto3(&local().endpoint, matches(), &["partitions", index])).unwrap();
    let want = want.as_object().unwrap();
    assert_eq!(want.len(), 6, "{want:?}");
    assert_eq!(report["distinct_keys"], 6, "{report}");
    let top = report["top"].as_array().unwrap();
    assert_eq!(top.len(), 6, "{report}");
    for key in top {
        let text = key["key"].as_str().unwrap();
        assert_eq!(key["items"], want[text], "{text}: {report}");
    }
    assert!(want.contains_key("WINTER2024 · EU-WEST"), "{want:?}");
}
