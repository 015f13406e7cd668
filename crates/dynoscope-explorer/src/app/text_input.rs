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

/// Pasted text as a field takes it. In a one-line field each line break (`\r\n`, `\n` or
/// `\r`) and tab becomes one space, so pasted words stay apart and nothing can submit; a
/// multi-line field (the PartiQL statement) keeps its line breaks, as `\n`. Every other control
/// character (an escape sequence's ESC, a NUL) is dropped.
pub fn pasted(text: &str, multi_line: bool) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    text.chars()
        .filter_map(|c| match c {
            '\n' if multi_line => Some('\n'),
            '\n' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Pasted text into a one-line prompt (the filter, the picker's, a path).
pub fn paste_line(text: &mut String, pasted_text: &str) {
    text.push_str(&pasted(pasted_text, false));
}

/// Pasted text into a form's field at its cursor; whether the text changed.
pub fn paste_area(
    area: &mut ratatui_textarea::TextArea<'static>,
    text: &str,
    multi_line: bool,
) -> bool {
    area.insert_str(pasted(text, multi_line))
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
        paste_line(&mut text, "b\x1b[31m\nc\r\nd\te\0");
        assert_eq!(text, "ab[31m c d e");
        assert_eq!(
            pasted("SELECT *\r\nFROM t\rWHERE\x1b", true),
            "SELECT *\nFROM t\nWHERE"
        );
    }
}
