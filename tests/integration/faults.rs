//! Reliability under faults and throttling storms: the real binary against DynamoDB Local
//! through a fault-injecting proxy (tests/integration/common/fault_proxy.rs). Nothing may be lost or
//! duplicated, `--stats` must agree with what the proxy saw, a read that exhausts its retry
//! budget fails with one line, and the explorer only ever reads.

use crate::common;
use crate::common::fault_proxy;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use common::pty::Session;
use common::*;
use fault_proxy::{Fault, FaultConfig, FaultProxy};

/// Fault kinds the SDK retries (see `every_fault_kind_exhausts_a_small_retry_budget_cleanly`).
const RETRIED: [Fault; 7] = Fault::ALL;
const FAULT_RATE: f64 = 0.2;
const READ_OPERATIONS: [&str; 5] = [
    "ListTables",
    "DescribeTable",
    "DescribeTimeToLive",
    "Query",
    "Scan",
];

/// The tests share one demo table and run one at a time: the per-attempt timeout is 1 s, and
/// several parallel scans on 2 cores could make a fault-free attempt time out.
fn serial() -> MutexGuard<'static, ()> {
    common::attempt_timeouts()
}

/// The DynamoDB Local these tests read, apart from the shared one ([`common::timeouts_local`]).
fn endpoint() -> &'static str {
    &common::timeouts_local().endpoint
}

/// A 40-user demo table in [`endpoint`], seeded once.
fn demo_table() -> &'static str {
    static TABLE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| seeded_demo_at(endpoint(), 40))
}

/// `dynoscope --endpoint-url <proxy> --timeout 1 ARGS…`, timed.
fn run_via(proxy: &FaultProxy, args: &[&str]) -> (Output, Duration) {
    let mut full = vec!["--endpoint-url", proxy.url.as_str(), "--timeout", "1"];
    full.extend_from_slice(args);
    let started = Instant::now();
    let out = run_raw(&full, &[]);
    (out, started.elapsed())
}

fn keys_of(jsonl: &str) -> Vec<(String, String)> {
    lines(jsonl)
        .iter()
        .map(|item| {
            (
                item["PK"].as_str().expect("PK").to_string(),
                item["SK"].as_str().expect("SK").to_string(),
            )
        })
        .collect()
}

fn stat(stats: &serde_json::Value, name: &str) -> usize {
    stats[name]
        .as_u64()
        .unwrap_or_else(|| panic!("--stats has no {name}: {stats}")) as usize
}

fn kinds(by_kind: &BTreeMap<Fault, usize>) -> String {
    let parts: Vec<String> = by_kind
        .iter()
        .map(|(k, n)| format!("{}={n}", k.name()))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn write_operations(proxy: &FaultProxy) -> BTreeMap<String, usize> {
    proxy
        .operations()
        .into_iter()
        .filter(|(op, _)| !READ_OPERATIONS.contains(&op.as_str()))
        .collect()
}

#[test]
fn parallel_scan_under_faults_loses_and_duplicates_nothing() {
    let _serial = serial();
    let table = demo_table();
    let baseline = keys_of(&ok(run_at(
        endpoint(),
        &["scan", table, "--page-size", "25"],
    )));
    let expected: BTreeSet<_> = baseline.iter().cloned().collect();
    assert_eq!(
        expected.len(),
        baseline.len(),
        "the fault-free scan has duplicates"
    );

    for (seed, segments) in [(11u64, 1u32), (12, 4), (13, 16)] {
        let proxy = FaultProxy::start(endpoint(), FaultConfig::new(FAULT_RATE, seed, &RETRIED));
        let (out, elapsed) = run_via(
            &proxy,
            &[
                "scan",
                table,
                "--segments",
                &segments.to_string(),
                "--page-size",
                "25",
                "--max-attempts",
                "10",
                "--stats",
            ],
        );
        let stats = stats(&out);
        let text = ok(out);
        let got = keys_of(&text);
        let unique: BTreeSet<_> = got.iter().cloned().collect();
        let lost = expected.difference(&unique).count();
        let extra = unique.difference(&expected).count();
        let duplicated = got.len() - unique.len();
        let scans = proxy.requests("Scan");
        let faulted = proxy.faulted("Scan");
        let throttles = proxy.throttles("Scan");
        let writes = write_operations(&proxy);
        eprintln!(
            "scan segments={segments} seed={seed}: {}; Scan faults {} ; stats attempts={} throttles={} requests={} pages={}; proxy Scan requests={scans} faulted={faulted} throttled={throttles}; items compared={} got={} lost={lost} duplicated={duplicated} unexpected={extra}; write operations={writes:?}; {} ms",
            proxy.summary(),
            kinds(&proxy.faults("Scan")),
            stat(&stats, "attempts"),
            stat(&stats, "throttles"),
            stat(&stats, "requests"),
            stat(&stats, "pages"),
            expected.len(),
            got.len(),
            elapsed.as_millis(),
        );
        assert_eq!((lost, duplicated, extra), (0, 0, 0), "segments={segments}");
        assert!(faulted > 0, "no fault was injected: {}", proxy.summary());
        assert_eq!(stat(&stats, "count"), expected.len(), "{stats}");
        assert_eq!(
            stat(&stats, "attempts"),
            scans,
            "attempts vs proxy Scan requests: {stats}"
        );
        assert_eq!(
            stat(&stats, "throttles"),
            throttles,
            "throttles vs injected: {stats}"
        );
        assert_eq!(stat(&stats, "requests"), stat(&stats, "pages"), "{stats}");
        // Every unfaulted Scan is one page, but for one the 1 s attempt timeout gave up on
        // before its answer came (a loaded machine's DynamoDB Local can take that long): those
        // the proxy answered half a second or more after it read them may be missing.
        let pages = stat(&stats, "pages");
        let slow = proxy.slow("Scan", Duration::from_millis(500));
        assert!(
            pages <= scans - faulted && pages + slow >= scans - faulted,
            "every unfaulted Scan is one page ({scans} Scans, {faulted} faulted, {slow} slow): {stats}"
        );
        assert!(writes.is_empty(), "writes: {writes:?}");
    }
}

#[test]
fn paginated_query_under_faults_returns_the_same_ordered_items() {
    let _serial = serial();
    let table = demo_table();
    let args = [
        "query",
        table,
        "--pk",
        "USER#celebrity",
        "--page-size",
        "10",
    ];
    let baseline = ok(run_at(endpoint(), &args));
    let baseline_keys = keys_of(&baseline);
    assert!(baseline_keys.len() > 50, "{}", baseline_keys.len());

    let mut total_faults = 0;
    for seed in [21u64, 22, 23] {
        let proxy = FaultProxy::start(endpoint(), FaultConfig::new(FAULT_RATE, seed, &RETRIED));
        let mut full = args.to_vec();
        full.extend_from_slice(&["--max-attempts", "10", "--stats"]);
        let (out, elapsed) = run_via(&proxy, &full);
        let stats = stats(&out);
        let text = ok(out);
        let got = keys_of(&text);
        let queries = proxy.requests("Query");
        let faulted = proxy.faulted("Query");
        total_faults += faulted;
        let writes = write_operations(&proxy);
        eprintln!(
            "query seed={seed}: {}; Query faults {}; stats attempts={} throttles={} requests={} pages={}; proxy Query requests={queries} faulted={faulted}; items compared={} got={} identical order={}; write operations={writes:?}; {} ms",
            proxy.summary(),
            kinds(&proxy.faults("Query")),
            stat(&stats, "attempts"),
            stat(&stats, "throttles"),
            stat(&stats, "requests"),
            stat(&stats, "pages"),
            baseline_keys.len(),
            got.len(),
            text == baseline,
            elapsed.as_millis(),
        );
        assert_eq!(got, baseline_keys, "same keys in the same order");
        assert_eq!(text, baseline, "same items, byte for byte");
        assert_eq!(stat(&stats, "attempts"), queries, "{stats}");
        assert_eq!(
            stat(&stats, "throttles"),
            proxy.throttles("Query"),
            "{stats}"
        );
        assert_eq!(stat(&stats, "pages"), queries - faulted, "{stats}");
        assert!(writes.is_empty(), "writes: {writes:?}");
    }
    assert!(total_faults > 0, "no Query was faulted");
}

/// 100% faults on Scan after three good pages, `--max-attempts 2`: one stderr line naming the
/// error and how far the read got, exit code 1, in bounded time. Run once per fault kind and
/// once with all kinds mixed; the proxy's count says whether the SDK retried the kind.
#[test]
fn every_fault_kind_exhausts_a_small_retry_budget_cleanly() {
    let _serial = serial();
    let table = demo_table();
    let mut cases: Vec<(String, Vec<Fault>)> = Fault::ALL
        .iter()
        .map(|f| (f.name().to_string(), vec![*f]))
        .collect();
    cases.push(("all kinds".into(), Fault::ALL.to_vec()));
    let mut not_retried = Vec::new();
    let mut failures = Vec::new();
    for (name, kinds) in cases {
        let proxy = FaultProxy::start(
            endpoint(),
            FaultConfig::new(1.0, 7, &kinds).only(&["Scan"]).after(3),
        );
        let (out, elapsed) = run_via(
            &proxy,
            &["scan", table, "--page-size", "25", "--max-attempts", "2"],
        );
        let err = stderr(&out);
        let written = stdout(&out).lines().count();
        let scans = proxy.requests("Scan");
        let faulted = proxy.faulted("Scan");
        eprintln!(
            "budget {name}: exit={:?} attempts seen by proxy={scans} (3 good + {faulted} faulted) items written={written} {} ms; stderr: {}",
            out.status.code(),
            elapsed.as_millis(),
            err.trim_end()
        );
        if faulted < 2 {
            not_retried.push(format!("{name} ({faulted} attempt)"));
        }
        // One line naming the error and the endpoint, and how far the read got.
        let line_ok = err.lines().count() == 1
            && err.starts_with("error: ")
            && err.contains(&proxy.url)
            && err.contains("2 attempts; 75 items in 3 pages were written before the failure");
        if out.status.code() != Some(1)
            || !line_ok
            || written != 75
            || elapsed > Duration::from_secs(20)
        {
            failures.push(format!(
                "{name}: exit {:?}, {written} items, {} ms, stderr {err:?}",
                out.status.code(),
                elapsed.as_millis()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        not_retried.is_empty(),
        "the SDK did not retry: {not_retried:?}"
    );
}

/// A parallel scan that fails part-way: `--stats` must still account for every attempt the
/// proxy saw, including those of segments stopped because another one failed.
#[test]
fn failed_parallel_scan_stats_account_for_every_attempt() {
    let _serial = serial();
    let table = demo_table();
    for seed in [41u64, 42, 43] {
        let proxy = FaultProxy::start(
            endpoint(),
            FaultConfig::new(1.0, seed, &[Fault::InternalServerError])
                .only(&["Scan"])
                .after(8),
        );
        let (out, elapsed) = run_via(
            &proxy,
            &[
                "scan",
                table,
                "--segments",
                "4",
                "--page-size",
                "25",
                "--max-attempts",
                "2",
                "--stats",
            ],
        );
        let stats = stats(&out);
        let err = stderr(&out);
        let written = stdout(&out).lines().count();
        let scans = proxy.requests("Scan");
        let faulted = proxy.faulted("Scan");
        eprintln!(
            "failed 4-segment scan seed={seed}: exit={:?} proxy Scan requests={scans} (good {} + faulted {faulted}); stats attempts={} requests={} pages={} count={}; items written={written}; {} ms; stderr first line: {}",
            out.status.code(),
            scans - faulted,
            stat(&stats, "attempts"),
            stat(&stats, "requests"),
            stat(&stats, "pages"),
            stat(&stats, "count"),
            elapsed.as_millis(),
            err.lines().next().unwrap_or_default()
        );
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 2, "error line + stats line: {err}");
        assert_eq!(stat(&stats, "count"), written, "{stats}");
        assert_eq!(
            stat(&stats, "attempts"),
            scans,
            "attempts vs proxy: {stats}"
        );
    }
}

#[test]
fn the_explorer_under_faults_sends_only_read_operations() {
    let _serial = serial();
    let table = demo_table();
    let proxy = FaultProxy::start(
        endpoint(),
        // Seed 33 at 30% faults the first requests (ListTables, its retry, …).
        FaultConfig::new(0.3, 33, &RETRIED),
    );
    let mut s = Session::spawn(
        &[
            "--endpoint-url",
            &proxy.url,
            "--timeout",
            "1",
            "--max-attempts",
            "10",
        ],
        &[],
        40,
        120,
    );
    s.wait_text("Tables (");
    s.keys(table);
    s.wait_text("PAY_PER_REQUEST");
    s.keys("\r");
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    s.keys("p");
    s.wait_text("Query partition key PK (S)");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
    s.keys("\t");
    s.keys("\r");
    s.wait_text("\"PK\": \"USER#celebrity\"");
    s.keys("n");
    s.keys("q");
    let status = s.wait_exit();
    let ops = proxy.operations();
    let writes = write_operations(&proxy);
    eprintln!(
        "explorer: {}; write operations={writes:?}; exit {status:?}",
        proxy.summary()
    );
    assert!(status.success(), "exit status {status:?}");
    assert!(
        writes.is_empty(),
        "the explorer wrote: {writes:?} (all: {ops:?})"
    );
    assert!(ops.get("Scan").copied().unwrap_or(0) >= 1, "{ops:?}");
    assert!(ops.get("Query").copied().unwrap_or(0) >= 1, "{ops:?}");
    assert!(
        proxy.log().iter().any(|r| r.fault.is_some()),
        "{}",
        proxy.summary()
    );
}

/// A scan to JSON lines needs only `dynamodb:Scan`: it sends no DescribeTable (on DynamoDB
/// Local that call counts the whole table first). Checking an index by name, or laying out a
/// `table`, still describes the table.
#[test]
fn a_plain_scan_sends_only_scan_requests() {
    let _serial = serial();
    let table = demo_table();
    let proxy = FaultProxy::start(endpoint(), FaultConfig::none());
    for (args, describes) in [
        (vec!["scan", table, "--segments", "3"], false),
        (vec!["scan", table, "--output", "ddb-jsonl"], false),
        (
            vec!["scan", table, "--output", "table", "--limit", "5"],
            true,
        ),
        (vec!["scan", table, "--index", "GSI1", "--limit", "5"], true),
    ] {
        proxy.clear_log();
        let (out, _) = run_via(&proxy, &args);
        assert!(!ok(out).is_empty(), "{args:?} wrote nothing");
        let operations = proxy.operations();
        assert_eq!(
            operations.contains_key("DescribeTable"),
            describes,
            "{args:?}: {operations:?}"
        );
        assert!(
            operations.get("Scan").is_some_and(|&n| n > 0),
            "{args:?}: {operations:?}"
        );
    }
}
