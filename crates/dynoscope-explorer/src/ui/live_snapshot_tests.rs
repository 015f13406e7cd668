//! The live pane in each of its states at 100x30: connecting, reading with rates, rankings,
//! warnings and the tail; another ranking, paused and following; a MODIFY's diff; a KEYS_ONLY
//! stream; a table without a stream. The diff's colours are asserted on the buffer.

use crate::app::input::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use super::snapshot_tests::render;
use crate::app::fixtures::{char, press, send};
use crate::app::live::fixtures::*;
use crate::app::msg::{Effect, LiveEffect, Msg, StreamMsg, TimeMsg};
use crate::model::engine::no_stream_message;
use crate::model::stream::ViewType;

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

/// The first cell of `text` on screen, as (x, y).
fn find(buffer: &Buffer, text: &str) -> Option<(u16, u16)> {
    let area = buffer.area;
    (area.y..area.y + area.height).find_map(|y| {
        let row: String = (area.x..area.x + area.width)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        row.find(text)
            .map(|at| (row[..at].chars().count() as u16, y))
    })
}

#[test]
fn connecting_then_reading_with_nothing_written_yet() {
    let mut s = crate::app::fixtures::loaded(false);
    send(&mut s, [char('W')]);
    snapshot!("live_connecting", s);
    let (s, _) = live_opened(ViewType::NewAndOldImages);
    snapshot!("live_reading_empty", s);
}

#[test]
fn the_pane_with_rates_rankings_warnings_and_the_tail() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 50, 8);
    down(&mut s, 3);
    snapshot!("live_pane", s);
    // GSI1's keys over five minutes, paused with writes counted since, following a collection.
    send(
        &mut s,
        [press(KeyCode::Tab), char('5'), char('f'), char('p')],
    );
    feed_mix(&mut s, id, 50, 2);
    snapshot!("live_pane_gsi_following_paused", s);
}

#[test]
fn a_modify_opens_with_its_coloured_diff() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 5, 1);
    // Newest first: mix(9) is a profile update, lastSeen 909 → 1009: old red, new green.
    let terminal = render(&s);
    let buffer = terminal.backend().buffer();
    let (x, y) = find(buffer, "lastSeen: 909 → 1009").expect("the diff in the tail");
    assert_eq!(buffer[(x + 10, y)].fg, Color::Red, "old value");
    assert_eq!(buffer[(x + 16, y)].fg, Color::Green, "new value");
    send(&mut s, [press(KeyCode::Enter)]);
    snapshot!("live_change_modify_diff", s);
    let terminal = render(&s);
    let buffer = terminal.backend().buffer();
    let (x, y) = find(buffer, "  lastSeen: 909 → 1009").expect("the diff row");
    assert_eq!(buffer[(x + 12, y)].fg, Color::Red);
    assert_eq!(buffer[(x + 18, y)].fg, Color::Green);
}

#[test]
fn keys_only_shows_what_it_cannot_tell() {
    let (mut s, id) = live_opened(ViewType::KeysOnly);
    send(
        &mut s,
        [changes_msg(id, (0..6).map(|n| keys_only(mix(n))).collect())],
    );
    send(&mut s, [Msg::Time(TimeMsg::Tick(2_000))]);
    snapshot!("live_keys_only", s);
    send(&mut s, [press(KeyCode::Enter)]);
    snapshot!("live_keys_only_change", s);
}

#[test]
fn a_table_without_a_stream_is_one_line_naming_the_update_table() {
    let mut s = crate::app::fixtures::loaded(false);
    let effects = send(&mut s, [char('W')]);
    let [Effect::Live(LiveEffect::Start { id, .. })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let id = *id;
    send(
        &mut s,
        [Msg::Stream {
            id,
            event: StreamMsg::Unavailable(no_stream_message("app")),
        }],
    );
    snapshot!("live_no_stream", s);
}

/// Issue 24: an incremental export's changes in the pane at 120x40. The title names the
/// export's window, not "Live"; the rankings, rates and warnings cover the whole window (the
/// clock stands at its end, so nothing slides out); `1`/`5` say the window is the export's.
#[test]
fn the_pane_over_an_export_window() {
    use crate::model::engine::stream::{StreamEvent, StreamOutcome};
    use crate::model::stream::Timeline;
    let mut s = crate::app::fixtures::loaded(false);
    (s.width, s.height) = (120, 40);
    send(&mut s, [Msg::Time(TimeMsg::Tick(1_000))]);
    let id = match send(&mut s, [char('W')]).as_slice() {
        [Effect::Live(LiveEffect::Start { id, .. })] => *id,
        other => panic!("{other:?}"),
    };
    let from_ms = CREATED_MS as u64;
    let to_ms = from_ms + 3_600_000;
    send(
        &mut s,
        [
            Msg::Stream {
                id,
                event: StreamMsg::Found {
                    view_type: Some(ViewType::NewAndOldImages),
                    timeline: Timeline::Recorded { from_ms, to_ms },
                },
            },
            Msg::Stream {
                id,
                event: StreamMsg::Event(StreamEvent::Ready { shards: 1 }),
            },
        ],
    );
    // 600 writes spread over the hour, 40% of them to USER#celebrity.
    let changes = (0..600u64)
        .map(|n| {
            let mut c = mix(n);
            c.created_at_ms = Some((from_ms + n * 6_000) as i64);
            c
        })
        .collect();
    send(&mut s, [changes_msg(id, changes)]);
    send(
        &mut s,
        [
            Msg::Stream {
                id,
                event: StreamMsg::Event(StreamEvent::Done {
                    outcome: StreamOutcome::Recorded,
                }),
            },
            // The clock moves on; the window does not.
            Msg::Time(TimeMsg::Tick(900_000)),
        ],
    );
    let summary = &live(&s).summary;
    assert_eq!(summary.by_events[0].key, "USER#celebrity");
    assert_eq!(summary.by_events[0].events, 240);
    assert_eq!(
        summary.window_events, 600,
        "every write of the window is ranked"
    );
    insta::assert_snapshot!(
        "live_export_window",
        super::snapshot_tests::render_sized(&s, 120, 40).backend()
    );
    send(&mut s, [char('1')]);
    let notice = s
        .notice
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert!(
        notice.contains(
            "the window is the export's, from 2026-11-30T19:18:00Z to 2026-11-30T20:18:00Z"
        ),
        "{notice}"
    );
}
