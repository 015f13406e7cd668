//! `update` driven by scripted messages: no terminal, no network.

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect, TableEffect, TableMsg, TerminalEffect};
use crate::app::state::{JsonMode, Pane, ReadOutcome, Screen};
use crate::app::update::start;
use crate::model::engine::{DoneOutcome, EngineEvent, Operation, SegmentStart};

#[test]
fn pages_group_into_collections_and_log_their_capacity() {
    let (mut s, id) = opened();
    let items = demo_items();
    let total = items.len();
    let (first, second) = items.split_at(total / 2);
    send(&mut s, [page(id, 1, first.to_vec(), true)]);
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.view.store.as_ref().unwrap().len(), first.len());
    assert!(view.view.read.as_ref().unwrap().has_more());
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: std::time::Duration::ZERO,
        })],
    );
    // Load more continues from the last key with a new request id.
    let effects = send(&mut s, [char('n')]);
    let id2 = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => {
            assert!(matches!(spec.starts.as_slice(), [SegmentStart::After(_)]));
            *id
        }
        other => panic!("{other:?}"),
    };
    assert_ne!(id, id2);
    send(&mut s, [page(id2, 1, second.to_vec(), false)]);
    let view = s.table.as_ref().unwrap();
    let store = view.view.store.as_ref().unwrap();
    assert_eq!(store.len(), total, "no item lost or duplicated");
    assert!(!view.view.read.as_ref().unwrap().has_more());
    assert_eq!(s.log.len(), 2);
    assert_eq!(s.log.total.total, 5.0);
    let celebrity = store
        .collection_of("USER#celebrity")
        .expect("celebrity collection");
    assert!(store.collections()[celebrity].items.len() > 10);
}

#[test]
fn stale_pages_are_logged_but_not_shown() {
    let (mut s, id) = opened();
    send(&mut s, [char('r')]); // rescan: a new read replaces the first
    send(&mut s, [page(id, 1, demo_items(), false)]);
    assert_eq!(
        s.table.as_ref().unwrap().view.store.as_ref().unwrap().len(),
        0
    );
    assert_eq!(s.log.len(), 1, "its capacity was still spent");
}

#[test]
fn navigation_opens_detail_and_toggles_json() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), false)]);
    // Move to the first collection with more than one item.
    let view = s.table.as_ref().unwrap();
    let store = view.view.store.as_ref().unwrap();
    let target = store
        .collections()
        .iter()
        .position(|c| c.items.len() > 1)
        .unwrap();
    send(&mut s, (0..target).map(|_| press(KeyCode::Down)));
    assert_eq!(s.table.as_ref().unwrap().view.collections.cursor, target);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(s.table.as_ref().unwrap().view.focus, Pane::Items);
    send(&mut s, [press(KeyCode::Down), press(KeyCode::Enter)]);
    let view = s.table.as_ref().unwrap();
    assert!(view.view.detail_open);
    assert_eq!(view.view.focus, Pane::Detail);
    assert_eq!(view.view.items.cursor, 1);
    send(&mut s, [char('t')]);
    assert_eq!(s.table.as_ref().unwrap().view.json_mode, JsonMode::Dynamo);
    let effects = send(&mut s, [char('y')]);
    assert!(
        matches!(effects.as_slice(), [Effect::Terminal(TerminalEffect::Copy(json))] if json.starts_with('{'))
    );
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(!s.table.as_ref().unwrap().view.detail_open);
}

#[test]
fn esc_cancels_a_running_read_and_quit_cancels_too() {
    let (mut s, id) = opened();
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c))] if *c == id));
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Cancelled,
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let read = s.table.as_ref().unwrap().view.read.as_ref().unwrap();
    assert!(!read.running);
    assert_eq!(read.outcome, Some(ReadOutcome::Cancelled));
    let (mut s, id) = opened();
    let effects = send(&mut s, [char('q')]);
    assert!(
        matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c)), Effect::Terminal(TerminalEffect::Quit)] if *c == id)
    );
}

#[test]
fn failures_keep_what_was_loaded_and_offer_resume() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), true)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Failed {
            request_id: id,
            segment: 0,
            error: crate::model::engine::EngineError::service(
                "Scan failed at http://x: InternalServerError",
            ),
            attempts: Default::default(),
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let view = s.table.as_ref().unwrap();
    assert!(!view.view.store.as_ref().unwrap().is_empty());
    assert!(matches!(
        view.view.read.as_ref().unwrap().outcome,
        Some(ReadOutcome::Failed(_))
    ));
    assert!(s.notice.as_ref().unwrap().text.contains("resume"));
    let effects = send(&mut s, [char('n')]);
    let [Effect::Read(ReadEffect::Start { id: resumed, .. })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    // The resumed read delivers: the failure it recovered from is no longer news.
    send(
        &mut s,
        [page(*resumed, 2, demo_items()[..3].to_vec(), false)],
    );
    assert_eq!(s.notice, None);
}

#[test]
fn partition_key_prompt_validates_then_queries() {
    let (mut s, _) = opened();
    send(&mut s, [char('p')]);
    // Empty key: refused with DynamoDB's rule, no request sent.
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(effects.is_empty());
    assert!(s
        .table
        .as_ref()
        .unwrap()
        .pk_prompt()
        .unwrap()
        .error
        .is_some());
    let typed: Vec<Msg> = "USER#celebrity".chars().map(char).collect();
    send(&mut s, typed);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let cancel_and_start = effects
        .iter()
        .filter(|e| matches!(e, Effect::Read(ReadEffect::Start { .. })))
        .count();
    assert_eq!(cancel_and_start, 1);
    let spec = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec),
            _ => None,
        })
        .unwrap();
    assert_eq!(spec.operation, Operation::Query);
    assert!(spec
        .values
        .iter()
        .any(|(_, v)| v.as_s() == Some("USER#celebrity")));
}

#[test]
fn filter_narrows_collections_and_items() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let all = s.table.as_ref().unwrap().view.collection_count();
    let typed: Vec<Msg> = "/celebrity".chars().map(char).collect();
    send(&mut s, typed);
    send(&mut s, [press(KeyCode::Enter)]);
    let view = s.table.as_ref().unwrap();
    assert!(view.view.collection_count() >= 1 && view.view.collection_count() < all);
    let store = view.view.store.as_ref().unwrap();
    let first = view.view.collection_at(0).unwrap();
    assert!(store.collections()[first].key.contains("celebrity") || view.view.item_count() > 0);
    send(&mut s, [press(KeyCode::Esc)]);
    assert_eq!(s.table.as_ref().unwrap().view.collection_count(), all);
}

/// Issue 20: `/404` found nothing where `responsecode` is the number 404.
#[test]
fn filter_matches_numbers_by_their_text() {
    use crate::model::item::value::{AttrValue, Item};
    let (mut s, id) = opened();
    let log = |sk: &str, code: &str| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("SITE#a".into())),
            ("SK".into(), AttrValue::S(sk.into())),
            ("responsecode".into(), AttrValue::N(code.into())),
        ])
    };
    let other = Item::from_attrs(vec![
        ("PK".into(), AttrValue::S("SITE#b".into())),
        ("SK".into(), AttrValue::S("REQ#3".into())),
        ("responsecode".into(), AttrValue::N("200".into())),
    ]);
    send(
        &mut s,
        [page(
            id,
            1,
            vec![log("REQ#1", "404"), log("REQ#2", "200"), other],
            false,
        )],
    );
    send(&mut s, "/404".chars().map(char).collect::<Vec<_>>());
    send(&mut s, [press(KeyCode::Enter)]);
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.view.collection_count(), 1, "only SITE#a holds a 404");
    let store = view.view.store.as_ref().unwrap();
    assert_eq!(
        store.collections()[view.view.collection_at(0).unwrap()].key,
        "SITE#a"
    );
    let listed: Vec<_> = view
        .view
        .listed_items()
        .into_iter()
        .map(|id| {
            store
                .item(id)
                .get("SK")
                .and_then(|v| v.as_s().map(String::from))
        })
        .collect();
    assert_eq!(listed, vec![Some("REQ#1".to_string())]);
}

#[test]
fn picker_filters_as_you_type_and_describes_the_highlight() {
    let mut s = state();
    assert!(matches!(
        start(&mut s, None).as_slice(),
        [Effect::Tables(TableEffect::List)]
    ));
    let effects = send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Ok(vec![
            "app".into(),
            "orders".into(),
            "users".into(),
        ])))],
    );
    assert!(matches!(effects.as_slice(), [Effect::Tables(TableEffect::Describe(t))] if t == "app"));
    let effects = send(&mut s, [char('u'), char('s')]);
    assert_eq!(s.picker.visible(), ["users"]);
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::Tables(TableEffect::Describe(t)) if t == "users")));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert_eq!(s.screen, Screen::Table);
    assert!(
        matches!(effects.as_slice(), [Effect::Tables(TableEffect::Describe(t))] if t == "users")
    );
}

/// The wheel over the picker moves its cursor (the router sends it to the picker, not to the
/// table's panes) and describes the table it lands on.
#[test]
fn the_mouse_wheel_moves_the_pickers_cursor_and_describes_the_table() {
    use crate::app::input::{Mouse, MouseKind};
    let mut s = state();
    start(&mut s, None);
    let tables = ["app", "orders", "users"].map(String::from).to_vec();
    send(&mut s, [Msg::Tables(TableMsg::Listed(Ok(tables)))]);
    let wheel = |kind| Msg::Input(InputMsg::Mouse(Mouse { kind }));
    let effects = send(&mut s, [wheel(MouseKind::ScrollDown)]);
    assert_eq!(s.picker.highlighted().as_deref(), Some("users"));
    assert!(
        matches!(effects.as_slice(), [Effect::Tables(TableEffect::Describe(t))] if t == "users"),
        "{effects:?}"
    );
    send(&mut s, [wheel(MouseKind::ScrollUp)]);
    assert_eq!(s.picker.highlighted().as_deref(), Some("app"));
}

#[test]
fn scrolling_onto_the_last_collection_loads_the_next_page() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), true)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let effects = send(&mut s, [char('G')]);
    assert!(
        matches!(effects.as_slice(), [Effect::Read(ReadEffect::Start { .. })]),
        "{effects:?}"
    );
}

#[test]
fn past_max_items_the_log_keeps_counting_but_items_are_not_kept() {
    let (mut s, id) = opened();
    s.max_items = 50;
    let items = demo_items();
    let total = items.len() as u64;
    send(&mut s, [page(id, 1, items, false)]);
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.view.store.as_ref().unwrap().len(), 50);
    assert_eq!(view.view.dropped_items, total - 50);
    assert_eq!(
        s.log.tail(1).next().unwrap().count,
        total,
        "statistics count every item read"
    );
}

/// An item taller than the detail pane: 60 attributes, 62 lines of JSON.
fn tall_item() -> crate::model::item::value::Item {
    use crate::model::item::value::{AttrValue, Item};
    let mut attrs = vec![
        ("PK".to_string(), AttrValue::S("USER#tall".into())),
        ("SK".to_string(), AttrValue::S("PROFILE".into())),
    ];
    attrs.extend((0..58).map(|i| (format!("a{i:02}"), AttrValue::N(i.to_string()))));
    Item::from_attrs(attrs)
}

#[test]
fn detail_scrolling_stops_at_the_last_line_and_up_moves_at_once() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, vec![tall_item()], false)]);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    assert_eq!(s.table.as_ref().unwrap().view.focus, Pane::Detail);
    // Three `G`s overflowed the scroll offset (a panic in debug builds).
    send(&mut s, [char('G'), char('G'), char('G')]);
    // The JSON's rows: the detail pane below the item's (empty) related list.
    let main =
        crate::app::layout::explorer_layout(&s, ratatui::layout::Rect::new(0, 0, WIDTH, HEIGHT))
            .main;
    let rows = crate::app::layout::list_rows(crate::app::layout::split_related(main, 0)[1]);
    let bottom = 62 - rows;
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, bottom);
    send(&mut s, [press(KeyCode::Up)]);
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, bottom - 1);
    send(&mut s, [press(KeyCode::PageDown), press(KeyCode::PageDown)]);
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, bottom);
    send(&mut s, [char('g'), press(KeyCode::Up)]);
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, 0);
}

#[test]
fn detail_of_a_short_item_does_not_scroll() {
    let mut s = loaded(false);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    send(&mut s, [char('G'), press(KeyCode::Down)]);
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, 0);
}

#[test]
fn column_scrolling_stops_at_the_last_attribute_column() {
    let mut s = loaded(false);
    send(&mut s, [press(KeyCode::Tab)]);
    let max = crate::app::columns::max_column_offset(s.table.as_ref().unwrap());
    assert!(max > 0, "the fixture has several attribute columns");
    send(&mut s, (0..100).map(|_| press(KeyCode::Right)));
    assert_eq!(s.table.as_ref().unwrap().view.column_offset, max);
    send(&mut s, [press(KeyCode::Left)]);
    assert_eq!(s.table.as_ref().unwrap().view.column_offset, max - 1);
    assert_eq!(s.table.as_ref().unwrap().view.focus, Pane::Items);
}

#[test]
fn ctrl_z_asks_to_suspend_from_anywhere() {
    use crate::app::input::{Key, Modifiers};
    let ctrl_z = || {
        Msg::Input(InputMsg::Key(Key::new(
            KeyCode::Char('z'),
            Modifiers::CONTROL,
        )))
    };
    let mut s = loaded(false);
    assert!(matches!(
        send(&mut s, [ctrl_z()]).as_slice(),
        [Effect::Terminal(TerminalEffect::Suspend)]
    ));
    // Also while typing in the builder, where a plain `z` is text.
    send(&mut s, [char(':')]);
    assert!(matches!(
        send(&mut s, [ctrl_z()]).as_slice(),
        [Effect::Terminal(TerminalEffect::Suspend)]
    ));
    assert!(
        s.table.as_ref().unwrap().query_form().is_some(),
        "nothing else changes"
    );
    assert!(!s.quit);
}
