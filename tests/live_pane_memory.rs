//! The live pane over hours: 300,000 changes through the explorer's own `update` (the pane
//! open, a tick after each GetRecords page of 1,000), two hours of stream time, 20,000 distinct
//! keys so the rankings' counters are evicted all the time, with 40 minutes of it paused and
//! following one collection (a frozen copy of the counts and a tail of its own). Live heap (a counting
//! allocator) must stop growing once the pane's rings and tails are full, and stay within the
//! bound docs/live-pane.md states.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use dynoscope::app::config::Config;
use dynoscope::app::input::{Key, KeyCode, Modifiers};
use dynoscope::app::keymap::Keymap;
use dynoscope::app::msg::{Effect, InputMsg, LiveEffect, Msg, StreamMsg, TableMsg, TimeMsg};
use dynoscope::app::state::State;
use dynoscope::app::update::{start, update};
use dynoscope::aws::stream::StreamEvent;
use dynoscope::model::design::schema::TableInfo;
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::stream::{Change, ChangeEvent, ViewType};

mod counting_alloc;
use counting_alloc::{Counting, LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const KEYS: u64 = 20_000;
/// Changes per stream page, and the stream time between pages (a tick after each; ticks
/// refresh the summary, which is most of this test's time in a debug build).
const PAGE: u64 = 1_000;
const PAGE_MS: u64 = 24_000;
/// Each phase is 40 minutes of stream time: 100 pages of 1,000 changes.
const PHASE_PAGES: u64 = 100;
/// The bounds: live heap above what the explorer held before the pane opened (the counts,
/// their frozen copy while paused, the two tails of 1,000 changes, the summary), and what it
/// may grow by between the end of the first phase and the end of the third.
/// Measured: 2.5 MB after the first phase, 4.6 MB paused and following, 2.5 MB at the end,
/// 6.2 MB at the peak (debug build).
const HEAP_BOUND_MB: usize = 24;
const GROWTH_BOUND_KB: usize = 256;

fn info() -> TableInfo {
    dynoscope::model::demo::demo_data::stream_table_info()
}

/// Change `n`: a MODIFY of one of 20,000 users (every fifth to the hot tenant), both images
/// of about 400 bytes.
fn change(n: u64) -> Change {
    let pk = if n.is_multiple_of(5) {
        "USER#celebrity".to_string()
    } else {
        format!("USER#u{:05}", (n * 7919) % KEYS)
    };
    let image = |v: u64| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.clone())),
            ("SK".into(), AttrValue::S("PROFILE".into())),
            (
                "GSI1PK".into(),
                AttrValue::S(format!("STATUS#PENDING#{}", n % 10)),
            ),
            ("GSI1SK".into(), AttrValue::S(format!("{n:012}"))),
            ("v".into(), AttrValue::N(v.to_string())),
            ("payload".into(), AttrValue::S("x".repeat(250))),
        ])
    };
    Change {
        event: ChangeEvent::Modify,
        keys: Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.clone())),
            ("SK".into(), AttrValue::S("PROFILE".into())),
        ]),
        old_image: Some(image(n)),
        new_image: Some(image(n + 1)),
        sequence_number: format!("{n:021}"),
        created_at_ms: Some(1_796_066_280_000 + n as i64),
        size_bytes: 800,
        view: Some(ViewType::NewAndOldImages),
        ttl_delete: false,
    }
}

fn key(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(KeyCode::Char(c), Modifiers::NONE)))
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// One phase of stream time from page `first`.
fn phase(state: &mut State, id: u64, first: u64) {
    for page in first..first + PHASE_PAGES {
        let changes = (page * PAGE..(page + 1) * PAGE).map(change).collect();
        let msg = Msg::Stream {
            id,
            event: StreamMsg::Event(StreamEvent::Changes {
                shard_id: Arc::from("shard-0001"),
                changes,
            }),
        };
        update(state, msg);
        update(state, Msg::Time(TimeMsg::Tick((page + 1) * PAGE_MS)));
    }
}

#[test]
fn two_hours_of_the_live_pane_stay_flat_in_memory() {
    let mut state = State::new(
        Config::default(),
        Keymap::default(),
        "memory".into(),
        100,
        30,
    );
    start(&mut state, Some("app".into()));
    update(
        &mut state,
        Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info()),
        }),
    );
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let id = match update(
        &mut state,
        Msg::Input(InputMsg::Key(Key::new(
            KeyCode::Char('W'),
            Modifiers::SHIFT,
        ))),
    )
    .as_slice()
    {
        [Effect::Live(LiveEffect::Start { id, .. })] => *id,
        other => panic!("expected a stream, got {other:?}"),
    };
    update(
        &mut state,
        Msg::Stream {
            id,
            event: StreamMsg::Event(StreamEvent::Ready { shards: 1 }),
        },
    );

    phase(&mut state, id, 0);
    let first = LIVE.load(Ordering::Relaxed) - before;
    // The second phase paused, following the newest change's collection.
    update(&mut state, key('f'));
    update(&mut state, key('p'));
    phase(&mut state, id, PHASE_PAGES);
    let paused = LIVE.load(Ordering::Relaxed) - before;
    update(&mut state, key('p'));
    update(&mut state, key('f'));
    update(&mut state, key('5'));
    phase(&mut state, id, 2 * PHASE_PAGES);
    let end = LIVE.load(Ordering::Relaxed) - before;
    let peak = PEAK.load(Ordering::Relaxed) - before;
    eprintln!(
        "the pane's live heap: {:.2} MB after the first 40 minutes, {:.2} MB paused and following after the next 40, {:.2} MB after the last 40; peak {:.2} MB",
        mb(first),
        mb(paused),
        mb(end),
        mb(peak)
    );

    let live = state.table.as_ref().unwrap().live().unwrap();
    assert_eq!(live.stats.totals().events, 3 * PHASE_PAGES * PAGE);
    assert_eq!(live.shown_tail().len(), 1000);
    assert_eq!(live.summary.by_events[0].key, "USER#celebrity");
    assert!(
        peak < HEAP_BOUND_MB << 20,
        "peak {:.1} MB over the start, bound {HEAP_BOUND_MB} MB",
        mb(peak)
    );
    assert!(
        end.saturating_sub(first) < GROWTH_BOUND_KB << 10,
        "the pane grew {} KB from the first phase to the third",
        end.saturating_sub(first) >> 10
    );
}
