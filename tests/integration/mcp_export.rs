//! `dynoscope mcp --export PATH` through the Python MCP client: an export written here (no
//! table behind it; the server's endpoint is a fault proxy that must see nothing) whose
//! 1,200-item collection the query tool pages through, ascending, descending, with a
//! sort-key condition and through a GSI named by its key attributes (ties in its sort key),
//! every page's items equal to the fixture's in key order with none lost or repeated, each
//! result saying its source is the export at 0 RCU; hotkeys equal to `dynoscope hotkeys
//! --export` on the same folder; the table-only tools one clear error each; and a bad export
//! path one error line before the session starts.

use std::process::{Command, Stdio};

use serde_json::{json, Value};

use super::client;
use crate::common::fault_proxy::{FaultConfig, FaultProxy};
use crate::common::table_export::{write_full_export, Format};
use crate::common::{aws_env, bin, local, ok, run, stderr};

const TABLE: &str = "mcp-export";
const BIG: usize = 1200;

/// The export's items as DynamoDB JSON lines, in no key order.
fn export_items() -> Vec<String> {
    let mut lines = Vec::new();
    for i in 0..BIG {
        // 7 is prime to 1,200: the items arrive out of key order.
        let j = i * 7 % BIG;
        lines.push(json!({
            "PK": {"S": "USER#big"},
            "SK": {"S": format!("ITEM#{j:04}")},
            "GSI1PK": {"S": format!("G#{}", j % 3)},
            // Ten items share each value: the index's order breaks ties by the table's key.
            "GSI1SK": {"S": format!("{:03}", j / 10)},
            "n": {"N": "12345678901234567890123456789012345678"},
            "tags": {"SS": ["b", "a"]},
            "flag": {"BOOL": j.is_multiple_of(2)},
            "nil": {"NULL": true},
            "m": {"M": {"x": {"L": [{"N": "1.5"}, {"S": "y"}]}}},
        }));
    }
    for (k, sk) in ["A\u{1b}[31m", "B\nline", "C\u{7}\"quoted\""]
        .iter()
        .enumerate()
    {
        lines.push(json!({
            "PK": {"S": "USER#hostile"},
            "SK": {"S": sk},
            "text": {"S": format!("\u{1b}]0;title\u{7} {k}\r\n")},
        }));
    }
    for u in 0..40 {
        lines.push(json!({"PK": {"S": format!("USER#{u:02}")}, "SK": {"S": "PROFILE"}}));
    }
    lines.iter().map(Value::to_string).collect()
}

/// Numbers as f64, so the CLI's integers and the client's equal the same values.
fn numbers_as_f64(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(a) => Value::Array(a.iter().map(numbers_as_f64).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), numbers_as_f64(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn an_mcp_client_reads_an_export_at_zero_rcu_sending_dynamodb_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lines = export_items();
    let layout = write_full_export(
        &dir.path().join("export"),
        TABLE,
        Format::DynamoJson,
        &lines,
        5,
        1,
    );
    let oracle = dir.path().join("items.jsonl");
    std::fs::write(&oracle, lines.join("\n")).unwrap();
    let folder = layout.folder.display().to_string();
    // Every request the server would send DynamoDB passes here: none may.
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let out = client(
        "export",
        TABLE,
        &oracle.display().to_string(),
        &proxy.url,
        &["--export", &folder],
        None,
    );
    assert!(
        proxy.log().is_empty(),
        "the export server sent DynamoDB {} requests",
        proxy.log().len()
    );
    for (walk, items) in [
        ("ascending", BIG),
        ("descending", BIG),
        ("begins_with", 100),
        ("index", BIG / 3),
        ("hostile", 3),
    ] {
        assert_eq!(out[walk]["items"], json!(items), "{walk}: {}", out[walk]);
        assert!(
            out[walk]["pages"].as_u64().unwrap() > 1,
            "{walk}: {}",
            out[walk]
        );
    }
    // The same report as the CLI's over the same folder (keys given: it describes nothing).
    let cli: Value = serde_json::from_str(&ok(run(&[
        "hotkeys", "--export", &folder, "--key", "PK,SK", "--top", "20", "--output", "json",
    ])))
    .unwrap();
    let mcp = &out["hotkeys"];
    assert_eq!(mcp["total_items"], json!(lines.len() as f64), "{mcp}");
    for field in [
        "distinct_keys",
        "total_items",
        "total_bytes",
        "top_one_percent_share",
        "top",
        "shard_families",
        "warnings",
    ] {
        assert_eq!(
            numbers_as_f64(&mcp[field]),
            numbers_as_f64(&cli[field]),
            "hotkeys {field}: mcp {mcp}\ncli {cli}"
        );
    }
}

#[test]
fn a_bad_export_path_is_one_error_line_before_the_session_starts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-export").display().to_string();
    let mut cmd = Command::new(bin());
    let out = aws_env(&mut cmd)
        .args(["mcp", "--export", &missing])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("export '{missing}' is not a folder")),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty(), "nothing on the protocol's stdout");
}
