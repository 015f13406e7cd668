//! The palette's Ctrl-K through the whole explorer (update, effect runner, in-memory engine
//! with a session guard): `patterns check`'s own code checks the highlighted pattern under the
//! session's budget, and its cost and verdict come back beside the pattern's name.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::flow_harness::{engine, Harness};
use crate::app::fixtures::{char, press};
use crate::app::msg::{InputMsg, Msg};
use crate::app::state::PatternCheck;
use crate::app::update::start;
use crate::aws::SessionGuard;
use crate::model::design::pattern_check::FindingKind;

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
            && notice.text.ends_with("served by one Query"),
        "{}",
        notice.text
    );
    // The palette is still open, and shows it.
    assert!(h.state.table.as_ref().unwrap().palette().is_some());
}

#[tokio::test(start_paused = true)]
async fn a_spent_session_budget_leaves_the_pattern_unmeasured_and_says_so() {
    let (h, guard, _) = check_order_with_lines(0.5).await;
    let Some(PatternCheck::Done(report)) = h
        .state
        .queries
        .pattern_checks
        .get("app", "order-with-lines")
    else {
        panic!("no answer: {:?}", h.state.queries.pattern_checks);
    };
    // The guard sizes the last request to the room left (one 4 KB block at least).
    assert!(guard.spent() <= 1.0, "{}", guard.spent());
    let calls = report.measured.as_ref().map_or(0, |m| m.calls.len());
    assert!(calls < 3, "{report:?}");
    assert!(
        report
            .unmeasured
            .as_deref()
            .is_some_and(|u| u.contains("budget ran out")),
        "{report:?}"
    );
}
