//! The scan launcher, per-segment progress and the key-distribution view through `update`.

use crossterm::event::KeyCode;

use super::fixtures::*;
use super::msg::{Effect, Msg};
use crate::aws::attempts::AttemptStats;
use crate::aws::{EngineEvent, Operation, Page};
use crate::model::capacity::Consumed;

fn segment_page(id: u64, segment: u32, items: Vec<crate::model::value::Item>, more: bool) -> Msg {
    let n = items.len() as u64;
    Msg::Engine(EngineEvent::Page(Page {
        request_id: id,
        operation: Operation::Scan,
        index: None,
        segment,
        page: 1,
        last_evaluated_key: if more { items.last().cloned() } else { None },
        json_lines: None,
        items,
        count: n,
        scanned_count: n * 4,
        consumed: Consumed {
            total: 10.0,
            table: 10.0,
            indexes: Default::default(),
        },
        latency: std::time::Duration::from_millis(5),
        attempts: AttemptStats {
            attempts: 1,
            throttles: 0,
            throttle_reason: None,
        },
    }))
}

#[test]
fn launcher_estimates_confirms_and_streams_every_segment_to_the_end() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1.0; // the fixture table (63 KB ≈ 8 RCU) is over it
    send(&mut s, [char('S')]);
    let l = s.table.as_ref().unwrap().launcher.as_ref().unwrap();
    let plan = l.plan.as_ref().unwrap();
    assert_eq!(plan.estimate_rcu, 8.0, "65,000 B / 4 KB, halved");
    send(&mut s, [press(KeyCode::Backspace), char('4')]);
    // Over the threshold: the first Enter only asks.
    assert!(send(&mut s, [press(KeyCode::Enter)]).is_empty());
    assert!(
        s.table
            .as_ref()
            .unwrap()
            .launcher
            .as_ref()
            .unwrap()
            .confirming
    );
    let effects = send(&mut s, [Msg::Tick(1_000), press(KeyCode::Enter)]);
    let (id, spec) = effects
        .iter()
        .find_map(|e| match e {
            Effect::StartRead { id, spec } => Some((*id, spec.clone())),
            _ => None,
        })
        .expect("the second Enter launches");
    assert_eq!(spec.segments, 4);
    assert_eq!(spec.max_pages, None, "a triage scan runs to its end");
    assert_eq!(
        spec.page_size,
        Some(super::scan_launcher::TRIAGE_PAGE_ITEMS),
        "pages small enough to keep keys responsive"
    );
    let items = demo_items();
    let (a, b) = items.split_at(100);
    send(
        &mut s,
        [
            segment_page(id, 2, a.to_vec(), true),
            segment_page(id, 0, b.to_vec(), false),
        ],
    );
    send(&mut s, [Msg::Tick(3_000)]);
    let p = s.table.as_ref().unwrap().progress.clone().unwrap();
    assert_eq!(p.segments.len(), 4);
    assert_eq!((p.segments[2].items, p.segments[2].done), (100, false));
    assert!(p.segments[0].done);
    assert_eq!(p.spent_rcu, 20.0);
    let (items_rate, rcu_rate, _) = p.rates(s.clock_ms);
    assert!((rcu_rate - 10.0).abs() < 1e-9, "20 RCU over 2 s");
    assert!(items_rate > 0.0);
    // Esc cancels everything at once.
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(matches!(effects.as_slice(), [Effect::Cancel(c)] if *c == id));
}

#[test]
fn key_distribution_ranks_the_celebrity_first() {
    let mut s = loaded(false);
    send(&mut s, [char('K')]);
    let d = s
        .table
        .as_ref()
        .unwrap()
        .distribution
        .clone()
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
    assert_eq!(
        s.table
            .as_ref()
            .unwrap()
            .distribution
            .as_ref()
            .unwrap()
            .scroll,
        1
    );
    // Scrolling stops with the last line on top, so `↑` moves at once after many `↓`.
    send(&mut s, (0..1000).map(|_| press(KeyCode::Down)));
    let scroll = |s: &crate::app::state::State| {
        s.table
            .as_ref()
            .unwrap()
            .distribution
            .as_ref()
            .unwrap()
            .scroll
    };
    assert_eq!(scroll(&s), d.line_count - 1);
    send(&mut s, [press(KeyCode::Up)]);
    assert_eq!(scroll(&s), d.line_count - 2);
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().distribution.is_none());
}
