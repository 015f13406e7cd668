//! Cost guards and resume against DynamoDB Local: `--max-rcu`, `--rcu-per-second`, and a
//! cancelled parallel scan resumed from each segment's last key.

use crate::common;

use std::collections::BTreeSet;

use common::*;
use dynoscope::aws::ReadCause;
use dynoscope::aws::{
    connect, ConnectOptions, DoneOutcome, Engine, EngineEvent, Operation, ReadSpec, SegmentStart,
};
use dynoscope::model::item::value::Item;

fn key(item: &Item) -> (String, String) {
    let s = |k: &str| item.get(k).and_then(|v| v.as_s()).unwrap().to_string();
    (s("PK"), s("SK"))
}

#[test]
fn max_rcu_stops_within_one_page_of_the_budget() {
    let table = shared_demo(60).to_string();
    let full = stats(&run(&[
        "scan",
        &table,
        "--page-size",
        "25",
        "--stats",
        "--output",
        "jsonl",
    ]));
    let full_rcu = full["consumed_capacity"]["total"].as_f64().unwrap();
    let budget = (full_rcu / 3.0).floor();
    let out = run(&[
        "scan",
        &table,
        "--page-size",
        "25",
        "--max-rcu",
        &budget.to_string(),
        "--stats",
    ]);
    let s = stats(&out);
    let err = stderr(&out);
    let items = lines(&ok(out)).len();
    let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
    let pages = s["pages"].as_f64().unwrap();
    let per_page = spent / pages;
    assert!(spent <= budget, "spent {spent} of a {budget} budget");
    assert!(
        spent > budget - 2.0 * per_page,
        "stopped too early: {spent} of {budget}"
    );
    assert!(items > 0 && (items as u64) < full["count"].as_u64().unwrap());
    assert!(
        err.contains("--max-rcu") && err.contains(&format!("{items} items")),
        "{err}"
    );
}

#[test]
fn rcu_per_second_paces_the_scan_without_changing_its_result() {
    let table = shared_demo(40).to_string();
    let plain = ok(run(&["scan", &table, "--page-size", "25"]));
    let out = run(&[
        "scan",
        &table,
        "--page-size",
        "25",
        "--segments",
        "4",
        "--rcu-per-second",
        "5",
        "--stats",
    ]);
    let s = stats(&out);
    let paced = ok(out);
    let set = |t: &str| t.lines().map(str::to_string).collect::<BTreeSet<_>>();
    assert_eq!(set(&paced), set(&plain));
    let spent = s["consumed_capacity"]["total"].as_f64().unwrap();
    // The first second's tokens are free; the rest must take at least (spent - 5) / 5 s.
    let floor_ms = ((spent - 5.0) / 5.0 * 1000.0).max(0.0) - 500.0;
    assert!(
        s["elapsed_ms"].as_f64().unwrap() >= floor_ms,
        "{s} vs floor {floor_ms} ms"
    );
    for bad in [["--max-rcu", "0"], ["--rcu-per-second", "-1"]] {
        let out = run(&["scan", &table, bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(&format!("'{}'", bad[1])));
    }
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

#[tokio::test]
async fn a_cancelled_parallel_scan_resumes_and_reads_each_item_exactly_once() {
    std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
    std::env::set_var("AWS_ACCESS_KEY_ID", "dummy");
    std::env::set_var("AWS_SECRET_ACCESS_KEY", "dummy");
    let table = shared_demo(40).to_string();
    let engine = engine().await;
    let segments = 4u32;
    let mut spec = ReadSpec::new(Operation::Scan, table.clone(), ReadCause::Test);
    spec.segments = segments;
    spec.page_size = Some(20);

    // First run: cancel after a few pages.
    let (tx, mut rx) = tokio::sync::mpsc::channel(4);
    let handle = engine.start_read(spec.clone(), tx);
    let mut starts = vec![SegmentStart::Beginning; segments as usize];
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut pages = 0;
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => {
                pages += 1;
                seen.extend(p.items.iter().map(key));
                starts[p.segment as usize] = match p.last_evaluated_key {
                    Some(k) => SegmentStart::After(k),
                    None => SegmentStart::Finished,
                };
                if pages == 6 {
                    handle.cancel();
                }
            }
            EngineEvent::Done { outcome, .. } => {
                assert_eq!(outcome, DoneOutcome::Cancelled);
                break;
            }
            EngineEvent::Failed { error, .. } => panic!("{error}"),
            EngineEvent::Abandoned { .. } | EngineEvent::Integrity { .. } => {}
        }
    }
    handle.join().await;
    assert!(pages >= 6);

    // Resume from each segment's last key.
    spec.starts = starts;
    let (tx, mut rx) = tokio::sync::mpsc::channel(4);
    let handle = engine.start_read(spec, tx);
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => seen.extend(p.items.iter().map(key)),
            EngineEvent::Done { outcome, .. } => {
                assert_eq!(outcome, DoneOutcome::Complete);
                break;
            }
            EngineEvent::Failed { error, .. } => panic!("{error}"),
            EngineEvent::Abandoned { .. } | EngineEvent::Integrity { .. } => {}
        }
    }
    handle.join().await;

    let unique: BTreeSet<_> = seen.iter().cloned().collect();
    assert_eq!(unique.len(), seen.len(), "an item was read twice");
    let all: BTreeSet<_> = lines(&ok(run(&["scan", &table])))
        .iter()
        .map(|v| {
            (
                v["PK"].as_str().unwrap().to_string(),
                v["SK"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(unique, all, "resume must read every item");
}
