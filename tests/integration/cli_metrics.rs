//! `metrics`, `insights` and `diagnose` against DynamoDB Local (the table's description) and
//! the scripted CloudWatch (the series, over rpc-v2-cbor), with the fault proxy answering
//! what DynamoDB Local cannot: DescribeContributorInsights, and the denied calls.

use crate::common;
use crate::common::cloudwatch;
use crate::common::fault_proxy;

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

/// CloudWatch answering NaN and infinities (which CBOR carries): missing points, in the text
/// and in JSON that stays JSON, never `inf/s`, `NaN` or `backfill 1000…%`.
#[test]
fn nan_and_infinity_from_cloudwatch_are_missing_points() {
    let table = seeded_demo(1);
    let t: &str = &table;
    let gsi = [("TableName", t), ("GlobalSecondaryIndexName", "GSI1")];
    let wild = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 600.0];
    let cw = CloudWatch::start(
        Script::default()
            .series(
                "ConsumedReadCapacityUnits",
                &[("TableName", t)],
                "Sum",
                &wild,
            )
            .series(
                "ProvisionedReadCapacityUnits",
                &[("TableName", t)],
                "Average",
                &[f64::INFINITY; 4],
            )
            .series("ReadThrottleEvents", &[("TableName", t)], "Sum", &wild)
            .series(
                "OnlineIndexPercentageProgress",
                &gsi,
                "Maximum",
                &[f64::NAN, 1e300, f64::INFINITY, f64::NAN],
            ),
    );
    let human = ok(run_with(
        &local().endpoint,
        &cw,
        &["metrics", t, "--since", "10m"],
    ));
    for bad in ["inf", "NaN", "100000"] {
        assert!(!human.contains(bad), "{bad} in:\n{human}");
    }
    assert!(human.contains("RCU consumed peak 10.0/s"), "{human}");
    let json = ok(run_with(
        &local().endpoint,
        &cw,
        &["metrics", t, "--since", "10m", "--output", "json"],
    ));
    let report: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(
        report["targets"][0]["consumed_read"]["peak"], 10.0,
        "{report}"
    );
    assert!(
        report["targets"][0]["provisioned_read"].is_null(),
        "{report}"
    );
}

/// CloudWatch has no metric for an on-demand table's maximum: it comes from DescribeTable
/// (`OnDemandThroughput`, which DynamoDB Local accepts but never describes, so the proxy
/// answers DescribeTable as DynamoDB does), and consumption is shown against it.
#[test]
fn an_on_demand_table_shows_its_maximum_throughput() {
    let t = "ondemand-max";
    let described = format!(
        r#"{{"Table":{{"TableName":"{t}","TableStatus":"ACTIVE","TableArn":"arn:aws:dynamodb:us-east-1:111122223333:table/{t}","AttributeDefinitions":[{{"AttributeName":"PK","AttributeType":"S"}}],"KeySchema":[{{"AttributeName":"PK","KeyType":"HASH"}}],"BillingModeSummary":{{"BillingMode":"PAY_PER_REQUEST"}},"OnDemandThroughput":{{"MaxReadRequestUnits":200,"MaxWriteRequestUnits":-1}},"ItemCount":0,"TableSizeBytes":0}}}}"#
    );
    let proxy = fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none().answer("DescribeTable", 200, &described),
    );
    let cw = CloudWatch::start(Script::default().series(
        "ConsumedReadCapacityUnits",
        &[("TableName", t)],
        "Sum",
        &[600.0, 1200.0],
    ));
    let json = ok(run_with(
        &proxy.url,
        &cw,
        &["metrics", t, "--since", "10m", "--output", "json"],
    ));
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let target = &report["targets"][0];
    assert_eq!(target["max_on_demand_read"], 200.0, "{report}");
    assert!(
        target.get("max_on_demand_write").is_none(),
        "-1 is no maximum: {report}"
    );
    assert!(target["provisioned_read"].is_null(), "{report}");
    let human = ok(run_with(&proxy.url, &cw, &["metrics", t, "--since", "10m"]));
    assert!(
        human.contains("RCU consumed peak 20.0/s avg 15.0/s · on-demand, max 200/s"),
        "{human}"
    );
    assert!(
        human.contains("WCU consumed peak 0.0/s avg 0.0/s · on-demand "),
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

const GSI_RULE: &str = "DynamoDBContributorInsights-PKT-GSI1-1700000000000";

/// DynamoDB Local behind the proxy, which answers DescribeContributorInsights: on for GSI1
/// (its most-throttled-keys rule), off for the table.
pub(crate) fn insights_proxy() -> fault_proxy::FaultProxy {
    let gsi = format!(
        r#"{{"TableName":"t","IndexName":"GSI1","ContributorInsightsRuleList":["{GSI_RULE}"],"ContributorInsightsStatus":"ENABLED","ContributorInsightsMode":"THROTTLED_KEYS"}}"#
    );
    fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none()
            .answer_when("DescribeContributorInsights", "\"IndexName\"", 200, &gsi)
            .answer(
                "DescribeContributorInsights",
                200,
                r#"{"TableName":"t","ContributorInsightsStatus":"DISABLED"}"#,
            ),
    )
}

/// A table with spare capacity whose GSI1 throttles its writes on a hot key, now.
pub(crate) fn hot_gsi_script(t: &str) -> Script {
    let table = [("TableName", t)];
    Script::default()
        .series("ConsumedWriteCapacityUnits", &table, "Sum", &[600.0; 11])
        .series(
            "ProvisionedWriteCapacityUnits",
            &table,
            "Average",
            &[100.0; 11],
        )
        .gsi1_write_storm(t, 11)
        .rule(
            GSI_RULE,
            550.0,
            &[(&["STATUS#PENDING"], 500.0), (&["STATUS#DONE"], 50.0)],
        )
}

#[test]
fn diagnose_names_the_hot_gsi_and_its_key_and_exits_3() {
    let table = seeded_demo(1);
    let proxy = insights_proxy();
    let cw = CloudWatch::start(hot_gsi_script(&table));
    let out = run_with(&proxy.url, &cw, &["diagnose", &table, "--since", "10m"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(
        text.contains("- now: index GSI1 throttles but the base table does not"),
        "{text}"
    );
    assert!(
        text.contains(
            "the hot key is 'STATUS#PENDING' (90.9% of the most throttled partition keys"
        ),
        "{text}"
    );
    assert!(
        text.contains("consumed peaked at 20.0 WCU/s of 100.0 provisioned (20.0%)"),
        "{text}"
    );
    assert!(
        stderr(&out).contains("is throttling now"),
        "{}",
        stderr(&out)
    );
    let json = run_with(
        &proxy.url,
        &cw,
        &["diagnose", &table, "--since", "10m", "--output", "json"],
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(report["throttling_now"], true);
    assert_eq!(report["verdicts"][0]["kind"], "hot_gsi");
    assert_eq!(report["verdicts"][0]["target"]["index"], "GSI1");
}

#[test]
fn insights_lists_the_top_keys_or_the_command_that_enables_it() {
    let table = seeded_demo(1);
    let proxy = insights_proxy();
    let cw = CloudWatch::start(hot_gsi_script(&table));
    let text = ok(run_with(
        &proxy.url,
        &cw,
        &["insights", &table, "--since", "10m"],
    ));
    assert!(
        text.contains(&format!("table: Contributor Insights DISABLED; enable it (billed) with: aws dynamodb update-contributor-insights --table-name {table} --contributor-insights-action ENABLE — without it, 'dynoscope hotkeys TABLE'")),
        "{text}"
    );
    assert!(
        text.contains("index GSI1: Contributor Insights ENABLED (THROTTLED_KEYS)"),
        "{text}"
    );
    assert!(
        text.contains("most throttled partition keys (of 550):"),
        "{text}"
    );
    assert!(text.contains("STATUS#PENDING  500  90.9%"), "{text}");
    // Never enabled: only the description went to DynamoDB.
    assert_eq!(proxy.requests("UpdateContributorInsights"), 0);
    assert!(cw
        .received()
        .iter()
        .all(|r| r.operation == "GetInsightRuleReport"));
}

#[test]
fn a_denied_insights_call_costs_only_its_feature() {
    let table = seeded_demo(1);
    let proxy = fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none().deny(
            "DescribeContributorInsights",
            "dynamodb:DescribeContributorInsights",
        ),
    );
    let cw = CloudWatch::start(hot_gsi_script(&table));
    let out = run_with(&proxy.url, &cw, &["diagnose", &table, "--since", "10m"]);
    // The metrics still speak: the hot GSI, without its key.
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(
        err.matches("not allowed 'dynamodb:DescribeContributorInsights'")
            .count(),
        1,
        "{err}"
    );
    assert!(
        stdout(&out).contains("index GSI1 throttles"),
        "{}",
        stdout(&out)
    );

    // The rule report denied: the status still shows, with one line naming the permission,
    // and the exit code says the report is not whole.
    let proxy = insights_proxy();
    let cw = CloudWatch::start(hot_gsi_script(&table).deny("GetInsightRuleReport"));
    let out = run_with(&proxy.url, &cw, &["insights", &table, "--since", "10m"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not allowed 'cloudwatch:GetInsightRuleReport'"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("index GSI1: Contributor Insights ENABLED"),
        "{}",
        stdout(&out)
    );
}

/// `insights` with every call refused has nothing to show: one line and exit 1 (as
/// `metrics`), never `"targets":[]` and exit 0.
#[test]
fn insights_with_nothing_fetched_exits_1() {
    let table = seeded_demo(1);
    let proxy = fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none().deny(
            "DescribeContributorInsights",
            "dynamodb:DescribeContributorInsights",
        ),
    );
    let cw = CloudWatch::start(Script::default());
    for output in ["json", "table"] {
        let out = run_with(
            &proxy.url,
            &cw,
            &["insights", &table, "--since", "10m", "--output", output],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(
                "error: these credentials are not allowed 'dynamodb:DescribeContributorInsights'"
            ),
            "{err}"
        );
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
}

/// ListTables, DescribeTimeToLive and DescribeStream refused as an IAM policy refuses them:
/// each costs only its feature, with one line naming the permission.
#[test]
fn denied_dynamodb_permissions_each_name_themselves() {
    let table = common::seeded_demo_streaming(1);
    let proxy = fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none()
            .deny("ListTables", "dynamodb:ListTables")
            .deny("DescribeTimeToLive", "dynamodb:DescribeTimeToLive")
            .deny("DescribeStream", "dynamodb:DescribeStream"),
    );
    let tables = run_raw(&["--endpoint-url", &proxy.url, "tables"], &[]);
    assert_eq!(tables.status.code(), Some(1));
    assert!(
        stderr(&tables).contains("not allowed 'dynamodb:ListTables'"),
        "{}",
        stderr(&tables)
    );

    let describe = run_raw(&["--endpoint-url", &proxy.url, "describe", &table], &[]);
    assert!(describe.status.success(), "{}", stderr(&describe));
    let err = stderr(&describe);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("not allowed 'dynamodb:DescribeTimeToLive', so the TTL attribute is skipped"),
        "{err}"
    );
    let info: serde_json::Value = serde_json::from_str(&stdout(&describe)).unwrap();
    assert_eq!(info["name"], table.as_str(), "the table is still described");

    let tail = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "tail",
            &table,
            "--until",
            "1s",
        ],
        &[],
    );
    assert!(!tail.status.success());
    assert!(
        stderr(&tail).contains("not allowed 'dynamodb:DescribeStream'"),
        "{}",
        stderr(&tail)
    );
}

/// Contributor Insights off for the table and every GSI.
fn insights_off_proxy() -> fault_proxy::FaultProxy {
    fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none().answer(
            "DescribeContributorInsights",
            200,
            r#"{"TableName":"t","ContributorInsightsStatus":"DISABLED"}"#,
        ),
    )
}

#[test]
fn without_contributor_insights_sample_keys_names_the_largest_stored_gsi_key() {
    let table = seeded_demo(3);
    let cw = CloudWatch::start(hot_gsi_script(&table));
    // The oracle: the whole index's largest key, as `hotkeys` ranks it.
    let ranked: serde_json::Value = serde_json::from_str(&ok(run(&[
        "hotkeys", &table, "--index", "GSI1", "--output", "json",
    ])))
    .unwrap();
    let largest = ranked["top"][0]["key"].as_str().unwrap().to_string();

    // Without --sample-keys nothing is read: the verdict says how to name the key.
    let proxy = insights_off_proxy();
    let out = run_with(&proxy.url, &cw, &["diagnose", &table, "--since", "10m"]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("'dynoscope diagnose --sample-keys' names the largest"),
        "{}",
        stdout(&out)
    );
    assert_eq!(proxy.requests("Scan"), 0, "read-only unless asked");

    // With it, a keys-only Scan of GSI1 names the key the whole index ranks first.
    let out = run_with(
        &proxy.url,
        &cw,
        &[
            "diagnose",
            &table,
            "--since",
            "10m",
            "--sample-keys",
            "--max-rcu",
            "100",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(
        text.contains(&format!(
            "Contributor Insights is off; the largest stored key is '{largest}' ("
        )),
        "{text}"
    );
    assert!(
        text.contains("items of a keys-only sample of every item"),
        "{text}"
    );
    assert!(proxy.requests("Scan") > 0);

    // A budget smaller than the index: the sample stops at it, and says so.
    let out = run_with(
        &proxy.url,
        &cw,
        &[
            "diagnose",
            &table,
            "--since",
            "10m",
            "--sample-keys",
            "--max-rcu",
            "0.5",
            "--output",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let sample = &report["sampled_keys"][0];
    assert_eq!(sample["target"]["index"], "GSI1", "{report}");
    assert_eq!(sample["partial"], true, "{report}");
    assert!(
        sample["rcu"].as_f64().unwrap() <= 0.5,
        "the budget holds: {report}"
    );

    // A flag of the sample without it is refused.
    let out = run(&["diagnose", &table, "--max-rcu", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--sample-keys"), "{}", stderr(&out));
}

/// A service that cannot answer is one short line each: CloudWatch refusing the connection,
/// and DynamoDB Local, which has no Contributor Insights, naming its error code — never the
/// SDK's debug dump of the error.
#[test]
fn unreachable_or_unknown_operations_are_one_short_line_each() {
    let table = seeded_demo(1);
    let out = run_raw(
        &[
            "--endpoint-url",
            &local().endpoint,
            "diagnose",
            &table,
            "--since",
            "10m",
        ],
        &[("AWS_ENDPOINT_URL_CLOUDWATCH", "http://127.0.0.1:1")],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with("note: CloudWatch GetMetricData failed: connection failed: ")
            && lines[0].ends_with("; the verdicts go without the metrics"),
        "{err}"
    );
    assert_eq!(
        lines[1],
        format!(
            "note: DescribeContributorInsights failed at {}: UnknownOperationException: An unknown operation was requested.",
            local().endpoint
        ),
        "{err}"
    );
    assert_eq!(
        lines.len(),
        2,
        "one line per call that failed, the same once: {err}"
    );
    assert!(!err.contains("Error {"), "{err}");
}

/// `seed` gives the demo table the stream that `tail`, `hotkeys --writes` and the live pane
/// read; `--no-stream` leaves it out (DynamoDB Local loads such a table several times faster),
/// and is refused beside `--churn`, whose writes are there to feed a stream.
#[test]
fn seed_makes_a_stream_unless_told_not_to() {
    let stream = |table: &str| {
        let info: serde_json::Value = serde_json::from_str(&ok(run(&["describe", table]))).unwrap();
        info["stream"].clone()
    };
    assert_eq!(
        stream(&common::seeded_demo_streaming(1)),
        "NEW_AND_OLD_IMAGES"
    );
    assert_eq!(stream(&seeded_demo(1)), serde_json::Value::Null);
    let churn = run(&["seed", "--no-stream", "--churn", "5", "--for", "1s"]);
    assert_eq!(churn.status.code(), Some(2), "{}", stderr(&churn));
    assert!(stderr(&churn).contains("--no-stream"), "{}", stderr(&churn));
}
