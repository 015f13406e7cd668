//! The live pane through `update`: opening, the stream's news, rankings, pause, follow, the
//! cursor, a change's detail, and every way of closing it stopping the stream.

use crate::app::input::KeyCode;

use super::fixtures::*;
use crate::app::fixtures::{char, demo_info, press, send, state};
use crate::app::msg::{
    Effect, LiveEffect, Msg, ReadEffect, StreamMsg, TableEffect, TableMsg, TerminalEffect, TimeMsg,
};
use crate::app::state::{LiveStatus, Screen};
use crate::model::engine::no_stream_message;
use crate::model::stream::warnings::WriteRule;
use crate::model::stream::{ChangeEvent, RankTarget, ViewType, Window};

#[test]
fn w_follows_the_stream_from_now_and_esc_stops_it() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    let live = live(&s);
    assert_eq!(live.status, LiveStatus::Reading);
    assert_eq!(live.shards, 1);
    assert!(s.live_open());
    // `W` again changes nothing: one pane, one stream.
    assert!(send(&mut s, [char('W')]).is_empty());
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(
        matches!(effects.as_slice(), [Effect::Live(LiveEffect::Stop(stopped))] if *stopped == id)
    );
    assert!(!s.live_open());
    // The table view is back, with its keys.
    assert_eq!(s.screen, Screen::Table);
}

#[test]
fn q_quits_from_the_pane_and_help_opens_over_it() {
    let (mut s, _) = live_opened(ViewType::NewAndOldImages);
    send(&mut s, [char('?')]);
    assert!(s.help_scroll().is_some());
    send(&mut s, [char('x')]);
    assert!(
        s.help_scroll().is_none() && s.live_open(),
        "any key closes the help, not the pane"
    );
    let effects = send(&mut s, [char('q')]);
    // Quitting shuts the effect runner down, which stops every stream.
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::Terminal(TerminalEffect::Quit))));
    assert!(s.quit);
}

#[test]
fn the_hot_collection_and_the_hot_gsi_key_rank_first_and_are_warned_about() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 50, 5);
    let live = live(&s);
    let sum = &live.summary;
    assert_eq!(sum.totals.events, 250);
    assert_eq!(sum.by_events[0].key, "USER#celebrity");
    assert_eq!(sum.by_events[0].events, 100);
    assert!((sum.by_events[0].event_share - 0.4).abs() < 1e-9);
    assert_eq!(sum.by_wcu[0].key, "USER#celebrity");
    assert!((sum.events_per_second - 50.0).abs() < 1e-9, "{sum:?}");
    let hot: Vec<&str> = sum
        .warnings
        .iter()
        .filter(|w| w.rule == WriteRule::HotWriteKey)
        .map(|w| w.short.as_str())
        .collect();
    assert_eq!(hot.len(), 2, "{:?}", sum.warnings);
    assert!(hot[0].starts_with("hot-write-key 'USER#celebrity' (table PK): 40.0% of 250 writes"));
    assert!(hot[1].starts_with("hot-write-key 'STATUS#SHIPPED' (GSI1 GSI1PK)"));
    // Tab: GSI1's keys. A shipped order wrote to its PENDING shard and to SHIPPED.
    send(&mut s, [press(KeyCode::Tab)]);
    let live = super::fixtures::live(&s);
    assert_eq!(live.target, RankTarget::Gsi(0));
    assert_eq!(live.summary.by_events[0].key, "STATUS#SHIPPED");
    assert_eq!(live.summary.by_events[0].events, 100);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(super::fixtures::live(&s).target, RankTarget::Table);
}

#[test]
fn windows_switch_and_the_five_minute_one_remembers_longer() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 20, 3);
    let later = s.clock_ms + 120_000;
    send(&mut s, [Msg::Time(TimeMsg::Tick(later))]);
    assert!(live(&s).summary.by_events.is_empty(), "a quiet minute");
    send(&mut s, [char('5')]);
    let live5 = live(&s);
    assert_eq!(live5.window, Window::FiveMinutes);
    assert_eq!(live5.summary.window_events, 60);
    send(&mut s, [char('t')]);
    assert_eq!(live(&s).window, Window::OneMinute);
    send(&mut s, [char('1')]);
    assert_eq!(live(&s).window, Window::OneMinute);
}

#[test]
fn stale_news_is_dropped() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    send(&mut s, [changes_msg(id + 100, (0..10).map(mix).collect())]);
    send(&mut s, [Msg::Time(TimeMsg::Tick(3_000))]);
    assert_eq!(live(&s).stats.totals().events, 0);
    // A closed pane's stream sending on is harmless.
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(send(&mut s, [changes_msg(id, vec![mix(1)])]).is_empty());
}

#[test]
fn pause_freezes_what_is_shown_and_keeps_counting() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 10, 2);
    let newest = live(&s).tail_row(0).unwrap().sequence_number.clone();
    send(&mut s, [char('p')]);
    assert!(live(&s).paused());
    feed_mix(&mut s, id, 10, 3);
    let paused = live(&s);
    assert_eq!(
        paused.summary.totals.events, 20,
        "the shown counts are frozen"
    );
    assert_eq!(
        paused.stats.totals().events,
        50,
        "but every change is counted"
    );
    assert_eq!(paused.counted_while_paused(), 30);
    assert_eq!(paused.tail_row(0).unwrap().sequence_number, newest);
    assert_eq!(paused.shown_tail().len(), 20);
    // Space resumes: everything counted meanwhile shows at once.
    send(&mut s, [char(' ')]);
    let resumed = live(&s);
    assert!(!resumed.paused());
    assert_eq!(resumed.summary.totals.events, 50);
    assert_eq!(resumed.shown_tail().len(), 50);
}

#[test]
fn follow_keeps_only_the_collection_under_the_cursor() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 10, 2);
    // Newest first: mix(29) to mix(27) are profile updates, mix(26) the celebrity's.
    down(&mut s, 3);
    let under = live(&s).tail_row(live(&s).tail.cursor).unwrap().clone();
    assert_eq!(
        live(&s).collection_of(&under).as_deref(),
        Some("USER#celebrity")
    );
    send(&mut s, [char('f')]);
    let following = live(&s);
    assert_eq!(following.follow.as_ref().unwrap().key, "USER#celebrity");
    assert_eq!(
        following.shown_tail().len(),
        8,
        "its changes already in the tail"
    );
    assert_eq!(following.tail.cursor, 0);
    feed_mix(&mut s, id, 10, 1);
    let following = live(&s);
    assert_eq!(following.shown_tail().len(), 12);
    assert!(following
        .shown_tail()
        .iter()
        .all(|c| following.collection_of(c).as_deref() == Some("USER#celebrity")));
    assert!(s.notice.as_ref().unwrap().text.contains("'USER#celebrity'"));
    send(&mut s, [char('f')]);
    assert_eq!(live(&s).shown_tail().len(), 30);
}

#[test]
fn the_cursor_stays_on_its_change_as_newer_ones_arrive() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 10, 1);
    down(&mut s, 3);
    let picked = live(&s).tail_row(3).unwrap().sequence_number.clone();
    feed_mix(&mut s, id, 10, 1);
    let l = live(&s);
    assert_eq!(l.tail.cursor, 13);
    assert_eq!(l.tail_row(l.tail.cursor).unwrap().sequence_number, picked);
    // At the top it follows the newest change.
    send(&mut s, [char('g')]);
    feed_mix(&mut s, id, 10, 1);
    assert_eq!(live(&s).tail.cursor, 0);
}

#[test]
fn the_tail_keeps_the_configured_number_of_changes() {
    let mut s = crate::app::fixtures::loaded(false);
    s.config.live_tail_changes = 25;
    let effects = send(&mut s, [char('W')]);
    let [Effect::Live(LiveEffect::Start { id, .. })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let id = *id;
    feed_mix(&mut s, id, 40, 3);
    let l = live(&s);
    assert_eq!(l.shown_tail().len(), 25);
    assert_eq!(l.stats.totals().events, 120);
    assert_eq!(l.shown_tail().dropped(), 95);
}

#[test]
fn enter_opens_a_modify_with_its_diff_and_keys_only_says_there_is_none() {
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    s.height = 20;
    send(&mut s, [changes_msg(id, vec![mix(0)])]);
    send(&mut s, [press(KeyCode::Enter)]);
    let detail = live(&s).detail.as_ref().unwrap();
    assert_eq!(detail.change.event, ChangeEvent::Modify);
    // Header 4, diff title and 2 changed attributes (GSI1PK, status), a blank, two images of
    // 7 lines each with a title and a blank.
    assert_eq!(detail.line_count, 4 + 3 + 1 + 2 * (2 + 7));
    send(&mut s, (0..50).map(|_| press(KeyCode::Down)));
    let detail = live(&s).detail.as_ref().unwrap();
    assert_eq!(
        detail.scroll,
        26 - 16,
        "stops with the last line at the bottom"
    );
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(
        live(&s).detail.is_none(),
        "Esc closes the change, not the pane"
    );
    assert!(s.live_open());

    let (mut s, id) = live_opened(ViewType::KeysOnly);
    send(&mut s, [changes_msg(id, vec![keys_only(mix(0))])]);
    send(&mut s, [press(KeyCode::Enter)]);
    let l = live(&s);
    let detail = l.detail.as_ref().unwrap();
    assert_eq!(detail.line_count, 4 + 2 + 1 + 1);
    let reason = crate::app::state::no_diff_reason(&detail.change, l.view_type);
    assert_eq!(
        reason,
        "no old -> new diff: a KEYS_ONLY stream carries the keys only, no item images"
    );
}

#[test]
fn a_table_without_a_stream_says_how_to_enable_one() {
    let (mut s, id) = {
        let mut s = crate::app::fixtures::loaded(false);
        let effects = send(&mut s, [char('W')]);
        let [Effect::Live(LiveEffect::Start { id, .. })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        let id = *id;
        (s, id)
    };
    let message = no_stream_message("app");
    send(
        &mut s,
        [Msg::Stream {
            id,
            event: StreamMsg::Unavailable(message.clone()),
        }],
    );
    assert_eq!(live(&s).status, LiveStatus::Unavailable(message.clone()));
    let notice = s.notice.as_ref().unwrap();
    assert_eq!(notice.text, message);
    assert!(!notice.error);
}

#[test]
fn live_opens_the_pane_once_the_table_is_described() {
    let mut s = state();
    s.open_live = true;
    let effects = crate::app::update::start(&mut s, Some("app".into()));
    assert!(matches!(
        effects.as_slice(),
        [Effect::Tables(TableEffect::Describe(_))]
    ));
    // A `W` before the description changes nothing more.
    send(&mut s, [char('W')]);
    let effects = send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(demo_info()),
        })],
    );
    assert!(matches!(
        effects.as_slice(),
        [Effect::Read(ReadEffect::Start { .. }), Effect::Live(LiveEffect::Start { table, .. })] if table == "app"
    ));
    assert!(s.live_open());
    assert!(!s.open_live);

    let mut s = state();
    s.open_live = true;
    crate::app::update::start(&mut s, Some("nope".into()));
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "nope".into(),
            result: Err("table 'nope' not found".into()),
        })],
    );
    assert!(!s.open_live && !s.live_open());
}
