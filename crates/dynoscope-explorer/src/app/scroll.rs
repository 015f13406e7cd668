//! The keys that scroll a popup of text (help, the request as sent): one table, so every
//! popup scrolls alike.

use crate::app::input::KeyCode;

use crate::app::keymap::Action;

/// The popup's new first row for this key, at most `max`; `None` when the key does not
/// scroll (the popups close on any other key).
pub(crate) fn scrolled(
    code: KeyCode,
    action: Option<Action>,
    from: usize,
    page: usize,
    max: usize,
) -> Option<usize> {
    let to = match (code, action) {
        (KeyCode::Up, _) | (_, Some(Action::Up)) => from.saturating_sub(1),
        (KeyCode::Down, _) | (_, Some(Action::Down)) => from + 1,
        (KeyCode::PageUp, _) | (_, Some(Action::PageUp)) => from.saturating_sub(page),
        (KeyCode::PageDown, _) | (_, Some(Action::PageDown)) => from + page,
        (KeyCode::Home, _) | (_, Some(Action::Top)) => 0,
        (KeyCode::End, _) | (_, Some(Action::Bottom)) => max,
        _ => return None,
    };
    Some(to.min(max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scroll_keys_stay_within_the_text_and_others_do_not_scroll() {
        assert_eq!(scrolled(KeyCode::Down, None, 9, 5, 10), Some(10));
        assert_eq!(scrolled(KeyCode::Down, None, 10, 5, 10), Some(10));
        assert_eq!(scrolled(KeyCode::PageDown, None, 8, 5, 10), Some(10));
        assert_eq!(scrolled(KeyCode::PageUp, None, 3, 5, 10), Some(0));
        assert_eq!(scrolled(KeyCode::End, None, 0, 5, 10), Some(10));
        assert_eq!(scrolled(KeyCode::Char('x'), None, 3, 5, 10), None);
        assert_eq!(
            scrolled(KeyCode::Char('j'), Some(Action::Down), 3, 5, 10),
            Some(4)
        );
    }
}
