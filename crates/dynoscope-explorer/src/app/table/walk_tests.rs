//! Issue 14's details through `update`: collection order, the picker's return, completions,
//! the detail's wrap, help, the request log.

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::{Msg, TableMsg};
use crate::app::state::State;
use crate::model::design::collection::CollectionOrder;
use crate::model::engine::{DoneOutcome, EngineEvent};

fn selected_key(s: &State) -> String {
    let v = s.table.as_ref().unwrap();
    let store = v.view.store.as_ref().unwrap();
    store.collections()[v.view.selected_collection().unwrap()]
        .key
        .clone()
}

fn keys_shown(s: &State) -> Vec<String> {
    let v = s.table.as_ref().unwrap();
    let store = v.view.store.as_ref().unwrap();
    (0..v.view.collection_count())
        .map(|n| {
            store.collections()[v.view.collection_at(n).unwrap()]
                .key
                .clone()
        })
        .collect()
}

#[test]
fn o_cycles_the_collection_order_and_the_selection_stays() {
    let mut s = loaded(false);
    send(&mut s, (0..3).map(|_| press(KeyCode::Down)));
    let chosen = selected_key(&s);
    let order = |s: &State| s.table.as_ref().unwrap().view.ordering.order();
    for want in [
        CollectionOrder::Key,
        CollectionOrder::Items,
        CollectionOrder::Bytes,
        CollectionOrder::FirstSeen,
    ] {
        send(&mut s, [char('o')]);
        assert_eq!(order(&s), want);
        assert_eq!(selected_key(&s), chosen, "{want:?}");
    }
    send(&mut s, [char('o')]);
    let keys = keys_shown(&s);
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "DynamoDB order of string keys is byte order");
    // A filter keeps the order.
    send(&mut s, [char('/')]);
    send(&mut s, "USER".chars().map(char));
    send(&mut s, [press(KeyCode::Enter)]);
    let filtered = keys_shown(&s);
    assert!(filtered.windows(2).all(|w| w[0] <= w[1]), "{filtered:?}");
}

#[test]
fn a_page_that_reorders_the_list_keeps_the_cursor_on_its_collection() {
    let (mut s, id) = opened();
    let items = demo_items();
    let (first, rest) = items.split_at(100);
    send(&mut s, [page(id, 1, first.to_vec(), true)]);
    send(&mut s, [char('o'), char('o')]);
    assert_eq!(
        s.table.as_ref().unwrap().view.ordering.order(),
        CollectionOrder::Items
    );
    send(&mut s, [press(KeyCode::Down), press(KeyCode::Down)]);
    let chosen = selected_key(&s);
    send(&mut s, [page(id, 2, rest.to_vec(), false)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: std::time::Duration::from_millis(5),
        })],
    );
    assert_eq!(selected_key(&s), chosen);
    assert_eq!(keys_shown(&s)[0], "USER#celebrity");
}

/// The picker with three tables and `filter` typed, then `orders` opened and left with `T`.
fn back_from_orders(filter: &str) -> State {
    let mut s = state();
    crate::app::update::start(&mut s, None);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Ok(vec![
            "app".into(),
            "audit-log".into(),
            "orders".into(),
            "orders-archive".into(),
        ])))],
    );
    send(&mut s, filter.chars().map(char));
    let at = s
        .picker
        .visible()
        .iter()
        .position(|t| *t == "orders")
        .unwrap();
    send(&mut s, (0..at).map(|_| press(KeyCode::Down)));
    send(&mut s, [press(KeyCode::Enter)]);
    assert_eq!(s.screen, crate::app::state::Screen::Table);
    send(&mut s, [char('T')]);
    assert_eq!(s.screen, crate::app::state::Screen::Picker);
    s
}

#[test]
fn back_in_the_picker_the_filter_is_selected_and_the_cursor_on_the_table_left() {
    let mut s = back_from_orders("or");
    assert!(s.picker.filter_selected);
    assert_eq!(s.picker.highlighted().as_deref(), Some("orders"));
    // Typing replaces the old filter instead of appending to it.
    send(&mut s, "aud".chars().map(char));
    assert_eq!(s.picker.filter, "aud");
    assert_eq!(s.picker.visible(), ["audit-log"]);
    assert!(!s.picker.filter_selected);
    // Backspace on a selected filter clears it; a move keeps it.
    let mut s = back_from_orders("or");
    send(&mut s, [press(KeyCode::Backspace)]);
    assert_eq!(s.picker.filter, "");
    let mut s = back_from_orders("or");
    send(&mut s, [press(KeyCode::Down)]);
    assert_eq!(s.picker.filter, "or");
    assert_eq!(s.picker.highlighted().as_deref(), Some("orders-archive"));
    send(&mut s, [char('x')]);
    assert_eq!(s.picker.filter, "orx", "unselected: typing appends");
    // Without a filter there is nothing to select; the cursor is still on the table left.
    let s = back_from_orders("");
    assert!(!s.picker.filter_selected);
    assert_eq!(s.picker.highlighted().as_deref(), Some("orders"));
}

/// An item with a 1,500-character string, opened in the detail.
fn long_string_detail() -> State {
    use crate::model::item::value::{AttrValue, Item};
    let (mut s, id) = opened();
    let long: String = (0..1500)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    let item = Item::from_attrs(vec![
        ("PK".into(), AttrValue::S("DOC#1".into())),
        ("SK".into(), AttrValue::S("BODY".into())),
        ("body".into(), AttrValue::S(long)),
    ]);
    send(&mut s, [page(id, 1, vec![item], false)]);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    s
}

#[test]
fn the_detail_wraps_long_lines_and_w_scrolls_them_sideways_instead() {
    let mut s = long_string_detail();
    let view = |s: &State| s.table.as_ref().unwrap().clone();
    assert!(view(&s).view.detail_wrap, "wrapping is the default");
    // Wrapped, the string takes many rows: G scrolls to the last of them.
    send(&mut s, [char('G')]);
    let wrapped_bottom = view(&s).view.detail_scroll;
    assert!(
        wrapped_bottom > 0,
        "five lines of JSON, one of 1,500 characters"
    );
    send(&mut s, [press(KeyCode::Right)]);
    assert_eq!(
        view(&s).view.detail_hscroll,
        0,
        "nothing to scroll sideways when wrapped"
    );
    // Unwrapped: five lines fit, and → scrolls sideways up to the end of the longest.
    send(&mut s, [char('w')]);
    assert!(!view(&s).view.detail_wrap);
    assert_eq!(view(&s).view.detail_scroll, 0);
    send(&mut s, (0..200).map(|_| press(KeyCode::Right)));
    let hscroll = view(&s).view.detail_hscroll;
    assert!((1400..1520).contains(&hscroll), "{hscroll}");
    send(&mut s, [press(KeyCode::Left)]);
    assert_eq!(view(&s).view.detail_hscroll, hscroll - 8);
    send(&mut s, [char('w')]);
    assert_eq!(view(&s).view.detail_hscroll, 0);
}

#[test]
fn the_request_log_follows_its_rows_between_3_and_10_and_plus_minus_resize_it() {
    use crate::app::layout::explorer_layout;
    let height = |s: &State| {
        explorer_layout(s, ratatui::layout::Rect::new(0, 0, WIDTH, HEIGHT))
            .log
            .height
    };
    let (mut s, id) = opened();
    assert_eq!(height(&s), 3, "no request yet: borders and header");
    send(&mut s, [page(id, 1, demo_items()[..10].to_vec(), true)]);
    assert_eq!(height(&s), 4, "one row");
    for n in 2..=20 {
        send(&mut s, [page(id, n, demo_items()[..1].to_vec(), true)]);
    }
    assert_eq!(height(&s), 10, "at most 10 on its own");
    send(&mut s, [char('+'), char('+')]);
    assert_eq!(height(&s), 12);
    send(&mut s, (0..20).map(|_| char('+')));
    assert_eq!(height(&s), HEIGHT / 2, "at most half the terminal");
    send(&mut s, (0..40).map(|_| char('-')));
    assert_eq!(height(&s), 3);
}

#[test]
fn enter_on_a_log_row_shows_that_request_as_sent_and_any_other_key_closes_it() {
    let (mut s, id) = opened();
    let Msg::Engine(EngineEvent::Page(mut first)) = page(id, 1, demo_items()[..5].to_vec(), true)
    else {
        unreachable!()
    };
    first.sent = Some(r#"{"TableName":"app","Limit":1000}"#.into());
    send(&mut s, [Msg::Engine(EngineEvent::Page(first))]);
    send(&mut s, [page(id, 2, demo_items()[5..9].to_vec(), false)]);
    // Tab to the log (collections, items, log), up to the first row, Enter.
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Tab)]);
    assert_eq!(
        s.table.as_ref().unwrap().view.focus,
        crate::app::state::Pane::Log
    );
    send(&mut s, [press(KeyCode::Up), press(KeyCode::Enter)]);
    let shown = s
        .sent()
        .map(|(row, _)| row.clone())
        .expect("the request as sent");
    assert_eq!(shown.page, 1);
    assert_eq!(
        shown.sent.as_deref(),
        Some(r#"{"TableName":"app","Limit":1000}"#)
    );
    // The scrolling keys scroll it (a short body has nowhere to go); any other closes it.
    send(&mut s, [press(KeyCode::Down), press(KeyCode::PageDown)]);
    assert_eq!(s.sent().map(|(_, scroll)| scroll), Some(0));
    send(&mut s, [char('x')]);
    assert!(s.sent().is_none());
    assert_eq!(s.log_pane.cursor, Some(0), "the key only closed it");
    send(&mut s, [press(KeyCode::Esc)]);
    assert_eq!(
        s.table.as_ref().unwrap().view.focus,
        crate::app::state::Pane::Collections
    );
}

#[test]
fn a_long_request_as_sent_scrolls_to_its_last_row_and_no_further() {
    let (mut s, id) = opened();
    let Msg::Engine(EngineEvent::Page(mut first)) = page(id, 1, demo_items()[..5].to_vec(), false)
    else {
        unreachable!()
    };
    let members: Vec<String> = (0..200).map(|i| format!(r#""k{i}":{i}"#)).collect();
    first.sent = Some(format!("{{{}}}", members.join(",")).into());
    send(&mut s, [Msg::Engine(EngineEvent::Page(first))]);
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Tab),
            press(KeyCode::Enter),
        ],
    );
    assert!(s.sent().is_some());
    send(&mut s, [press(KeyCode::Down), press(KeyCode::Down)]);
    assert_eq!(s.sent().map(|(_, scroll)| scroll), Some(2));
    send(&mut s, [press(KeyCode::End)]);
    let end = s.sent().map_or(0, |(_, scroll)| scroll);
    // 2 header rows, `{`, 200 members, `}`, less what fits in view.
    assert!(end > 150, "{end}");
    send(&mut s, [press(KeyCode::PageDown), press(KeyCode::Down)]);
    assert_eq!(
        s.sent().map(|(_, scroll)| scroll),
        Some(end),
        "no further than the last row"
    );
    send(&mut s, [press(KeyCode::Home)]);
    assert_eq!(s.sent().map(|(_, scroll)| scroll), Some(0));
}

#[test]
fn page_down_in_the_detail_moves_one_detail_page() {
    use crate::model::item::value::{AttrValue, Item};
    let (mut s, id) = opened();
    let mut attrs = vec![("PK".to_string(), AttrValue::S("DOC#tall".into()))];
    attrs.extend((0..60).map(|i| (format!("a{i:02}"), AttrValue::N(i.to_string()))));
    send(&mut s, [page(id, 1, vec![Item::from_attrs(attrs)], false)]);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    let main =
        crate::app::layout::explorer_layout(&s, ratatui::layout::Rect::new(0, 0, WIDTH, HEIGHT))
            .main;
    let rows = crate::app::layout::list_rows(crate::app::layout::split_related(main, 0)[1]);
    send(&mut s, [press(KeyCode::PageDown)]);
    assert_eq!(s.table.as_ref().unwrap().view.detail_scroll, rows);
}
