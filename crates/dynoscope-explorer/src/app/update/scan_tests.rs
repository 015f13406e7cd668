//! The scan launcher, per-segment progress and the key-distribution view through `update`.

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::{Effect, Msg, ReadEffect, TimeMsg};
use crate::app::state::ReadOutcome;
use crate::model::engine::attempts::AttemptStats;
use crate::model::engine::{EngineEvent, Operation, Page, SegmentStart};
use crate::model::traffic::capacity::Consumed;

pub(super) fn segment_page(
    id: u64,
    segment: u32,
    items: Vec<crate::model::item::value::Item>,
    more: bool,
    arrived_ms: u64,
) -> Msg {
    let n = items.len() as u64;
    let last = if more { items.last().cloned() } else { None };
    Msg::Engine(EngineEvent::Page(Page {
        request_id: id,
        operation: Operation::Scan,
        index: None,
        segment,
        page: 1,
        resume: Some(match &last {
            Some(key) => crate::model::engine::SegmentStart::After(key.clone()),
            None => crate::model::engine::SegmentStart::Finished,
        }),
        last_evaluated_key: last,
        json_lines: None,
        sized_keys: None,
        items,
        count: n,
        scanned_count: n * 4,
        consumed: Consumed {
            total: 10.0,
            table: 10.0,
            indexes: Default::default(),
            unreported_pages: 0,
        },
        sent_at: std::time::Duration::from_millis(arrived_ms - 5),
        latency: std::time::Duration::from_millis(5),
        attempts: AttemptStats {
            attempts: 1,
            throttles: 0,
            throttle_reason: None,
            reasons: Vec::new(),
        },
        sent: None,
    }))
}

#[test]
fn launcher_estimates_confirms_and_streams_every_segment_to_the_end() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1.0; // the fixture table (63 KB ≈ 8 RCU) is over it
    send(&mut s, [char('S')]);
    let l = s.table.as_ref().unwrap().launcher().unwrap();
    let plan = l.plan.as_ref().unwrap();
    assert_eq!(plan.estimate_rcu, 8.0, "65,000 B / 4 KB, halved");
    send(&mut s, [press(KeyCode::Backspace), char('4')]);
    // Over the threshold: the first Enter only asks.
    assert!(send(&mut s, [press(KeyCode::Enter)]).is_empty());
    assert!(s.table.as_ref().unwrap().launcher().unwrap().confirming);
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Tick(1_000)), press(KeyCode::Enter)],
    );
    let (id, spec) = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { id, spec }) => Some((*id, spec.clone())),
            _ => None,
        })
        .expect("the second Enter launches");
    assert_eq!(spec.segments, 4);
    assert_eq!(spec.budget.max_pages, None, "a triage scan runs to its end");
    assert_eq!(
        spec.page_size,
        Some(crate::app::state::TRIAGE_PAGE_ITEMS),
        "pages small enough to keep keys responsive"
    );
    let items = demo_items();
    let (a, b) = items.split_at(100);
    send(
        &mut s,
        [
            segment_page(id, 2, a.to_vec(), true, 1_500),
            segment_page(id, 0, b.to_vec(), false, 2_000),
        ],
    );
    // The explorer's clock is not the scan's: a tick long after changes no rate.
    send(&mut s, [Msg::Time(TimeMsg::Tick(300_000))]);
    let p = s.table.as_ref().unwrap().view.progress.clone().unwrap();
    assert_eq!(p.segments.len(), 4);
    assert_eq!((p.segments[2].items, p.segments[2].done), (100, false));
    assert!(p.segments[0].done);
    assert_eq!(p.spent_rcu, 20.0);
    let (items_rate, rcu_rate, _) = p.rates();
    assert!((rcu_rate - 10.0).abs() < 1e-9, "20 RCU over the scan's 2 s");
    assert!(items_rate > 0.0);
    // Esc cancels everything at once.
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c))] if *c == id));
}

#[test]
fn key_distribution_ranks_the_celebrity_first() {
    let mut s = loaded(false);
    send(&mut s, [char('K')]);
    let d = s
        .table
        .as_ref()
        .unwrap()
        .distribution()
        .cloned()
        .expect("the view opens");
    let top = d.distribution.top(3);
    assert_eq!(top[0].key, "USER#celebrity");
    assert!(
        d.warnings
            .iter()
            .any(|w| w.message.contains("USER#celebrity")),
        "{:?}",
        d.warnings
    );
    send(&mut s, [press(KeyCode::Down)]);
    assert_eq!(s.table.as_ref().unwrap().distribution().unwrap().scroll, 1);
    let scroll =
        |s: &crate::app::state::State| s.table.as_ref().unwrap().distribution().unwrap().scroll;
    // Issue 20: scrolling stops with the last row at the bottom of the overlay (at 100x30 it
    // has 26 rows inside its borders), not with that row on top over blank space.
    let inner =
        crate::app::layout::distribution_popup(ratatui::layout::Rect::new(0, 0, WIDTH, HEIGHT))
            .inner(ratatui::layout::Margin::new(1, 1));
    let (width, height) = (inner.width as usize, inner.height as usize);
    let max = d.rows(width) - height;
    assert!(
        max > 1,
        "the demo's distribution is longer than the overlay"
    );
    assert_eq!(d.max_scroll(width, height), max);
    send(&mut s, (0..1000).map(|_| press(KeyCode::Down)));
    assert_eq!(scroll(&s), max);
    send(&mut s, [press(KeyCode::Up)]);
    assert_eq!(scroll(&s), max - 1, "`↑` moves at once after many `↓`");
    // PgUp/PgDn, Home/End scroll and keep the overlay open (PgDn and End closed it).
    send(&mut s, [press(KeyCode::Home)]);
    assert_eq!(scroll(&s), 0);
    send(&mut s, [press(KeyCode::PageDown)]);
    assert_eq!(scroll(&s), height.min(max));
    send(&mut s, [press(KeyCode::PageUp)]);
    assert_eq!(scroll(&s), 0);
    send(&mut s, [press(KeyCode::End)]);
    assert_eq!(scroll(&s), max);
    send(&mut s, [press(KeyCode::PageDown)]);
    assert_eq!(scroll(&s), max);
    assert!(s.table.as_ref().unwrap().distribution().is_some());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().distribution().is_none());
}

/// Launches a 4-segment triage scan with `max RCU` set to `budget`; returns its read id.
pub(super) fn launch_budgeted(s: &mut crate::app::state::State, budget: &str) -> u64 {
    send(s, [char('S'), press(KeyCode::Backspace), char('4')]);
    send(s, (0..5).map(|_| press(KeyCode::Tab)));
    send(s, budget.chars().map(char));
    let effects = send(s, [press(KeyCode::Enter)]);
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { id, spec }) => {
                assert_eq!(spec.budget.max_rcu, Some(budget.parse().unwrap()));
                Some(*id)
            }
            _ => None,
        })
        .expect("the launch starts a read")
}

pub(super) fn done(id: u64, outcome: crate::model::engine::DoneOutcome) -> Msg {
    Msg::Engine(EngineEvent::Done {
        request_id: id,
        outcome,
        elapsed: std::time::Duration::from_secs(3),
    })
}

#[test]
fn a_spent_budget_stops_the_scan_and_resumes_only_with_a_new_budget() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    let id = launch_budgeted(&mut s, "100");
    let items = demo_items();
    // Segments 0 and 2 still have more when the budget runs out.
    let effects = send(
        &mut s,
        [
            segment_page(id, 0, items[..50].to_vec(), true, 1_000),
            segment_page(id, 2, items[50..90].to_vec(), true, 1_200),
            done(id, crate::model::engine::DoneOutcome::BudgetReached),
        ],
    );
    assert!(
        effects.is_empty(),
        "a spent budget must not start another read: {effects:?}"
    );
    let view = s.table.as_ref().unwrap();
    let read = view.view.read.as_ref().unwrap();
    assert!(!read.running);
    assert_eq!(
        read.outcome,
        Some(ReadOutcome::BudgetReached {
            spent: 20.0,
            budget: 100.0
        })
    );
    assert!(s.notice.as_ref().unwrap().text.contains("20 of 100 RCU"));
    // `n` and `L` ask for a new budget instead of reading on.
    assert!(send(&mut s, [char('L')]).is_empty());
    let prompt = s.table.as_ref().unwrap().budget_prompt().cloned().unwrap();
    assert_eq!(prompt.text, "100");
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().budget_prompt().is_none());
    assert!(send(&mut s, [char('n')]).is_empty());
    // A bad budget is refused with the value named; a good one resumes each segment.
    send(&mut s, (0..3).map(|_| press(KeyCode::Backspace)));
    send(&mut s, "abc".chars().map(char));
    assert!(send(&mut s, [press(KeyCode::Enter)]).is_empty());
    let error = s
        .table
        .as_ref()
        .unwrap()
        .budget_prompt()
        .cloned()
        .unwrap()
        .error;
    assert!(error.unwrap().contains("'abc'"));
    send(&mut s, (0..3).map(|_| press(KeyCode::Backspace)));
    send(&mut s, "50".chars().map(char));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { spec, .. })] => spec.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(spec.budget.max_rcu, Some(50.0));
    assert_eq!(spec.segments, 4);
    assert!(matches!(spec.starts[0], SegmentStart::After(_)));
    assert_eq!(
        spec.starts[1],
        SegmentStart::Beginning,
        "never read: from its start"
    );
    assert!(matches!(spec.starts[2], SegmentStart::After(_)));
    let p = s.table.as_ref().unwrap().view.progress.clone().unwrap();
    assert_eq!(p.budget_rcu, Some(70.0), "20 spent plus the new 50");
}

#[test]
fn a_read_cancelled_before_its_first_page_resumes_from_the_start() {
    let (mut s, id) = opened();
    send(&mut s, [press(KeyCode::Esc)]);
    send(
        &mut s,
        [done(id, crate::model::engine::DoneOutcome::Cancelled)],
    );
    let read = s.table.as_ref().unwrap().view.read.as_ref().unwrap();
    assert!(read.has_more(), "nothing was read: everything is left");
    let effects = send(&mut s, [char('n')]);
    match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { spec, .. })] => {
            assert_eq!(spec.starts, vec![SegmentStart::Beginning])
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_sharded_pattern_is_one_read_esc_cancels_and_each_shard_keeps_its_resume_point() {
    let mut s = loaded(false);
    s.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../../../../assets/demo-patterns.toml"),
        "demo-patterns.toml",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    send(&mut s, (0..5).map(|_| press(KeyCode::Down)));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let id = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => {
            assert_eq!(spec.segment_count(), 10);
            *id
        }
        other => panic!("one read for ten shards: {other:?}"),
    };
    let items = demo_items();
    let mut shard3 = segment_page(id, 3, items[..5].to_vec(), true, 100);
    if let Msg::Engine(EngineEvent::Page(p)) = &mut shard3 {
        p.operation = crate::model::engine::Operation::Query;
    }
    send(
        &mut s,
        [
            shard3,
            segment_page(id, 7, items[5..9].to_vec(), false, 120),
        ],
    );
    let read = s.table.as_ref().unwrap().view.read.as_ref().unwrap();
    assert!(matches!(read.progress.starts[3], SegmentStart::After(_)));
    assert_eq!(read.progress.starts[7], SegmentStart::Finished);
    assert_eq!(read.progress.starts[0], SegmentStart::Beginning);
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c))] if *c == id));
}

/// A triage scan launched with its defaults; returns the read's id.
fn launched(s: &mut crate::app::state::State, segments: char) -> u64 {
    s.config.confirm_scan_rcu = 1e9;
    send(s, [char('S'), press(KeyCode::Backspace), char(segments)]);
    send(s, [press(KeyCode::Enter)])
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("Enter launches")
}

#[test]
fn a_finished_scan_reports_its_rates_over_its_own_time_and_no_eta() {
    let mut s = loaded(false);
    let id = launched(&mut s, '2');
    let items = demo_items();
    let (a, b) = items.split_at(100);
    send(
        &mut s,
        [
            segment_page(id, 0, a.to_vec(), false, 1_000),
            segment_page(id, 1, b.to_vec(), false, 2_000),
        ],
    );
    // The read ends 4 s after it started, by the engine's clock; the explorer's ticks later
    // change nothing.
    send(
        &mut s,
        [
            Msg::Engine(EngineEvent::Done {
                request_id: id,
                outcome: crate::model::engine::DoneOutcome::Complete,
                elapsed: std::time::Duration::from_secs(4),
            }),
            Msg::Time(TimeMsg::Tick(600_000)),
        ],
    );
    let p = s.table.as_ref().unwrap().view.progress.clone().unwrap();
    let (items_rate, rcu_rate, eta) = p.rates();
    let scanned = (items.len() * 4) as f64;
    assert!((items_rate - scanned / 4.0).abs() < 1e-6, "{items_rate}");
    assert!((rcu_rate - 20.0 / 4.0).abs() < 1e-9, "{rcu_rate}");
    assert_eq!(eta, None, "a finished scan has nothing left to estimate");
}

#[test]
fn a_new_read_or_t_cancels_a_running_scan_of_every_segment() {
    let mut s = loaded(false);
    let id = launched(&mut s, '4');
    // A partition-key query replaces the scan: the scan is cancelled first.
    send(&mut s, [char('p')]);
    let effects = send(
        &mut s,
        "USER#u00001"
            .chars()
            .map(char)
            .chain([press(KeyCode::Enter)]),
    );
    assert!(
        matches!(effects.first(), Some(Effect::Read(ReadEffect::Cancel(c))) if *c == id),
        "{effects:?}"
    );
    // `T`, back to the table list, cancels a running scan too.
    let mut s = loaded(false);
    let id = launched(&mut s, '4');
    let effects = send(&mut s, [char('T')]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Read(ReadEffect::Cancel(c)) if *c == id)),
        "{effects:?}"
    );
}

#[test]
fn the_launcher_s_rate_goes_to_the_read_and_to_its_continuation() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    send(&mut s, [char('S'), press(KeyCode::Backspace), char('4')]);
    // Past segments, page size, filter, projection and max RCU: the rate.
    send(&mut s, (0..6).map(|_| press(KeyCode::Tab)));
    send(&mut s, "2.5".chars().map(char));
    let start = |effects: Vec<Effect>| {
        effects
            .into_iter()
            .find_map(|e| match e {
                Effect::Read(ReadEffect::Start { id, spec }) => Some((id, spec)),
                _ => None,
            })
            .expect("a read starts")
    };
    let (id, spec) = start(send(&mut s, [press(KeyCode::Enter)]));
    assert_eq!((spec.segments, spec.budget.rcu_per_second), (4, Some(2.5)));
    // Cancelled, then resumed: the continuation keeps the rate.
    send(&mut s, [press(KeyCode::Esc)]);
    send(
        &mut s,
        [done(id, crate::model::engine::DoneOutcome::Cancelled)],
    );
    let (_, spec) = start(send(&mut s, [char('n')]));
    assert_eq!(spec.budget.rcu_per_second, Some(2.5));
}
