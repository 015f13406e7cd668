//! The table's indexes on screen: the picker's index names, the index chooser (`i`), and the
//! title of a view reading an index (issue 20).

use crate::app::input::KeyCode;

use super::snapshot_tests::{buffer_text, render};
use crate::app::fixtures::*;
use crate::app::msg::{Msg, TableMsg};
use crate::app::state::State;
use crate::app::update::start;

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

/// Issue 20: index names longer than ten columns ran into the kind (`InvertedIndexGSI · SK
/// (S)`); the name column fits the longest (24 at most, cut with `…` past it) and what does
/// not fit wraps under itself.
#[test]
fn picker_with_long_index_names() {
    let mut s = state();
    start(&mut s, None);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Ok(vec!["app".into()])))],
    );
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(five_index_info()),
        })],
    );
    let text = buffer_text(&render(&s));
    assert!(
        text.contains("GSI_1_ByTenantAndCreated GSI · GSI_1_PK (S) ·"),
        "{text}"
    );
    assert!(
        text.contains("InvertedIndex            GSI · SK (S)"),
        "{text}"
    );
    assert!(text.contains("byStatusAndUpdatedAtInd… GSI"), "{text}");
    snapshot!("picker_long_index_names", s);
}

/// Issue 20: `i` opens a chooser of the table and its indexes, with each one's keys,
/// projection, items, size and first-page cost; nothing is read until Enter.
#[test]
fn index_chooser() {
    let (mut s, id) = opened_with(five_index_info());
    send(&mut s, [page(id, 1, demo_items(), false)]);
    send(
        &mut s,
        [
            char('i'),
            press(KeyCode::Down),
            press(KeyCode::Down),
            press(KeyCode::Down),
        ],
    );
    snapshot!("index_chooser", s);
}

/// Issue 20: `index InvertedIndex · on demand · InvertedIndex on demand` named the index twice.
#[test]
fn the_title_names_the_index_once_and_its_capacity_when_it_differs() {
    let title = |s: &State| {
        let text = buffer_text(&render(s));
        text.chars().take(WIDTH as usize).collect::<String>()
    };
    let (mut s, _) = opened();
    s.table.as_mut().unwrap().view.index = Some("GSI1".into());
    let on_demand = title(&s);
    assert!(
        on_demand.starts_with(" dynoscope · app · index GSI1 · on demand · 420 items"),
        "{on_demand}"
    );
    assert_eq!(on_demand.matches("GSI1").count(), 1, "{on_demand}");
    assert_eq!(on_demand.matches("on demand").count(), 1, "{on_demand}");
    let view = s.table.as_mut().unwrap();
    let crate::app::state::Loadable::Loaded(info) = &mut view.info else {
        unreachable!("opened() describes the table")
    };
    info.provisioned = Some(crate::model::design::schema::Throughput {
        read_capacity_units: 100,
        write_capacity_units: 50,
    });
    info.indexes[0].provisioned = Some(crate::model::design::schema::Throughput {
        read_capacity_units: 20,
        write_capacity_units: 10,
    });
    let provisioned = title(&s);
    assert!(
        provisioned.starts_with(
            " dynoscope · app · index GSI1 · table 100 RCU/s provisioned · index 20 RCU/s provisioned"
        ),
        "{provisioned}"
    );
}

/// Issue 52: the chooser's details of GSI1 say, from the items already loaded, which
/// multi-attribute key would replace its synthetic `STATUS#…` and `…#ORDER#…` keys; opening
/// it reads nothing.
#[test]
fn the_chooser_advises_a_multi_attribute_key_from_the_loaded_items() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let effects = send(&mut s, [char('i'), press(KeyCode::Down)]);
    assert!(effects.is_empty(), "{effects:?}");
    let chooser = s.table.as_ref().unwrap().index_chooser().cloned().unwrap();
    let keyed: Vec<_> = chooser.advice.iter().filter(|a| a.key.is_some()).collect();
    assert_eq!(keyed.len(), 1, "{:#?}", chooser.advice);
    assert_eq!(keyed[0].read, 330, "every loaded item, no read of its own");
    // The details wrap inside the dialog's border: each piece fits one row.
    let text = buffer_text(&render(&s));
    for piece in [
        "Advice, from the items loaded: GSI GSI1: GSI1PK = STATUS#{status}, GSI1SK =",
        "{date}#ORDER#{orderId} are concatenations of attributes the items carry; a GSI keyed by status",
        "S, sort date S + orderId S would serve the same patterns without GSI1PK and GSI1SK (57 of the",
    ] {
        assert!(text.contains(piece), "{piece}\n{text}");
    }
    // The table's own row has nothing to say of it here.
    send(&mut s, [press(KeyCode::Up)]);
    assert!(!buffer_text(&render(&s)).contains("Advice"));
}
