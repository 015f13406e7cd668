//! The one-line prompts: filter the loaded items, query a partition key, and the new budget
//! a budget-stopped scan asks for before it resumes. All edit text through
//! [`crate::app::text_input`].

use crate::app::input::Key;

use super::derived::refilter;
use super::open::submit_pk;
use super::reads::continue_read;
use crate::app::msg::Effect;
use crate::app::state::{Modal, Screen, State};
use crate::app::text_input::{edit_line, paste_line, LineEdit};
use crate::model::limits;

/// Keys for the filter or partition-key prompt (the open [`Modal`]); `None` when neither is.
pub(super) fn prompt_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    let view = state
        .table
        .as_mut()
        .filter(|_| state.screen == Screen::Table)?;
    if let Some(Modal::FilterPrompt(prompt)) = view.modal.as_mut() {
        // The filter applies as it is typed; Esc also clears it, Enter keeps it.
        match edit_line(&mut prompt.text, &key) {
            LineEdit::Edited => view.view.filter = prompt.text.clone(),
            LineEdit::Submitted => view.modal = None,
            LineEdit::Cancelled => {
                view.modal = None;
                view.view.filter.clear();
            }
            LineEdit::Other => return Some(Vec::new()),
        }
        refilter(state);
        return Some(Vec::new());
    }
    let prompt = view.modal.as_mut()?.pk_prompt_mut()?;
    match edit_line(&mut prompt.text, &key) {
        LineEdit::Edited => prompt.error = None,
        LineEdit::Submitted => {
            let pk = prompt.text.clone();
            return Some(submit_pk(state, pk));
        }
        LineEdit::Cancelled => view.modal = None,
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
    match view.modal.as_mut() {
        Some(Modal::FilterPrompt(p)) => {
            paste_line(&mut p.text, text);
            view.view.filter = p.text.clone();
            refilter(state);
        }
        Some(Modal::PkPrompt(p) | Modal::BudgetPrompt(p)) => {
            paste_line(&mut p.text, text);
            p.error = None;
        }
        _ => {}
    }
}

/// The resume prompt of a budgeted read: Enter resumes with the typed budget, Esc keeps it
/// stopped. `None` when the prompt is not open.
pub(super) fn budget_prompt_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    let view = state.table.as_mut()?;
    let prompt = view.modal.as_mut()?.budget_prompt_mut()?;
    match edit_line(&mut prompt.text, &key) {
        LineEdit::Edited => prompt.error = None,
        LineEdit::Cancelled => view.modal = None,
        LineEdit::Submitted => {
            let text = prompt.text.trim().to_string();
            match limits::MAX_RCU.parse(&text) {
                Ok(budget) => {
                    view.modal = None;
                    return Some(continue_read(state, true, Some(budget)));
                }
                Err(why) => prompt.error = Some(format!("max RCU '{text}': {why}")),
            }
        }
        LineEdit::Other => {}
    }
    Some(Vec::new())
}
