//! The query form with keys as long as real single-table designs make them.

use crate::app::input::KeyCode;

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::msg::Msg;
use crate::app::state::{Field, State};
use crate::model::item::value::{AttrValue, Item};

/// A 60-character ElectroDB-style partition key.
const LONG_PK: &str = "$task-manager#country_united states#region_west#user_00042ab";
const TASKS: &str = "$task-manager#country_united states#task_";

/// Table `app` with one long-keyed collection of five tasks loaded.
fn long_keys_loaded() -> State {
    let (mut s, id) = opened();
    let items = ["0b1f", "3c9e", "5d2a", "8e47", "f013"]
        .iter()
        .map(|t| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(LONG_PK.into())),
                ("SK".into(), AttrValue::S(format!("{TASKS}{t}"))),
            ])
        })
        .collect();
    send(
        &mut s,
        [
            page(id, 1, items, false),
            Msg::Engine(crate::model::engine::EngineEvent::Done {
                request_id: id,
                outcome: crate::model::engine::DoneOutcome::Complete,
                elapsed: std::time::Duration::ZERO,
            }),
        ],
    );
    s
}

fn rows(s: &State) -> Vec<String> {
    let terminal = render(s);
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect()
        })
        .collect()
}

#[test]
fn a_60_character_key_wraps_and_the_field_being_edited_has_its_own_row() {
    assert_eq!(LONG_PK.chars().count(), 60);
    let mut s = long_keys_loaded();
    send(&mut s, [char(':'), char('$')]);
    // One key behind `$`: one Tab writes all 60 characters.
    send(&mut s, [press(KeyCode::Tab)]);
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert_eq!(b.text(Field::Pk), LONG_PK);
    // The operator `=`, then the sort key: `$`, one Tab to what the five tasks share.
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Right),
            press(KeyCode::Tab),
            char('$'),
            press(KeyCode::Tab),
        ],
    );
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert_eq!(b.focus, Field::Sk);
    assert_eq!(b.text(Field::Sk), TASKS);
    assert_eq!(b.completion.as_ref().map(|c| c.items.len()), Some(5));
    let rows = rows(&s);
    // The key continues under itself, whole, and the rows below keep their labels.
    let pk_row = rows
        .iter()
        .position(|r| r.contains("partition key"))
        .unwrap();
    let pk_text: String = rows[pk_row..pk_row + 3]
        .iter()
        .map(|r| {
            r.split('│')
                .nth(2)
                .unwrap_or("")
                .trim()
                .replace("partition key", "")
        })
        .map(|r| r.trim().to_string())
        .collect();
    assert_eq!(pk_text, LONG_PK, "{rows:#?}");
    assert!(
        rows[pk_row + 3].contains("sort key op       ‹ = ›"),
        "{rows:#?}"
    );
    // The field being edited is on the sort key's own row, the popup on the row below it.
    let sk_row = pk_row + 4;
    assert!(rows[sk_row].contains("sort key          "), "{rows:#?}");
    assert!(rows[sk_row].contains("task_"), "the typed value: {rows:#?}");
    assert!(rows[sk_row + 1].contains("┌ Tab/→ accepts"), "{rows:#?}");
    // Five different rows, each showing the part that differs.
    for (i, t) in ["0b1f", "3c9e", "5d2a", "8e47", "f013"].iter().enumerate() {
        assert!(
            rows[sk_row + 2 + i].contains(&format!("task_{t}")),
            "{rows:#?}"
        );
    }
    insta::assert_snapshot!("builder_60_character_key", render(&s).backend());
}

#[test]
fn a_name_holding_a_hash_is_written_in_backticks_and_explained_as_a_placeholder() {
    let mut s = loaded(false);
    send(&mut s, [char(':')]);
    send(&mut s, "USER#celebrity".chars().map(char));
    // Past the operator (none) and the order and limit, to the filter.
    send(&mut s, (0..4).map(|_| press(KeyCode::Tab)));
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert_eq!(b.focus, Field::Filter);
    send(&mut s, "`State#Date` = \"x\"".chars().map(char));
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    let spec = &b.check.as_ref().expect("a sendable query").spec;
    assert_eq!(spec.filter.as_deref(), Some("#State_Date = :f1"));
    assert!(spec
        .names
        .contains(&("#State_Date".to_string(), "State#Date".to_string())));
    let text = super::snapshot_tests::buffer_text(&render(&s));
    assert!(
        text.contains("FilterExpression: #State_Date = :f1"),
        "{text}"
    );
    assert!(text.contains("#State_Date=State#Date"), "{text}");
}
