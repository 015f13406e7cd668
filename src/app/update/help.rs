//! Keys while the help is shown: the scrolling ones scroll it, any other closes it.

use crossterm::event::{KeyCode, KeyEvent};

use super::area;
use crate::app::help::help_lines;
use crate::app::keymap::Action;
use crate::app::layout::{help_popup, list_rows};
use crate::app::msg::Effect;
use crate::app::state::State;

pub(super) fn help_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let popup = help_popup(area(state));
    let rows = list_rows(popup);
    let lines = help_lines(&state.keymap, popup.width.saturating_sub(2) as usize).len();
    let max = lines.saturating_sub(rows);
    let page = rows.max(1);
    let from = state.help_scroll.min(max);
    let to = match (key.code, state.keymap.action(&key)) {
        (KeyCode::Up, _) | (_, Some(Action::Up)) => from.saturating_sub(1),
        (KeyCode::Down, _) | (_, Some(Action::Down)) => from + 1,
        (KeyCode::PageUp, _) | (_, Some(Action::PageUp)) => from.saturating_sub(page),
        (KeyCode::PageDown, _) | (_, Some(Action::PageDown)) => from + page,
        (KeyCode::Home, _) | (_, Some(Action::Top)) => 0,
        (KeyCode::End, _) | (_, Some(Action::Bottom)) => max,
        _ => {
            state.show_help = false;
            state.help_scroll = 0;
            return Vec::new();
        }
    };
    state.help_scroll = to.min(max);
    Vec::new()
}
