//! Issue 52: the explorer on a multi-attribute GSI: the `matches` table's
//! TournamentRegionIndex (partition tournamentId + region, sort round + bracket + matchId).

use crate::app::input::KeyCode;

use super::snapshot_tests::{buffer_text, render};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, Msg, ReadEffect};
use crate::app::state::State;
use crate::model::engine::EngineEvent;

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

/// The query form on TournamentRegionIndex: a field per key attribute labelled by its name,
/// both partition values and the first round typed, begins_with on the last filled sort field
/// (round), and the EXPLAIN's KeyConditionExpression over both partition attributes and it.
#[test]
fn the_query_form_has_a_field_per_key_attribute() {
    let mut s = on_tournament_region_index();
    send(&mut s, [char(':')]);
    let mut keys: Vec<Msg> = "WINTER2024".chars().map(char).collect();
    keys.push(press(KeyCode::Tab));
    keys.extend("EU-WEST".chars().map(char));
    keys.push(press(KeyCode::Tab));
    keys.extend("SEMI".chars().map(char));
    send(&mut s, keys);
    // The popup offers SEMIFINAL; Esc closes it, then on to the operator.
    send(&mut s, [press(KeyCode::Esc)]);
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert!(b.completion.is_none());
    let on_op = [KeyCode::Tab, KeyCode::Tab, KeyCode::Tab, KeyCode::Left];
    send(&mut s, on_op.map(press));
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    let spec = &b.check.as_ref().expect("a sendable query").spec;
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1 AND begins_with(#sk0, :sk0)")
    );
    let text = buffer_text(&render(&s));
    for label in [
        "tournamentId",
        "region",
        "round",
        "bracket",
        "matchId",
        "op on last sort",
    ] {
        assert!(text.contains(label), "{label}: {text}");
    }
    insta::assert_snapshot!("multi_attribute_query_form", render(&s).backend());
}

/// From a match in the table, its own collection of TournamentRegionIndex is a related
/// collection (the tuple of its tournamentId and region), and `g r` opens it with a Query over
/// both partition attributes; in that collection it is not listed as a link to itself.
#[test]
fn g_r_opens_the_items_tuple_collection_of_a_multi_attribute_index() {
    let (mut s, id) = opened_with(matches_info());
    answer(&mut s, id);
    let related = |s: &State| s.table.as_ref().unwrap().view.related.links.clone();
    let links = related(&s);
    let link = links
        .iter()
        .find(|l| l.index.as_deref() == Some("TournamentRegionIndex"))
        .unwrap_or_else(|| panic!("no tuple link in {links:?}"));
    assert_eq!(link.partition.len(), 2);
    assert_eq!(link.key, link.partition.join(" · "));
    assert_eq!(
        links[0], *link,
        "own keys of the item's indexes, the tuple first"
    );
    // An index keyed by one partition attribute and several sort attributes is an index like
    // any: the item's player1Id names its collection there.
    assert!(
        links.iter().any(|l| {
            l.index.as_deref() == Some("PlayerMatchHistoryIndex") && l.partition == ["p1"]
        }),
        "{links:?}"
    );
    let effects = send(&mut s, [char('g'), char('r')]);
    let (id, spec) = match effects.as_slice() {
        [.., Effect::Read(ReadEffect::Start { id, spec })] => (*id, spec.clone()),
        other => panic!("expected a Query, got {other:?}"),
    };
    assert_eq!(spec.index.as_deref(), Some("TournamentRegionIndex"));
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1")
    );
    let values: Vec<String> = spec
        .values
        .iter()
        .map(|(_, v)| v.as_s().unwrap().to_owned())
        .collect();
    assert_eq!(values, link.partition);
    // DynamoDB's answer: the items of that tuple.
    let text =
        |i: &crate::model::item::value::Item, a: &str| i.get(a).unwrap().as_s().unwrap().to_owned();
    let items: Vec<_> = matches_items()
        .into_iter()
        .filter(|i| [text(i, "tournamentId"), text(i, "region")] == *link.partition)
        .collect();
    send(&mut s, [page(id, 1, items, false)]);
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    assert_eq!(store.collections()[0].key, link.key);
    assert!(
        !related(&s).is_empty(),
        "the item's other collections are listed"
    );
    assert!(
        related(&s)
            .iter()
            .all(|l| l.index.as_deref() != Some("TournamentRegionIndex") || l.key != link.key),
        "{:?}",
        related(&s)
    );
}

/// `p` on a multi-attribute index names every partition attribute and takes the tuple as the
/// collections show it; one value alone is refused in the prompt, nothing sent.
#[test]
fn the_partition_prompt_takes_the_whole_tuple_on_a_multi_attribute_index() {
    let mut s = on_tournament_region_index();
    send(&mut s, [char('p')]);
    let text = buffer_text(&render(&s));
    assert!(text.contains("tournamentId (S) · region (S)"), "{text}");
    let typed: Vec<Msg> = "WINTER2024".chars().map(char).collect();
    send(&mut s, typed);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(effects.is_empty(), "{effects:?}");
    let error = s.table.as_ref().unwrap().pk_prompt().unwrap().error.clone();
    assert!(error.unwrap().contains("region"));
    let typed: Vec<Msg> = " · EU-WEST".chars().map(char).collect();
    send(&mut s, typed);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec),
            _ => None,
        })
        .expect("a Query");
    assert_eq!(spec.index.as_deref(), Some("TournamentRegionIndex"));
    let mut values: Vec<&str> = spec.values.iter().filter_map(|(_, v)| v.as_s()).collect();
    values.sort();
    assert_eq!(values, ["EU-WEST", "WINTER2024"]);
}
