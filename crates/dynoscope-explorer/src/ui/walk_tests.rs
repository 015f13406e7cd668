//! Snapshots of issue 14's details at 100x30: walking relationships, key parts named from the
//! data, unique headers, collection order, the picker's return, completions, the detail's wrap,
//! help, the request log, region and profile.

use crate::app::input::KeyCode;
use crate::app::msg::{InputMsg, Msg, ReadEffect, TableMsg};

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::model::item::value::{AttrValue, Item};

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

fn screen_text(state: &crate::app::state::State) -> String {
    let terminal = render(state);
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

#[test]
fn an_attribute_named_kind_keeps_its_header_and_the_decoded_kind_takes_another() {
    let (mut st, id) = opened();
    let items: Vec<Item> = (1..=3)
        .map(|n| {
            Item::from_attrs(vec![
                ("PK".into(), s("DEVICE#d1")),
                ("SK".into(), s(&format!("READING#r{n}"))),
                ("kind".into(), s("thermometer")),
                // Not a name, so not the kind (as `entity` with a name would be).
                ("entity".into(), s("sensor 4")),
            ])
        })
        .collect();
    send(&mut st, [page(id, 1, items, false), press(KeyCode::Tab)]);
    let text = screen_text(&st);
    let header = text
        .lines()
        .find(|l| l.contains("SK") && l.contains("part1"))
        .expect("the items header");
    assert!(
        header.contains("entity kind") && header.contains(" kind "),
        "{header}"
    );
    assert_eq!(header.matches("kind").count(), 2, "{header}");
    snapshot!("items_kind_attribute", st);
}

#[test]
fn demo_orders_name_their_parts_from_the_data() {
    let mut st = loaded(false);
    let store = st.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let celebrity = store.collection_of("USER#celebrity").unwrap();
    send(&mut st, (0..celebrity).map(|_| press(KeyCode::Down)));
    send(&mut st, [press(KeyCode::Tab)]);
    let columns = &st.table.as_ref().unwrap().view.columns;
    assert_eq!(columns.part_names, ["date", "orderId"]);
    assert!(
        !columns.attrs.iter().any(|a| a == "date" || a == "orderId"),
        "the part columns stand for their attributes: {:?}",
        columns.attrs
    );
    // Parts that match no attribute stay numbered: order lines `ITEM#n`.
    let order = (0..st.table.as_ref().unwrap().view.collection_count())
        .find(|&n| {
            let v = st.table.as_ref().unwrap();
            let store = v.view.store.as_ref().unwrap();
            store.collections()[v.view.collection_at(n).unwrap()]
                .key
                .starts_with("ORDER#")
        })
        .unwrap();
    let mut st = loaded(false);
    send(&mut st, (0..order).map(|_| press(KeyCode::Down)));
    assert_eq!(
        st.table.as_ref().unwrap().view.columns.part_names,
        ["part1"]
    );
}

#[test]
fn collections_ordered_by_items_put_the_hot_collection_first() {
    let mut st = loaded(false);
    send(&mut st, [char('o'), char('o')]);
    let v = st.table.as_ref().unwrap();
    let store = v.view.store.as_ref().unwrap();
    assert_eq!(
        store.collections()[v.view.collection_at(0).unwrap()].key,
        "USER#celebrity"
    );
    assert!(screen_text(&st).contains("items · o"));
    snapshot!("collections_by_items", st);
}

#[test]
fn the_picker_after_t_has_its_filter_selected() {
    let mut st = state();
    crate::app::update::start(&mut st, None);
    send(
        &mut st,
        [Msg::Tables(TableMsg::Listed(Ok(vec![
            "app".into(),
            "audit-log".into(),
            "orders".into(),
        ])))],
    );
    send(
        &mut st,
        [char('o'), char('r'), press(KeyCode::Enter), char('T')],
    );
    assert!(st.picker.filter_selected);
    // The old filter is shown selected (reversed), the prompt's label is not.
    let terminal = render(&st);
    let buffer = terminal.backend().buffer();
    let reversed = |x: u16| {
        buffer[(x, 2)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    };
    assert_eq!(buffer[(9, 2)].symbol(), "o");
    assert!(reversed(9) && reversed(10) && !reversed(2));
    snapshot!("picker_returned", st);
}

#[test]
fn sort_key_completions_in_key_order_with_counts_and_by_count_with_ctrl_o() {
    let mut st = loaded(false);
    send(&mut st, [char(':')]);
    send(&mut st, "USER#celebrity".chars().map(char));
    // To the sort key: the operator `=`, then the value.
    send(
        &mut st,
        [
            press(KeyCode::Tab),
            press(KeyCode::Right),
            press(KeyCode::Tab),
        ],
    );
    send(&mut st, "ORDER#2025-".chars().map(char));
    let completion = |st: &crate::app::state::State| {
        let c = st
            .table
            .as_ref()
            .unwrap()
            .query_form()
            .unwrap()
            .completion
            .clone()
            .expect("completions");
        (c.items, c.counts)
    };
    let (items, counts) = completion(&st);
    let mut sorted = items.clone();
    sorted.sort();
    assert_eq!(items, sorted, "DynamoDB order");
    assert!(counts.iter().all(|&n| n >= 1));
    snapshot!("builder_sk_completions_key_order", st);
    send(
        &mut st,
        [Msg::Input(InputMsg::Key(crate::app::input::Key::new(
            KeyCode::Char('o'),
            crate::app::input::Modifiers::CONTROL,
        )))],
    );
    let (_, counts) = completion(&st);
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    snapshot!("builder_sk_completions_by_count", st);
}

#[test]
fn the_item_detail_wraps_long_strings_or_scrolls_them_sideways() {
    let (mut st, id) = opened();
    let long: String = (0..300)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    let item = Item::from_attrs(vec![
        ("PK".into(), s("DOC#1")),
        ("SK".into(), s("BODY")),
        ("body".into(), s(&long)),
    ]);
    send(&mut st, [page(id, 1, vec![item], false)]);
    send(&mut st, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    let text = screen_text(&st);
    assert!(text.contains("long lines wrap · w"), "{text}");
    assert!(
        text.contains("xyzabc"),
        "the string continues on the next rows: {text}"
    );
    snapshot!("detail_wrapped", st);
    send(&mut st, [char('w')]);
    send(&mut st, (0..3).map(|_| press(KeyCode::Right)));
    snapshot!("detail_sideways", st);
}

#[test]
fn help_takes_the_terminal_s_width_wraps_and_scrolls() {
    let mut st = loaded(false);
    send(&mut st, [char('?')]);
    let text = screen_text(&st);
    assert!(
        text.contains("Copy the item, or the marked items as one JSON array (OSC 52"),
        "not cut at 60 columns: {text}"
    );
    snapshot!("help_top", st);
    send(&mut st, [press(KeyCode::End)]);
    assert!(st.help_scroll().is_some_and(|rows| rows > 0));
    let text = screen_text(&st);
    assert!(
        text.contains("g r: open the selected related collection"),
        "{text}"
    );
    snapshot!("help_end", st);
    send(&mut st, [char('x')]);
    assert!(st.help_scroll().is_none(), "any other key closes it");
    send(&mut st, [char('?')]);
    assert_eq!(st.help_scroll(), Some(0), "it opens at the top again");
}

#[test]
fn help_on_a_wide_terminal_keeps_descriptions_whole() {
    let mut st = loaded(false);
    st.width = 160;
    send(&mut st, [char('?')]);
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(160, HEIGHT)).unwrap();
    terminal.draw(|f| crate::ui::draw(f, &st)).unwrap();
    let text = crate::ui::snapshot_tests::buffer_text(&terminal);
    assert!(
        text.contains(
            "Export the item, the marked items, the collection, everything loaded or the read to a file"
        ),
        "{text}"
    );
}

#[test]
fn the_request_log_selected_row_and_the_request_as_sent() {
    use crate::app::msg::Msg;
    use crate::model::engine::EngineEvent;
    let (mut st, id) = opened();
    let Msg::Engine(EngineEvent::Page(mut p)) = page(id, 1, demo_items(), false) else {
        unreachable!()
    };
    p.sent = Some(
        r##"{"TableName":"app","KeyConditionExpression":"#pk = :pk","ExpressionAttributeNames":{"#pk":"PK"},"ExpressionAttributeValues":{":pk":{"S":"USER#u00003"}},"ScanIndexForward":true,"ConsistentRead":false,"Limit":1000,"ReturnConsumedCapacity":"INDEXES"}"##
            .into(),
    );
    send(&mut st, [Msg::Engine(EngineEvent::Page(p))]);
    send(&mut st, [char('+'), char('+')]);
    send(&mut st, [press(KeyCode::BackTab)]);
    assert!(screen_text(&st).contains("Enter: the request as sent"));
    snapshot!("request_log_focused_taller", st);
    send(&mut st, [press(KeyCode::Enter)]);
    let text = screen_text(&st);
    assert!(
        text.contains("X-Amz-Target: DynamoDB_20120810.Scan"),
        "{text}"
    );
    assert!(
        text.contains(r##""KeyConditionExpression": "#pk = :pk""##),
        "{text}"
    );
    snapshot!("request_as_sent", st);
}

#[test]
fn region_and_profile_in_the_title_and_the_region_switcher() {
    let mut st = loaded(false);
    let title = screen_text(&st).lines().next().unwrap().to_string();
    // Before the endpoint, which a narrow terminal cuts first.
    assert!(
        title.contains("us-east-1 · profile default · http"),
        "{title}"
    );
    send(&mut st, [char('R')]);
    send(&mut st, "eu-".chars().map(char));
    snapshot!("region_switcher", st);
    send(&mut st, [press(KeyCode::Esc), char('A')]);
    snapshot!("profile_switcher", st);
}

#[test]
fn g_r_on_an_order_shows_the_order_with_its_lines() {
    use crate::app::msg::Effect;
    let mut st = loaded(false);
    let store = st.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let user = store.collection_of("USER#u00003").unwrap();
    send(&mut st, (0..user).map(|_| press(KeyCode::Down)));
    send(&mut st, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    snapshot!("related_of_an_order", st);
    let effects = send(&mut st, [char('g'), char('r')]);
    let Some(Effect::Read(ReadEffect::Start { id, spec })) = effects
        .iter()
        .find(|e| matches!(e, Effect::Read(ReadEffect::Start { .. })))
    else {
        panic!("a Query: {effects:?}")
    };
    assert_eq!(spec.key_condition.as_deref(), Some("#pk = :pk"));
    let key = match &spec.values[0].1 {
        AttrValue::S(k) => k.clone(),
        other => panic!("{other:?}"),
    };
    assert!(key.starts_with("ORDER#o"), "{key}");
    let lines: Vec<Item> = demo_items()
        .into_iter()
        .filter(|i| i.get("PK").and_then(AttrValue::as_s) == Some(key.as_str()))
        .collect();
    let id = *id;
    send(&mut st, [page(id, 1, lines, false)]);
    snapshot!("walked_to_order_lines", st);
    send(&mut st, [press(KeyCode::Backspace)]);
    snapshot!("walked_back_to_the_user", st);
}

#[test]
fn every_attribute_is_reachable_and_the_title_counts_the_columns() {
    let (mut st, id) = opened();
    // 25 attributes, one of them a long text that no longer hides those after it.
    let items: Vec<Item> = (0..51)
        .map(|n| {
            let mut attrs = vec![
                ("PK".into(), s("GAME#0ab37cf1-4a5b-4c3d-9e8f-0123456789ab")),
                ("SK".into(), s(&format!("PLAYER#{n:03}"))),
                (
                    "description".into(),
                    s(&"a long description of the game ".repeat(4)),
                ),
                ("game_id".into(), s("0ab37cf1")),
            ];
            for a in 0..21 {
                attrs.push((format!("attr{a:02}"), s(&format!("v{n}"))));
            }
            Item::from_attrs(attrs)
        })
        .collect();
    send(&mut st, [page(id, 1, items, false), press(KeyCode::Tab)]);
    let text = screen_text(&st);
    assert!(text.contains("attributes 1–"), "{text}");
    assert!(text.contains(" of 23 · ←/→"), "{text}");
    // No blank band: the row of the header reaches the right border.
    let header = text
        .lines()
        .find(|l| l.contains("kind") && l.contains("SK"))
        .expect("the items header");
    let inner = header.rsplit("││").next().unwrap().trim_end_matches('│');
    let blank = inner.len() - inner.trim_end().len();
    assert!(blank < 8, "a blank band of {blank} columns: {header}");
    snapshot!("items_columns_counted", st);
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for _ in 0..30 {
        let text = screen_text(&st);
        let header = text
            .lines()
            .find(|l| l.contains("kind") && l.contains("SK"))
            .expect("the items header");
        seen.extend(
            header
                .split(|c: char| c.is_whitespace() || c == '│')
                .map(str::to_owned),
        );
        send(&mut st, [press(KeyCode::Right)]);
    }
    for name in ["description", "game_id", "attr00", "attr20"] {
        assert!(seen.contains(name), "{name} never shown: {seen:?}");
    }
}
