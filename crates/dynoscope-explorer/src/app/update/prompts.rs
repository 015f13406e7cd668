//! The one-line prompts: filter the loaded items, query a partition key, and the new budget
//! a budget-stopped scan asks for before it resumes. All edit text through
//! [`crate::app::text_input`].

use crate::app::input::Key;

use super::derived::refilter;
use super::open::submit_pk;
use crate::app::keymap::Action;
use crate::app::msg::Effect;
use crate::app::reads::continue_read;
use crate::app::state::{BulkField, BulkStage, Layer, Modal, Overlay, Prompt, Screen, State};
use crate::app::text_input::{edit_line, paste_line, LineEdit};
use crate::model::input::limits;

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

/// Where a paste goes: the text field the keys go to, in the order keys are routed.
enum PasteTarget {
    QueryForm,
    Launcher,
    Palette,
    Other,
}

/// The one route of pasted text (bracketed paste) to whichever text field has the keys: the
/// switcher's filter, the picker's, the prompts, the export path, the query form and the
/// PartiQL statement and parameters, the scan launcher and a pattern's parameters. How a
/// one-line field takes line breaks is [`crate::app::text_input::pasted`]'s.
///
/// It goes where a key would: to the topmost of [`State::layers`]. The switcher's filter is the
/// one overlay field; the export's cancel question and the live and metrics panes have no text
/// field, and a dialog they cover takes nothing while it is out of sight.
pub(super) fn paste(state: &mut State, text: &str) -> Vec<Effect> {
    match state.layers().first() {
        Some(Layer::Overlay) => {
            if let Some(Overlay::Switcher(s)) = state.overlay.as_mut() {
                paste_line(&mut s.filter, text);
                s.list = Default::default();
            }
            return Vec::new();
        }
        Some(Layer::ExportCancel | Layer::Live | Layer::Metrics) | None => return Vec::new(),
        Some(Layer::Modal | Layer::Screen) => {}
    }
    let target = match state.table.as_ref().and_then(|v| v.modal.as_ref()) {
        _ if state.screen == Screen::Picker => PasteTarget::Other,
        Some(Modal::QueryForm(_)) => PasteTarget::QueryForm,
        Some(Modal::Launcher(_)) => PasteTarget::Launcher,
        Some(Modal::Palette(_)) => PasteTarget::Palette,
        _ => PasteTarget::Other,
    };
    match target {
        PasteTarget::QueryForm => return crate::app::query_form::paste(state, text),
        PasteTarget::Launcher => return super::scan::paste(state, text),
        PasteTarget::Palette => return super::palette::paste(state, text),
        PasteTarget::Other => {}
    }
    if state.screen == Screen::Picker {
        if std::mem::take(&mut state.picker.filter_selected) {
            state.picker.filter.clear();
        }
        paste_line(&mut state.picker.filter, text);
        state.picker.list = Default::default();
        return Vec::new();
    }
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if super::export::paste(view, text) {
        return Vec::new();
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
        // The bulk dialog's attribute name or value (a long DynamoDB JSON value is pasted).
        Some(Modal::Bulk(d)) if matches!(d.stage, BulkStage::Edit { .. }) => match d.field {
            BulkField::Name => paste_line(&mut d.name, text),
            BulkField::Value => paste_line(&mut d.value, text),
            BulkField::Action => {}
        },
        _ => {}
    }
    Vec::new()
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

/// `/` opens the filter prompt on the current filter, `p` an empty partition-key prompt.
pub(super) fn open_prompt(state: &mut State, action: Action) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    view.modal = Some(if action == Action::Filter {
        Modal::FilterPrompt(Prompt {
            text: view.view.filter.clone(),
            error: None,
        })
    } else {
        Modal::PkPrompt(Prompt::default())
    });
    Vec::new()
}
