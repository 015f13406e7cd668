//! Issue 53: the column chooser (`C`) on screen, the items pane after a choice, and what `Y`
//! copies: the Markdown table, hostile cells included.

use crate::app::input::KeyCode;

use super::snapshot_tests::{buffer_text, render};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, TerminalEffect};
use crate::app::state::State;
use crate::model::item::value::{AttrValue, Item};

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

/// The demo table loaded, on the first collection with three attribute columns or more.
fn loaded_with_columns() -> State {
    let mut s = loaded(false);
    while s.view().unwrap().columns.attrs.len() < 3 {
        send(&mut s, [press(KeyCode::Down)]);
    }
    s
}

#[test]
fn chooser_with_a_column_hidden_and_one_moved() {
    let mut s = loaded_with_columns();
    // Hide the first column, move the second one down a place, and stop on the third row.
    send(
        &mut s,
        [
            char('C'),
            press(KeyCode::Char(' ')),
            press(KeyCode::Down),
            char(']'),
        ],
    );
    let text = buffer_text(&render(&s));
    assert!(text.contains("Columns of app"), "{text}");
    assert!(text.contains("automatic columns"), "{text}");
    snapshot!("column_chooser", s);
}

#[test]
fn items_pane_says_how_many_columns_a_choice_hides() {
    let mut s = loaded_with_columns();
    let first = s.view().unwrap().columns.attrs[0].clone();
    send(
        &mut s,
        [char('C'), press(KeyCode::Char(' ')), press(KeyCode::Enter)],
    );
    send(&mut s, [press(KeyCode::Tab)]);
    let text = buffer_text(&render(&s));
    assert!(text.contains("1 hidden (C)"), "{text}");
    assert!(!s.view().unwrap().columns.attrs.contains(&first));
    snapshot!("items_with_a_hidden_column", s);
}

#[test]
fn hiding_every_attribute_still_says_how_to_bring_them_back() {
    let mut s = loaded_with_columns();
    let n = s.view().unwrap().columns.attrs.len();
    send(&mut s, [char('C')]);
    for _ in 0..n {
        send(&mut s, [press(KeyCode::Char(' ')), press(KeyCode::Down)]);
    }
    // Back on a row: Enter on the last entry would go back to automatic columns.
    send(&mut s, [press(KeyCode::Home), press(KeyCode::Enter)]);
    assert!(s.view().unwrap().columns.attrs.is_empty());
    let text = buffer_text(&render(&s));
    assert!(
        text.contains(&format!("attributes: all {n} hidden (C)")),
        "{text}"
    );
}

/// Items whose attribute names and values try to break out of a Markdown cell or the terminal.
fn hostile() -> State {
    let (mut s, id) = opened();
    let item = |sk: &str, note: &str| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#1".into())),
            ("SK".into(), AttrValue::S(sk.into())),
            ("note".into(), AttrValue::S(note.into())),
            ("pipe|name".into(), AttrValue::N("42".into())),
            ("evil\u{1b}[31mname".into(), AttrValue::Bool(true)),
        ])
    };
    send(
        &mut s,
        [page(
            id,
            1,
            vec![
                item("NOTE#1", "a | b"),
                item("NOTE#2", "line one\nline two"),
                item("NOTE#3", "`rm -rf /` and ``more``"),
                item("NOTE#4", "esc\u{1b}]52;c;cGF3bmVk\u{7} bell"),
                item("NOTE#5", "invoice\u{202e}fdp.exe"),
                item("NOTE#6", r"trailing \"),
            ],
            false,
        )],
    );
    s
}

fn copied(effects: &[Effect]) -> String {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Terminal(TerminalEffect::Copy(text)) => Some(text.clone()),
            _ => None,
        })
        .expect("a copy")
}

#[test]
fn markdown_of_hostile_cells() {
    let mut s = hostile();
    let text = copied(&send(&mut s, [char('Y')]));
    for raw in ['\u{1b}', '\u{7}', '\u{202e}', '\r'] {
        assert!(!text.contains(raw), "{raw:?} raw in:\n{text}");
    }
    // A row a line (the newline in a cell is `\n`), and every row has the header's cells: no
    // `|` a cell holds splits it.
    let columns = |line: &str| line.replace(r"\|", "").matches('|').count();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 6);
    assert!(
        lines.iter().all(|l| columns(l) == columns(lines[0])),
        "{text}"
    );
    insta::assert_snapshot!("markdown_hostile_cells", text);
    let notice = s.notice.unwrap().text;
    assert!(
        notice.starts_with("copied 6 items as a Markdown table of 7 columns ("),
        "{notice}"
    );
}

#[test]
fn markdown_of_the_marked_items_only() {
    let mut s = hostile();
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Down),
            char(' '),
            char(' '),
        ],
    );
    let text = copied(&send(&mut s, [char('Y')]));
    assert_eq!(text.lines().count(), 2 + 2, "{text}");
    assert!(text.contains("NOTE#2") && text.contains("NOTE#3"), "{text}");
    assert!(s.notice.unwrap().text.starts_with("copied 2 marked items"));
}

#[test]
fn a_long_list_is_cut_and_the_status_line_says_where() {
    let (mut s, id) = opened();
    let items: Vec<Item> = (0..1_024)
        .map(|n| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S("USER#1".into())),
                ("SK".into(), AttrValue::S(format!("NOTE#{n:04}"))),
            ])
        })
        .collect();
    send(&mut s, [page(id, 1, items, false)]);
    let text = copied(&send(&mut s, [char('Y')]));
    assert_eq!(
        text.lines().count(),
        2 + crate::app::table::markdown::MARKDOWN_ROWS
    );
    assert!(text.contains("NOTE#0199") && !text.contains("NOTE#0200"));
    let notice = s.notice.unwrap().text;
    assert!(
        notice.starts_with("copied 200 items as a Markdown table"),
        "{notice}"
    );
    assert!(notice.contains("cut at 200 of 1,024"), "{notice}");
}

#[test]
fn y_in_the_request_log_copies_the_row_as_its_aws_cli_command() {
    let mut s = loaded(false);
    let body: std::sync::Arc<str> = std::sync::Arc::from(r#"{"TableName":"app","Limit":50}"#);
    s.log.push({
        let mut row = s.log.get(0).unwrap().clone();
        row.sent = Some(body);
        row
    });
    // Tab to the log: its cursor starts on the newest row.
    while s.view().unwrap().focus != crate::app::state::Pane::Log {
        send(&mut s, [press(KeyCode::Tab)]);
    }
    let text = copied(&send(&mut s, [char('Y')]));
    assert_eq!(
        text,
        r#"aws dynamodb scan --cli-input-json '{"TableName":"app","Limit":50}' --no-paginate --endpoint-url http://127.0.0.1:8000"#
    );
    assert!(s
        .notice
        .clone()
        .unwrap()
        .text
        .contains("as its aws-cli command"));
    // The first row's body was not recorded: nothing copied, and it says why.
    send(&mut s, [press(KeyCode::Home)]);
    let effects = send(&mut s, [char('Y')]);
    assert!(!effects
        .iter()
        .any(|e| matches!(e, Effect::Terminal(TerminalEffect::Copy(_)))));
    let notice = s.notice.unwrap();
    assert!(
        notice.error && notice.text.contains("not recorded"),
        "{notice:?}"
    );
}

#[test]
fn hostile_attribute_names_in_the_chooser_are_escaped() {
    let mut s = hostile();
    send(&mut s, [char('C')]);
    let text = buffer_text(&render(&s));
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!text.contains(raw), "{raw:?} on screen");
    }
    assert!(text.contains("pipe|name"), "{text}");
    assert!(text.contains(r"evil\x1b[31mname"), "{text}");
    snapshot!("column_chooser_hostile_names", s);
}
