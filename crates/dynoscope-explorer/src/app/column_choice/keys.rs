//! `C` and the column chooser's keys: ↑/↓ choose, Space shows or hides, `[`/`]` (or
//! Shift-↑/↓) move a column left or right, Enter applies and saves, Esc leaves everything as
//! it was; the last entry goes back to the automatic columns. And the answers of the file the
//! choices live in.

use std::collections::HashMap;

use super::{ColumnChoice, ColumnChooser, ColumnScope};
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::keymap::Action;
use crate::app::msg::{Effect, FileEffect};
use crate::app::state::{Modal, Notice, Stale, State};
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::count;

/// `C`: the chooser over what the items pane lists.
pub fn open(state: &mut State) -> Vec<Effect> {
    let endpoint = state.endpoint.clone();
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(store) = view.view.store.as_ref().filter(|s| !s.is_empty()) else {
        state.notice = Some(Notice {
            text: "no items loaded yet: the column chooser lists the loaded items' attributes"
                .into(),
            error: false,
        });
        return Vec::new();
    };
    let scope = super::view_scope(&endpoint, &view.name, &view.view);
    let choice = state.column_choices.for_scope(&scope);
    let chooser = ColumnChooser::new(scope, store, &view.view.columns, choice);
    view.modal = Some(Modal::Columns(chooser));
    Vec::new()
}

pub fn chooser_key(state: &mut State, key: Key) -> Vec<Effect> {
    let action = state.keymap.action(&key);
    let Some(chooser) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut())
        .and_then(Modal::columns_mut)
    else {
        return Vec::new();
    };
    let last = chooser.rows.len();
    let page = 10;
    let shift = key.modifiers.contains(Modifiers::SHIFT);
    match (key.code, action) {
        (KeyCode::Esc, _) | (_, Some(Action::Back)) => close(state),
        (KeyCode::Enter, _) | (KeyCode::Char(' '), _) if chooser.on_reset() => return reset(state),
        (KeyCode::Enter, _) => return save(state),
        (KeyCode::Char(' '), _) => {
            if let Some(row) = chooser.rows.get_mut(chooser.cursor) {
                row.shown = !row.shown;
            }
        }
        (KeyCode::Char('['), _) | (KeyCode::Up, _) if key.code != KeyCode::Up || shift => {
            chooser.move_row(-1)
        }
        (KeyCode::Char(']'), _) | (KeyCode::Down, _) if key.code != KeyCode::Down || shift => {
            chooser.move_row(1)
        }
        (KeyCode::Up, _) | (_, Some(Action::Up)) => {
            chooser.cursor = chooser.cursor.saturating_sub(1)
        }
        (KeyCode::Down, _) | (_, Some(Action::Down)) => {
            chooser.cursor = (chooser.cursor + 1).min(last)
        }
        (KeyCode::PageUp, _) | (_, Some(Action::PageUp)) => {
            chooser.cursor = chooser.cursor.saturating_sub(page)
        }
        (KeyCode::PageDown, _) | (_, Some(Action::PageDown)) => {
            chooser.cursor = (chooser.cursor + page).min(last)
        }
        (KeyCode::Home, _) | (_, Some(Action::Top)) => chooser.cursor = 0,
        (KeyCode::End, _) | (_, Some(Action::Bottom)) => chooser.cursor = last,
        _ => {}
    }
    Vec::new()
}

fn close(state: &mut State) {
    if let Some(view) = state.table.as_mut() {
        view.modal = None;
    }
}

/// Takes the open chooser out of the table.
fn take(state: &mut State) -> Option<ColumnChooser> {
    let view = state.table.as_mut()?;
    match view.modal.take_if(|m| matches!(m, Modal::Columns(_)))? {
        Modal::Columns(chooser) => Some(chooser),
        _ => None,
    }
}

/// Enter: the chooser's order and hidden columns, applied and saved.
fn save(state: &mut State) -> Vec<Effect> {
    let Some(chooser) = take(state) else {
        return Vec::new();
    };
    let choice = chooser.choice();
    let shown = chooser.rows.iter().filter(|r| r.shown).count();
    // An attribute a part column shows is not one the user hid.
    let hidden = chooser
        .rows
        .iter()
        .filter(|r| !r.shown && !r.in_part)
        .count();
    state.notice = Some(Notice {
        text: format!(
            "columns of {}: {} shown, {hidden} hidden; saved for the next start (C changes them, its last entry goes back to automatic)",
            scope_words(&chooser.scope),
            count(shown as u64, "attribute"),
        ),
        error: false,
    });
    changed(state, chooser.scope, Some(choice))
}

/// The last entry: the scope's choice forgotten, here and in the file.
fn reset(state: &mut State) -> Vec<Effect> {
    let Some(chooser) = take(state) else {
        return Vec::new();
    };
    state.notice = Some(Notice {
        text: format!(
            "columns of {}: automatic again",
            scope_words(&chooser.scope)
        ),
        error: false,
    });
    changed(state, chooser.scope, None)
}

fn changed(state: &mut State, scope: ColumnScope, choice: Option<ColumnChoice>) -> Vec<Effect> {
    match &choice {
        Some(choice) => {
            state
                .column_choices
                .book
                .insert(scope.clone(), choice.clone());
        }
        None => {
            state.column_choices.book.remove(&scope);
        }
    }
    if let Some(view) = state.table.as_mut() {
        view.view.column_offset = 0;
    }
    state.refresh.ask(Stale::Columns);
    vec![Effect::Files(FileEffect::SaveColumns { scope, choice })]
}

/// `app`, `app (GSI1)`, `app · kind ORDER`, sanitised for the status line.
fn scope_words(scope: &ColumnScope) -> String {
    let mut words = scope.table.clone();
    if let Some(index) = &scope.index {
        words.push_str(&format!(" ({index})"));
    }
    if let Some(kind) = &scope.kind {
        words.push_str(&format!(" · kind {kind}"));
    }
    sanitize(&words).into_owned()
}

/// The choices file was read: its choices apply from now on (a choice made before it was
/// read stays); a file that could not be read is one warning line, and automatic columns.
pub fn loaded(state: &mut State, result: Result<HashMap<ColumnScope, ColumnChoice>, String>) {
    state.column_choices.loaded = true;
    match result {
        Ok(book) => {
            for (scope, choice) in book {
                state.column_choices.book.entry(scope).or_insert(choice);
            }
            state.refresh.ask(Stale::Columns);
        }
        Err(why) => {
            state.notice = Some(Notice {
                text: sanitize(&why).into_owned(),
                error: true,
            })
        }
    }
}

/// A choice could not be written: it holds until the explorer quits.
pub fn not_saved(state: &mut State, why: String) {
    state.notice = Some(Notice {
        text: sanitize(&why).into_owned(),
        error: true,
    });
}
