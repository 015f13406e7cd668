//! The capacity-guard contract against DynamoDB Local, as docs/capacity.md states it:
//! - with `--max-rcu B`, consumed capacity never exceeds B plus the cost of one page;
//! - with `--rcu-per-second R`, the capacity of the requests sent in any window of T seconds
//!   (one second, or ten and more: the rate holds on average too) never exceeds R × T plus the
//!   cost of one page;
//! - anything that continues a budget-stopped read asks for a new budget first (the explorer's
//!   side of it is in `crates/dynoscope-explorer/src/app/update/scan_tests.rs` and
//!   `continue_tests.rs`);
//!
//! at 1, 4, 16 and 64 segments, with a filter and without, and for a 10-shard fan-out, through
//! the engine (which sees every page's cost and send time) and through the headless commands
//! (`query --pk-shards`, `run`, and `partiql` with an IN or an OR of the ten shard keys).

use crate::common;

use std::time::Duration;

use common::*;
use dynoscope::aws::ReadCause;
use dynoscope::aws::{
    connect, ConnectOptions, DoneOutcome, Engine, EngineEvent, Operation, Page, ReadSpec,
};
use dynoscope::model::item::value::AttrValue;

/// One demo table for the whole binary: 3,944 items, a full scan costs about 37 RCU.
fn table() -> &'static str {
    shared_demo(200)
}

async fn engine() -> Engine {
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(local().endpoint.clone()),
        region: Some("us-east-1".into()),
        ..Default::default()
    })
    .await
    .unwrap();
    Engine::new(&conn)
}

async fn read_all(engine: &Engine, spec: ReadSpec) -> (Vec<Page>, DoneOutcome) {
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let handle = engine.start_read(spec, tx);
    let mut pages = Vec::new();
    let mut outcome = None;
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => pages.push(p),
            EngineEvent::Done { outcome: o, .. } => outcome = Some(o),
            EngineEvent::Failed { error, .. } => panic!("{error}"),
            EngineEvent::Abandoned { .. } | EngineEvent::Integrity { .. } => {}
        }
    }
    handle.join().await;
    (pages, outcome.expect("a final event"))
}

fn scan(segments: u32, filtered: bool) -> ReadSpec {
    let mut spec = ReadSpec::new(Operation::Scan, table(), ReadCause::Test);
    spec.segments = segments;
    if filtered {
        spec.filter = Some("#s = :s".into());
        spec.names = vec![("#s".into(), "status".into())];
        spec.values = vec![(":s".into(), AttrValue::S("SHIPPED".into()))];
    }
    spec
}

/// The ten write shards of the pending-orders GSI key, as one read.
fn shards() -> ReadSpec {
    let mut spec = ReadSpec::new(Operation::Query, table(), ReadCause::Test);
    spec.index = Some("GSI1".into());
    spec.key_condition = Some("#pk = :pk".into());
    spec.names = vec![("#pk".into(), "GSI1PK".into())];
    spec.shards = (0..10)
        .map(|n| vec![(":pk".into(), AttrValue::S(format!("STATUS#PENDING#{n}")))])
        .collect();
    spec.values = spec.shards[0].clone();
    spec.limit_per_segment = true;
    spec
}

fn spent(pages: &[Page]) -> f64 {
    pages.iter().map(|p| p.consumed.total).sum()
}

fn largest(pages: &[Page]) -> f64 {
    pages.iter().map(|p| p.consumed.total).fold(0.0, f64::max)
}

fn label(spec: &ReadSpec) -> String {
    format!(
        "{} with {} segments{}",
        spec.operation.as_str(),
        spec.segment_count(),
        if spec.filter.is_some() {
            " and a filter"
        } else {
            ""
        }
    )
}

fn cases() -> Vec<ReadSpec> {
    let mut cases: Vec<ReadSpec> = [1, 4, 16, 64]
        .into_iter()
        .flat_map(|n| [scan(n, false), scan(n, true)])
        .collect();
    cases.push(shards());
    cases
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_is_never_passed_by_more_than_one_page() {
    let engine = engine().await;
    let (whole, _) = read_all(&engine, scan(1, false)).await;
    assert!(
        spent(&whole) > 30.0,
        "the table must cost more than the budgets"
    );
    let (all_shards, _) = read_all(&engine, shards()).await;
    for mut spec in cases() {
        // A third of what the read costs, at least one unit.
        let full = if spec.shards.is_empty() {
            spent(&whole)
        } else {
            spent(&all_shards)
        };
        let budget = (full / 3.0).max(1.0).floor();
        spec.budget.max_rcu = Some(budget);
        let name = label(&spec);
        let (pages, outcome) = read_all(&engine, spec).await;
        let (spent, page) = (spent(&pages), largest(&pages));
        assert_eq!(outcome, DoneOutcome::BudgetReached, "{name}");
        assert!(
            spent <= budget + page,
            "{name}: spent {spent} of a {budget} budget, largest page {page}"
        );
        assert!(
            spent >= budget,
            "{name}: stopped early at {spent} of {budget}"
        );
    }
}

/// The first window from one send to another, at least `shortest` long, whose requests cost
/// more than `rate` times its length plus the largest page; `None` when the rate held.
fn window_over(pages: &[Page], rate: f64, shortest: Duration) -> Option<String> {
    let page = largest(pages);
    (0..pages.len()).find_map(|i| {
        let mut in_window = 0.0;
        pages[i..].iter().find_map(|p| {
            in_window += p.consumed.total;
            let length = (p.sent_at - pages[i].sent_at).max(shortest).as_secs_f64();
            (in_window > rate * length + page + 1e-9).then(|| {
                format!(
                    "{in_window} RCU sent in the {length:.2} s from {:?} at {rate}/s (largest page {page})",
                    pages[i].sent_at
                )
            })
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_holds_in_every_second_and_on_average() {
    let engine = engine().await;
    let runs = cases().into_iter().map(|mut spec| {
        let engine = engine.clone();
        // Ten seconds of reading or more each, all at once. The shards' pages cost half a
        // unit at least, more than their rate: where a page a second drifted past it.
        // The guard itself makes the read last long enough: about 42 RCU with pages of at most
        // 7.5 cannot be sent in under (42 - 7.5) / 3 = 11.5 s at 3 RCU/s. At 4 RCU/s that bound
        // was 8.6 s, and a 4-segment read whose pages came out larger ended at 9.8 s.
        let rate = if spec.shards.is_empty() { 3.0 } else { 0.4 };
        spec.budget.rcu_per_second = Some(rate);
        tokio::spawn(async move {
            let name = label(&spec);
            let (pages, outcome) = read_all(&engine, spec).await;
            (name, rate, pages, outcome)
        })
    });
    let runs: Vec<_> = futures::future::join_all(runs).await;
    for run in runs {
        let (name, rate, mut pages, outcome) = run.unwrap();
        assert_eq!(outcome, DoneOutcome::Complete, "{name}");
        pages.sort_by_key(|p| p.sent_at);
        let page = largest(&pages);
        let last = pages.last().map_or(Duration::ZERO, |p| p.sent_at);
        eprintln!(
            "{name}: {} pages, {} RCU, largest {page}, last sent {last:?}",
            pages.len(),
            spent(&pages),
        );
        assert!(
            last >= Duration::from_secs(10),
            "{name}: the read must last ten seconds to show the average"
        );
        for shortest in [Duration::from_secs(1), Duration::from_secs(10)] {
            if let Some(over) = window_over(&pages, rate, shortest) {
                panic!("{name}: {over}");
            }
        }
    }
}

#[test]
fn headless_commands_keep_the_budget_and_say_they_stopped() {
    let budget = 5.0;
    // A sharded query and a named pattern: one budget for all ten shards.
    let sharded = run(&[
        "query",
        table(),
        "--index",
        "GSI1",
        "--pk",
        "STATUS#PENDING#{shard}",
        "--pk-shards",
        "0..9",
        "--max-rcu",
        "1",
        "--stats",
    ]);
    let s = stats(&sharded);
    let requests = s["requests"].as_u64().unwrap();
    assert!(
        requests < 10,
        "a 1 RCU budget stops before all ten shards: {s}"
    );
    // Spent at most the budget plus one page (the dearest page the read received).
    let dearest = s["largest_page_rcu"].as_f64().unwrap();
    assert!(dearest > 0.0, "{s}");
    let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
    assert!(
        spent <= 1.0 + dearest + 1e-9,
        "{spent} of 1 (+{dearest}): {s}"
    );
    assert!(
        stderr(&sharded).contains("--max-rcu"),
        "{}",
        stderr(&sharded)
    );
    // A PartiQL IN of the ten shard keys: ten parallel Queries under one budget.
    let keys: Vec<String> = (0..10).map(|n| format!("'STATUS#PENDING#{n}'")).collect();
    let statement = format!(
        "SELECT * FROM \"{}\".\"GSI1\" WHERE GSI1PK IN [{}]",
        table(),
        keys.join(", ")
    );
    let partiql = run(&["partiql", &statement, "--max-rcu", "1", "--stats"]);
    let s = stats(&partiql);
    assert!(s["requests"].as_u64().unwrap() < 10, "{s}");
    let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
    let dearest = s["largest_page_rcu"].as_f64().unwrap();
    assert!(
        spent <= 1.0 + dearest + 1e-9,
        "{spent} of 1 (+{dearest}): {s}"
    );
    assert!(
        stderr(&partiql).contains("--max-rcu"),
        "{}",
        stderr(&partiql)
    );
    // Half a unit of budget reads one 4 KB block, not a 100-item probe, and the note says
    // what happened.
    let tiny = run(&["scan", table(), "--max-rcu", "0.5", "--stats"]);
    let s = stats(&tiny);
    assert_eq!(s["consumed_capacity"]["total"].as_f64(), Some(0.5), "{s}");
    assert!(
        stderr(&tiny).contains("note: stopped at --max-rcu 0.5: 0.5 read units consumed"),
        "{}",
        stderr(&tiny)
    );
    let passed = run(&["scan", table(), "--max-rcu", "1.2", "--stats"]);
    let spent = stats(&passed)["consumed_capacity"]["total"]
        .as_f64()
        .unwrap();
    assert!(spent > 1.2, "{spent}");
    assert!(
        stderr(&passed).contains(&format!(
            "note: stopped after the page that passed --max-rcu 1.2: {spent} read units consumed"
        )),
        "{}",
        stderr(&passed)
    );
    let pattern = run(&[
        "--patterns",
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo-patterns.toml"),
        "run",
        "pending-orders",
        "--table",
        table(),
        "--max-rcu",
        "1",
        "--stats",
    ]);
    assert!(
        stats(&pattern)["requests"].as_u64().unwrap() < 10,
        "{}",
        stderr(&pattern)
    );
    let p = stats(&pattern);
    let spent = p["consumed_capacity"]["total"].as_f64().unwrap();
    let dearest = p["largest_page_rcu"].as_f64().unwrap();
    assert!(spent <= 1.0 + dearest + 1e-9, "{p}");
    // hotkeys reads the whole table unless told otherwise.
    let out = run(&[
        "hotkeys",
        table(),
        "--segments",
        "4",
        "--max-rcu",
        &budget.to_string(),
        "--stats",
    ]);
    let s = stats(&out);
    let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
    // The whole table costs about 37: the pages past a small budget are sized to what is left.
    assert!(spent >= budget && spent < 2.0 * budget, "{s}");
    assert!(
        stderr(&out).contains("the report covers"),
        "{}",
        stderr(&out)
    );
    for bad in ["0", "-1", "abc"] {
        let out = run(&["hotkeys", table(), "--max-rcu", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains(&format!("'{bad}'")),
            "{}",
            stderr(&out)
        );
    }
}

/// `--rcu-per-second` paces the headless commands that read in parallel: hotkeys' 4 segments
/// a pattern's 10 shards and a PartiQL OR of the same 10 keys take at least the time their capacity allows at that rate, where
/// unpaced they take a fraction of a second.
#[test]
fn headless_commands_keep_the_rate() {
    // The same ten shard keys as a PartiQL OR: ten parallel Queries under one rate.
    let or = (0..10)
        .map(|n| format!("GSI1PK = 'STATUS#PENDING#{n}'"))
        .collect::<Vec<_>>()
        .join(" OR ");
    let statement = format!("SELECT * FROM \"{}\".\"GSI1\" WHERE {or}", table());
    let cases: [(&str, Vec<&str>, f64); 3] = [
        ("hotkeys", vec!["hotkeys", table(), "--segments", "4"], 6.0),
        ("partiql", vec!["partiql", &statement], 1.0),
        (
            "run",
            vec![
                "--patterns",
                concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo-patterns.toml"),
                "run",
                "pending-orders",
                "--table",
                table(),
            ],
            1.0,
        ),
    ];
    for (name, mut args, rate) in cases {
        let rate_text = rate.to_string();
        args.extend(["--rcu-per-second", &rate_text, "--stats"]);
        let out = run(&args);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let s = stats(&out);
        let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
        let page = s["largest_page_rcu"].as_f64().unwrap();
        let elapsed = s["elapsed_ms"].as_f64().unwrap() / 1000.0;
        // Every one-second window holds at most `rate + page`, so the sends span at least
        // spent / (rate + page) - 1 seconds.
        let floor = spent / (rate + page) - 1.0;
        assert!(
            floor > 0.5,
            "{name}: the case must be slow enough to show pacing ({spent} RCU at {rate}/s)"
        );
        assert!(
            elapsed >= floor,
            "{name}: {spent} RCU in {elapsed:.2} s at {rate}/s (at least {floor:.2} s): {s}"
        );
    }
}
