//! Issue 31, "honest capacity", counted through the fault proxy: a read is sent only for an
//! action that names one. `partiql --explain` and a refused statement send none; `--sample`
//! states its estimate first and is read under the guard; a statement sent as
//! ExecuteStatement stops at `--max-rcu` and reports its `--stats`.

use crate::common;
use crate::common::fault_proxy;

use common::*;
use fault_proxy::{FaultConfig, FaultProxy};

fn demo() -> &'static str {
    shared_demo(60)
}

/// `dynoscope --endpoint-url <proxy> partiql ARGS…`.
fn partiql(proxy: &FaultProxy, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--endpoint-url", &proxy.url, "partiql"];
    all.extend_from_slice(args);
    run_raw(&all, &[])
}

/// Requests that read items (and spend read capacity).
fn reads(proxy: &FaultProxy) -> usize {
    [
        "Scan",
        "Query",
        "ExecuteStatement",
        "GetItem",
        "BatchGetItem",
    ]
    .iter()
    .map(|op| proxy.requests(op))
    .sum()
}

#[test]
fn explain_and_refusals_send_no_read() {
    let table = demo();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let scan = format!("SELECT * FROM \"{table}\" WHERE status = 'SHIPPED'");
    let untranslated = format!("SELECT * FROM \"{table}\" WHERE total IS NOT NULL");

    let text = ok(partiql(&proxy, &[&scan, "--explain"]));
    assert!(text.starts_with("Scan of the whole table"), "{text}");
    assert!(
        text.contains(
            "no items were read to look for an index that serves it; --sample reads 200 (≈ "
        ),
        "{text}"
    );
    let refused = partiql(&proxy, &[&scan, "--max-rcu", "0.5"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let err = stderr(&refused);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("add --allow-scan"), "{err}");
    assert!(err.contains("--sample reads 200 (≈ "), "{err}");

    ok(partiql(&proxy, &[&untranslated, "--explain"]));
    let refused = partiql(&proxy, &[&untranslated]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));

    assert_eq!(reads(&proxy), 0, "{}", proxy.summary());
    assert!(proxy.requests("DescribeTable") > 0, "{}", proxy.summary());

    // --sample where no advice is asked for cannot hold: refused, not ignored.
    let odd = partiql(&proxy, &[&scan, "--allow-scan", "--sample"]);
    assert_eq!(odd.status.code(), Some(2), "{}", stderr(&odd));
    assert!(stderr(&odd).contains("drop --sample"), "{}", stderr(&odd));
    assert_eq!(reads(&proxy), 0, "{}", proxy.summary());
}

#[test]
fn a_sample_says_its_estimate_first_and_is_read_under_the_guard() {
    let table = demo();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let scan = format!("SELECT * FROM \"{table}\" WHERE status = 'SHIPPED'");
    let out = partiql(&proxy, &[&scan, "--sample"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "note: sampling 200 items of '{table}' to look for an index: ≈ "
        )),
        "{err}"
    );
    assert!(err.contains("sampled matches)"), "{err}");
    assert_eq!(proxy.requests("Scan"), 1, "{}", proxy.summary());

    // Under --max-rcu 0.5 the guard sizes the sample to what the budget allows.
    proxy.clear_log();
    let out = partiql(&proxy, &[&scan, "--sample", "--max-rcu", "0.5", "--stats"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let bodies = proxy.bodies("Scan");
    assert_eq!(bodies.len(), 1, "{}", proxy.summary());
    assert!(bodies[0].contains("\"Limit\":1"), "{}", bodies[0]);
    let stats: serde_json::Value = stderr(&out)
        .lines()
        .find_map(|l| serde_json::from_str(l).ok())
        .expect("a --stats line");
    assert_eq!(stats["requests"], 1, "{stats}");
    assert!(
        stats["consumed_capacity"]["total"].as_f64().unwrap() <= 0.5,
        "{stats}"
    );
}

#[test]
fn an_execute_statement_stops_at_max_rcu_and_reports_its_stats() {
    let table = demo();
    let statement = format!("SELECT * FROM \"{table}\" WHERE total IS NOT NULL");
    // Real DynamoDB reports ExecuteStatement's capacity; the proxy says so for Local.
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::none().report_consumed("ExecuteStatement", 0.5),
    );
    let out = partiql(
        &proxy,
        &[&statement, "--allow-scan", "--max-rcu", "1", "--stats"],
    );
    let err = stderr(&out);
    let stats = common::stats(&out);
    let sent = proxy.bodies("ExecuteStatement");
    assert!(!sent.is_empty() && sent.len() <= 3, "{}", proxy.summary());
    for body in &sent {
        assert!(body.contains("\"Limit\":"), "{body}");
        assert!(
            body.contains("\"ReturnConsumedCapacity\":\"INDEXES\""),
            "{body}"
        );
    }
    assert_eq!(stats["requests"], sent.len() as u64, "{stats}");
    let total = stats["consumed_capacity"]["total"].as_f64().unwrap();
    assert!((1.0..=1.5).contains(&total), "{stats}");
    assert!(err.contains("stopped at --max-rcu 1"), "{err}");
    let written = lines(&ok(out)).len() as u64;
    assert_eq!(stats["count"], written, "{stats}");

    // DynamoDB Local says nothing: each page is charged its worst case, never zero, and
    // --stats says how many were.
    let bare = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let out = partiql(
        &bare,
        &[&statement, "--allow-scan", "--max-rcu", "1", "--stats"],
    );
    let err = stderr(&out);
    let stats = common::stats(&out);
    assert_eq!(bare.requests("ExecuteStatement"), 1, "{}", bare.summary());
    assert_eq!(stats["consumed_capacity"]["unreported_pages"], 1, "{stats}");
    assert!(
        stats["consumed_capacity"]["total"].as_f64().unwrap() >= 1.0,
        "{stats}"
    );
    assert!(err.contains("came back without ConsumedCapacity"), "{err}");
    ok(out);

    // ExecuteStatement has no segments: --segments cannot hold, so it is refused, not ignored.
    let out = partiql(&bare, &[&statement, "--allow-scan", "--segments", "4"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("drop --segments"), "{}", stderr(&out));
    assert_eq!(bare.requests("ExecuteStatement"), 1, "{}", bare.summary());
}

/// Scan and Query requests the proxy has seen.
fn item_reads(proxy: &FaultProxy) -> usize {
    proxy.requests("Scan") + proxy.requests("Query")
}

#[test]
fn an_explorer_session_reads_only_when_a_key_names_a_read() {
    use common::pty::Session;
    use std::time::Duration;
    let table = demo();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let mut s = Session::spawn(&["--endpoint-url", &proxy.url, table], &[], 40, 120);
    s.wait_for("the opening scan", |sc| sc.contains("Scan · 1 page ·"));
    let opened = item_reads(&proxy);
    assert_eq!(opened, 1, "{}", proxy.summary());
    // Browse, help, then the builder: open, type, complete, move, PartiQL's EXPLAIN, close.
    s.keys("jk");
    s.keys("?");
    s.keys("\u{1b}");
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("USER#ce");
    s.wait_text("Ctrl-S sample 100 keys · ≈ ");
    s.keys("\t");
    s.wait_text("USER#celebrity");
    s.keys("\t\t");
    s.keys("\u{12}\u{12}"); // Ctrl-R twice: PartiQL mode, prefilled up to WHERE
    s.keys("status = 'SHIPPED'");
    s.wait_text("Scan of the whole table");
    s.keys("\u{1b}\u{1b}");
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.settle(Duration::from_millis(500), Duration::from_secs(5));
    assert_eq!(item_reads(&proxy), opened, "{}", proxy.summary());

    // Ctrl-S names a read: one keys-only page, its estimate said first.
    s.keys("U");
    s.keys("\u{13}");
    s.wait_text("sampling 100 keys of");
    s.wait_for("the sample sent", |_| item_reads(&proxy) == opened + 1);
    let body = proxy.bodies("Scan").pop().unwrap();
    assert!(body.contains("\"Limit\":100"), "{body}");
    assert!(body.contains("\"ProjectionExpression\""), "{body}");
    // Kept for the session: closing and opening again reads nothing, nor does Ctrl-S again.
    s.keys("\u{1b}\u{1b}");
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("U\u{13}");
    s.keys("\u{1b}\u{1b}q");
    assert!(s.wait_exit().success());
    assert_eq!(item_reads(&proxy), opened + 1, "{}", proxy.summary());
}
