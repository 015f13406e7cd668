//! The bulk dialog's keys (`B`): the marked items (or, with none marked, the listed ones)
//! get one action, previewed as `partiql`'s dry run previews a statement, and run only when
//! writes are on; Esc stops a run before its next item. The run itself is the terminal loop's
//! (`BulkEffect`); what it sends back is `bulk_run.rs`'s.

use super::keys::{EXPORT_READ_ONLY, WRITES_OFF};
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{BulkEffect, Effect};
use crate::app::state::{
    explorer_statement, BulkDialog, BulkField, BulkRun, BulkStage, Modal, Notice, State,
};
use crate::app::text_input::{edit_line, LineEdit};
use crate::model::write::bulk::journal::Header;

fn notice(state: &mut State, text: impl Into<String>, error: bool) {
    state.notice = Some(Notice {
        text: text.into(),
        error,
    });
}

/// `B`: the dialog on the marked items, or on the listed ones when none is marked. It opens
/// with writes off too: the preview reads nothing and says how to enable writes.
pub(crate) fn open(state: &mut State) -> Vec<Effect> {
    if state.session.export.is_some() {
        notice(state, EXPORT_READ_ONLY, true);
        return Vec::new();
    }
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(store), Some(_)) = (view.view.store.as_ref(), view.info.loaded()) else {
        notice(
            state,
            "nothing loaded yet: the bulk dialog works on loaded items",
            true,
        );
        return Vec::new();
    };
    let (ids, scope) = if view.view.marks.is_empty() {
        (view.view.listed_items(), "listed")
    } else {
        (view.view.marks.in_view_order(store), "marked")
    };
    if ids.is_empty() {
        notice(
            state,
            "no items listed: select a collection, or mark items with space, then B",
            true,
        );
        return Vec::new();
    }
    let items = ids.into_iter().map(|id| store.item(id)).collect();
    view.modal = Some(Modal::Bulk(BulkDialog::of(items, scope)));
    Vec::new()
}

/// Keys while the bulk dialog is open.
pub(crate) fn bulk_key(state: &mut State, key: Key) -> Vec<Effect> {
    let Some(d) = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref())
        .and_then(Modal::bulk)
    else {
        return Vec::new();
    };
    match &d.stage {
        BulkStage::Edit { .. } => edit_key(state, key),
        BulkStage::Preview { .. } => preview_key(state, key),
        BulkStage::UndoPreview { .. } => undo_preview_key(state, key),
        BulkStage::Run(_) => run_key(state, key),
    }
}

fn dialog_mut(state: &mut State) -> &mut BulkDialog {
    state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut())
        .and_then(Modal::bulk_mut)
        .expect("the bulk dialog is open")
}

fn close(state: &mut State, text: &str) {
    if let Some(view) = state.table.as_mut() {
        view.modal = None;
    }
    notice(state, text, false);
}

fn edit_key(state: &mut State, key: Key) -> Vec<Effect> {
    let back = key.code == KeyCode::BackTab
        || (key.code == KeyCode::Tab && key.modifiers.contains(Modifiers::SHIFT));
    let d = dialog_mut(state);
    match key.code {
        KeyCode::Esc => {
            close(state, "bulk dialog closed: nothing was written");
            return Vec::new();
        }
        KeyCode::Tab | KeyCode::BackTab | KeyCode::Down | KeyCode::Up => {
            d.move_field(!(back || key.code == KeyCode::Up));
            return Vec::new();
        }
        KeyCode::Enter => return preview(state),
        _ => {}
    }
    match d.field {
        BulkField::Action => match key.code {
            KeyCode::Right | KeyCode::Char(' ') => d.choice = d.choice.next(),
            KeyCode::Left => d.choice = d.choice.next().next(),
            _ => {}
        },
        BulkField::Name | BulkField::Value => {
            let text = if d.field == BulkField::Name {
                &mut d.name
            } else {
                &mut d.value
            };
            if edit_line(text, &key) == LineEdit::Edited {
                d.stage = BulkStage::Edit { error: None };
            }
        }
    }
    Vec::new()
}

/// Enter in the edit stage: the preview, or why there is none.
fn preview(state: &mut State) -> Vec<Effect> {
    let rate = state.session_budget.wcu_per_second;
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let version = state
        .config
        .version_attribute(&info.name)
        .map(str::to_string);
    let d = dialog_mut(state);
    d.preview(&info, rate, version.as_deref());
    d.scroll = 0;
    Vec::new()
}

fn preview_key(state: &mut State, key: Key) -> Vec<Effect> {
    let writes = state.writes_enabled;
    let d = dialog_mut(state);
    match key.code {
        KeyCode::Esc => {
            d.stage = BulkStage::Edit { error: None };
            d.scroll = 0;
        }
        KeyCode::Up => d.scroll = d.scroll.saturating_sub(1),
        KeyCode::Down => d.scroll += 1,
        KeyCode::Enter | KeyCode::Char('y') if !writes => notice(state, WRITES_OFF, true),
        KeyCode::Enter | KeyCode::Char('y') => return start_run(state),
        _ => {}
    }
    Vec::new()
}

/// Enter on the preview with writes on: the run, journaled as the command line journals it.
fn start_run(state: &mut State) -> Vec<Effect> {
    let id = state.next_request_id;
    let endpoint = state.endpoint.clone();
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let version = state
        .config
        .version_attribute(&info.name)
        .map(str::to_string);
    let d = dialog_mut(state);
    let BulkStage::Preview { planned, .. } = &d.stage else {
        return Vec::new();
    };
    if planned.iter().all(|i| i.unchanged()) {
        notice(
            state,
            "nothing to write: every item already is what the action makes it",
            false,
        );
        return Vec::new();
    }
    let planned = planned.clone();
    let verb = d.action().map(|a| a.verb()).unwrap_or("UPDATE");
    let header = Header {
        verb: verb.to_string(),
        statement: explorer_statement(verb, &info.name),
        parameters: None,
        table: info.name.clone(),
        endpoint,
    };
    d.stage = BulkStage::Run(BulkRun::new(id, false, planned.clone(), planned.len()));
    d.scroll = 0;
    state.next_request_id += 1;
    vec![Effect::Bulk(BulkEffect::Run {
        run: id,
        info: Box::new(info),
        items: planned,
        header: Box::new(header),
        version,
    })]
}

fn undo_preview_key(state: &mut State, key: Key) -> Vec<Effect> {
    let writes = state.writes_enabled;
    let id = state.next_request_id;
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let version = state
        .config
        .version_attribute(&info.name)
        .map(str::to_string);
    let d = dialog_mut(state);
    match key.code {
        KeyCode::Esc => close(state, "undo dropped: nothing was restored"),
        KeyCode::Up => d.scroll = d.scroll.saturating_sub(1),
        KeyCode::Down => d.scroll += 1,
        KeyCode::Enter | KeyCode::Char('y') if !writes => notice(state, WRITES_OFF, true),
        KeyCode::Enter | KeyCode::Char('y') => {
            let BulkStage::UndoPreview { record, .. } = &d.stage else {
                return Vec::new();
            };
            let (items, todo) = (record.items.clone(), record.written.clone());
            d.stage = BulkStage::Run(BulkRun::new(id, true, items.clone(), todo.len()));
            d.scroll = 0;
            state.next_request_id += 1;
            return vec![Effect::Bulk(BulkEffect::Undo {
                run: id,
                info: Box::new(info),
                items,
                todo,
                version,
            })];
        }
        _ => {}
    }
    Vec::new()
}

/// While a run goes, Esc stops it before its next item; once it ended, Esc closes.
fn run_key(state: &mut State, key: Key) -> Vec<Effect> {
    let d = dialog_mut(state);
    let run = d.run_mut().expect("checked");
    match key.code {
        KeyCode::Esc if run.running() && !run.stopping => {
            run.stopping = true;
            return vec![Effect::Bulk(BulkEffect::Stop(run.id))];
        }
        // Not Alt-q: an Esc with a q right behind it arrives as that.
        KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q')
            if !run.running() && !key.modifiers.contains(Modifiers::ALT) =>
        {
            let undo = run.undo;
            close(
                state,
                if undo {
                    "undo dialog closed"
                } else {
                    "bulk dialog closed; U undoes the run"
                },
            );
        }
        KeyCode::Up => d.scroll = d.scroll.saturating_sub(1),
        KeyCode::Down => d.scroll += 1,
        _ => {}
    }
    Vec::new()
}
