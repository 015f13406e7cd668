//! The one-line prompts: filter the loaded items, query a partition key, and the new budget
//! a budget-stopped scan asks for before it resumes. All edit text through
//! [`crate::app::text_input`].

use crossterm::event::KeyEvent;

use super::filter::refilter;
use super::open::submit_pk;
use super::reads::continue_read;
use crate::app::msg::Effect;
use crate::app::state::{Screen, State};
use crate::app::text_input::{edit_line, paste_line, LineEdit};
use crate::model::limits;

/// The filter or partition-key prompt takes every key while it is open; `None` when neither is.
pub(super) fn prompt_key(state: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let view = state
        .table
        .as_mut()
        .filter(|_| state.screen == Screen::Table)?;
    if let Some(prompt) = view.filter_prompt.as_mut() {
        // The filter applies as it is typed; Esc also clears it, Enter keeps it.
        match edit_line(&mut prompt.text, &key) {
            LineEdit::Edited => view.filter = prompt.text.clone(),
            LineEdit::Submitted => view.filter_prompt = None,
            LineEdit::Cancelled => {
                view.filter_prompt = None;
                view.filter.clear();
            }
            LineEdit::Other => return Some(Vec::new()),
        }
        refilter(state);
        return Some(Vec::new());
    }
    let prompt = view.pk_prompt.as_mut()?;
    match edit_line(&mut prompt.text, &key) {
        LineEdit::Edited => prompt.error = None,
        LineEdit::Submitted => {
            let pk = prompt.text.clone();
            return Some(submit_pk(state, pk));
        }
        LineEdit::Cancelled => view.pk_prompt = None,
        LineEdit::Other => {}
    }
    Some(Vec::new())
}

/// Pasted text goes to whichever one-line field is open.
pub(super) fn paste(state: &mut State, text: &str) {
    if state.screen == Screen::Picker {
        if std::mem::take(&mut state.picker.filter_selected) {
            state.picker.filter.clear();
        }
        paste_line(&mut state.picker.filter, text);
        state.picker.list = Default::default();
        return;
    }
    let Some(view) = state.table.as_mut() else {
        return;
    };
    if super::export::paste(view, text) {
        return;
    }
    if let Some(p) = view.filter_prompt.as_mut() {
        paste_line(&mut p.text, text);
        view.filter = p.text.clone();
        refilter(state);
    } else if let Some(p) = view.pk_prompt.as_mut() {
        paste_line(&mut p.text, text);
        p.error = None;
    } else if let Some(p) = view.budget_prompt.as_mut() {
        paste_line(&mut p.text, text);
        p.error = None;
    }
}

/// The resume prompt of a budgeted read: Enter resumes with the typed budget, Esc keeps it
/// stopped. `None` when the prompt is not open.
pub(super) fn budget_prompt_key(state: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let view = state.table.as_mut()?;
    let prompt = view.budget_prompt.as_mut()?;
    match edit_line(&mut prompt.text, &key) {
        LineEdit::Edited => prompt.error = None,
        LineEdit::Cancelled => view.budget_prompt = None,
        LineEdit::Submitted => {
            let text = prompt.text.trim().to_string();
            match limits::MAX_RCU.parse(&text) {
                Ok(budget) => {
                    view.budget_prompt = None;
                    return Some(continue_read(state, true, Some(budget)));
                }
                Err(why) => prompt.error = Some(format!("max RCU '{text}': {why}")),
            }
        }
        LineEdit::Other => {}
    }
    Some(Vec::new())
}
