//! A throttling storm with reasons, end to end: the fault proxy in front of DynamoDB Local
//! throttles reads with `ThrottlingReasons` (a hot key range on the table) and answers
//! Contributor Insights as off; the scripted CloudWatch says the table throttles with capacity
//! to spare. The real binary in a pseudo-terminal shows the reason in the request log, and the
//! metrics pane (`M`) the series, the verdict and (`I`) Contributor Insights' state; headless,
//! `scan --stats` counts the reasons and `diagnose` gives the same verdict and exits 3.

use crate::common;
use crate::common::cloudwatch;
use crate::common::fault_proxy;

use std::time::Duration;

use cloudwatch::{CloudWatch, Script};
use common::pty::Session;
use common::*;
use fault_proxy::{Fault, FaultConfig, FaultProxy};

const TABLE_ARN: &str = "arn:aws:dynamodb:us-east-1:000000000000:table/storm";

/// The table's reads throttle on a hot key range at a fifth of what is provisioned, every
/// minute of the last three hours (the scripted server answers a value a period from the
/// window's start: 181 fill the pane's window, so the storm is now).
fn storm_script(t: &str) -> Script {
    let table = [("TableName", t)];
    Script::default()
        .series("ConsumedReadCapacityUnits", &table, "Sum", &[1200.0; 181])
        .series(
            "ProvisionedReadCapacityUnits",
            &table,
            "Average",
            &[100.0; 181],
        )
        .series("ReadThrottleEvents", &table, "Sum", &[30.0; 181])
        .series(
            "ReadKeyRangeThroughputThrottleEvents",
            &table,
            "Sum",
            &[30.0; 181],
        )
}

/// Reads throttled (at most `n` times) with the hot-key-range reason; Contributor Insights off.
fn storm_proxy(n: usize) -> FaultProxy {
    FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 7, &[Fault::ProvisionedThroughput])
            .only(&["Scan", "Query"])
            .at_most(n)
            .with_reason("TableReadKeyRangeThroughputExceeded", TABLE_ARN)
            .answer(
                "DescribeContributorInsights",
                200,
                r#"{"TableName":"t","ContributorInsightsStatus":"DISABLED"}"#,
            ),
    )
}

/// The screen's rows as one running text: borders dropped, each row's ends trimmed.
fn flowing(screen: &str) -> String {
    screen
        .lines()
        .map(|row| row.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ")
}

const VERDICT: &str = "table: throttling with capacity to spare — hot partition";

#[test]
fn a_storm_shows_its_reasons_series_and_verdict_in_the_explorer_and_headless() {
    let table = seeded_demo(2);
    let cw = CloudWatch::start(storm_script(&table));
    let cw_env = [("AWS_ENDPOINT_URL_CLOUDWATCH", cw.url.as_str())];

    // Headless: the reasons are counted in --stats, and diagnose says the verdict, exit 3.
    let proxy = storm_proxy(2);
    let out = run_raw(
        &["--endpoint-url", &proxy.url, "scan", &table, "--stats"],
        &cw_env,
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("hot key range · table storm ×2"),
        "the note says why: {err}"
    );
    let stats: serde_json::Value =
        serde_json::from_str(err.lines().last().unwrap_or_default()).expect("--stats JSON");
    assert_eq!(
        stats["throttle_reasons"],
        serde_json::json!([{
            "reason": "TableReadKeyRangeThroughputExceeded",
            "resource": TABLE_ARN,
            "count": 2
        }]),
        "{err}"
    );
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "diagnose",
            &table,
            "--since",
            "10m",
        ],
        &cw_env,
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(&format!("- now: {VERDICT}")),
        "{}",
        stdout(&out)
    );

    // The explorer: the first page was throttled twice before it came.
    let proxy = storm_proxy(2);
    let mut s = Session::spawn(&["--endpoint-url", &proxy.url, &table], &cw_env, 40, 120);
    let screen = s.wait_text("hot key range");
    assert!(screen.contains("kinds: "), "the items came: {screen}");
    s.keys("M");
    let screen = s.wait_text(VERDICT);
    for text in [
        "now: ",
        "RCU consumed /s",
        "RCU provisioned /s",
        "read throttle events",
        "key range 5430",
    ] {
        assert!(screen.contains(text), "{text}: {screen}");
    }
    s.keys("I");
    let screen = s.wait_text("update-contributor-insights");
    assert!(screen.contains("DISABLED"), "{screen}");
    // Its answer feeds the verdict, which now says how to name the key without it (the
    // verdict wraps: read it as running text).
    s.wait_for("the verdict without Contributor Insights", |screen| {
        flowing(screen)
            .contains("Contributor Insights is off: aws dynamodb update-contributor-insights")
    });
    s.keys("\x1b");
    s.wait_for("the pane closed", |screen| !screen.contains(VERDICT));
    s.keys("q");
    let status = s.wait_exit_within(Duration::from_secs(20));
    assert!(status.success(), "{status:?}");
    assert_eq!(
        proxy.requests("UpdateContributorInsights"),
        0,
        "never enabled: it is billed"
    );
    let sent: Vec<_> = cw.received().into_iter().map(|r| r.operation).collect();
    assert!(sent.iter().any(|o| o == "GetMetricData"), "{sent:?}");
}
