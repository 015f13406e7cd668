//! One-line text fields (the filter, the partition-key and budget prompts, the picker's
//! filter): the keys they take, in one place.

use crate::app::input::{Key, KeyCode, Modifiers};

/// What a key did to a one-line field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEdit {
    /// The text changed.
    Edited,
    /// Enter.
    Submitted,
    /// Esc.
    Cancelled,
    /// Not a key for a text field (arrows, control keys); the caller may use it.
    Other,
}

/// Applies `key` to `text`: printable characters append, Backspace deletes the last one.
pub fn edit_line(text: &mut String, key: &Key) -> LineEdit {
    match key.code {
        KeyCode::Enter => LineEdit::Submitted,
        KeyCode::Esc => LineEdit::Cancelled,
        KeyCode::Backspace => {
            text.pop();
            LineEdit::Edited
        }
        KeyCode::Char(c) if !key.modifiers.contains(Modifiers::CONTROL) => {
            text.push(c);
            LineEdit::Edited
        }
        _ => LineEdit::Other,
    }
}

/// Pasted text as a one-line field takes it: control characters (newlines, escapes) dropped.
pub fn paste_line(text: &mut String, pasted: &str) {
    text.extend(pasted.chars().filter(|c| !c.is_control()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> Key {
        Key::new(code, Modifiers::NONE)
    }

    #[test]
    fn typing_deleting_submitting_and_cancelling() {
        let mut text = String::from("ab");
        assert_eq!(
            edit_line(&mut text, &key(KeyCode::Char('c'))),
            LineEdit::Edited
        );
        assert_eq!(
            edit_line(&mut text, &key(KeyCode::Backspace)),
            LineEdit::Edited
        );
        assert_eq!(
            edit_line(&mut text, &key(KeyCode::Backspace)),
            LineEdit::Edited
        );
        assert_eq!(text, "a");
        let ctrl_u = Key::new(KeyCode::Char('u'), Modifiers::CONTROL);
        assert_eq!(edit_line(&mut text, &ctrl_u), LineEdit::Other);
        assert_eq!(edit_line(&mut text, &key(KeyCode::Up)), LineEdit::Other);
        assert_eq!(
            edit_line(&mut text, &key(KeyCode::Enter)),
            LineEdit::Submitted
        );
        assert_eq!(
            edit_line(&mut text, &key(KeyCode::Esc)),
            LineEdit::Cancelled
        );
        assert_eq!(text, "a");
        paste_line(&mut text, "b\x1b[31m\nc");
        assert_eq!(text, "ab[31mc");
    }
}
