//! crossterm's events as `update` reads them.

use super::*;
use crate::app::keymap::{Action, Keymap};
use crossterm::event::{KeyEvent, KeyModifiers, MediaKeyCode, MouseEvent};

fn key_msg(event: KeyEvent) -> Option<Key> {
    match to_msg(Event::Key(event)) {
        Some(Msg::Input(InputMsg::Key(key))) => Some(key),
        None => None,
        other => panic!("a key became {other:?}"),
    }
}

fn press(code: term::KeyCode, held: KeyModifiers) -> Key {
    key_msg(KeyEvent::new(code, held)).expect("a press is a key")
}

#[test]
fn presses_keep_their_key_and_every_modifier() {
    use term::KeyCode as T;
    let cases = [
        (
            T::Char('G'),
            KeyModifiers::SHIFT,
            KeyCode::Char('G'),
            Modifiers::SHIFT,
        ),
        (
            T::BackTab,
            KeyModifiers::SHIFT,
            KeyCode::BackTab,
            Modifiers::SHIFT,
        ),
        (
            T::Char('c'),
            KeyModifiers::CONTROL,
            KeyCode::Char('c'),
            Modifiers::CONTROL,
        ),
        (T::F(5), KeyModifiers::NONE, KeyCode::F(5), Modifiers::NONE),
        (
            T::PageDown,
            KeyModifiers::ALT,
            KeyCode::PageDown,
            Modifiers::ALT,
        ),
        (
            T::Char('q'),
            KeyModifiers::SUPER,
            KeyCode::Char('q'),
            Modifiers::SUPER,
        ),
        (
            T::Esc,
            KeyModifiers::HYPER | KeyModifiers::META,
            KeyCode::Esc,
            Modifiers::HYPER | Modifiers::META,
        ),
        (
            T::CapsLock,
            KeyModifiers::NONE,
            KeyCode::Other,
            Modifiers::NONE,
        ),
        (
            T::Media(MediaKeyCode::Play),
            KeyModifiers::NONE,
            KeyCode::Other,
            Modifiers::NONE,
        ),
        (
            T::Enter,
            KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT,
            KeyCode::Enter,
            Modifiers::CONTROL | Modifiers::ALT | Modifiers::SHIFT,
        ),
    ];
    for (theirs, held, code, modifiers) in cases {
        assert_eq!(
            press(theirs, held),
            Key::new(code, modifiers),
            "{theirs:?} {held:?}"
        );
    }
}

/// The keymap sees what a terminal reports, through the conversion.
#[test]
fn the_keymap_matches_converted_presses() {
    use term::KeyCode as T;
    let keymap = Keymap::default();
    let cases = [
        (T::Char('q'), KeyModifiers::NONE, Some(Action::Quit)),
        (T::Char('c'), KeyModifiers::CONTROL, Some(Action::Quit)),
        (T::Char('G'), KeyModifiers::SHIFT, Some(Action::Bottom)),
        (T::BackTab, KeyModifiers::SHIFT, Some(Action::PrevPane)),
        (T::Tab, KeyModifiers::SHIFT, Some(Action::PrevPane)),
        (T::Up, KeyModifiers::SHIFT, None),
        (T::Char('q'), KeyModifiers::SUPER, Some(Action::Quit)),
        (T::CapsLock, KeyModifiers::NONE, None),
    ];
    for (theirs, held, want) in cases {
        assert_eq!(
            keymap.action(&press(theirs, held)),
            want,
            "{theirs:?} {held:?}"
        );
    }
}

#[test]
fn releases_and_repeats_are_not_keys() {
    for kind in [KeyEventKind::Release, KeyEventKind::Repeat] {
        let mut event = KeyEvent::new(term::KeyCode::Char('q'), KeyModifiers::NONE);
        event.kind = kind;
        assert_eq!(key_msg(event), None, "{kind:?}");
    }
}

#[test]
fn the_wheel_scrolls_and_other_mouse_events_pass_as_other() {
    let mouse_msg = |kind| {
        let event = MouseEvent {
            kind,
            column: 3,
            row: 4,
            modifiers: KeyModifiers::NONE,
        };
        match to_msg(Event::Mouse(event)) {
            Some(Msg::Input(InputMsg::Mouse(mouse))) => mouse.kind,
            other => panic!("a mouse event became {other:?}"),
        }
    };
    assert_eq!(mouse_msg(MouseEventKind::ScrollUp), MouseKind::ScrollUp);
    assert_eq!(mouse_msg(MouseEventKind::ScrollDown), MouseKind::ScrollDown);
    assert_eq!(mouse_msg(MouseEventKind::Moved), MouseKind::Other);
    assert_eq!(mouse_msg(MouseEventKind::ScrollLeft), MouseKind::Other);
}

#[test]
fn paste_and_resize_pass_and_focus_does_not() {
    assert!(matches!(
        to_msg(Event::Paste("a\tb".into())),
        Some(Msg::Input(InputMsg::Paste(text))) if text == "a\tb"
    ));
    assert!(matches!(
        to_msg(Event::Resize(80, 24)),
        Some(Msg::Input(InputMsg::Resize(80, 24)))
    ));
    assert!(to_msg(Event::FocusGained).is_none());
}

/// The text areas read a converted key exactly as they read crossterm's own.
#[test]
fn text_areas_read_converted_keys_as_crossterm_keys() {
    use term::KeyCode as T;
    let codes = [
        T::Char('a'),
        T::Char('Z'),
        T::Backspace,
        T::Enter,
        T::Left,
        T::Right,
        T::Up,
        T::Down,
        T::Home,
        T::End,
        T::PageUp,
        T::PageDown,
        T::Tab,
        T::BackTab,
        T::Delete,
        T::Insert,
        T::F(3),
        T::Null,
        T::Esc,
        T::NumLock,
    ];
    let helds = [
        KeyModifiers::NONE,
        KeyModifiers::SHIFT,
        KeyModifiers::CONTROL,
        KeyModifiers::ALT,
        KeyModifiers::SUPER,
        KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT,
    ];
    for code in codes {
        for held in helds {
            let event = KeyEvent::new(code, held);
            assert_eq!(
                ratatui_textarea::Input::from(press(code, held)),
                ratatui_textarea::Input::from(event),
                "{code:?} {held:?}"
            );
        }
    }
}
