//! The query form's PartiQL mode completing the statement: names, keywords and key values
//! from what is loaded.

use crate::app::input::KeyCode;

use super::partiql_tests::{ctrl, partiql_open};
use crate::app::fixtures::*;
use crate::app::query_form::builder_tests::{builder, typed};
use crate::app::state::Field;

#[test]
fn the_statement_completes_attribute_and_index_names() {
    let mut s = partiql_open();
    send(&mut s, typed("stat"));
    let c = builder(&s).completion.clone().expect("completions");
    assert!(c.items.iter().any(|i| i.ends_with("WHERE status")), "{c:?}");
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\" WHERE status"
    );
}

#[test]
fn a_partition_key_value_completes_from_the_loaded_keys() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u0000"));
    let c = builder(&s).completion.clone().expect("completions");
    assert!(
        c.items
            .iter()
            .all(|i| i.starts_with("SELECT * FROM \"app\" WHERE PK = 'USER#u0000")),
        "{c:?}"
    );
    assert!(c.items.len() > 1, "{c:?}");
    // Another attribute's value is not a partition key.
    send(&mut s, [ctrl('u')]);
    send(
        &mut s,
        typed("SELECT * FROM \"app\" WHERE XPK = 'USER#u0000"),
    );
    assert!(builder(&s).completion.is_none());
}

#[test]
fn a_sort_key_value_completes_within_the_pinned_partition() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00000' AND begins_with(SK, 'ORD"));
    let c = builder(&s).completion.clone().expect("completions");
    let head = "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND begins_with(SK, 'ORD";
    assert!(c.items.iter().all(|i| i.starts_with(head)), "{c:?}");
    // Only USER#u00000's sort keys: every one the loaded items hold for it, and no other's.
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let theirs: Vec<String> = (0..store.len() as u32)
        .map(|id| store.item(id))
        .filter(|i| {
            i.get("PK")
                .map(crate::model::text::cell::cell_text)
                .as_deref()
                == Some("USER#u00000")
        })
        .filter_map(|i| i.get("SK").map(crate::model::text::cell::cell_text))
        .filter(|sk| sk.starts_with("ORD"))
        .collect();
    assert!(!theirs.is_empty());
    for item in &c.items {
        let value = &item[head.len() - 3..];
        assert!(
            theirs.iter().any(|t| t.starts_with(value)),
            "{value} is not USER#u00000's"
        );
    }
    // With no partition pinned: every loaded item's sort key (products' and users').
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("SELECT * FROM \"app\" WHERE SK = 'PRO"));
    let c = builder(&s).completion.clone().expect("completions");
    assert_eq!(
        c.items,
        [
            "SELECT * FROM \"app\" WHERE SK = 'PRODUCT",
            "SELECT * FROM \"app\" WHERE SK = 'PROFILE"
        ]
    );
}

#[test]
fn keywords_complete_where_the_grammar_expects_one() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00000' AND SK betw"));
    let c = builder(&s).completion.clone().expect("completions");
    assert_eq!(
        c.items[0],
        "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND SK BETWEEN"
    );
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND SK BETWEEN"
    );
}
