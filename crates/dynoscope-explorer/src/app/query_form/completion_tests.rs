//! The query form's keys around completions: what Enter, Tab, → and Ctrl-U do, what one Tab
//! completes to, and where index keys complete from.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::builder_tests::{builder, builder_open, builder_open_with, dismiss, typed};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect};
use crate::app::state::{Field, State};
use crate::model::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::model::engine::ReadSpec;
use crate::model::item::value::{AttrValue, Item};

fn started(effects: &[Effect]) -> Option<ReadSpec> {
    effects.iter().find_map(|e| match e {
        Effect::Read(ReadEffect::Start { spec, .. }) => Some((**spec).clone()),
        _ => None,
    })
}

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

/// The request the EXPLAIN pane shows right now.
fn explained(s: &State) -> ReadSpec {
    builder(s).check.clone().expect("a sendable query").spec
}

#[test]
fn enter_runs_what_explain_shows_while_completions_are_offered() {
    let mut s = builder_open();
    send(&mut s, typed("USER#"));
    assert!(builder(&s).completion.is_some(), "completions for USER#");
    let shown = explained(&s);
    let spec = started(&send(&mut s, [press(KeyCode::Enter)])).expect("Enter runs");
    assert_eq!(spec.key_condition, shown.key_condition);
    assert_eq!(spec.values, shown.values);
    assert_eq!(spec.values[0].1.as_s(), Some("USER#"), "{:?}", spec.values);

    // A sort-key prefix with completions showing runs as typed too.
    let mut s = builder_open();
    send(&mut s, typed("USER#celebrity"));
    dismiss(&mut s);
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Left), // (none) wraps round to begins_with
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, typed("ORDER#2025-0"));
    assert!(
        builder(&s).completion.is_some(),
        "completions for the sort key"
    );
    let shown = explained(&s);
    let spec = started(&send(&mut s, [press(KeyCode::Enter)])).expect("Enter runs");
    assert_eq!(spec.values, shown.values);
    assert!(
        spec.values
            .iter()
            .any(|(k, v)| k == ":sk" && v.as_s() == Some("ORDER#2025-0")),
        "{:?}",
        spec.values
    );
}

#[test]
fn tab_or_right_at_the_end_of_the_field_accepts_a_completion() {
    let mut s = builder_open();
    send(&mut s, typed("USER#ce"));
    send(&mut s, [press(KeyCode::Left)]);
    assert!(builder(&s).completion.is_some());
    // Inside the text, → moves the cursor; at its end, it accepts.
    send(&mut s, [press(KeyCode::Right)]);
    assert_eq!(builder(&s).text(Field::Pk), "USER#ce");
    send(&mut s, [press(KeyCode::Right)]);
    assert_eq!(builder(&s).text(Field::Pk), "USER#celebrity");
    assert_eq!(builder(&s).focus, Field::Pk);

    let mut s = builder_open();
    send(&mut s, typed("USER#ce"));
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).text(Field::Pk), "USER#celebrity");
    assert_eq!(builder(&s).focus, Field::Pk, "accepting stays on the field");
}

#[test]
fn ctrl_u_clears_the_field() {
    let mut s = builder_open();
    send(&mut s, typed("USER#celebrity"));
    send(&mut s, [ctrl('u')]);
    assert_eq!(builder(&s).text(Field::Pk), "");
    assert!(builder(&s).completion.is_none());
    send(&mut s, (0..3).map(|_| press(KeyCode::Tab)));
    assert_eq!(builder(&s).focus, Field::Limit);
    send(&mut s, typed("10"));
    send(&mut s, [ctrl('u')]);
    assert_eq!(builder(&s).text(Field::Limit), "");
}

fn key_item(pk: &str, sk: &str) -> Item {
    Item::from_attrs(vec![
        ("PK".into(), AttrValue::S(pk.into())),
        ("SK".into(), AttrValue::S(sk.into())),
    ])
}

#[test]
fn one_tab_completes_as_far_as_every_key_behind_the_choice_agrees() {
    let uuid = "GAME#0ab37cf1-5d2e-4c1a-9b7f-3e8d2c6a1f40";
    let items = vec![
        key_item(uuid, "META"),
        key_item("GAME#1c9e0d44-0000-4000-8000-000000000000", "META"),
    ];
    let mut s = builder_open_with(demo_info(), items);
    send(&mut s, typed("GAME#0ab37cf1-"));
    assert_eq!(builder(&s).completion.as_ref().unwrap().items, [uuid]);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).text(Field::Pk), uuid, "one Tab, the whole key");
    assert!(builder(&s).completion.is_none(), "nothing left to complete");
}

/// From the partition key to the index selector, then `steps` indexes on.
fn choose_index(s: &mut State, steps: usize) {
    send(s, [press(KeyCode::BackTab)]);
    assert_eq!(builder(s).focus, Field::Index);
    send(s, (0..steps).map(|_| press(KeyCode::Right)));
    send(s, [press(KeyCode::Tab)]);
}

#[test]
fn index_keys_complete_from_the_loaded_items_attributes() {
    // The table's items are loaded and the GSI1 sample has not answered.
    let mut s = builder_open();
    choose_index(&mut s, 1);
    send(&mut s, typed("STATUS#S"));
    let c = builder(&s)
        .completion
        .clone()
        .expect("GSI1PK values of loaded items");
    assert_eq!(c.items, ["STATUS#SHIPPED"]);
    let shipped = crate::app::fixtures::demo_items()
        .iter()
        .filter(|i| i.get("GSI1PK").and_then(|v| v.as_s()) == Some("STATUS#SHIPPED"))
        .count();
    assert_eq!(c.counts, [1], "one partition key");
    send(&mut s, [press(KeyCode::Tab)]);
    // begins_with, then the sort key: GSI1SK values of those items.
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Left),
            press(KeyCode::Tab),
        ],
    );
    assert_eq!(builder(&s).focus, Field::Sk);
    send(&mut s, typed("2"));
    let c = builder(&s).completion.clone().expect("GSI1SK values");
    assert_eq!(c.counts.iter().sum::<usize>(), shipped, "{c:?}");
    assert!(c.items.iter().all(|i| i.starts_with("202")), "{c:?}");
}

#[test]
fn a_hash_only_index_has_no_sort_key_operator() {
    let mut info = demo_info();
    let mut hash_only = info.indexes[0].clone();
    hash_only.name = "ByEmail".into();
    hash_only.keys = KeySchema::simple(KeyAttr::new("email", KeyType::S), None);
    info.indexes.push(hash_only);
    let mut s = builder_open_with(info.clone(), demo_items());
    // An operator chosen on the table…
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Left)]);
    assert_eq!(builder(&s).focus, Field::Op);
    send(&mut s, [press(KeyCode::BackTab)]);
    // …then the hash-only index (choosing it reads nothing), whose key sample, asked for with
    // Ctrl-S, holds the key about to be typed.
    send(&mut s, [press(KeyCode::BackTab), press(KeyCode::Right)]);
    let effects = send(&mut s, [press(KeyCode::Right)]);
    assert!(effects.is_empty(), "{effects:?}");
    send(&mut s, [press(KeyCode::Tab)]);
    let effects = send(&mut s, [ctrl('s')]);
    let sample = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => {
            assert_eq!(spec.index.as_deref(), Some("ByEmail"));
            *id
        }
        other => panic!("a key sample of the index: {other:?}"),
    };
    send(&mut s, [press(KeyCode::BackTab)]);
    let keys = vec![Item::from_attrs(vec![(
        "email".into(),
        AttrValue::S("a@example.com".into()),
    )])];
    send(&mut s, [page(sample, 1, keys, false), press(KeyCode::Tab)]);
    assert_eq!(
        builder(&s).fields(&info),
        [
            Field::Index,
            Field::Pk,
            Field::Order,
            Field::Limit,
            Field::Filter,
            Field::Projection
        ]
    );
    assert_eq!(builder(&s).focus, Field::Pk);
    let effects = send(&mut s, typed("a@example.com"));
    assert!(effects.is_empty(), "typing reads nothing: {effects:?}");
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::Order, "no operator to choose");
    let shown = explained(&s);
    assert_eq!(shown.index.as_deref(), Some("ByEmail"));
    assert_eq!(shown.key_condition.as_deref(), Some("#pk = :pk"));
}
