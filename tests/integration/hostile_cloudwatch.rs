//! CloudWatch answering without end (a 2 GB Content-Length, an endless chunked body, a body
//! read to the end of the connection): `metrics` and `insights` fail with one line and the
//! process's peak memory stays near the 16 MiB cap every SDK client has, measured as the
//! child's own high-water resident set (`common::peak_memory`).

use crate::common;
use crate::common::fake_dynamo;
use crate::common::fault_proxy;

use std::io::Write;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::*;
use fake_dynamo::FakeDynamo;

#[derive(Debug, Clone, Copy)]
enum Flood {
    HugeLength,
    Chunked,
    CloseDelimited,
}

/// A CloudWatch whose every answer is `flood`: 1 MiB of spaces at a time until the client
/// hangs up (4 GiB at most), counted in `sent`.
fn hostile_cloudwatch(flood: Flood, sent: Arc<AtomicUsize>) -> FakeDynamo {
    FakeDynamo::start_raw(move |_, _, stream| {
        let head = match flood {
            Flood::HugeLength => "HTTP/1.1 200 OK\r\nsmithy-protocol: rpc-v2-cbor\r\nContent-Type: application/cbor\r\nContent-Length: 2000000000\r\n\r\n",
            Flood::Chunked => "HTTP/1.1 200 OK\r\nsmithy-protocol: rpc-v2-cbor\r\nContent-Type: application/cbor\r\nTransfer-Encoding: chunked\r\n\r\n",
            Flood::CloseDelimited => "HTTP/1.1 200 OK\r\nsmithy-protocol: rpc-v2-cbor\r\nContent-Type: application/cbor\r\nConnection: close\r\n\r\n",
        };
        if stream.write_all(head.as_bytes()).is_err() {
            return false;
        }
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..4096 {
            let written = match flood {
                Flood::Chunked => stream
                    .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                    .and_then(|()| stream.write_all(&chunk))
                    .and_then(|()| stream.write_all(b"\r\n")),
                _ => stream.write_all(&chunk),
            };
            if written.is_err() {
                return false;
            }
            sent.fetch_add(chunk.len(), Ordering::Relaxed);
        }
        false
    })
}

struct Finished {
    code: Option<i32>,
    stderr: String,
    /// The child's own peak resident set in MiB (`common::peak_memory`).
    peak_mib: u64,
}

/// Runs the binary to its end and reads its peak memory as it runs; killed after two minutes.
fn run_measured(args: &[&str], env: &[(&str, &str)]) -> Finished {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let run = common::peak_memory::run(&mut cmd, Duration::from_secs(120));
    Finished {
        code: run.status.code(),
        stderr: String::from_utf8_lossy(&run.stderr).into_owned(),
        peak_mib: run.peak_kb / 1024,
    }
}

/// The peak memory of a `tables` run that fails at once, as the baseline a capped failure is
/// measured against.
fn baseline_mib() -> u64 {
    run_measured(&["--endpoint-url", "http://127.0.0.1:9", "tables"], &[]).peak_mib
}

fn assert_capped(what: &str, flood: Flood, run: Finished, sent: &AtomicUsize, base: u64) {
    let err = &run.stderr;
    eprintln!(
        "{what} {flood:?}: peak {} MiB (baseline {base} MiB), {} MiB sent",
        run.peak_mib,
        sent.load(Ordering::Relaxed) >> 20
    );
    assert_eq!(run.code, Some(1), "{what} {flood:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what} {flood:?}: {err}");
    assert!(
        err.contains("larger than the 16 MiB cap"),
        "{what} {flood:?}: {err}"
    );
    if let Flood::HugeLength = flood {
        assert!(err.contains("Content-Length 2000000000"), "{err}");
    }
    // The cap (16 MiB) and the SDK's buffers over the baseline, never the flood (GiB).
    assert!(
        run.peak_mib < base + 128,
        "{what} {flood:?}: peak {} MiB over a {base} MiB baseline",
        run.peak_mib
    );
}

#[test]
fn a_flooding_cloudwatch_is_one_line_and_bounded_memory() {
    let base = baseline_mib();
    let table = seeded_demo(1);
    for flood in [Flood::HugeLength, Flood::Chunked, Flood::CloseDelimited] {
        let sent = Arc::new(AtomicUsize::new(0));
        let cw = hostile_cloudwatch(flood, sent.clone());
        let run = run_measured(
            &[
                "--endpoint-url",
                &local().endpoint,
                "metrics",
                &table,
                "--since",
                "10m",
            ],
            &[("AWS_ENDPOINT_URL_CLOUDWATCH", &cw.endpoint)],
        );
        assert_capped("metrics", flood, run, &sent, base);
    }
}

const GSI_RULE: &str = "DynamoDBContributorInsights-PKT-GSI1-1700000000000";

#[test]
fn a_flooding_contributor_insights_report_is_one_line_and_bounded_memory() {
    let base = baseline_mib();
    let table = seeded_demo(1);
    let gsi = format!(
        r#"{{"TableName":"t","IndexName":"GSI1","ContributorInsightsRuleList":["{GSI_RULE}"],"ContributorInsightsStatus":"ENABLED","ContributorInsightsMode":"THROTTLED_KEYS"}}"#
    );
    let proxy = fault_proxy::FaultProxy::start(
        &local().endpoint,
        fault_proxy::FaultConfig::none()
            .answer_when("DescribeContributorInsights", "\"IndexName\"", 200, &gsi)
            .answer(
                "DescribeContributorInsights",
                200,
                r#"{"TableName":"t","ContributorInsightsStatus":"DISABLED"}"#,
            ),
    );
    for flood in [Flood::HugeLength, Flood::Chunked, Flood::CloseDelimited] {
        let sent = Arc::new(AtomicUsize::new(0));
        let cw = hostile_cloudwatch(flood, sent.clone());
        let run = run_measured(
            &[
                "--endpoint-url",
                &proxy.url,
                "insights",
                &table,
                "--since",
                "10m",
            ],
            &[("AWS_ENDPOINT_URL_CLOUDWATCH", &cw.endpoint)],
        );
        assert_capped("insights", flood, run, &sent, base);
    }
}
