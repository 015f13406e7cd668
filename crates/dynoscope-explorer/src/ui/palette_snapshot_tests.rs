//! The action palette (`Ctrl-P`): every action with its keys, greyed with the reason where it
//! does nothing here, the rows typing leaves, and pattern names from the config escaped.

use ratatui::style::Color;

use super::snapshot_tests::{buffer_text, render};
use crate::app::fixtures::*;
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{InputMsg, Msg};
use crate::model::design::access_pattern::parse_patterns_file;

fn ctrl_p() -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char('p'),
        Modifiers::CONTROL,
    )))
}

#[test]
fn palette_lists_every_action_greyed_where_it_does_not_apply() {
    let mut s = loaded(false);
    send(&mut s, [ctrl_p()]);
    let terminal = render(&s);
    insta::assert_snapshot!("palette_actions", terminal.backend());
    // A row that does nothing here is grey, its reason too; one that applies is not.
    let buffer = terminal.backend().buffer();
    let row_of = |text: &str| {
        (0..buffer.area.height)
            .find(|&y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    .contains(text)
            })
            .unwrap_or_else(|| panic!("'{text}' on screen"))
    };
    let colour_at = |y: u16, text: &str| {
        let line: String = (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        let x = line.chars().take(line.find(text).unwrap()).count() as u16;
        buffer[(x, y)].fg
    };
    let clear = row_of("nothing marked");
    assert_eq!(colour_at(clear, "Clear every mark"), Color::DarkGray);
    assert_eq!(colour_at(clear, "nothing marked"), Color::DarkGray);
    let toggle = row_of("Toggle plain JSON");
    assert_eq!(colour_at(toggle, "Toggle plain JSON"), Color::Reset);
}

#[test]
fn palette_filtered_by_what_is_typed() {
    let mut s = loaded(true);
    s.patterns = parse_patterns_file(
        include_str!("../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [ctrl_p()]);
    send(&mut s, "order".chars().map(char));
    insta::assert_snapshot!("palette_actions_filtered", render(&s).backend());
}

#[test]
fn pattern_names_and_descriptions_are_escaped() {
    let mut s = loaded(false);
    let mut patterns = parse_patterns_file(
        include_str!("../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    patterns[0].name = "evil\u{1b}]52;c;AAAA\u{7}\u{202e}name".into();
    patterns[0].description = Some("line\rbreak\u{1b}[2J".into());
    s.patterns = patterns;
    send(&mut s, [ctrl_p()]);
    send(&mut s, "evil".chars().map(char));
    let text = buffer_text(&render(&s));
    assert!(!text.contains('\u{1b}') && !text.contains('\r') && !text.contains('\u{202e}'));
    assert!(text.contains("pattern evil"), "{text}");
}
