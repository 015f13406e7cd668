//! The item detail's extent: its related list and JSON areas, how many rows the JSON takes
//! (wrapped or not) and how wide it is, so scrolling stops at the last row drawn.

use ratatui::layout::Rect;

use crate::app::explorer::layout;
use crate::app::keymap::Action;
use crate::app::layout::{list_rows, split_progress, split_related};
use crate::app::msg::Effect;
use crate::app::state::{JsonMode, Notice, OpenTable, Pane, State};
use crate::model::formats::json::{line_text, pretty_lines, JsonSpelling};
use crate::model::text::sanitize::display_width;
use crate::model::text::wrap::row_count;

/// Columns `←`/`→` scroll an unwrapped detail by.
const SIDEWAYS_STEP: usize = 8;

/// The item detail's related list and JSON: the main pane below a scan's progress panel.
pub(super) fn detail_areas(state: &State) -> [Rect; 2] {
    let main = layout(state).main;
    let Some(view) = state.table.as_ref() else {
        return [main, main];
    };
    let area = match view.view.progress.as_ref() {
        Some(progress) => split_progress(main, progress.segments.len())[1],
        None => main,
    };
    split_related(area, view.view.related.links.len())
}

fn spelling(mode: JsonMode) -> JsonSpelling {
    match mode {
        JsonMode::Plain => JsonSpelling::Plain,
        JsonMode::Dynamo => JsonSpelling::Dynamo,
    }
}

/// Rows the selected item's JSON takes at `width` columns, and its widest line.
pub(super) fn detail_extent(view: &OpenTable, width: usize) -> (usize, usize) {
    let (Some(store), Some(id)) = (view.view.store.as_ref(), view.view.selected_item()) else {
        return (0, 0);
    };
    let lines = pretty_lines(&store.item(id), spelling(view.view.json_mode));
    let texts: Vec<String> = lines.iter().map(line_text).collect();
    let widest = texts.iter().map(|t| display_width(t)).max().unwrap_or(0);
    let rows = if view.view.detail_wrap {
        texts.iter().map(|t| row_count(t, width)).sum()
    } else {
        texts.len()
    };
    (rows, widest)
}

/// Scrolls the detail by `delta` rows, stopping at its last row.
pub(super) fn scroll_detail(state: &mut State, delta: isize) {
    let json = detail_areas(state)[1];
    let (rows, width) = (list_rows(json), json.width.saturating_sub(2) as usize);
    let Some(view) = state.table.as_mut() else {
        return;
    };
    // Clamped to the item's rows: `G` pressed twice overflowed, and after one `G` the scroll
    // sat far past the end, so `↑` changed nothing visible.
    let (total, _) = detail_extent(view, width);
    let max = total.saturating_sub(rows) as isize;
    let from = view.view.detail_scroll.min(max as usize) as isize;
    view.view.detail_scroll = from.saturating_add(delta).clamp(0, max) as usize;
}

/// `←`/`→` in an unwrapped detail: sideways, up to where the widest line ends.
pub(super) fn scroll_sideways(state: &mut State, right: bool) {
    let width = detail_areas(state)[1].width.saturating_sub(2) as usize;
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let (_, widest) = detail_extent(view, width);
    let max = widest.saturating_sub(width);
    view.view.detail_hscroll = if right {
        (view.view.detail_hscroll + SIDEWAYS_STEP).min(max)
    } else {
        view.view.detail_hscroll.saturating_sub(SIDEWAYS_STEP)
    };
}

/// `w`: wrap long lines, or scroll them sideways.
pub(super) fn toggle_wrap(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    view.view.detail_wrap = !view.view.detail_wrap;
    view.view.detail_hscroll = 0;
    let wrap = view.view.detail_wrap;
    if view.view.focus != Pane::Detail && view.view.focus != Pane::Related {
        state.notice = Some(Notice {
            text: format!(
                "item detail: {}",
                if wrap {
                    "long lines wrap"
                } else {
                    "←/→ scroll long lines"
                }
            ),
            error: false,
        });
    }
    // The same place, counted in the new rows.
    scroll_detail(state, 0);
    Vec::new()
}

/// `t` switches the detail's JSON spelling, `w` its wrapping.
pub(crate) fn view_action(state: &mut State, action: Action) -> Vec<Effect> {
    if action == Action::ToggleWrap {
        return toggle_wrap(state);
    }
    if let Some(view) = state.table.as_mut() {
        view.view.json_mode = match view.view.json_mode {
            JsonMode::Plain => JsonMode::Dynamo,
            JsonMode::Dynamo => JsonMode::Plain,
        };
    }
    Vec::new()
}
