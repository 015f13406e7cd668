//! `metrics`, `insights` and `diagnose` against DynamoDB Local (the table's description) and
//! the scripted CloudWatch (the series, over rpc-v2-cbor), with the fault proxy answering
//! what DynamoDB Local cannot: DescribeContributorInsights, and the denied calls.

#[path = "common/cloudwatch.rs"]
mod cloudwatch;
mod common;
#[path = "common/fault_proxy.rs"]
mod fault_proxy;

use cloudwatch::{CloudWatch, Script};
use common::*;

/// `dynoscope --endpoint-url <dynamodb> ARGS…` with CloudWatch at `cw`, as the SDK's own
/// configuration names it.
fn run_with(dynamodb: &str, cw: &CloudWatch, args: &[&str]) -> std::process::Output {
    let mut full = vec!["--endpoint-url", dynamodb];
    full.extend_from_slice(args);
    run_raw(&full, &[("AWS_ENDPOINT_URL_CLOUDWATCH", &cw.url)])
}

#[test]
fn metrics_come_in_one_paged_call_and_read_per_second() {
    let table = seeded_demo(1);
    let t: &str = &table;
    let cw = CloudWatch::start(
        Script::default()
            .series(
                "ConsumedReadCapacityUnits",
                &[("TableName", t)],
                "Sum",
                &[600.0, 1200.0],
            )
            .series(
                "ProvisionedReadCapacityUnits",
                &[("TableName", t)],
                "Average",
                &[100.0, 100.0],
            )
            .series(
                "WriteKeyRangeThroughputThrottleEvents",
                &[("TableName", t), ("GlobalSecondaryIndexName", "GSI1")],
                "Sum",
                &[5.0, 7.0],
            )
            .series(
                "SuccessfulRequestLatency",
                &[("TableName", t), ("Operation", "Query")],
                "Maximum",
                &[9.0, 30.0],
            )
            .pages_of(7),
    );
    let out = run_with(
        &local().endpoint,
        &cw,
        &["metrics", t, "--since", "10m", "--output", "json"],
    );
    let report: serde_json::Value = serde_json::from_str(&ok(out)).unwrap();
    assert_eq!(report["metrics_requested"], 61, "{report}");
    let table_report = &report["targets"][0];
    assert_eq!(table_report["target"], "table");
    assert_eq!(table_report["consumed_read"]["peak"], 20.0);
    assert_eq!(table_report["provisioned_read"]["peak"], 100.0);
    let gsi = &report["targets"][1];
    assert_eq!(gsi["target"]["index"], "GSI1");
    assert_eq!(gsi["write_throttles"]["key_range"], 12.0);
    assert_eq!(report["operations"]["Query"]["latency_max_ms"], 30.0);
    // One call of 61 queries, followed through its NextToken pages (7 results a page).
    let received = cw.received();
    assert_eq!(received.len(), 9, "{received:?}");
    assert!(received.iter().all(|r| r.operation == "GetMetricData"
        && r.protocol.as_deref() == Some("rpc-v2-cbor")
        && r.queries == 61));
    assert_eq!(received[0].next_token, None);
    assert_eq!(received[8].next_token.as_deref(), Some("page-8"));

    let human = ok(run_with(
        &local().endpoint,
        &cw,
        &["metrics", t, "--since", "10m"],
    ));
    assert!(
        human.contains("61 metrics requested ($0.00061 a refresh)"),
        "{human}"
    );
    assert!(
        human.contains("RCU consumed peak 20.0/s avg 15.0/s · provisioned 100.0/s"),
        "{human}"
    );
    assert!(
        human.contains("write throttle events: 0 (key range 12,"),
        "{human}"
    );
}

#[test]
fn a_denied_get_metric_data_names_its_permission() {
    let table = seeded_demo(1);
    let cw = CloudWatch::start(Script::default().deny("GetMetricData"));
    let out = run_with(&local().endpoint, &cw, &["metrics", &table]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("not allowed 'cloudwatch:GetMetricData'"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
