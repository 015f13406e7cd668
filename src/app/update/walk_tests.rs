//! Issue 14's details through `update`: collection order, the picker's return, completions,
//! the detail's wrap, help, the request log.

use crossterm::event::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::Msg;
use crate::app::state::State;
use crate::aws::{DoneOutcome, EngineEvent};
use crate::model::collection::CollectionOrder;

fn selected_key(s: &State) -> String {
    let v = s.table.as_ref().unwrap();
    let store = v.store.as_ref().unwrap();
    store.collections()[v.selected_collection().unwrap()]
        .key
        .clone()
}

fn keys_shown(s: &State) -> Vec<String> {
    let v = s.table.as_ref().unwrap();
    let store = v.store.as_ref().unwrap();
    (0..v.collection_count())
        .map(|n| store.collections()[v.collection_at(n).unwrap()].key.clone())
        .collect()
}

#[test]
fn o_cycles_the_collection_order_and_the_selection_stays() {
    let mut s = loaded(false);
    send(&mut s, (0..3).map(|_| press(KeyCode::Down)));
    let chosen = selected_key(&s);
    let order = |s: &State| s.table.as_ref().unwrap().ordering.order();
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
        s.table.as_ref().unwrap().ordering.order(),
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
