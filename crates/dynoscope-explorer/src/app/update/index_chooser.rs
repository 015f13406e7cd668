//! The index chooser (`i`): pick the table or one of its indexes, seeing each one's keys,
//! projection, size and first-page cost; only Enter reads.

use crate::app::input::{Key, KeyCode};

use super::open::new_scan;
use crate::app::keymap::Action;
use crate::app::msg::Effect;
use crate::app::state::{IndexChooser, Modal, State};

pub(super) fn open_chooser(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = view.info.loaded() else {
        return Vec::new();
    };
    let cursor = info.target_position(view.view.index.as_deref());
    let chooser = IndexChooser::open(cursor, info, view.view.store.as_ref());
    view.modal = Some(Modal::IndexChooser(chooser));
    Vec::new()
}

/// `↑`/`↓` (and the keymap's moves) choose, Enter opens the chosen target, Esc closes.
pub(super) fn chooser_key(state: &mut State, key: Key) -> Vec<Effect> {
    let action = state.keymap.action(&key);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(chooser), Some(info)) = (
        view.modal.as_mut().and_then(Modal::index_chooser_mut),
        view.info.loaded(),
    ) else {
        return Vec::new();
    };
    let last = info.indexes.len();
    match (key.code, action) {
        (KeyCode::Esc, _) | (_, Some(Action::Back)) => view.modal = None,
        (KeyCode::Enter, _) | (_, Some(Action::Open)) => {
            let chosen = chooser
                .cursor
                .checked_sub(1)
                .and_then(|i| info.indexes.get(i))
                .map(|i| i.name.clone());
            view.modal = None;
            // The target already shown is not read again: Enter on it costs nothing.
            if chosen != view.view.index {
                view.view.index = chosen;
                return new_scan(state);
            }
        }
        (KeyCode::Up, _) | (_, Some(Action::Up)) => {
            chooser.cursor = chooser.cursor.saturating_sub(1)
        }
        (KeyCode::Down, _) | (_, Some(Action::Down)) => {
            chooser.cursor = (chooser.cursor + 1).min(last)
        }
        (KeyCode::Home, _) | (_, Some(Action::Top)) | (_, Some(Action::PageUp)) => {
            chooser.cursor = 0
        }
        (KeyCode::End, _) | (_, Some(Action::Bottom)) | (_, Some(Action::PageDown)) => {
            chooser.cursor = last
        }
        _ => {}
    }
    Vec::new()
}

#[cfg(test)]
#[path = "index_chooser_tests.rs"]
mod tests;
