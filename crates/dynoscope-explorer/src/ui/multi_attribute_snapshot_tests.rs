//! Issue 52: the explorer on a multi-attribute GSI: the `matches` table's
//! TournamentRegionIndex (partition tournamentId + region, sort round + bracket + matchId).

use crate::app::input::KeyCode;

use super::snapshot_tests::{buffer_text, render};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, Msg, ReadEffect};
use crate::app::state::State;
use crate::model::design::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo,
};
use crate::model::engine::EngineEvent;
use crate::model::item::value::{AttrValue, Item};

fn attr(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr::new(name, key_type)
}

/// `app` described as issue 52's `matches`: key matchId, the two multi-attribute GSIs.
fn matches_info() -> TableInfo {
    let index = |name: &str, keys: KeySchema| IndexInfo {
        name: name.into(),
        kind: IndexKind::Gsi,
        keys,
        projection: Projection {
            projection_type: "ALL".into(),
            non_key_attributes: vec![],
        },
        provisioned: None,
        item_count: Some(8),
        size_bytes: Some(8 * 120),
    };
    let mut info = crate::model::fixtures::demo_info();
    info.keys = KeySchema::simple(attr("matchId", KeyType::S), None);
    info.item_count = 8;
    info.size_bytes = 8 * 120;
    let s = |n: &str| attr(n, KeyType::S);
    info.indexes = vec![
        index(
            "TournamentRegionIndex",
            KeySchema::new(
                vec![s("tournamentId"), s("region")],
                vec![s("round"), s("bracket"), s("matchId")],
            )
            .unwrap(),
        ),
        index(
            "PlayerMatchHistoryIndex",
            KeySchema::new(vec![s("player1Id")], vec![s("matchDate"), s("round")]).unwrap(),
        ),
    ];
    info
}

fn game(id: &str, tournament: &str, region: &str, round: &str, bracket: &str) -> Item {
    let mut item = Item::new();
    for (name, value) in [
        ("matchId", id),
        ("tournamentId", tournament),
        ("region", region),
        ("round", round),
        ("bracket", bracket),
        ("player1Id", "p1"),
        ("matchDate", "2024-12-01"),
    ] {
        item.insert(name, AttrValue::S(value.into()));
    }
    item
}

/// Eight matches in six partitions, in no key's order (as a Scan returns them).
fn matches_items() -> Vec<Item> {
    vec![
        game("m1", "WINTER2024", "EU-WEST", "SEMIFINAL", "UPPER"),
        game("m2", "WINTER2024", "US-EAST", "FINAL", "UPPER"),
        game("m3", "WINTER2024", "EU-WEST", "FINAL", "UPPER"),
        game("m4", "WINTER2024", "EU-WEST", "SEMIFINAL", "LOWER"),
        game("m5", "SPRING2025", "EU-WEST", "FINAL", "UPPER"),
        game("m6", "WINTER2024", "EU-WEST", "SEMI", "UPPER"),
        game("m7", "SPRING2025", "AP-SOUTH", "FINAL", "UPPER"),
        game("m8", "WINTER2024", "AP-SOUTH", "QUARTER", "UPPER"),
    ]
}

/// Read `id` answered with the matches, in one page, done.
fn answer(s: &mut State, id: u64) {
    send(s, [page(id, 1, matches_items(), false)]);
    send(
        s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: crate::model::engine::DoneOutcome::Complete,
            elapsed: std::time::Duration::from_millis(20),
        })],
    );
}

/// The table read, then Enter on TournamentRegionIndex in the chooser, its scan answered.
fn on_tournament_region_index() -> State {
    let (mut s, id) = opened_with(matches_info());
    answer(&mut s, id);
    let effects = send(
        &mut s,
        [char('i'), press(KeyCode::Down), press(KeyCode::Enter)],
    );
    let id = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => {
            assert_eq!(spec.index.as_deref(), Some("TournamentRegionIndex"));
            *id
        }
        other => panic!("expected one scan of TournamentRegionIndex, got {other:?}"),
    };
    answer(&mut s, id);
    s
}

/// Collections are the tuples of partition values, items in the order of every sort attribute
/// (SEMI before SEMIFINAL, LOWER before UPPER), each sort attribute its own key column.
#[test]
fn a_multi_attribute_index_shows_tuple_collections_in_sort_order() {
    let s = on_tournament_region_index();
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.view.index.as_deref(), Some("TournamentRegionIndex"));
    let store = view.view.store.as_ref().unwrap();
    let keys: Vec<&str> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "WINTER2024 · EU-WEST",
            "WINTER2024 · US-EAST",
            "SPRING2025 · EU-WEST",
            "SPRING2025 · AP-SOUTH",
            "WINTER2024 · AP-SOUTH"
        ]
    );
    let ids: Vec<String> = store.collections()[0]
        .items
        .iter()
        .map(|&id| {
            store
                .item(id)
                .get("matchId")
                .unwrap()
                .as_s()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["m3", "m6", "m4", "m1"]);
    let text = buffer_text(&render(&s));
    // The pane's title names every partition attribute (cut here by the pane's width).
    assert!(text.contains("Collections by tournamentId"), "{text}");
    assert!(text.contains("WINTER2024 · EU-WEST"), "{text}");
    insta::assert_snapshot!("multi_attribute_index", render(&s).backend());
}
