//! Moving around a table: panes, cursors, scrolling, the detail view, copying an item.

use super::derived::{refilter, refresh_columns};
use super::detail::{detail_areas, scroll_detail};
use super::distribution::open_distribution;
use super::open::new_scan;
use super::palette::open_palette;
use super::picker::picker_moved;
use super::reads::load_more;
use super::scan::open_launcher;
use super::walk::{follow_related, go_back};
use super::{area, layout};
use super::{quit, running_read};
use crate::app::keymap::Action;
use crate::app::layout::{list_rows, picker_layout, picker_rows, table_rows};
use crate::app::msg::{Effect, ReadEffect, TerminalEffect};
use crate::app::query_form::open_query_form;
use crate::app::state::{JsonMode, Modal, Notice, Pane, Prompt, Screen, Stale, State};
use crate::model::json::append_plain_json;

pub(super) fn table_action(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = pane_rows(state);
    match action {
        Action::Quit => return quit(state),
        Action::Help => state.overlay = Some(crate::app::state::Overlay::Help { scroll: 0 }),
        Action::Up => return move_cursor(state, -1),
        Action::Down => return move_cursor(state, 1),
        Action::PageUp => return move_cursor(state, -(rows as isize)),
        Action::PageDown => return move_cursor(state, rows as isize),
        Action::Top => return move_cursor(state, isize::MIN / 2),
        Action::Bottom => return move_cursor(state, isize::MAX / 2),
        Action::Left | Action::Right => {
            let right = action == Action::Right;
            if let Some(view) = state.table.as_mut() {
                // Stops at the last attribute column, so `←` answers at once after many `→`.
                let max = crate::app::columns::max_column_offset(view);
                view.view.column_offset = view.view.column_offset.min(max);
                match (view.view.focus, right) {
                    (Pane::Detail, _) if !view.view.detail_wrap => {
                        super::detail::scroll_sideways(state, right)
                    }
                    (Pane::Items, true) => {
                        view.view.column_offset = (view.view.column_offset + 1).min(max)
                    }
                    (Pane::Items, false) if view.view.column_offset > 0 => {
                        view.view.column_offset -= 1
                    }
                    (Pane::Items, false) => view.view.focus = Pane::Collections,
                    (Pane::Collections, true) => view.view.focus = Pane::Items,
                    _ => {}
                }
            }
        }
        Action::NextPane | Action::PrevPane => {
            if let Some(view) = state.table.as_mut() {
                use Pane::*;
                let panes: &[Pane] =
                    match (view.view.detail_open, view.view.related.links.is_empty()) {
                        (true, false) => &[Collections, Items, Related, Detail, Log],
                        (true, true) => &[Collections, Items, Detail, Log],
                        (false, _) => &[Collections, Items, Log],
                    };
                let at = panes
                    .iter()
                    .position(|p| *p == view.view.focus)
                    .unwrap_or(0);
                let step = if action == Action::NextPane {
                    1
                } else {
                    panes.len() - 1
                };
                view.view.focus = panes[(at + step) % panes.len()];
            }
        }
        Action::Open => {
            if let Some(view) = state.table.as_mut() {
                match view.view.focus {
                    Pane::Related => return follow_related(state),
                    Pane::Log => super::log_pane::show_sent(state),
                    Pane::Collections => view.view.focus = Pane::Items,
                    Pane::Items if view.view.selected_item().is_some() => {
                        view.view.detail_open = true;
                        view.view.detail_scroll = 0;
                        view.view.focus = Pane::Detail;
                    }
                    _ => {}
                }
            }
        }
        Action::Back => return back(state),
        Action::Filter => {
            if let Some(view) = state.table.as_mut() {
                view.modal = Some(Modal::FilterPrompt(Prompt {
                    text: view.view.filter.clone(),
                    error: None,
                }));
            }
        }
        Action::Copy => return copy(state),
        Action::ToggleJson => {
            if let Some(view) = state.table.as_mut() {
                view.view.json_mode = match view.view.json_mode {
                    JsonMode::Plain => JsonMode::Dynamo,
                    JsonMode::Dynamo => JsonMode::Plain,
                };
            }
        }
        Action::LoadMore => return load_more(state, false),
        Action::LoadAll => return load_more(state, true),
        Action::QueryPk => {
            if let Some(view) = state.table.as_mut() {
                view.modal = Some(Modal::PkPrompt(Prompt::default()));
            }
        }
        Action::ChooseIndex => return super::index_chooser::open_chooser(state),
        Action::QueryBuilder => return open_query_form(state),
        Action::Patterns => return open_palette(state),
        Action::ScanLauncher => return open_launcher(state),
        Action::KeyDistribution => return open_distribution(state),
        Action::Live => return super::live::open_live(state),
        Action::Metrics => return super::metrics::open_metrics(state),
        Action::Insights => return super::insights::open_with_insights(state),
        Action::Rescan => return new_scan(state),
        Action::NavBack => return go_back(state),
        Action::CollectionOrder => super::walk::cycle_order(state),
        Action::ToggleWrap => return super::detail::toggle_wrap(state),
        Action::SwitchRegion => {
            return super::session::open_switcher(state, crate::app::state::SwitchKind::Region)
        }
        Action::SwitchProfile => {
            return super::session::open_switcher(state, crate::app::state::SwitchKind::Profile)
        }
        Action::LogTaller | Action::LogShorter => {
            super::log_pane::resize_log(state, action == Action::LogTaller);
            super::derived::keep_cursors_visible(state);
        }
        Action::Mark | Action::MarkAll | Action::InvertMarks | Action::ClearMarks => {
            return super::marks::mark_action(state, action)
        }
        Action::Export => return super::export::open_export(state),
        Action::Edit | Action::EditDynamo | Action::NewItem | Action::Delete | Action::Undo => {
            return super::writes::write_action(state, action)
        }
        Action::Tables => {
            let mut effects: Vec<Effect> = running_read(state)
                .map(|x| Effect::Read(ReadEffect::Cancel(x)))
                .into_iter()
                .collect();
            let left = state.table.take().map(|v| v.name);
            effects.extend(super::picker::return_to_picker(state, left));
            return effects;
        }
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

pub(super) fn move_cursor(state: &mut State, delta: isize) -> Vec<Effect> {
    if state.screen == Screen::Picker {
        let rows = picker_rows(picker_layout(area(state)).list);
        let len = state.picker.visible().len();
        state.picker.list.move_by(delta, len, rows);
        return picker_moved(state);
    }
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
            super::log_pane::move_log_cursor(state, delta);
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

fn copy(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    if let (Some(store), false) = (view.view.store.as_ref(), view.view.marks.is_empty()) {
        // Marked items go out as one JSON array, in the order the views list them.
        let mut json = String::from("[");
        let ids = view.view.marks.in_view_order(store);
        for (i, &id) in ids.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            append_plain_json(&mut json, &store.item(id));
        }
        json.push(']');
        state.notice = Some(Notice {
            text: format!(
                "copied {} marked items as a JSON array ({} bytes) to the clipboard",
                ids.len(),
                json.len()
            ),
            error: false,
        });
        return vec![Effect::Terminal(TerminalEffect::Copy(json))];
    }
    let (Some(store), Some(id)) = (view.view.store.as_ref(), view.view.selected_item()) else {
        return Vec::new();
    };
    let mut json = String::new();
    append_plain_json(&mut json, &store.item(id));
    state.notice = Some(Notice {
        text: format!(
            "copied the item as JSON ({} bytes) to the clipboard",
            json.len()
        ),
        error: false,
    });
    vec![Effect::Terminal(TerminalEffect::Copy(json))]
}
