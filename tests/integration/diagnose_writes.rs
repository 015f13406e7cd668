//! `diagnose --sample-writes`: where Contributor Insights is off, following the table's stream
//! (DynamoDB Local's) names the key the writes land on. A known mix is written while the
//! binary follows: a hot GSI key, which the scripted CloudWatch says throttles GSI1's writes on
//! a hot key range while the table has capacity to spare.

use crate::common;
use crate::common::cloudwatch;
use crate::common::fault_proxy;
use crate::common::stream_writes;

use std::time::Duration;

use aws_sdk_dynamodb::types::StreamViewType;
use cloudwatch::{CloudWatch, Script};
use common::*;
use fault_proxy::{FaultConfig, FaultProxy};
use stream_writes::*;

#[test]
fn sample_writes_names_the_gsi_key_the_writes_land_on() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let client = rt.block_on(client());
    let table = table_name("diagwrites");
    rt.block_on(create_table(
        &client,
        &table,
        Some(StreamViewType::NewAndOldImages),
    ));
    let ops = mix(&Model::default(), 0, 200);
    let (mut model, mut expected) = (Model::default(), Expected::default());
    for op in &ops {
        model.apply(op, &mut expected);
    }
    // GSI1's writes throttle on a hot key range, now (--since 10m: 11 points).
    let cw = CloudWatch::start(Script::default().gsi1_write_storm(&table, 11));
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::none().answer(
            "DescribeContributorInsights",
            200,
            r#"{"TableName":"t","ContributorInsightsStatus":"DISABLED"}"#,
        ),
    );
    let mut diagnose = Running::spawn_with(
        &proxy.url,
        &[
            "diagnose",
            &table,
            "--since",
            "60s",
            "--sample-writes",
            // The 200 writes below must all land inside the window: it ends a second after
            // the last of them arrives (debug builds only), so the test waits for the event,
            // not for the clock; its ten minutes are a backstop that a loaded machine's slow
            // writes cannot outlast.
            "10m",
            "--output",
            "json",
        ],
        &[
            ("AWS_ENDPOINT_URL_CLOUDWATCH", &cw.url),
            (WINDOW_ENDS_AFTER, &expected.changes.len().to_string()),
        ],
    );
    diagnose.wait_for("diagnose: following", Duration::from_secs(60));
    rt.block_on(write(&client, &table, &ops));
    let (status, out, err) = diagnose.finish(Duration::from_secs(11 * 60));
    assert_eq!(status.code(), Some(3), "throttling now: {err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sample = &report["sampled_keys"][0];
    assert_eq!(sample["target"]["index"], "GSI1", "{out}");
    assert_eq!(sample["from"], "writes", "{out}");
    assert_eq!(sample["key"], HOT_GSI_KEY, "{out}");
    assert_eq!(sample["items"], expected.by_gsi[HOT_GSI_KEY], "{out}");
    let says = report["verdicts"][0]["says"].as_str().unwrap();
    assert!(
        says.contains(&format!(
            "Contributor Insights is off; the key written most is '{HOT_GSI_KEY}' ("
        )),
        "{says}"
    );
    assert_eq!(
        proxy.requests("Scan"),
        0,
        "the stream only: no read capacity"
    );
}
