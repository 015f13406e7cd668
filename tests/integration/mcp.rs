//! `dynoscope mcp` through an independent client: the official Python MCP SDK (`mcp` in the
//! test venv) over stdio, with boto3 as the oracle (tests/mcp_client.py holds the client's
//! side of each scenario). Against DynamoDB Local: the tools are listed read-only with input
//! schemas that validate; a query's items equal boto3's; a PartiQL SELECT equals
//! ExecuteStatement's; a scan-shaped statement is refused without `allow_scan` and stays under
//! the per-call cap with it; the session budget holds over many calls as the fault proxy
//! counts it, and with query, partiql and hotkeys called at once; a cursor walks 1,500 items
//! with none lost or repeated, and so do the cursors of a merged `IN` and of ExecuteStatement
//! pages (against boto3's ExecuteStatement); explain gives the exact body a query sends and
//! sends nothing; a denied permission is one tool error naming the IAM action; and every
//! call is in the log.

use crate::common;

#[path = "mcp_export.rs"]
mod export;
#[path = "mcp_hostile.rs"]
mod hostile;
#[path = "mcp_transport.rs"]
mod transport;

use std::path::Path;
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::fault_proxy::{Fault, FaultConfig, FaultProxy};
use common::{aws_env, bin, local, shared_demo, table_name};

/// Runs one scenario of tests/mcp_client.py against `dynoscope mcp --endpoint-url SERVER
/// SERVER_ARGS…`, boto3 reading `oracle`; returns the JSON it prints.
pub(super) fn client(
    scenario: &str,
    table: &str,
    oracle: &str,
    server: &str,
    server_args: &[&str],
    log: Option<&Path>,
) -> serde_json::Value {
    client_env(scenario, table, oracle, server, server_args, log, &[])
}

/// [`client`] with extra environment for the server (CloudWatch's endpoint).
fn client_env(
    scenario: &str,
    table: &str,
    oracle: &str,
    server: &str,
    server_args: &[&str],
    log: Option<&Path>,
    env: &[(&str, &str)],
) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client.py");
    let mut cmd = common::pyfork::python();
    aws_env(&mut cmd)
        .arg(script)
        .args([scenario, "--table", table, "--oracle", oracle, "--"])
        .args([bin(), "--endpoint-url", server, "mcp"])
        .args(server_args)
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if let Some(log) = log {
        cmd.env("DYNOSCOPE_LOG", log);
    }
    let out = cmd.output().expect("run the Python MCP client");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scenario {scenario} failed:\n{stderr}\nstdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}

/// The TYPES and BIG collections (tests/mcp_client.py's `seed`) in a table of `endpoint`.
fn seed_typed(endpoint: &str) -> String {
    let table = table_name("mcp");
    client("seed", &table, endpoint, endpoint, &[], None);
    table
}

fn typed_table() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| seed_typed(&local().endpoint))
}

#[test]
fn an_mcp_client_lists_read_only_tools_and_reads_what_boto3_reads() {
    let endpoint = &local().endpoint;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("mcp.log");
    let out = client("basics", typed_table(), endpoint, endpoint, &[], Some(&log));
    assert_eq!(out["server"], "dynoscope", "{out}");
    assert!(
        out["protocol"].as_str().is_some_and(|v| v >= "2025-06-18"),
        "{out}"
    );
    assert!(
        out["write_refusal"]
            .as_str()
            .is_some_and(|t| t.contains("DELETE")),
        "{out}"
    );
    // Each call is in the log: tool, arguments, requests and what they cost.
    let text = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = text.lines().filter(|l| l.contains("mcp call")).collect();
    assert!(
        calls
            .iter()
            .any(|l| l.contains("tool=\"query\"") && l.contains("call_rcu") && l.contains("TYPES")),
        "{text}"
    );
    assert!(
        calls
            .iter()
            .any(|l| l.contains("tool=\"partiql\"") && l.contains("\"operation\":\"Query\"")),
        "{text}"
    );
    assert!(
        calls.iter().any(|l| l.contains("refused or failed")
            && l.contains("at most one sort-key range condition")),
        "{text}"
    );
}

#[test]
fn a_scan_shaped_statement_is_refused_and_with_allow_scan_stays_under_the_cap() {
    let endpoint = &local().endpoint;
    let table = shared_demo(60);
    let out = client(
        "scan_refusal",
        table,
        endpoint,
        endpoint,
        &["--max-rcu", "50", "--max-rcu-per-call", "2"],
        None,
    );
    assert!(out["call_rcu"].as_f64().unwrap() <= 2.0, "{out}");
    assert_eq!(out["stopped"], "budget", "{out}");
}

#[test]
fn the_session_budget_holds_over_many_calls_as_the_service_counts_it() {
    // Only this server's requests go through its proxy, so the proxy counts every unit this
    // server is charged, and only those.
    let endpoint = &local().endpoint;
    let table = shared_demo(60);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let out = client(
        "budget",
        table,
        endpoint,
        &proxy.url,
        &["--max-rcu", "12", "--max-rcu-per-call", "2.5"],
        None,
    );
    let charged = proxy.consumed_units();
    assert!(charged <= 12.0, "the service charged {charged} RCU: {out}");
    assert!(
        charged >= 9.0,
        "the budget was mostly spent: {charged} RCU, {out}"
    );
    let seen = out["session_rcu"].as_f64().unwrap();
    assert!(
        (seen - charged).abs() < 1e-9,
        "the session says {seen} RCU, the service charged {charged}"
    );
    assert!(proxy.requests("Scan") >= 5, "{}", proxy.summary());
}

#[test]
fn the_per_call_cap_and_the_session_total_hold_across_tools_called_at_once() {
    // Only this server's requests go through its proxy: every unit the proxy counts is this
    // server's. Query, PartiQL Scan and hotkeys run at once, round after round.
    let endpoint = &local().endpoint;
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let out = client(
        "mixed",
        typed_table(),
        endpoint,
        &proxy.url,
        &["--max-rcu", "12", "--max-rcu-per-call", "3"],
        None,
    );
    let charged = proxy.consumed_units();
    assert!(charged <= 12.0, "the service charged {charged} RCU: {out}");
    assert!(
        charged >= 9.0,
        "the budget was mostly spent: {charged} RCU, {out}"
    );
    let calls = out["calls"].as_array().unwrap();
    let said: f64 = calls.iter().map(|c| c["call_rcu"].as_f64().unwrap()).sum();
    assert!(
        (said - charged).abs() < 1e-9,
        "the calls say {said} RCU, the service charged {charged}: {out}"
    );
    for tool in ["query", "partiql", "hotkeys"] {
        let spent: Vec<f64> = calls
            .iter()
            .filter(|c| c["tool"] == tool)
            .map(|c| c["call_rcu"].as_f64().unwrap())
            .collect();
        assert!(spent.iter().any(|&r| r > 0.0), "{tool} read nothing: {out}");
        assert!(
            spent.iter().all(|&r| r <= 3.0),
            "{tool} over the cap: {out}"
        );
    }
    assert!(
        proxy.requests("Query") >= 1 && proxy.requests("Scan") >= 2,
        "{}",
        proxy.summary()
    );
}

#[test]
fn a_call_the_client_cancels_stops_its_reads_within_a_second() {
    // Every Scan and Query takes 1.2 s through the proxy, and the per-call cap lets a call
    // read on past its cancellation: hotkeys, a PartiQL Scan and a query page (filters no item
    // passes), each given up on by the client after 1.5 s (the SDK sends
    // notifications/cancelled), then list_tables, whose ListTables marks that moment in the
    // proxy's log. Uncancelled, each sends its next request within a second of it.
    let endpoint = &local().endpoint;
    let mut config = FaultConfig::new(1.0, 7, &[Fault::Delay]).only(&["Scan", "Query"]);
    config.delay = Duration::from_millis(1200);
    let proxy = FaultProxy::start(endpoint, config);
    let out = client(
        "cancel",
        typed_table(),
        endpoint,
        &proxy.url,
        &["--max-rcu", "1000", "--max-rcu-per-call", "20"],
        None,
    );
    let log = proxy.log();
    // Each call's mark, then the list_tables 3 s later that reads the session's cost.
    let marks: Vec<Instant> = log
        .iter()
        .filter(|r| r.operation == "ListTables")
        .map(|r| r.at)
        .step_by(2)
        .collect();
    assert_eq!(marks.len(), 3, "{out} {}", proxy.summary());
    for (i, (tool, op)) in [("hotkeys", "Scan"), ("partiql", "Scan"), ("query", "Query")]
        .into_iter()
        .enumerate()
    {
        let from = if i == 0 { None } else { Some(marks[i - 1]) };
        let reads: Vec<Instant> = log
            .iter()
            .filter(|r| r.operation == op && from.is_none_or(|f| r.at > f))
            .filter(|r| marks.get(i + 1).is_none_or(|next| r.at < *next))
            .map(|r| r.at)
            .collect();
        let before = reads.iter().filter(|at| **at <= marks[i]).count();
        assert!(
            before >= 1,
            "{tool} read nothing before it was cancelled: {out}"
        );
        let late: Vec<Duration> = reads
            .iter()
            .filter(|at| **at > marks[i])
            .map(|at| *at - marks[i])
            // A request being sent as the cancellation came is abandoned; none follows it.
            // (The next call starts 3 s after the mark.)
            .filter(|d| *d > Duration::from_millis(300) && *d < Duration::from_millis(2800))
            .collect();
        assert!(
            late.is_empty(),
            "{tool} read on after its cancellation: {late:?} {out}"
        );
    }
}

#[test]
fn a_cursor_walks_a_large_collection_with_no_item_lost_or_repeated() {
    let endpoint = &local().endpoint;
    let out = client(
        "walk",
        typed_table(),
        endpoint,
        endpoint,
        &["--max-rcu", "2000", "--max-rcu-per-call", "100"],
        None,
    );
    assert_eq!(out["items"], 1500, "{out}");
    assert!(out["pages"].as_u64().unwrap() >= 16, "{out}");
}

#[test]
fn explain_gives_the_exact_request_a_query_sends_and_sends_nothing() {
    let endpoint = &local().endpoint;
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let table = typed_table();
    let out = client("explain_exact", table, endpoint, &proxy.url, &[], None);
    for op in ["Query", "Scan", "ExecuteStatement", "GetItem"] {
        assert_eq!(
            proxy.requests(op),
            0,
            "explain sent {op}: {}",
            proxy.summary()
        );
    }
    // The same arguments through the query tool: the body the proxy sees is the one explain
    // gave, field for field. The guards may lower a Limit (and set one on a filtered read,
    // which asks for none): the unfiltered page of 10 keeps its own.
    for (name, exact_limit) in [("unfiltered", true), ("filtered", false)] {
        let mut query = serde_json::json!({
            "table": table, "pk": "BIG", "sk_begins_with": "ITEM#00", "descending": true, "limit": 10
        });
        if name == "filtered" {
            let extra = serde_json::json!({
                "filter": "#n > :n", "names": {"#n": "n"}, "values": {":n": 5}, "projection": "SK, n"
            });
            query
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
        }
        proxy.clear_log();
        let env = [("MCP_QUERY", query.to_string())];
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        client_env("run_query", table, endpoint, &proxy.url, &[], None, &env);
        let bodies = proxy.bodies("Query");
        assert!(!bodies.is_empty(), "{}", proxy.summary());
        let mut sent: serde_json::Value = serde_json::from_str(&bodies[0]).unwrap();
        let mut explained = out[name].clone();
        if !exact_limit {
            assert!(sent["Limit"].as_u64().is_some(), "{sent}");
            sent.as_object_mut().unwrap().remove("Limit");
            explained.as_object_mut().unwrap().remove("Limit");
        }
        assert_eq!(
            sent, explained,
            "{name}: sent {sent}, explained {explained}"
        );
    }
}

#[test]
fn cursors_walk_merged_queries_and_execute_statement_pages_as_boto3_reads_them() {
    let endpoint = &local().endpoint;
    let out = client(
        "pages",
        typed_table(),
        endpoint,
        endpoint,
        // DynamoDB Local's ExecuteStatement reports no capacity: each page is charged the
        // worst case of its Limit.
        &["--max-rcu", "100000", "--max-rcu-per-call", "5000"],
        None,
    );
    assert_eq!(out["merged"]["items"], 1502, "{out}");
    assert!(out["merged"]["pages"].as_u64().unwrap() >= 16, "{out}");
    assert_eq!(out["statement"]["items"], 1500, "{out}");
    assert!(out["statement"]["pages"].as_u64().unwrap() >= 16, "{out}");
}

#[test]
fn a_denied_permission_is_one_tool_error_naming_the_action() {
    let endpoint = &local().endpoint;
    let proxy = FaultProxy::start(
        endpoint,
        FaultConfig::none().deny("Query", "dynamodb:Query"),
    );
    let table = typed_table();
    let out = client("denied", table, endpoint, &proxy.url, &[], None);
    let error = out["error"].as_str().unwrap();
    assert!(error.contains("dynamodb:Query"), "{error}");
    assert_eq!(proxy.requests("Query"), 1, "{}", proxy.summary());
}

#[test]
fn hotkeys_ranks_the_key_boto3_counts_most_and_a_small_share_stops_within_it() {
    let endpoint = &local().endpoint;
    let out = client(
        "hotkeys",
        typed_table(),
        endpoint,
        endpoint,
        &["--max-rcu", "500", "--max-rcu-per-call", "200"],
        None,
    );
    assert_eq!(out["top"], "BIG", "{out}");
    assert_eq!(out["items"], 1500, "{out}");
    assert_eq!(out["items"], out["oracle"], "{out}");

    // Through a proxy of its own: the units the service charged this server stay within the
    // call's share.
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let out = client(
        "hotkeys_partial",
        typed_table(),
        endpoint,
        &proxy.url,
        &["--max-rcu", "50", "--max-rcu-per-call", "5"],
        None,
    );
    let charged = proxy.consumed_units();
    assert!(charged <= 5.0, "the service charged {charged} RCU: {out}");
    assert_eq!(out["call_rcu"].as_f64().unwrap(), charged, "{out}");
}

#[test]
fn diagnose_metrics_and_insights_answer_from_cloudwatch_or_name_the_denied_action() {
    use crate::cli_metrics::{hot_gsi_script, insights_proxy};
    use common::cloudwatch::{CloudWatch, Script};
    let table = common::seeded_demo(1);
    let proxy = insights_proxy();
    let cw = CloudWatch::start(hot_gsi_script(&table));
    let env = [("AWS_ENDPOINT_URL_CLOUDWATCH", cw.url.as_str())];
    let out = client_env(
        "reports",
        &table,
        &local().endpoint,
        &proxy.url,
        &[],
        None,
        &env,
    );
    let diagnose = &out["diagnose"];
    assert_eq!(diagnose["throttling_now"], true, "{out}");
    assert_eq!(diagnose["verdicts"][0]["kind"], "hot_gsi", "{out}");
    assert_eq!(diagnose["verdicts"][0]["target"]["index"], "GSI1", "{out}");
    assert!(
        diagnose["verdicts"][0]["says"]
            .as_str()
            .is_some_and(|s| s.contains("STATUS#PENDING")),
        "{out}"
    );
    let metrics = &out["metrics"]["report"];
    assert_eq!(metrics["targets"][0]["target"], "table", "{out}");
    assert_eq!(
        metrics["targets"][0]["provisioned_write"]["peak"], 100.0,
        "{out}"
    );
    let insights = &out["insights"]["targets"];
    assert_eq!(insights[0]["status"], "DISABLED", "{out}");
    assert_eq!(insights[1]["status"], "ENABLED", "{out}");

    // GetMetricData denied: metrics is one tool error naming the action; diagnose goes on
    // without the metrics and says so.
    let cw = CloudWatch::start(Script::default().deny("GetMetricData"));
    let env = [("AWS_ENDPOINT_URL_CLOUDWATCH", cw.url.as_str())];
    let out = client_env(
        "reports",
        &table,
        &local().endpoint,
        &proxy.url,
        &[],
        None,
        &env,
    );
    let error = out["metrics"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("cloudwatch:GetMetricData"), "{out}");
    assert!(
        out["diagnose"]["notes"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n
                .as_str()
                .unwrap_or_default()
                .contains("cloudwatch:GetMetricData"))),
        "{out}"
    );
}
