//! Continuation keys and capacity that is counted (issue 50), against DynamoDB Local:
//! - a projection without the key attributes loses no item: a merged `IN` through the MCP
//!   `partiql` tool and a `query` whose pages the 256 KB byte cap cuts walk every item, none
//!   shown with a key attribute it did not ask for (tests/mcp_capacity.py, boto3 the oracle);
//! - a page full of bytes stops reading: walking a collection costs about one pass of boto3;
//! - the first request on 100 KB items is sized from DescribeTable's average item size, so one
//!   call with the default caps stays within its 25 RCU and the next is not refused;
//! - an attempt that timed out after DynamoDB served it is charged: what the engine says its
//!   pages consumed is at least what the fault proxy saw DynamoDB charge, and a retry the
//!   budget cannot cover is not sent.

use crate::common;

use std::path::Path;
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use common::fault_proxy::{Fault, FaultConfig, FaultProxy};
use common::{aws_env, bin, local, table_name};
use dynoscope::aws::{
    connect, ConnectOptions, Engine, EngineEvent, Operation, ReadCause, ReadSpec,
};
use dynoscope::model::item::value::AttrValue;

/// Runs one scenario of tests/mcp_capacity.py against `dynoscope mcp --endpoint-url SERVER
/// ARGS…`, boto3 reading `oracle`; returns the JSON it prints.
fn scenario(name: &str, table: &str, server: &str, args: &[&str]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_capacity.py");
    let mut cmd = common::pyfork::python();
    aws_env(&mut cmd)
        .arg(script)
        .args([name, "--table", table, "--oracle", &local().endpoint, "--"])
        .args([bin(), "--endpoint-url", server, "mcp"])
        .args(args)
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .stdin(Stdio::null());
    let out = cmd.output().expect("run the Python MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "scenario {name} failed:\n{stderr}\nstdout: {stdout}"
    );
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}

/// Collections P and Q of 300 items of about 2 KB (tests/mcp_capacity.py's `seed_keys`).
fn keys_table() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table = table_name("keys");
        scenario("seed_keys", &table, &local().endpoint, &[]);
        table
    })
}

#[test]
fn a_projection_without_the_keys_walks_every_item_and_a_full_page_stops_reading() {
    let out = scenario(
        "projected",
        keys_table(),
        &local().endpoint,
        &["--max-rcu", "5000", "--max-rcu-per-call", "500"],
    );
    eprintln!("walks: {out}");
    assert_eq!(out["merged"]["items"], 600, "{out}");
    assert_eq!(out["projected"]["items"], 300, "{out}");
    // 300 items of 2 KB are more than one 256 KB page: the byte cap cut them.
    assert!(out["whole"]["pages"].as_u64().unwrap() >= 3, "{out}");
    for walk in ["projected", "whole"] {
        let rcu = out[walk]["rcu"].as_f64().unwrap();
        let once = out[walk]["one_pass"].as_f64().unwrap();
        // Each page rounds up to whole 4 KB blocks, and an item the JSON page could not hold
        // is read again by the next: a little over one pass, never a page read twice.
        assert!(
            rcu <= once * 1.15 + 2.0,
            "{walk}: the walk cost {rcu} RCU, one pass {once}: {out}"
        );
    }
}

#[test]
fn the_first_request_on_large_items_is_sized_from_describe_table() {
    let table = table_name("big");
    scenario("seed_big", &table, &local().endpoint, &[]);
    // The default caps: 25 RCU a call, 100 a session.
    let out = scenario("big_first", &table, &local().endpoint, &[]);
    let (rcu, cap) = (
        out["first"]["rcu"].as_f64().unwrap(),
        out["first"]["cap"].as_f64().unwrap(),
    );
    let requests: Vec<f64> = out["first"]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert!(out["first"]["count"].as_u64().unwrap() >= 1, "{out}");
    // Its first request fits the call's share (it used to ask for 49 items of 100 KB: one
    // 1 MB page, 134.5 RCU); the call as a whole is over it by its last page at most, as
    // docs/capacity.md promises.
    assert!(
        requests[0] <= cap,
        "the first request consumed {requests:?}: {out}"
    );
    let last = requests.last().copied().unwrap_or_default();
    assert!(
        rcu <= cap + last,
        "the first call consumed {rcu} of its {cap} RCU: {out}"
    );
    assert_eq!(out["second_refused"], false, "{out}");
}

async fn engine_through(proxy: &FaultProxy) -> Engine {
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        region: Some("us-east-1".into()),
        attempt_timeout: Some(Duration::from_secs(1)),
        ..Default::default()
    })
    .await
    .unwrap();
    Engine::new(&conn)
}

fn collection(pk: &str, max_rcu: Option<f64>) -> ReadSpec {
    let mut spec = ReadSpec::new(Operation::Query, keys_table(), ReadCause::Test);
    spec.key_condition = Some("PK = :p".into());
    spec.values = vec![(":p".into(), AttrValue::S(pk.into()))];
    spec.budget.max_rcu = max_rcu;
    spec
}

/// Runs `spec`: the units its pages say they consumed, and the error it failed with.
async fn read(engine: &Engine, spec: ReadSpec) -> (f64, Option<String>) {
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let handle = engine.start_read(spec, tx);
    let (mut units, mut failed) = (0.0, None);
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => units += p.consumed.total,
            EngineEvent::Failed { error, .. } => failed = Some(error.to_string()),
            _ => {}
        }
    }
    handle.join().await;
    (units, failed)
}

/// The first Query is held 1.5 s before it is forwarded: the client's 1 s attempt timeout
/// gives up on it, DynamoDB still serves (and charges) it, and the SDK retries.
fn delaying_first_query() -> FaultProxy {
    let mut config = FaultConfig::new(1.0, 7, &[Fault::Delay])
        .only(&["Query"])
        .at_most(1);
    config.delay = Duration::from_millis(1500);
    FaultProxy::start(&local().endpoint, config)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attempt_that_timed_out_after_it_was_served_is_charged() {
    let proxy = delaying_first_query();
    let engine = engine_through(&proxy).await;
    let (said, failed) = read(&engine, collection("P", Some(1000.0))).await;
    assert_eq!(failed, None);
    // The held request is forwarded after the client gave up: wait for its answer.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let served = proxy.consumed_units();
    assert!(proxy.requests("Query") >= 2, "{}", proxy.summary());
    assert!(
        said >= served - 1e-9,
        "the pages say {said} RCU, DynamoDB charged {served}: {}",
        proxy.summary()
    );

    // A budget that cannot hold a second worst case: the retry is not sent, and DynamoDB
    // charged no more than the budget.
    let proxy = delaying_first_query();
    let engine = engine_through(&proxy).await;
    let (_, failed) = read(&engine, collection("Q", Some(20.0))).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let failed = failed.expect("the read stops at the refused retry");
    assert!(failed.contains("not retried"), "{failed}");
    assert_eq!(proxy.requests("Query"), 1, "{}", proxy.summary());
    assert!(proxy.consumed_units() <= 20.0, "{}", proxy.summary());
}
