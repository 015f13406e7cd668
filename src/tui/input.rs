//! The terminal's events as `update` reads them: crossterm's keys, mouse and paste become
//! `app::input`'s types here, so nothing below `tui/` names the terminal library.

use crossterm::event::{self as term, Event, KeyEventKind, MouseEventKind};

use crate::app::input::{Key, KeyCode, Modifiers, Mouse, MouseKind};
use crate::app::msg::{InputMsg, Msg};

/// The message for one terminal event, if it is one `update` reads. Of the keys, presses
/// only: a release or a repeat report (keyboard protocol) is not a new key.
pub(super) fn to_msg(event: Event) -> Option<Msg> {
    let input = match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => InputMsg::Key(self::key(key)),
        Event::Mouse(mouse) => InputMsg::Mouse(self::mouse(mouse)),
        Event::Paste(text) => InputMsg::Paste(text),
        Event::Resize(w, h) => InputMsg::Resize(w, h),
        _ => return None,
    };
    Some(Msg::Input(input))
}

fn key(key: term::KeyEvent) -> Key {
    Key::new(code(key.code), modifiers(key.modifiers))
}

fn code(code: term::KeyCode) -> KeyCode {
    use term::KeyCode as T;
    match code {
        T::Backspace => KeyCode::Backspace,
        T::Enter => KeyCode::Enter,
        T::Left => KeyCode::Left,
        T::Right => KeyCode::Right,
        T::Up => KeyCode::Up,
        T::Down => KeyCode::Down,
        T::Home => KeyCode::Home,
        T::End => KeyCode::End,
        T::PageUp => KeyCode::PageUp,
        T::PageDown => KeyCode::PageDown,
        T::Tab => KeyCode::Tab,
        T::BackTab => KeyCode::BackTab,
        T::Delete => KeyCode::Delete,
        T::Insert => KeyCode::Insert,
        T::F(n) => KeyCode::F(n),
        T::Char(c) => KeyCode::Char(c),
        T::Null => KeyCode::Null,
        T::Esc => KeyCode::Esc,
        T::CapsLock
        | T::ScrollLock
        | T::NumLock
        | T::PrintScreen
        | T::Pause
        | T::Menu
        | T::KeypadBegin
        | T::Media(_)
        | T::Modifier(_) => KeyCode::Other,
    }
}

fn modifiers(held: term::KeyModifiers) -> Modifiers {
    use term::KeyModifiers as T;
    [
        (T::SHIFT, Modifiers::SHIFT),
        (T::CONTROL, Modifiers::CONTROL),
        (T::ALT, Modifiers::ALT),
        (T::SUPER, Modifiers::SUPER),
        (T::HYPER, Modifiers::HYPER),
        (T::META, Modifiers::META),
    ]
    .into_iter()
    .filter(|(theirs, _)| held.contains(*theirs))
    .fold(Modifiers::NONE, |all, (_, ours)| all | ours)
}

fn mouse(mouse: term::MouseEvent) -> Mouse {
    let kind = match mouse.kind {
        MouseEventKind::ScrollUp => MouseKind::ScrollUp,
        MouseEventKind::ScrollDown => MouseKind::ScrollDown,
        _ => MouseKind::Other,
    };
    Mouse { kind }
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
