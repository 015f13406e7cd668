//! DynamoDB says why it throttled: the fault proxy in front of DynamoDB Local answers with
//! `ThrottlingReasons` in the awsJson1.0 error body, the SDK's own parsing reads them, and
//! they reach `--stats`, the stderr note and (for a write) the failure's attempts.

use crate::common;
use crate::common::fault_proxy;

use common::*;
use dynoscope::aws::write::{AuditLog, WriteBackend, WriteFailure, Writer};
use dynoscope::aws::{connect, ConnectOptions};
use dynoscope::model::design::schema::{KeyAttr, KeySchema, KeyType};
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::traffic::throttle::ThrottleReason;
use dynoscope::model::write::plan_create;
use fault_proxy::{Fault, FaultConfig, FaultProxy};

const GSI_ARN: &str = "arn:aws:dynamodb:us-east-1:000000000000:table/demo/index/GSI1";
const TABLE_ARN: &str = "arn:aws:dynamodb:us-east-1:000000000000:table/demo";

#[test]
fn a_throttled_scan_counts_its_reasons_in_stats_and_says_them() {
    let table = seeded_demo(5);
    // Every Scan throttled twice (both error shapes), then answered.
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 3, &[Fault::ProvisionedThroughput, Fault::Throttling])
            .only(&["Scan"])
            .with_reason("IndexReadKeyRangeThroughputExceeded", GSI_ARN),
    );
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "--max-attempts",
            "3",
            "scan",
            &table,
            "--stats",
        ],
        &[],
    );
    // With every Scan throttled the read fails; its statistics still say why.
    let stats = stats(&out);
    let throttles = proxy.throttles("Scan") as u64;
    assert_eq!(stats["throttles"].as_u64(), Some(throttles), "{stats}");
    assert_eq!(
        stats["throttle_reasons"],
        serde_json::json!([{
            "reason": "IndexReadKeyRangeThroughputExceeded",
            "resource": GSI_ARN,
            "count": throttles
        }]),
        "{}",
        proxy.summary()
    );
    let err = stderr(&out);
    // The failure's one line says why; the statistics line follows it.
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains(&format!(
            "were written before the failure); DynamoDB throttled {throttles} attempts: hot key range · index GSI1 ×{throttles}"
        )),
        "{err}"
    );
}

#[test]
fn a_scan_throttled_once_succeeds_and_reports_why() {
    let table = seeded_demo(5);
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 3, &[Fault::ProvisionedThroughput])
            .only(&["Scan"])
            .at_most(1)
            .with_reason("TableReadProvisionedThroughputExceeded", TABLE_ARN),
    );
    let out = run_raw(
        &["--endpoint-url", &proxy.url, "scan", &table, "--stats"],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = stats(&out);
    assert_eq!(stats["throttles"].as_u64(), Some(1), "{stats}");
    assert_eq!(
        stats["throttle_reasons"][0]["reason"],
        "TableReadProvisionedThroughputExceeded"
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "throttled 1 attempt (the SDK retried them): over provisioned capacity · table demo ×1"
        ),
        "{err}"
    );
}

/// A write's throttles are counted like a read's: a PutItem throttled to the end of its
/// retries fails with every attempt and reason it cost.
#[tokio::test]
async fn a_throttled_write_fails_with_its_attempts_and_reasons() {
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 5, &[Fault::ProvisionedThroughput])
            .only(&["PutItem"])
            .with_reason("IndexWriteKeyRangeThroughputExceeded", GSI_ARN),
    );
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        max_attempts: Some(3),
        ..Default::default()
    })
    .await
    .unwrap();
    let w = Writer::new(&conn, AuditLog::in_dir(dir.path()));
    let key = |name: &str| KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    };
    let keys = KeySchema::simple(key("PK"), Some(key("SK")));
    let item = Item::from_attrs(vec![
        ("PK".into(), AttrValue::S("THROTTLED#1".into())),
        ("SK".into(), AttrValue::S("A".into())),
    ]);
    let plan = plan_create(&table, &keys, &item, None).unwrap();
    match w.write(plan).await {
        Err(WriteFailure::Failed { attempts, .. }) => {
            assert_eq!((attempts.attempts, attempts.throttles), (3, 3));
            assert_eq!(
                attempts.reasons,
                vec![
                    ThrottleReason::new(
                        "IndexWriteKeyRangeThroughputExceeded",
                        Some(GSI_ARN.into())
                    );
                    3
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.throttles("PutItem"), 3, "{}", proxy.summary());
}
