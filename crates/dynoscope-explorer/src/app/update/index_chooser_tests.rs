//! Issue 20: `i` scanned the next index at once (128–173 RCU a press on a five-GSI table, no
//! way to reach the fifth directly). It opens a chooser; only Enter reads.

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::{Effect, ReadEffect};
use crate::app::state::{IndexChooser, State};
use crate::app::update::EXPLORER_PAGE_SIZE;

/// The app table described with five GSIs, its first scan answered.
fn five_indexes() -> State {
    loaded_with(five_index_info(), false)
}

fn chooser(s: &State) -> Option<IndexChooser> {
    s.table.as_ref().unwrap().index_chooser().cloned()
}

#[test]
fn i_lists_the_targets_and_reads_nothing_until_enter() {
    let mut s = five_indexes();
    let effects = send(&mut s, [char('i')]);
    assert!(effects.is_empty(), "no scan on opening: {effects:?}");
    assert_eq!(chooser(&s).map(|c| c.cursor), Some(0));
    // Straight to the fifth index: moving sends nothing either.
    let effects = send(&mut s, (0..5).map(|_| press(KeyCode::Down)));
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(chooser(&s).unwrap().cursor, 5);
    send(&mut s, [press(KeyCode::Down)]);
    assert_eq!(chooser(&s).unwrap().cursor, 5, "stops at the last index");
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { spec, .. })] => {
            assert_eq!(spec.index.as_deref(), Some("ByEmail"));
            assert_eq!(spec.budget.max_pages, Some(1));
        }
        other => panic!("expected one scan of ByEmail, got {other:?}"),
    }
    let view = s.table.as_ref().unwrap();
    assert!(view.index_chooser().is_none());
    assert_eq!(view.view.index.as_deref(), Some("ByEmail"));
    // Opened again, the chooser starts on what is being read.
    send(&mut s, [char('i')]);
    assert_eq!(chooser(&s).unwrap().cursor, 5);
}

#[test]
fn esc_closes_without_reading_and_enter_on_the_current_target_reads_nothing() {
    let mut s = five_indexes();
    send(
        &mut s,
        [char('i'), press(KeyCode::Down), press(KeyCode::Down)],
    );
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(effects.is_empty(), "{effects:?}");
    let view = s.table.as_ref().unwrap();
    assert!(view.index_chooser().is_none());
    assert_eq!(view.view.index, None, "still the table");
    send(
        &mut s,
        [char('i'), press(KeyCode::End), press(KeyCode::Home)],
    );
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(
        effects.is_empty(),
        "the table is already shown: {effects:?}"
    );
    assert!(s.table.as_ref().unwrap().index_chooser().is_none());
}

#[test]
fn each_choice_carries_its_keys_projection_counts_and_first_page_cost() {
    let info = five_index_info();
    let choices = IndexChooser::choices(&info, EXPLORER_PAGE_SIZE as u64, 0.125);
    assert_eq!(choices.len(), 6);
    assert_eq!(choices[0].index, None);
    assert_eq!(
        (choices[0].item_count, choices[0].size_bytes),
        (420, 65_000)
    );
    // 420 items of 154 B fit in one page: 64,680 B, 16 blocks of 4 KB, ½ RCU each.
    assert_eq!(choices[0].first_page_rcu, 8.0);
    let big = &choices[4];
    assert_eq!(big.index.as_deref(), Some("byStatusAndUpdatedAtIndexV2"));
    // 1,000 of a million 310 B items: 310,000 B, 76 blocks.
    assert_eq!(big.first_page_rcu, 38.0);
    assert!((big.first_page_cost - 38.0 * 0.125 / 1e6).abs() < 1e-12);
    let include = &choices[3];
    assert_eq!(include.projection, "INCLUDE");
    assert_eq!(include.included, ["status", "total"]);
    let hash_only = &choices[5];
    assert!(hash_only.keys.sort_key().is_none());
    assert_eq!(
        hash_only.first_page_rcu, 0.5,
        "an empty index still costs a request"
    );
}

/// Issue 52: Enter on a multi-attribute GSI reads it (it was refused while the explorer read
/// one partition and one sort attribute); the view names it. What it shows is in
/// `ui::multi_attribute_snapshot_tests`.
#[test]
fn enter_on_a_multi_attribute_index_scans_it() {
    use crate::model::design::schema::{KeyAttr, KeySchema, KeyType};
    let mut info = five_index_info();
    let attr = |name: &str| KeyAttr::new(name, KeyType::S);
    info.indexes[0].keys = KeySchema::new(
        vec![attr("tournamentId"), attr("region")],
        vec![attr("round"), attr("bracket")],
    )
    .unwrap();
    let mut s = loaded_with(info, false);
    let effects = send(
        &mut s,
        [char('i'), press(KeyCode::Down), press(KeyCode::Enter)],
    );
    match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { spec, .. })] => {
            assert_eq!(spec.index.as_deref(), Some("InvertedIndex"));
        }
        other => panic!("expected one scan of the index, got {other:?}"),
    }
    assert!(s.notice.as_ref().is_none_or(|n| !n.error), "{:?}", s.notice);
    assert_eq!(
        s.table.as_ref().unwrap().view.index.as_deref(),
        Some("InvertedIndex")
    );
}
