//! Text from the service and the data on every screen that shows it, drawn on a `TestBackend`:
//! each string comes out as the sanitiser's visible escapes, never raw.

use crate::app::input::KeyCode;

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::msg::{Msg, TableMsg};
use crate::app::state::State;
use crate::app::update::start;
use crate::model::item::value::{AttrValue, Item};

/// What the screen shows, row by row.
fn screen(s: &State) -> String {
    let terminal = render(s);
    let buffer = terminal.backend().buffer();
    let width = buffer.area.width as usize;
    let symbols: Vec<&str> = buffer.content().iter().map(|c| c.symbol()).collect();
    symbols
        .chunks(width)
        .map(|row| row.concat())
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_inert(text: &str) {
    for c in [
        '\u{1b}', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}', '\r', '\0',
    ] {
        assert!(!text.contains(c), "{c:?} reached the screen:\n{text}");
    }
}

#[test]
fn picker_table_names_and_description() {
    let mut s = state();
    start(&mut s, None);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Ok(vec![
            "evil\u{1b}]0;pwned\u{7}".into(),
            "rlo\u{202e}gpj.exe".into(),
            "c1\u{9b}31m\u{7f}".into(),
        ])))],
    );
    let mut info = demo_info();
    info.name = "evil\u{1b}]0;pwned\u{7}".into();
    info.status = "ACTIVE\u{1b}[2J".into();
    info.billing_mode = "PAY\u{202e}REQUEST".into();
    info.stream = Some("NEW\u{9b}IMAGE".into());
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "evil\u{1b}]0;pwned\u{7}".into(),
            result: Ok(info),
        })],
    );
    let text = screen(&s);
    assert_inert(&text);
    for shown in [
        r"evil\x1b]0;pwned\x07",
        r"rlo\u{202e}gpj.exe",
        r"c1\u{9b}31m\x7f",
        r"ACTIVE\x1b[2J",
        r"PAY\u{202e}REQUEST",
        r"NEW\u{9b}IMAGE",
    ] {
        assert!(text.contains(shown), "{shown} not shown:\n{text}");
    }
}

#[test]
fn column_headers_are_sanitised_before_they_are_measured() {
    let (mut s, id) = opened();
    let item = Item::from_attrs(vec![
        ("PK".into(), AttrValue::S("USER#1".into())),
        ("SK".into(), AttrValue::S("PROFILE".into())),
        ("name\u{1b}[31mred".into(), AttrValue::S("x".into())),
        ("rlo\u{202e}cod".into(), AttrValue::S("y".into())),
    ]);
    send(&mut s, [page(id, 1, vec![item], false)]);
    send(&mut s, [press(KeyCode::Tab)]);
    let text = screen(&s);
    assert_inert(&text);
    // Whole: the column is as wide as the escaped name, not as the raw one.
    assert!(text.contains(r"name\x1b[31mred"), "{text}");
    assert!(text.contains(r"rlo\u{202e}cod"), "{text}");
}

#[test]
fn an_accepted_completion_is_drawn_sanitised_in_the_builder_field() {
    let (mut s, id) = opened();
    let evil = "EVIL#\u{1b}[2J\u{202e}x";
    let item = Item::from_attrs(vec![
        ("PK".into(), AttrValue::S(evil.into())),
        ("SK".into(), AttrValue::S("PROFILE".into())),
    ]);
    send(&mut s, [page(id, 1, vec![item], false)]);
    send(&mut s, [char(':'), char('E')]);
    // One key behind `EVIL#`: one Tab completes all of it.
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert!(b.completion.is_some(), "a completion to accept");
    send(&mut s, [press(KeyCode::Tab)]);
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert_eq!(b.text(crate::app::state::Field::Pk), evil);
    if b.completion.is_some() {
        send(&mut s, [press(KeyCode::Esc)]);
    }
    let text = screen(&s);
    assert_inert(&text);
    assert!(text.contains(r"EVIL#\x1b[2J\u{202e}x"), "{text}");
}
