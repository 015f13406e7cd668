//! The palette's Ctrl-K through the whole explorer (update, effect runner, in-memory engine
//! with a session guard): `patterns check`'s own code checks the highlighted pattern under the
//! session's budget, and its cost and verdict come back beside the pattern's name.

use crate::app::input::{Key, KeyCode, Modifiers};

use std::time::Duration;

use super::flow_harness::{engine, Harness};
use crate::app::fixtures::{char, press};
use crate::app::msg::{InputMsg, Msg};
use crate::app::state::PatternCheck;
use crate::app::update::start;
use crate::app::update::CHECK_MAX_RCU;
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::MemoryEngine;
use crate::aws::SessionGuard;
use crate::model::design::pattern_check::FindingKind;
use crate::model::item::value::{AttrValue, Item};
use crate::model::traffic::capacity::format_units;

fn ctrl_k() -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char('k'),
        Modifiers::CONTROL,
    )))
}

/// The demo table opened under a session budget of `max_rcu`, its patterns loaded, the
/// palette open on `order-with-lines`, then Ctrl-K and every answer in. Also returns what the
/// session had spent before Ctrl-K (its opening scan).
async fn check_order_with_lines(max_rcu: f64) -> (Harness, SessionGuard, f64) {
    let guard = SessionGuard::new(Some(max_rcu), None).unwrap();
    let mut h = Harness::new(engine().with_session_guard(Some(guard.clone())));
    h.state.session_budget.max_rcu = Some(max_rcu);
    h.state.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    let before = guard.spent();
    // The in-memory table scans in key order: its one-page sample holds orders, not users.
    h.send([
        char('P'),
        press(KeyCode::Down),
        press(KeyCode::Down),
        ctrl_k(),
    ]);
    h.settle().await;
    (h, guard, before)
}

#[tokio::test(start_paused = true)]
async fn ctrl_k_checks_the_pattern_through_the_engine_under_the_session_guard() {
    let (h, guard, before) = check_order_with_lines(1000.0).await;
    let Some(PatternCheck::Done(report)) = h
        .state
        .queries
        .pattern_checks
        .get("app", "order-with-lines")
    else {
        panic!("no answer: {:?}", h.state.queries.pattern_checks);
    };
    assert_eq!(report.verdict.kind, FindingKind::Served);
    let m = report
        .measured
        .as_ref()
        .unwrap_or_else(|| panic!("{report:?}"));
    assert_eq!(m.calls.len(), 3);
    assert!(m.items_returned > 0, "{m:?}");
    // The session's guard counted the key sample and the three calls.
    let check = guard.spent() - before;
    assert!(check > m.rcu_total && m.rcu_total > 0.0, "{check} {m:?}");
    assert_eq!(h.runner.running_reads(), 0);
    let notice = h.state.notice.as_ref().unwrap();
    assert!(
        notice
            .text
            .starts_with("pattern 'order-with-lines' checked, ")
            && notice
                .text
                .contains("served by one Query · the check spent "),
        "{}",
        notice.text
    );
    // The palette is still open, and shows it.
    assert!(h.state.table.as_ref().unwrap().palette().is_some());
}

#[tokio::test(start_paused = true)]
async fn a_session_budget_too_small_for_the_key_sample_sends_nothing_and_says_so() {
    let (h, guard, before) = check_order_with_lines(0.5).await;
    // Priced before it is sent: the sample alone would pass what is left.
    assert_eq!(guard.spent(), before);
    assert_eq!(
        h.state
            .queries
            .pattern_checks
            .get("app", "order-with-lines"),
        None
    );
    let notice = h.state.notice.as_ref().unwrap();
    assert!(
        notice.error && notice.text.contains("nothing was sent"),
        "{}",
        notice.text
    );
}

#[tokio::test(start_paused = true)]
async fn every_request_of_the_check_is_in_the_request_log_and_the_session_cost() {
    let engine = engine();
    let source = engine.source("app").unwrap();
    let mut h = check_user_orders(engine);
    h.settle().await;
    h.send([
        char('P'),
        press(KeyCode::Down),
        press(KeyCode::Down),
        ctrl_k(),
    ]);
    h.settle().await;
    let Some(PatternCheck::Done(_)) = h
        .state
        .queries
        .pattern_checks
        .get("app", "order-with-lines")
    else {
        panic!("no answer: {:?}", h.state.queries.pattern_checks);
    };
    // The service's own count: every request the in-memory table answered, and what it
    // charged, is what the request log shows and the session's cost adds up.
    let log = &h.state.log;
    assert!(source.requests() > 3, "{}", source.requests());
    assert_eq!(log.requests, source.requests(), "{:?}", log.total);
    assert!(
        (log.total.total - source.charged()).abs() < 1e-9,
        "{:?} vs {}",
        log.total,
        source.charged()
    );
    // The notice says what the check spent: everything but the opening scan.
    let notice = &h.state.notice.as_ref().unwrap().text;
    assert!(notice.contains("the check spent"), "{notice}");
}

/// The demo table holding one user of `orders` orders of about 1 KB each, requests taking
/// `latency`.
fn big_partition(orders: usize, latency: Duration) -> MemoryEngine {
    let mut items: Vec<Item> = Vec::new();
    items.extend((0..orders).map(|i| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#big".into())),
            ("SK".into(), AttrValue::S(format!("ORDER#{i:05}"))),
            ("pad".into(), AttrValue::S("x".repeat(1000))),
        ])
    }));
    items.sort_by_key(|i| {
        let s = |k: &str| i.get(k).and_then(|v| v.as_s()).unwrap_or("").to_string();
        (s("PK"), s("SK"))
    });
    let source = MemorySource::new(items, &["PK", "SK"]).with_script(move |_| Step {
        latency,
        fail: false,
    });
    MemoryEngine::new().with_table(crate::app::fixtures::demo_info(), source)
}

/// The demo patterns loaded and the table opened in a session without --max-rcu.
fn check_user_orders(engine: MemoryEngine) -> Harness {
    let mut h = Harness::new(engine);
    h.state.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h
}

/// Feeds events to `update` for `d` of (paused) time.
async fn run_for(h: &mut Harness, d: Duration) {
    let until = tokio::time::Instant::now() + d;
    loop {
        tokio::select! {
            Some(event) = h.engine_rx.recv() => h.send([Msg::Engine(event)]),
            Some(msg) = h.msg_rx.recv() => h.send([msg]),
            _ = tokio::time::sleep_until(until) => return,
        }
    }
}

#[tokio::test(start_paused = true)]
async fn without_max_rcu_a_check_stops_at_its_own_bound_and_says_what_it_spent() {
    // Three calls of user-orders on 3,000 orders of 1 KB would read ≈ 375 RCU each.
    let engine = big_partition(3000, Duration::from_millis(5));
    let source = engine.source("app").unwrap();
    let mut h = check_user_orders(engine);
    h.settle().await;
    let (before, charged_before) = (h.state.log.total.total, source.charged());
    h.send([char('P'), press(KeyCode::Down), ctrl_k()]);
    let said = h.state.notice.as_ref().unwrap().text.clone();
    assert!(said.contains("at most 25 RCU"), "{said}");
    h.settle().await;
    let spent = source.charged() - charged_before;
    // The guard reserves each request's worst case before it is sent: at most one 4 KB
    // block past the bound.
    assert!(spent <= CHECK_MAX_RCU + 0.5, "the check spent {spent} RCU");
    assert!(
        spent > 10.0,
        "the check read little: {spent} {:?}",
        h.state.queries.pattern_checks.get("app", "user-orders")
    );
    assert!((h.state.log.total.total - before - spent).abs() < 1e-9);
    let Some(PatternCheck::Done(report)) = h.state.queries.pattern_checks.get("app", "user-orders")
    else {
        panic!("no answer: {:?}", h.state.queries.pattern_checks);
    };
    assert!(
        report
            .unmeasured
            .as_deref()
            .is_some_and(|u| u.contains("budget ran out")),
        "{report:?}"
    );
    let notice = &h.state.notice.as_ref().unwrap().text;
    assert!(
        notice.contains(&format!("the check spent {} RCU", format_units(spent))),
        "{notice} (spent {spent})"
    );
}

#[tokio::test(start_paused = true)]
async fn esc_stops_the_check_within_a_second() {
    // Each request takes 300 ms: the check runs for a second or more.
    let engine = big_partition(3000, Duration::from_millis(300));
    let source = engine.source("app").unwrap();
    let mut h = check_user_orders(engine);
    h.settle().await;
    let charged_before = source.charged();
    h.send([char('P'), press(KeyCode::Down), ctrl_k()]);
    // The sample is in (one round of requests), the first call on the wire.
    run_for(&mut h, Duration::from_millis(450)).await;
    assert!(source.requests() > 1);
    let sent_at_esc = source.requests();
    h.send([press(KeyCode::Esc)]);
    let esc = tokio::time::Instant::now();
    while !matches!(
        h.state.queries.pattern_checks.get("app", "user-orders"),
        Some(PatternCheck::Stopped { .. })
    ) {
        run_for(&mut h, Duration::from_millis(50)).await;
        assert!(
            esc.elapsed() < Duration::from_secs(1),
            "still running after Esc"
        );
    }
    let charged_at_stop = source.charged();
    h.settle().await;
    // A request the engine had admitted as Esc came is abandoned on the wire; none follows.
    assert!(
        source.requests() <= sent_at_esc + 1,
        "{} requests sent after Esc",
        source.requests() - sent_at_esc
    );
    assert_eq!(source.charged(), charged_at_stop);
    assert_eq!(h.runner.running_reads(), 0);
    let Some(PatternCheck::Stopped { spent_rcu }) =
        h.state.queries.pattern_checks.get("app", "user-orders")
    else {
        unreachable!()
    };
    // What it says it spent is every page that came back before it stopped.
    let charged = source.charged() - charged_before;
    assert!(
        *spent_rcu > 0.0 && *spent_rcu <= charged + 1e-9,
        "{spent_rcu} of {charged}"
    );
    assert!(h.state.table.as_ref().unwrap().palette().is_some());
}
