use crate::app::fixtures::{char, loaded, press, send};
use crate::app::input::KeyCode;
use crate::app::metrics::fixtures::*;
use crate::app::msg::{Effect, MetricsEffect, Msg, TimeMsg, Timer, TimerEffect};
use crate::app::state::{MetricsStatus, State, PANE_REFRESH};
use crate::model::engine::permission::Denied;
use crate::model::engine::FeatureError;
use crate::model::traffic::diagnose::VerdictKind;

fn sized() -> State {
    let mut s = loaded(false);
    s.width = 120;
    s.height = 40;
    s
}

fn pane(s: &State) -> &crate::app::state::MetricsPane {
    s.table.as_ref().unwrap().metrics().unwrap()
}

fn generation(s: &State) -> u64 {
    pane(s).generation
}

#[test]
fn m_asks_for_one_batch_and_keeps_the_answer_with_its_verdicts() {
    let mut s = sized();
    let id = pane_opened(&mut s);
    assert_eq!(pane(&s).status, MetricsStatus::Loading);
    // A stale answer (another batch's id) is dropped.
    send(&mut s, [answer(id + 100, Ok(on_demand()))]);
    assert!(pane(&s).report.is_none());
    send(&mut s, [answer(id, Ok(gsi_throttling()))]);
    let p = pane(&s);
    assert_eq!(p.status, MetricsStatus::Ready);
    assert_eq!(p.refreshes, 1);
    let hot = p
        .verdicts
        .iter()
        .find(|v| v.kind == VerdictKind::HotGsi || v.kind == VerdictKind::HotPartition)
        .expect("a verdict on the throttling GSI");
    assert!(hot.throttling_now && hot.says.contains("GSI1"), "{hot:?}");
}

#[test]
fn the_pane_refreshes_every_minute_until_it_closes() {
    let mut s = sized();
    let first = pane_opened(&mut s);
    let g = generation(&s);
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    let second = match effects.as_slice() {
        [Effect::Metrics(MetricsEffect::Fetch { id, .. }), Effect::Timer(TimerEffect::After {
            timer: Timer::MetricsRefresh(again),
            delay,
        })] => {
            assert_eq!((*again, *delay), (g, PANE_REFRESH));
            *id
        }
        other => panic!("expected a new batch and the next timer, got {other:?}"),
    };
    assert_ne!(first, second);
    // The first batch answers late: only the last one asked for counts.
    send(&mut s, [answer(first, Ok(on_demand()))]);
    assert!(pane(&s).report.is_none());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().metrics().is_none());
    // A closed pane's timer and answers do nothing.
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    assert!(effects.is_empty(), "{effects:?}");
    send(&mut s, [answer(second, Ok(gsi_throttling()))]);
    assert!(s.table.as_ref().unwrap().metrics().is_none());
    // M opens it again with a new generation; M closes it too.
    pane_opened(&mut s);
    assert_ne!(generation(&s), g);
    send(&mut s, [char('M')]);
    assert!(s.table.as_ref().unwrap().metrics().is_none());
}

#[test]
fn a_denied_get_metric_data_costs_only_the_pane() {
    let mut s = sized();
    let id = pane_opened(&mut s);
    let denied = Denied::new("cloudwatch:GetMetricData", "the metrics");
    send(
        &mut s,
        [answer(id, Err(FeatureError::Denied(denied.clone())))],
    );
    assert_eq!(pane(&s).status, MetricsStatus::Denied(denied.line()));
    send(&mut s, [press(KeyCode::Esc)]);
    // The table is as it was: its items are still there and keys move in them.
    let cursor = |s: &State| {
        let v = &s.table.as_ref().unwrap().view;
        (v.collections.cursor, v.items.cursor)
    };
    let before = cursor(&s);
    send(&mut s, [char('j')]);
    assert_ne!(cursor(&s), before);
}

#[test]
fn the_pane_scrolls_within_its_lines() {
    let mut s = sized();
    s.height = 16;
    let id = pane_opened(&mut s);
    send(&mut s, [answer(id, Ok(gsi_throttling()))]);
    let lines = crate::app::metrics::lines::pane_lines(pane(&s), 118).len();
    let visible = 16 - 4;
    assert!(lines > visible, "{lines} lines fit without scrolling");
    send(&mut s, [char('j'), char('j')]);
    assert_eq!(pane(&s).scroll, 2);
    send(&mut s, [char('G')]);
    assert_eq!(pane(&s).scroll, lines - visible);
    send(&mut s, [press(KeyCode::PageDown)]);
    assert_eq!(pane(&s).scroll, lines - visible);
    send(&mut s, [press(KeyCode::Home)]);
    assert_eq!(pane(&s).scroll, 0);
}

#[test]
fn m_before_the_table_is_described_opens_nothing() {
    let mut s = crate::app::fixtures::state();
    crate::app::update::start(&mut s, Some("app".into()));
    let effects = send(&mut s, [char('M')]);
    assert!(effects.is_empty() && s.table.as_ref().unwrap().metrics().is_none());
}

/// `M` on an export: its files have no CloudWatch metrics; one notice says so (and where the
/// metrics are), no pane opens, nothing is asked and no refresh is promised.
#[test]
fn m_on_an_export_says_it_has_no_metrics() {
    let mut s = sized();
    s.session.export = Some("export 017-abc of app at 2026-12-01T11:00:00Z".into());
    let effects = send(&mut s, [char('M')]);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(s.table.as_ref().unwrap().metrics().is_none());
    let notice = s.notice.as_ref().expect("a notice");
    assert_eq!(notice.text, super::keys::EXPORT_NO_METRICS);
    assert!(notice
        .text
        .starts_with("an export has no CloudWatch metrics"));
    assert!(!notice.text.contains("refresh"), "{}", notice.text);
}
