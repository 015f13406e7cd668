use std::collections::HashMap;

use super::*;
use crate::app::fixtures::{char, loaded, press, send};
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{Effect, FileEffect, FileMsg, InputMsg, Msg};
use crate::app::state::State;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn automatic() -> ItemColumns {
    ItemColumns {
        attrs: names(&["status", "total", "email", "__edb_v__"]),
        left_out: names(&["orderId"]),
        ..ItemColumns::default()
    }
}

/// A choice's order and hidden names, the attribute columns it leaves, and how many it hides.
type Case = (
    &'static [&'static str],
    &'static [&'static str],
    &'static [&'static str],
    usize,
);

#[test]
fn a_choice_orders_and_hides_over_the_automatic_columns() {
    let cases: [Case; 6] = [
        // No choice made: the automatic columns as they are.
        (&[], &[], &["status", "total", "email", "__edb_v__"], 0),
        // Hidden columns go; the rest keep their automatic order.
        (&[], &["__edb_v__", "email"], &["status", "total"], 2),
        // Ordered columns first, in the choice's order; the ones it never saw after them.
        (
            &["email", "status"],
            &[],
            &["email", "status", "total", "__edb_v__"],
            0,
        ),
        // A part column's attribute shows where the choice shows it, hidden otherwise.
        (
            &["orderId", "total"],
            &["status"],
            &["orderId", "total", "email", "__edb_v__"],
            1,
        ),
        // Attributes these items do not have neither show nor count as hidden, nor does
        // one a part column shows.
        (
            &["payload", "total"],
            &["payload", "GSI1SK", "orderId"],
            &["total", "status", "email", "__edb_v__"],
            0,
        ),
        // A name twice in a hand-edited file is one column.
        (
            &["total", "total"],
            &[],
            &["total", "status", "email", "__edb_v__"],
            0,
        ),
    ];
    for (order, hidden, want, hidden_count) in cases {
        let mut columns = automatic();
        let choice = ColumnChoice {
            order: names(order),
            hidden: names(hidden),
        };
        apply(&mut columns, &choice);
        assert_eq!(columns.attrs, names(want), "{choice:?}");
        assert_eq!(columns.hidden, hidden_count, "{choice:?}");
    }
}

#[test]
fn a_kind_s_choice_comes_before_the_table_s() {
    let table = ColumnScope {
        endpoint: "e".into(),
        table: "app".into(),
        index: None,
        kind: None,
    };
    let order = ColumnScope {
        kind: Some("ORDER".into()),
        ..table.clone()
    };
    let user = ColumnScope {
        kind: Some("USER".into()),
        ..table.clone()
    };
    let mut choices = ColumnChoices::default();
    let hide = |name: &str| ColumnChoice {
        order: Vec::new(),
        hidden: names(&[name]),
    };
    choices.book.insert(table.clone(), hide("a"));
    choices.book.insert(order.clone(), hide("b"));
    assert_eq!(choices.for_scope(&order), Some(&hide("b")));
    assert_eq!(choices.for_scope(&user), Some(&hide("a")));
    assert_eq!(choices.for_scope(&table), Some(&hide("a")));
    let other_index = ColumnScope {
        index: Some("GSI1".into()),
        ..order
    };
    assert_eq!(choices.for_scope(&other_index), None);
}

fn shift(code: KeyCode) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(code, Modifiers::SHIFT)))
}

fn attrs(s: &State) -> Vec<String> {
    s.view().unwrap().columns.attrs.clone()
}

fn saved(effects: &[Effect]) -> Option<(ColumnScope, Option<ColumnChoice>)> {
    effects.iter().find_map(|e| match e {
        Effect::Files(FileEffect::SaveColumns { scope, choice }) => {
            Some((scope.clone(), choice.clone()))
        }
        _ => None,
    })
}

/// The demo table loaded, with a collection whose items have at least three attribute columns
/// selected.
fn loaded_with_columns() -> State {
    let mut s = loaded(false);
    while attrs(&s).len() < 3 {
        send(&mut s, [press(KeyCode::Down)]);
    }
    s
}

#[test]
fn c_hides_a_column_and_enter_applies_and_saves_it() {
    let mut s = loaded_with_columns();
    let before = attrs(&s);
    assert!(send(&mut s, [char('C')]).is_empty());
    let chooser = s.table.as_ref().unwrap().columns().expect("the chooser");
    let listed: Vec<&str> = chooser.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        &listed[..before.len()],
        before.as_slice(),
        "shown columns first"
    );
    assert!(chooser.rows.iter().all(|r| r.count > 0));
    // Nothing changes before Enter.
    send(&mut s, [press(KeyCode::Char(' '))]);
    assert_eq!(attrs(&s), before);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let (scope, choice) = saved(&effects).expect("a save");
    assert_eq!(scope.table, "app");
    assert_eq!(scope.endpoint, "http://127.0.0.1:8000");
    assert_eq!(choice.unwrap().hidden, vec![before[0].clone()]);
    assert_eq!(attrs(&s), before[1..].to_vec());
    assert_eq!(s.view().unwrap().columns.hidden, 1);
    assert!(s.table.as_ref().unwrap().modal.is_none());
    assert!(s.notice.as_ref().unwrap().text.contains("1 hidden"));

    // The last entry goes back to the automatic columns, and forgets the choice on disk.
    send(&mut s, [char('C'), press(KeyCode::End)]);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert_eq!(saved(&effects), Some((scope, None)));
    assert_eq!(attrs(&s), before);
    assert!(s.column_choices.book.is_empty());
}

#[test]
fn brackets_and_shift_arrows_move_a_column_and_esc_keeps_everything() {
    let mut s = loaded_with_columns();
    let before = attrs(&s);
    send(&mut s, [char('C'), press(KeyCode::Char(']'))]);
    send(&mut s, [shift(KeyCode::Down)]);
    let chooser = s.table.as_ref().unwrap().columns().unwrap();
    assert_eq!(chooser.cursor, 2, "the cursor moves with the row");
    assert_eq!(chooser.rows[2].name, before[0]);
    // Esc: the columns as they were, nothing saved.
    assert!(send(&mut s, [press(KeyCode::Esc)]).is_empty());
    assert_eq!(attrs(&s), before);
    // Moved and applied: the first column is now third; `[` moves it back up one.
    send(&mut s, [char('C'), char(']'), char(']'), char('[')]);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let order = saved(&effects).unwrap().1.unwrap().order;
    assert_eq!(order[1], before[0]);
    assert_eq!(attrs(&s)[1], before[0]);
    assert_eq!(attrs(&s)[0], before[1]);
}

#[test]
fn choices_read_from_the_file_apply_and_an_unreadable_file_is_one_warning() {
    let mut s = loaded_with_columns();
    let before = attrs(&s);
    let scope = view_scope(&s.endpoint, "app", s.view().unwrap());
    let mut book = HashMap::new();
    book.insert(
        scope,
        ColumnChoice {
            order: Vec::new(),
            hidden: vec![before[1].clone()],
        },
    );
    send(&mut s, [Msg::Files(FileMsg::ColumnsLoaded(Ok(book)))]);
    assert!(s.column_choices.loaded);
    assert!(!attrs(&s).contains(&before[1]));

    let mut s = loaded_with_columns();
    let why = "column choices not read: it is not a column choices file (EOF while parsing a value at line 1 column 0); automatic columns until C saves new ones in '/state/dynoscope/columns.json'";
    send(
        &mut s,
        [Msg::Files(FileMsg::ColumnsLoaded(Err(why.into())))],
    );
    let notice = s.notice.clone().unwrap();
    assert!(notice.error && notice.text == why, "{notice:?}");
    assert_eq!(attrs(&s), before);
}

#[test]
fn with_nothing_loaded_c_says_so() {
    let (mut s, _) = crate::app::fixtures::opened();
    assert!(send(&mut s, [char('C')]).is_empty());
    assert!(s.table.as_ref().unwrap().modal.is_none());
    assert!(s.notice.unwrap().text.contains("no items loaded yet"));
}
