//! Key parsing, the default keymap and overrides.

use super::*;
use crate::app::input::{KeyCode, Modifiers};

fn press(code: KeyCode, modifiers: Modifiers) -> Key {
    Key::new(code, modifiers)
}

fn combo(text: &str) -> KeyCombo {
    KeyCombo::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The one action table gives every action a key and a help line, and they make a keymap.
#[test]
fn every_action_has_a_default_key_and_a_help_line() {
    for action in Action::ALL {
        assert!(!action.default_keys().is_empty(), "{action} has no key");
        assert!(!action.help().is_empty(), "{action} has no help");
    }
    let keymap = Keymap::default();
    for action in Action::ALL {
        assert!(
            !keymap.keys(action).is_empty(),
            "{action} has no default key"
        );
        assert!(
            keymap.help_rows().iter().any(|r| r.action == action.name()),
            "{action} has no help row"
        );
    }
    assert_eq!(keymap.help_rows().len(), Action::ALL.len());
    assert!(keymap.help_rows().iter().all(|r| !r.help.is_empty()));
}

#[test]
fn action_names_round_trip() {
    for action in Action::ALL {
        assert_eq!(Action::from_name(action.name()), Some(action));
    }
    assert_eq!(Action::from_name("PageUp"), None);
    assert_eq!(Action::from_name("page_up"), Some(Action::PageUp));
    assert!(Action::names_list().starts_with("quit, help, up"));
}

#[test]
fn parses_key_strings() {
    let none = Modifiers::NONE;
    let ctrl = Modifiers::CONTROL;
    let cases: &[(&str, KeyCode, Modifiers, &str)] = &[
        ("q", KeyCode::Char('q'), none, "q"),
        ("G", KeyCode::Char('G'), none, "G"),
        ("shift-g", KeyCode::Char('G'), none, "G"),
        ("ctrl-c", KeyCode::Char('c'), ctrl, "ctrl-c"),
        ("Ctrl+C", KeyCode::Char('C'), ctrl, "ctrl-C"),
        ("alt-x", KeyCode::Char('x'), Modifiers::ALT, "alt-x"),
        ("shift-tab", KeyCode::BackTab, none, "shift-tab"),
        ("backtab", KeyCode::BackTab, none, "shift-tab"),
        ("enter", KeyCode::Enter, none, "enter"),
        ("Esc", KeyCode::Esc, none, "esc"),
        ("tab", KeyCode::Tab, none, "tab"),
        ("up", KeyCode::Up, none, "up"),
        ("down", KeyCode::Down, none, "down"),
        ("left", KeyCode::Left, none, "left"),
        ("right", KeyCode::Right, none, "right"),
        ("pageup", KeyCode::PageUp, none, "pgup"),
        ("pagedown", KeyCode::PageDown, none, "pgdn"),
        ("pgdn", KeyCode::PageDown, none, "pgdn"),
        ("home", KeyCode::Home, none, "home"),
        ("end", KeyCode::End, none, "end"),
        ("f1", KeyCode::F(1), none, "f1"),
        ("F12", KeyCode::F(12), none, "f12"),
        ("space", KeyCode::Char(' '), none, "space"),
        ("/", KeyCode::Char('/'), none, "/"),
        ("?", KeyCode::Char('?'), none, "?"),
        ("-", KeyCode::Char('-'), none, "-"),
        ("ctrl--", KeyCode::Char('-'), ctrl, "ctrl--"),
        ("shift-up", KeyCode::Up, Modifiers::SHIFT, "shift-up"),
        (
            "ctrl-alt-d",
            KeyCode::Char('d'),
            ctrl.union(Modifiers::ALT),
            "ctrl-alt-d",
        ),
    ];
    for (text, code, modifiers, shown) in cases {
        let parsed = combo(text);
        assert_eq!(parsed.code(), *code, "{text}");
        assert_eq!(parsed.modifiers(), *modifiers, "{text}");
        assert_eq!(parsed.to_string(), *shown, "{text}");
        assert_eq!(combo(shown), parsed, "display of {text} parses back");
    }
}

#[test]
fn rejects_bad_key_strings() {
    for text in [
        "", "ctrl-", "ctrl", "hyper-x", "pagedwn", "f0", "f13", "f01", "shift-1", "\t", "ab",
    ] {
        let err = KeyCombo::parse(text).unwrap_err();
        assert_eq!(err.key, text);
        assert!(err.to_string().contains("'ctrl-c'"), "{err}");
    }
}

#[test]
fn matches_what_terminals_report() {
    let keymap = Keymap::default();
    let shift = Modifiers::SHIFT;
    let cases: &[(Key, Option<Action>)] = &[
        (
            press(KeyCode::Char('q'), Modifiers::NONE),
            Some(Action::Quit),
        ),
        (
            press(KeyCode::Char('c'), Modifiers::CONTROL),
            Some(Action::Quit),
        ),
        (press(KeyCode::Char('c'), Modifiers::NONE), None),
        (press(KeyCode::Char('G'), shift), Some(Action::Bottom)),
        (
            press(KeyCode::Char('G'), Modifiers::NONE),
            Some(Action::Bottom),
        ),
        (
            press(KeyCode::Char('g'), Modifiers::NONE),
            Some(Action::Top),
        ),
        (press(KeyCode::Char('L'), shift), Some(Action::LoadAll)),
        (press(KeyCode::Char('T'), shift), Some(Action::Tables)),
        (press(KeyCode::Char('?'), shift), Some(Action::Help)),
        (press(KeyCode::BackTab, shift), Some(Action::PrevPane)),
        (
            press(KeyCode::BackTab, Modifiers::NONE),
            Some(Action::PrevPane),
        ),
        (press(KeyCode::Tab, shift), Some(Action::PrevPane)),
        (press(KeyCode::Tab, Modifiers::NONE), Some(Action::NextPane)),
        (press(KeyCode::Up, Modifiers::NONE), Some(Action::Up)),
        (press(KeyCode::Up, shift), None),
        (
            press(KeyCode::PageDown, Modifiers::NONE),
            Some(Action::PageDown),
        ),
        (
            press(KeyCode::Char('f'), Modifiers::CONTROL),
            Some(Action::PageDown),
        ),
        (press(KeyCode::Esc, Modifiers::NONE), Some(Action::Back)),
        (press(KeyCode::Enter, Modifiers::NONE), Some(Action::Open)),
        (
            press(KeyCode::Char('/'), Modifiers::NONE),
            Some(Action::Filter),
        ),
        (press(KeyCode::F(1), Modifiers::NONE), Some(Action::Help)),
        (
            press(KeyCode::Char('q'), Modifiers::SUPER),
            Some(Action::Quit),
        ),
    ];
    for (event, want) in cases {
        assert_eq!(keymap.action(event), *want, "{event:?}");
    }
}

fn overrides(pairs: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    pairs
        .iter()
        .map(|(action, keys)| {
            (
                (*action).to_owned(),
                keys.iter().map(|k| (*k).to_owned()).collect(),
            )
        })
        .collect()
}

#[test]
fn override_replaces_an_actions_keys() {
    let keymap = Keymap::default()
        .with_overrides(&overrides(&[("quit", &["Q", "ctrl-q"])]))
        .unwrap();
    assert_eq!(keymap.keys_for(Action::Quit), "Q/ctrl-q");
    let q = press(KeyCode::Char('q'), Modifiers::NONE);
    assert_eq!(keymap.action(&q), None);
    let ctrl_q = press(KeyCode::Char('q'), Modifiers::CONTROL);
    assert_eq!(keymap.action(&ctrl_q), Some(Action::Quit));
    assert_eq!(keymap.keys_for(Action::Down), "down/j");
}

#[test]
fn override_takes_a_key_from_its_default_action() {
    let keymap = Keymap::default()
        .with_overrides(&overrides(&[("load_more", &["j"]), ("tables", &[])]))
        .unwrap();
    // Naming the action that loses its last key is how to leave it unbound on purpose.
    let unbound = Keymap::default()
        .with_overrides(&overrides(&[("load_more", &["space"]), ("mark", &[])]))
        .unwrap();
    assert_eq!(unbound.keys_for(Action::Mark), "");
    let j = press(KeyCode::Char('j'), Modifiers::NONE);
    assert_eq!(keymap.action(&j), Some(Action::LoadMore));
    assert_eq!(keymap.keys_for(Action::Down), "down");
    assert_eq!(keymap.keys_for(Action::Tables), "");
    let row = keymap
        .help_rows()
        .into_iter()
        .find(|r| r.action == "tables");
    assert_eq!(row.map(|r| r.keys), Some(String::new()));
}

/// The palette came after configs that gave `ctrl-p` to another action (`up`, as in emacs):
/// it has a second key, so such a config still loads and the palette keeps F2.
#[test]
fn a_config_that_took_ctrl_p_still_loads_and_the_palette_keeps_f2() {
    let keymap = Keymap::default()
        .with_overrides(&overrides(&[("up", &["up", "k", "ctrl-p"])]))
        .unwrap();
    let ctrl_p = press(KeyCode::Char('p'), Modifiers::CONTROL);
    assert_eq!(keymap.action(&ctrl_p), Some(Action::Up));
    assert_eq!(keymap.keys_for(Action::ActionPalette), "f2");
    let default = Keymap::default();
    assert_eq!(default.action(&ctrl_p), Some(Action::ActionPalette));
}

#[test]
fn rejects_bad_overrides() {
    type Overrides<'a> = &'a [(&'a str, &'a [&'a str])];
    let cases: &[(Overrides, KeymapError)] = &[
        (
            &[("jump", &["x"])],
            KeymapError::UnknownAction {
                name: "jump".into(),
            },
        ),
        (
            &[("quit", &["q", "ctrl-"])],
            KeymapError::BadKey {
                action: "quit".into(),
                key: "ctrl-".into(),
            },
        ),
        (
            &[("copy", &["x"]), ("quit", &["x"])],
            KeymapError::Conflict {
                key: "x".into(),
                first: "copy",
                second: "quit",
            },
        ),
        (
            // Space is mark's only key: taking it would leave marking unreachable.
            &[("load_more", &["n", "space"])],
            KeymapError::Orphaned {
                key: "space".into(),
                taker: "load_more",
                action: "mark",
            },
        ),
    ];
    for (pairs, want) in cases {
        let err = Keymap::default()
            .with_overrides(&overrides(pairs))
            .unwrap_err();
        assert_eq!(err, *want);
    }
    let err = KeymapError::UnknownAction {
        name: "jump".into(),
    };
    assert!(
        err.to_string().contains("actions are quit, help, up"),
        "{err}"
    );
}

#[test]
fn help_rows_follow_the_asset() {
    let rows = Keymap::default().help_rows();
    assert_eq!(
        rows[0],
        HelpRow {
            keys: "q, ctrl-c".into(),
            action: "quit",
            help: "Quit dynoscope".into(),
        }
    );
    let names: Vec<&str> = rows.iter().map(|r| r.action).collect();
    assert_eq!(&names[..4], ["quit", "help", "up", "down"]);
    assert!(names.contains(&"tables"));
    let prev = rows.iter().find(|r| r.action == "prev_pane").unwrap();
    assert_eq!(prev.keys, "shift-tab");
    let page = rows.iter().find(|r| r.action == "page_down").unwrap();
    assert_eq!(page.keys, "pgdn, ctrl-f");
}

#[test]
fn table_problems_are_reported() {
    let conflict: [(Action, &[&str], &str); 2] =
        [(Action::Quit, &["q"], "a"), (Action::Copy, &["q"], "b")];
    assert!(matches!(
        Keymap::from_rows(&conflict),
        Err(KeymapError::Conflict { .. })
    ));
    let twice: [(Action, &[&str], &str); 2] =
        [(Action::Quit, &["q"], "a"), (Action::Quit, &["x"], "b")];
    assert!(matches!(
        Keymap::from_rows(&twice),
        Err(KeymapError::Asset(_))
    ));
}

#[test]
fn the_old_cycle_index_name_binds_the_index_chooser() {
    assert_eq!(Action::from_name("cycle_index"), Some(Action::ChooseIndex));
    assert_eq!(Action::from_name("choose_index"), Some(Action::ChooseIndex));
    assert_eq!(Action::ChooseIndex.name(), "choose_index");
}
