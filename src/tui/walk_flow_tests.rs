//! Walking the demo's single-table design through the whole explorer (update, effect runner,
//! in-memory engine) under paused time: user → order → its lines → the status GSI → back,
//! back, back, landing on the same rows without reading again.

use std::time::Duration;

use crate::app::input::{Key, KeyCode, Modifiers};

use super::flow_harness::{engine, Harness};
use crate::app::fixtures::{char, press};
use crate::app::msg::{Effect, FileEffect, InputMsg, Msg, ReadEffect};
use crate::app::state::{OpenTable, Pane, State, MAX_VISITED};
use crate::app::update::start;
use crate::model::item::value::AttrValue;

fn view(state: &State) -> &OpenTable {
    state.table.as_ref().expect("a table is open")
}

fn collection_key(state: &State) -> String {
    let v = view(state);
    let store = v.view.store.as_ref().unwrap();
    store.collections()[v.view.selected_collection().unwrap()]
        .key
        .clone()
}

fn selected_sk(state: &State) -> String {
    let v = view(state);
    let item = v
        .view
        .store
        .as_ref()
        .unwrap()
        .item(v.view.selected_item().unwrap());
    item.get("SK")
        .and_then(AttrValue::as_s)
        .unwrap_or_default()
        .to_string()
}

fn typed(text: &str) -> Vec<Msg> {
    text.chars().map(char).collect()
}

/// The demo table opened (its one-page scan loaded), then `p USER#u00003`.
async fn at_user(h: &mut Harness) {
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char('p')]);
    h.send(typed("USER#u00003"));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(collection_key(&h.state), "USER#u00003");
}

#[tokio::test(start_paused = true)]
async fn user_to_order_to_lines_and_back_twice_lands_on_the_same_rows() {
    let engine = engine();
    let source = engine.source("app").unwrap();
    let mut h = Harness::new(engine);
    at_user(&mut h).await;
    // The second order of the user.
    h.send([press(KeyCode::Tab), press(KeyCode::Down)]);
    let user_rows = (view(&h.state).view.collections, view(&h.state).view.items);
    let order_sk = selected_sk(&h.state);
    assert!(order_sk.starts_with("ORDER#"), "{order_sk}");
    let order_id = order_sk.rsplit('#').next().unwrap().to_string();

    // g r: the order's own collection, its header and lines, with a Query.
    let before = source.requests();
    h.send([char('g'), char('r')]);
    h.settle().await;
    assert_eq!(source.requests(), before + 1, "one Query");
    assert_eq!(collection_key(&h.state), format!("ORDER#{order_id}"));
    let v = view(&h.state);
    assert_eq!(v.view.focus, Pane::Items);
    assert_eq!(v.view.index, None);
    let read = v.view.read.as_ref().unwrap();
    assert_eq!(read.spec.operation, crate::aws::Operation::Query);
    let sks: Vec<String> = (0..v.view.item_count())
        .map(|n| {
            let item = v
                .view
                .store
                .as_ref()
                .unwrap()
                .item(v.view.item_at(n).unwrap());
            item.get("SK")
                .and_then(AttrValue::as_s)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(sks[0], "#META");
    assert!(sks[1..].iter().all(|s| s.starts_with("ITEM#")), "{sks:?}");
    let logged = h.state.log.requests;

    // Down to the first line, then back, and back again: the same rows, nothing read.
    h.send([press(KeyCode::Down)]);
    h.send([press(KeyCode::Backspace)]);
    assert_eq!(collection_key(&h.state), "USER#u00003");
    assert_eq!(
        (view(&h.state).view.collections, view(&h.state).view.items),
        user_rows
    );
    assert_eq!(selected_sk(&h.state), order_sk);
    assert_eq!(view(&h.state).view.focus, Pane::Items);
    // Forward again and back with Alt-←.
    h.send([char('g'), char('r')]);
    h.settle().await;
    h.send([Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Left,
        Modifiers::ALT,
    )))]);
    assert_eq!(selected_sk(&h.state), order_sk);
    h.send([press(KeyCode::Backspace)]);
    // Back at the opening scan, which had the user's collection selected nowhere special.
    assert_eq!(
        view(&h.state).view.read.as_ref().unwrap().spec.operation,
        crate::aws::Operation::Scan
    );
    assert_eq!(
        view(&h.state).view.store.as_ref().unwrap().len(),
        crate::app::fixtures::demo_items().len()
    );
    h.settle().await;
    assert_eq!(source.requests(), before + 2, "going back never reads");
    assert_eq!(h.state.log.requests, logged + 1);
}

#[tokio::test(start_paused = true)]
async fn the_done_when_walk_reaches_the_status_gsi_and_comes_back_to_the_user() {
    let engine = engine();
    let mut h = Harness::new(engine);
    at_user(&mut h).await;
    h.send([press(KeyCode::Tab)]);
    // An order whose status is not the sharded PENDING.
    let count = view(&h.state).view.item_count();
    let row = (0..count)
        .find(|&n| {
            let v = view(&h.state);
            let item = v
                .view
                .store
                .as_ref()
                .unwrap()
                .item(v.view.item_at(n).unwrap());
            item.get("status")
                .and_then(AttrValue::as_s)
                .is_some_and(|s| s != "PENDING")
        })
        .expect("an order not PENDING");
    h.send((0..row).map(|_| press(KeyCode::Down)));
    let order_sk = selected_sk(&h.state);
    h.send([char('g'), char('r')]);
    h.settle().await;
    // The order's header: open it, and its related list names the status's GSI collection.
    h.send([press(KeyCode::Enter)]);
    let links = view(&h.state).view.related.links.clone();
    let status = links
        .iter()
        .position(|l| l.index.as_deref() == Some("GSI1") && l.key.starts_with("STATUS#"))
        .unwrap_or_else(|| panic!("a status link: {links:?}"));
    assert!(
        links.iter().any(|l| l.key == "USER#u00003"),
        "and the user: {links:?}"
    );
    h.send([press(KeyCode::BackTab)]);
    assert_eq!(view(&h.state).view.focus, Pane::Related);
    h.send((0..status).map(|_| press(KeyCode::Down)));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    let v = view(&h.state);
    assert_eq!(v.view.index.as_deref(), Some("GSI1"));
    assert_eq!(collection_key(&h.state), links[status].key);
    assert!(view(&h.state).view.item_count() > 0);
    // Back to the order (detail open on its header), back to the user on the same order.
    h.send([press(KeyCode::Backspace)]);
    assert!(view(&h.state).view.detail_open);
    assert_eq!(selected_sk(&h.state), "#META");
    assert_eq!(view(&h.state).view.index, None);
    h.send([press(KeyCode::Backspace)]);
    assert_eq!(collection_key(&h.state), "USER#u00003");
    assert_eq!(selected_sk(&h.state), order_sk);
}

#[tokio::test(start_paused = true)]
async fn g_alone_goes_to_the_top_and_r_after_the_timeout_rescans() {
    let engine = engine();
    let source = engine.source("app").unwrap();
    let mut h = Harness::new(engine);
    at_user(&mut h).await;
    h.send([
        press(KeyCode::Tab),
        press(KeyCode::Down),
        press(KeyCode::Down),
    ]);
    h.send([char('g')]);
    assert_eq!(
        view(&h.state).view.items.cursor,
        0,
        "g is at the top at once"
    );
    h.send([char('g')]);
    assert_eq!(view(&h.state).view.items.cursor, 0, "g g too");
    assert!(h.state.chord.pending.is_none());
    h.send([char('g')]);
    // The chord's second passes; `r` is then a rescan.
    tokio::time::sleep(Duration::from_secs(2)).await;
    while let Ok(msg) = h.msg_rx.try_recv() {
        h.send([msg]);
    }
    assert!(h.state.chord.pending.is_none());
    let before = source.requests();
    h.send([char('r')]);
    h.settle().await;
    assert_eq!(source.requests(), before + 1);
    assert_eq!(
        view(&h.state).view.read.as_ref().unwrap().spec.operation,
        crate::aws::Operation::Scan
    );
    // `g` then `j`: the `j` moves down from the top.
    h.send([press(KeyCode::Tab), char('g'), char('j')]);
    assert_eq!(view(&h.state).view.items.cursor, 1);
}

#[tokio::test(start_paused = true)]
async fn history_is_bounded_by_count_and_by_max_items() {
    let mut h = Harness::new(engine());
    at_user(&mut h).await;
    for _ in 0..MAX_VISITED + 5 {
        h.send([char('r')]);
        h.settle().await;
    }
    assert_eq!(view(&h.state).visited.len(), MAX_VISITED);
    // With room for two scans' items, only one scan stays behind the current one.
    let all = crate::app::fixtures::demo_items().len();
    h.state.max_items = all * 2;
    h.send([char('r')]);
    h.settle().await;
    let v = view(&h.state);
    assert!(v.visited.items_held() + v.view.store.as_ref().unwrap().len() <= all * 2);
    assert!(!v.visited.is_empty());
}

#[tokio::test(start_paused = true)]
async fn each_log_row_keeps_its_request_as_sent() {
    let mut h = Harness::new(engine());
    at_user(&mut h).await;
    // Collections → items → log; the newest row is the user's Query.
    h.send([
        press(KeyCode::Tab),
        press(KeyCode::Tab),
        press(KeyCode::Enter),
    ]);
    let shown = h.state.sent().map(|(row, _)| row.clone()).expect("shown");
    let body: serde_json::Value = serde_json::from_str(shown.sent.as_deref().unwrap()).unwrap();
    assert_eq!(body["TableName"], "app");
    assert_eq!(body["KeyConditionExpression"], "#pk = :pk");
    assert_eq!(body["ExpressionAttributeValues"][":pk"]["S"], "USER#u00003");
    assert_eq!(body["Limit"], 1000);
}

/// Opens the builder, types a partition key and runs the query.
fn run_query(h: &mut Harness, pk: &str) {
    h.send([char(':')]);
    h.send(typed(pk));
    // A whole key has no completion left to accept: Enter runs the query.
    h.send([press(KeyCode::Enter)]);
}

#[tokio::test(start_paused = true)]
async fn query_history_survives_a_restart_through_the_state_directory() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::tui::history_store::history_path(dir.path());
    let mut h = Harness::new(engine());
    h.runner = std::mem::replace(
        &mut h.runner,
        super::effects::EffectRunner::new(
            engine(),
            tokio::sync::mpsc::channel(1).0,
            tokio::sync::mpsc::unbounded_channel().0,
        ),
    )
    .with_history_file(Some(path.clone()));
    at_user(&mut h).await;
    run_query(&mut h, "USER#celebrity");
    h.settle().await;
    assert_eq!(collection_key(&h.state), "USER#celebrity");
    let Harness { runner, .. } = h;
    runner.shutdown().await;

    // The next run: history loaded at start-up, Up in the builder recalls the query.
    let mut h = Harness::new(engine());
    h.state.queries.history = crate::tui::history_store::load(&path);
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char(':'), press(KeyCode::Up)]);
    let b = view(&h.state).query_form().unwrap();
    assert_eq!(b.text(crate::app::state::Field::Pk), "USER#celebrity");
}

#[tokio::test(start_paused = true)]
async fn history_off_in_the_config_saves_nothing() {
    let mut h = Harness::new(engine());
    h.state.config.history = false;
    at_user(&mut h).await;
    h.send([char(':')]);
    h.send(typed("USER#celebrity"));
    let effects = crate::app::update::update(&mut h.state, press(KeyCode::Enter));
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Files(FileEffect::SaveHistory { .. }))),
        "{effects:?}"
    );
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::Read(ReadEffect::Start { .. }))));
    h.apply(effects);
    h.settle().await;
}
