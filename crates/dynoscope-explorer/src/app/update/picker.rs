//! The table picker: filter as you type, describe the highlighted table, open one.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::open::open_table;
use crate::app::explorer::{area, open_help, quit, running_read};
use crate::app::layout::{picker_layout, picker_rows};
use crate::app::msg::{Effect, ReadEffect, TableEffect};
use crate::app::state::{Loadable, State};
use crate::app::text_input::{edit_line, LineEdit};

pub(super) fn picker_key(state: &mut State, key: Key) -> Vec<Effect> {
    // A selected filter is replaced by what is typed, and cleared by Backspace.
    if std::mem::take(&mut state.picker.filter_selected) {
        let typing =
            matches!(key.code, KeyCode::Char(_)) && !key.modifiers.contains(Modifiers::CONTROL);
        if typing || key.code == KeyCode::Backspace {
            state.picker.filter.clear();
            if key.code == KeyCode::Backspace {
                state.picker.list = Default::default();
                return picker_moved(state);
            }
        }
    }
    let rows = picker_rows(picker_layout(area(state)).list);
    let len = state.picker.visible().len();
    let delta: isize = match key.code {
        KeyCode::Up => -1,
        KeyCode::Down => 1,
        KeyCode::PageUp => -(rows as isize),
        KeyCode::PageDown => rows as isize,
        KeyCode::Home => -(len as isize),
        KeyCode::End => len as isize,
        KeyCode::Enter => {
            return match state.picker.highlighted() {
                Some(table) => open_table(state, table),
                None => Vec::new(),
            };
        }
        KeyCode::Esc if state.picker.filter.is_empty() => return quit(state),
        KeyCode::Char('?') => return open_help(state),
        _ => {
            // Everything else edits the filter; Esc clears it.
            match edit_line(&mut state.picker.filter, &key) {
                LineEdit::Cancelled => state.picker.filter.clear(),
                LineEdit::Edited => {}
                LineEdit::Submitted | LineEdit::Other => return Vec::new(),
            }
            state.picker.list = Default::default();
            return picker_moved(state);
        }
    };
    state.picker.list.move_by(delta, len, rows);
    picker_moved(state)
}

/// `T`: back to the picker with its filter selected (typing replaces it) and the cursor on the
/// table just left.
pub(super) fn return_to_picker(state: &mut State, left: Option<String>) -> Vec<Effect> {
    state.screen = crate::app::state::Screen::Picker;
    state.picker.filter_selected = !state.picker.filter.is_empty();
    let mut effects = Vec::new();
    if state.picker.tables.is_none() {
        state.picker.tables = Some(Loadable::Loading);
        effects.push(Effect::Tables(TableEffect::List));
    }
    let rows = picker_rows(picker_layout(area(state)).list);
    let visible = state.picker.visible();
    let len = visible.len();
    let at = left.and_then(|name| visible.iter().position(|t| *t == name));
    state.picker.list.jump(at.unwrap_or(0), len, rows);
    effects.extend(picker_moved(state));
    effects
}

/// The mouse wheel over the picker's list.
pub(super) fn scroll(state: &mut State, delta: isize) -> Vec<Effect> {
    let rows = picker_rows(picker_layout(area(state)).list);
    let len = state.picker.visible().len();
    state.picker.list.move_by(delta, len, rows);
    picker_moved(state)
}

/// Describes the highlighted table once, so its summary shows without a keypress.
pub(super) fn picker_moved(state: &mut State) -> Vec<Effect> {
    let Some(table) = state.picker.highlighted() else {
        return Vec::new();
    };
    if state.picker.describes.contains_key(&table) {
        return Vec::new();
    }
    state
        .picker
        .describes
        .insert(table.clone(), Loadable::Loading);
    vec![Effect::Tables(TableEffect::Describe(table))]
}

/// `T`: back to the table picker, cancelling the table's running read.
pub(super) fn leave_table(state: &mut State) -> Vec<Effect> {
    let mut effects: Vec<Effect> = running_read(state)
        .map(|x| Effect::Read(ReadEffect::Cancel(x)))
        .into_iter()
        .collect();
    let left = state.table.take().map(|v| v.name);
    effects.extend(return_to_picker(state, left));
    effects
}
