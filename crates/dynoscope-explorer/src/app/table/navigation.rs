//! Moving around a table: cursors and pages, columns and panes, opening what is selected, and
//! Esc closing it again. `update::actions` sends these keys here.

use super::derived::{refilter, refresh_columns};
use super::detail::{detail_areas, scroll_detail};
use super::log_pane::{move_log_cursor, show_sent};
use super::walk::follow_related;
use crate::app::explorer::{layout, running_read};
use crate::app::keymap::Action;
use crate::app::layout::{list_rows, table_rows};
use crate::app::msg::{Effect, ReadEffect};
use crate::app::reads::load_more;
use crate::app::state::{Pane, Stale, State};

/// The moving keys: Up/Down/PageUp/PageDown/Top/Bottom, Left/Right, Tab/Shift-Tab, Enter, Esc.
pub(crate) fn navigate(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = pane_rows(state) as isize;
    match action {
        Action::Up => move_cursor(state, -1),
        Action::Down => move_cursor(state, 1),
        Action::PageUp => move_cursor(state, -rows),
        Action::PageDown => move_cursor(state, rows),
        Action::Top => move_cursor(state, isize::MIN / 2),
        Action::Bottom => move_cursor(state, isize::MAX / 2),
        Action::Left | Action::Right => {
            sideways(state, action == Action::Right);
            Vec::new()
        }
        Action::NextPane | Action::PrevPane => {
            cycle_pane(state, action == Action::NextPane);
            Vec::new()
        }
        Action::Open => open(state),
        Action::Back => back(state),
        _ => Vec::new(),
    }
}

/// ←/→: the detail scrolls sideways (unwrapped), the items pane moves a column, and past the
/// first column ← goes back to the collections.
fn sideways(state: &mut State, right: bool) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    // Stops at the last attribute column, so `←` answers at once after many `→`.
    let max = crate::app::columns::max_column_offset(view);
    view.view.column_offset = view.view.column_offset.min(max);
    match (view.view.focus, right) {
        (Pane::Detail, _) if !view.view.detail_wrap => super::detail::scroll_sideways(state, right),
        (Pane::Items, true) => view.view.column_offset = (view.view.column_offset + 1).min(max),
        (Pane::Items, false) if view.view.column_offset > 0 => view.view.column_offset -= 1,
        (Pane::Items, false) => view.view.focus = Pane::Collections,
        (Pane::Collections, true) => view.view.focus = Pane::Items,
        _ => {}
    }
}

/// Tab/Shift-Tab: the next or previous of the panes shown.
fn cycle_pane(state: &mut State, forward: bool) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    use Pane::*;
    let panes: &[Pane] = match (view.view.detail_open, view.view.related.links.is_empty()) {
        (true, false) => &[Collections, Items, Related, Detail, Log],
        (true, true) => &[Collections, Items, Detail, Log],
        (false, _) => &[Collections, Items, Log],
    };
    let at = panes
        .iter()
        .position(|p| *p == view.view.focus)
        .unwrap_or(0);
    let step = if forward { 1 } else { panes.len() - 1 };
    view.view.focus = panes[(at + step) % panes.len()];
}

/// Enter: follows a relation, shows a request as sent, or opens the collection or the item.
fn open(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    match view.view.focus {
        Pane::Related => return follow_related(state),
        Pane::Log => show_sent(state),
        Pane::Collections => view.view.focus = Pane::Items,
        Pane::Items if view.view.selected_item().is_some() => {
            view.view.detail_open = true;
            view.view.detail_scroll = 0;
            view.view.focus = Pane::Detail;
        }
        _ => {}
    }
    Vec::new()
}

/// Esc: close what is open (detail, filter), else cancel the running read.
fn back(state: &mut State) -> Vec<Effect> {
    let running = running_read(state);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.view.focus == Pane::Log {
        view.view.focus = Pane::Collections;
        state.log_pane.cursor = None;
    } else if view.view.detail_open {
        view.view.detail_open = false;
        view.view.focus = Pane::Items;
    } else if !view.view.filter.is_empty() {
        view.view.filter.clear();
        refilter(state);
    } else if let Some(id) = running {
        return vec![Effect::Read(ReadEffect::Cancel(id))];
    } else if view.view.focus == Pane::Items {
        view.view.focus = Pane::Collections;
    } else if let Some(job) = view.export_job.as_mut() {
        // Nothing else to close or stop: Esc offers to cancel the running export or design
        // document, as `x` does (the same y/n prompt; a finished file is never left half).
        job.confirm_cancel = true;
    }
    Vec::new()
}

/// Rows a page moves in the focused pane: its own visible rows.
fn pane_rows(state: &State) -> usize {
    let l = layout(state);
    match state.table.as_ref().map(|v| v.view.focus) {
        Some(Pane::Items) => table_rows(l.main),
        Some(Pane::Detail) => list_rows(detail_areas(state)[1]),
        Some(Pane::Related) => list_rows(detail_areas(state)[0]),
        Some(Pane::Log) => table_rows(l.log),
        _ => list_rows(l.collections).max(list_rows(l.main)),
    }
}

pub(crate) fn move_cursor(state: &mut State, delta: isize) -> Vec<Effect> {
    let l = layout(state);
    let related_rows = list_rows(detail_areas(state)[0]);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let at_end;
    let mut moved_collection = false;
    match view.view.focus {
        Pane::Collections => {
            let before = view.view.collections.cursor;
            let len = view.view.collection_count();
            view.view
                .collections
                .move_by(delta, len, list_rows(l.collections));
            if view.view.collections.cursor != before {
                view.view.items = Default::default();
                view.view.column_offset = 0;
                state.refresh.ask(Stale::Items);
                moved_collection = true;
            }
            at_end = len > 0 && view.view.collections.cursor + 1 == len;
        }
        Pane::Items => {
            let len = view.view.item_count();
            view.view.items.move_by(delta, len, table_rows(l.main));
            at_end = len > 0 && view.view.items.cursor + 1 == len;
        }
        Pane::Related => {
            let len = view.view.related.links.len();
            view.view.related.list.move_by(delta, len, related_rows);
            at_end = false;
        }
        Pane::Detail => {
            scroll_detail(state, delta);
            return Vec::new();
        }
        Pane::Log => {
            move_log_cursor(state, delta);
            return Vec::new();
        }
    }
    if moved_collection {
        refresh_columns(state);
    }
    // Scrolling onto the last row asks for the next page, as a pager would.
    if at_end && delta > 0 {
        return load_more(state, false);
    }
    Vec::new()
}
