//! Keys while the help is shown: the scrolling ones scroll it, any other closes it.

use crate::app::input::Key;

use crate::app::explorer::area;
use crate::app::help::help_lines;
use crate::app::layout::{help_popup, list_rows};
use crate::app::msg::Effect;
use crate::app::state::{Overlay, State};

pub(super) fn help_key(state: &mut State, key: Key) -> Vec<Effect> {
    let popup = help_popup(area(state));
    let rows = list_rows(popup);
    let lines = help_lines(&state.keymap, popup.width.saturating_sub(2) as usize).len();
    let max = lines.saturating_sub(rows);
    let page = rows.max(1);
    let from = state.help_scroll().unwrap_or(0).min(max);
    let action = state.keymap.action(&key);
    let Some(to) = crate::app::scroll::scrolled(key.code, action, from, page, max) else {
        state.overlay = None;
        return Vec::new();
    };
    state.overlay = Some(Overlay::Help { scroll: to });
    Vec::new()
}
