//! Marking items: one at a time (`space`, moving down), every listed item (`a`), inverted
//! (`v`), cleared (`u`).

use super::navigation::move_cursor;
use crate::app::keymap::Action;
use crate::app::msg::Effect;
use crate::app::state::{Pane, State};

pub(crate) fn mark_action(state: &mut State, action: Action) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    match action {
        Action::Mark => {
            match view.view.focus {
                // In the collections pane, space marks (or unmarks) the whole collection.
                Pane::Collections => {
                    let Some(c) = view.view.selected_collection() else {
                        return Vec::new();
                    };
                    let Some(store) = view.view.store.as_ref() else {
                        return Vec::new();
                    };
                    let ids = store.collections()[c].items.clone();
                    view.view.marks.toggle_all(&ids);
                }
                // The related list and the request log hold no items to mark.
                Pane::Related | Pane::Log => return Vec::new(),
                Pane::Items | Pane::Detail => {
                    let Some(id) = view.view.selected_item() else {
                        return Vec::new();
                    };
                    view.view.marks.toggle(id);
                    if view.view.focus == Pane::Detail {
                        return Vec::new();
                    }
                }
            }
            return move_cursor(state, 1);
        }
        Action::MarkAll => {
            let ids = view.view.listed_items();
            view.view.marks.toggle_all(&ids);
        }
        Action::InvertMarks => {
            let ids = view.view.listed_items();
            view.view.marks.invert(&ids);
        }
        Action::ClearMarks => view.view.marks.clear(),
        _ => {}
    }
    Vec::new()
}
