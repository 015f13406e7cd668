//! The request log pane: `+`/`-` resize it, a cursor over its rows when it has the focus, and
//! Enter shows the selected request exactly as it was sent.

use crate::app::input::Key;

use crate::app::explorer::area;
use crate::app::keymap::Action;
use crate::app::layout::log_height;
use crate::app::msg::Effect;
use crate::app::sent_view::{sent_lines, sent_popup, sent_rows};
use crate::app::state::{Notice, Overlay, State};

/// `+`/`-`: from whatever height the log has now, one row taller or shorter; it then keeps
/// that height.
pub(crate) fn resize_log(state: &mut State, taller: bool) {
    let height = area(state).height;
    let now = log_height(state.log.len(), state.log_pane.height, height);
    let wanted = if taller {
        now.saturating_add(1)
    } else {
        now.saturating_sub(1)
    };
    // Clamped where it is used, to the terminal's height then.
    state.log_pane.height = Some(wanted);
}

/// Moves the log's cursor; it starts on the newest row.
pub(crate) fn move_log_cursor(state: &mut State, delta: isize) {
    let len = state.log.len();
    if len == 0 {
        state.log_pane.cursor = None;
        return;
    }
    let from = state.log_pane.cursor.unwrap_or(len - 1).min(len - 1) as isize;
    state.log_pane.cursor = Some(from.saturating_add(delta).clamp(0, len as isize - 1) as usize);
}

/// Enter on a row: its request as sent.
pub(crate) fn show_sent(state: &mut State) {
    let Some(row) = state
        .log_pane
        .cursor
        .or_else(|| state.log.len().checked_sub(1))
        .and_then(|i| state.log.get(i))
        .cloned()
    else {
        state.notice = Some(Notice {
            text: "no request yet".into(),
            error: false,
        });
        return;
    };
    state.overlay = Some(Overlay::Sent {
        row: Box::new(row),
        scroll: 0,
    });
}

/// In the "as sent" view the scrolling keys scroll it; any other key closes it.
pub(crate) fn sent_key(state: &mut State, key: &Key) -> Option<Vec<Effect>> {
    let (row, from) = state.sent()?;
    let popup = sent_popup(area(state));
    let rows = sent_rows(popup);
    let lines = sent_lines(row, popup.width.saturating_sub(2) as usize).len();
    let max = lines.saturating_sub(rows);
    let page = rows.max(1);
    let from = from.min(max);
    let action = state.keymap.action(key);
    let Some(to) = crate::app::scroll::scrolled(key.code, action, from, page, max) else {
        state.overlay = None;
        return Some(Vec::new());
    };
    if let Some(Overlay::Sent { scroll, .. }) = &mut state.overlay {
        *scroll = to;
    }
    Some(Vec::new())
}

/// `+`/`-`: the request log taller or shorter, the other panes' cursors kept on screen.
pub(crate) fn resize_action(state: &mut State, action: Action) -> Vec<Effect> {
    resize_log(state, action == Action::LogTaller);
    super::derived::keep_cursors_visible(state);
    Vec::new()
}
