//! Whole explorer flows without a terminal: keys through `update`, effects through the runner,
//! reads through the in-memory engine (the real coordinator, segments and capacity guard),
//! events back through `update`, under paused time.

use std::time::Duration;

use crate::app::input::KeyCode;
use tokio::sync::mpsc;

use super::super::flow_harness::{engine, Harness};
use super::*;
use crate::app::fixtures::{char, demo_info, demo_items, press};
use crate::app::state::{ReadOutcome, Screen};
use crate::app::update::start;
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::MemoryEngine;

#[tokio::test(start_paused = true)]
async fn the_picker_lists_tables_and_opening_one_loads_its_first_page() {
    let mut h = Harness::new(engine());
    let effects = start(&mut h.state, None);
    h.apply(effects);
    h.settle().await;
    assert_eq!(h.state.picker.visible(), ["app"]);
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(h.state.screen, Screen::Table);
    let view = h.state.table.as_ref().unwrap();
    assert_eq!(view.view.store.as_ref().unwrap().len(), demo_items().len());
    assert_eq!(
        view.view.read.as_ref().unwrap().outcome,
        Some(ReadOutcome::Complete)
    );
}

#[tokio::test(start_paused = true)]
async fn a_budgeted_triage_scan_stops_resumes_with_a_new_budget_and_loads_each_item_once() {
    let engine = engine();
    let source = engine.source("app").unwrap();
    let mut h = Harness::new(engine);
    h.state.config.confirm_scan_rcu = 1e9;
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    let all = demo_items().len();
    // The table costs about 8 RCU; a 2 RCU budget over 4 segments stops early.
    h.send([char('S'), press(KeyCode::Backspace), char('4')]);
    h.send((0..5).map(|_| press(KeyCode::Tab)));
    h.send([char('2'), press(KeyCode::Enter)]);
    h.settle().await;
    let view = h.state.table.as_ref().unwrap();
    let read = view.view.read.as_ref().unwrap();
    let Some(ReadOutcome::BudgetReached { spent, budget }) = read.outcome else {
        panic!("{:?}", read.outcome);
    };
    assert_eq!(budget, 2.0);
    assert!((2.0..4.0).contains(&spent), "spent {spent}");
    let loaded = view.view.store.as_ref().unwrap().len();
    assert!(loaded < all, "stopped early: {loaded} of {all}");
    let sent = source.requests();
    // Nothing more is read until a new budget is given; then the scan reads on to its end.
    h.send([char('n')]);
    h.settle().await;
    assert_eq!(source.requests(), sent);
    h.send([
        press(KeyCode::Backspace),
        char('5'),
        char('0'),
        press(KeyCode::Enter),
    ]);
    h.settle().await;
    let view = h.state.table.as_ref().unwrap();
    assert_eq!(
        view.view.read.as_ref().unwrap().outcome,
        Some(ReadOutcome::Complete)
    );
    assert_eq!(
        view.view.store.as_ref().unwrap().len(),
        all,
        "every item once"
    );
}

#[tokio::test(start_paused = true)]
async fn esc_cancels_a_slow_read_and_shutdown_leaves_nothing_running() {
    let mut items = demo_items();
    items.sort_by_key(|i| i.get("SK").and_then(|v| v.as_s()).map(String::from));
    let slow = MemorySource::new(items, &["PK", "SK"]).with_script(|_| Step {
        latency: Duration::from_secs(60),
        fail: false,
    });
    let mut h = Harness::new(MemoryEngine::new().with_table(demo_info(), slow));
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    // The description arrives; the first page is on the wire for a minute.
    let msg = h.msg_rx.recv().await.unwrap();
    h.send([msg]);
    assert_eq!(h.runner.running_reads(), 1);
    h.send([press(KeyCode::Esc)]);
    h.settle().await;
    let read = h.state.table.as_ref().unwrap().view.read.as_ref().unwrap();
    assert_eq!(read.outcome, Some(ReadOutcome::Cancelled));
    assert!(read.has_more(), "nothing was read: all of it is left");
    h.runner.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_read_of_a_missing_table_fails_with_one_event() {
    let (tx, mut rx) = mpsc::channel(4);
    let engine = MemoryEngine::new();
    let handle = engine.start_read(
        crate::aws::ReadSpec::new(
            crate::aws::Operation::Scan,
            "nope",
            crate::aws::ReadCause::Test,
        ),
        tx,
    );
    let event = rx.recv().await.unwrap();
    assert!(
        matches!(event, EngineEvent::Failed { ref error, .. } if error.message.contains("'nope'"))
    );
    handle.join().await;
    assert!(rx.recv().await.is_none());
}
