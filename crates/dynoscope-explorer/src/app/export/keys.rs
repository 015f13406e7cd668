//! The export dialog (`x`): scope, format, CSV columns and path, then the checks before an
//! export starts (the path is free, or the user agreed to replace the file).

use crate::app::input::{Key, KeyCode};

use super::run::launch;
use crate::app::msg::{Effect, ExportEffect, FileEffect};
use crate::app::state::{
    CsvChoice, ExportDialog, ExportField, ExportScope, ExportStage, Modal, OpenTable, Pane, State,
};
use crate::app::text_input::{edit_line, paste_line, LineEdit};
use crate::model::exports::export::{utc_stamp, ExportFormat};

pub(crate) fn open_export(state: &mut State) -> Vec<Effect> {
    let job_id = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if let Some(job) = view.export_job.as_mut() {
        // One export at a time; `x` while it runs offers to cancel it.
        job.confirm_cancel = true;
        return Vec::new();
    }
    if view.view.store.is_none() {
        return Vec::new();
    }
    state.next_request_id += 1;
    let counts = scope_counts(view);
    let scope = if !view.view.marks.is_empty() {
        ExportScope::Marked
    } else if view.view.focus != Pane::Collections && counts[0].is_some() {
        ExportScope::Item
    } else {
        ExportScope::Collection
    };
    view.modal = Some(Modal::Export(ExportDialog {
        scope,
        format: ExportFormat::Jsonl,
        columns: CsvChoice::Shown,
        field: ExportField::Scope,
        path: String::new(),
        path_edited: false,
        completions: Vec::new(),
        stage: ExportStage::Editing,
        error: None,
        counts,
        job: job_id,
        design: false,
    }));
    // The default name carries the time: asked of the loop, as `update` has no clock.
    vec![Effect::Export(ExportEffect::ReadClock)]
}

/// Items each scope would write; `None` when a scope has nothing to write.
fn scope_counts(view: &OpenTable) -> [Option<usize>; 5] {
    let store_len = view.view.store.as_ref().map_or(0, |s| s.len());
    let collection = match (view.view.selected_collection(), view.view.store.as_ref()) {
        (Some(c), Some(store)) => Some(store.collections()[c].items.len()),
        _ => None,
    };
    let stream = view
        .view
        .read
        .as_ref()
        .is_some_and(|r| r.running || r.has_more());
    [
        view.view.selected_item().map(|_| 1),
        (!view.view.marks.is_empty()).then(|| view.view.marks.len()),
        collection,
        (store_len > 0).then_some(store_len),
        stream.then_some(store_len),
    ]
}

/// `./<table>-<utc timestamp>.<ext>`, the table name kept to what any file system takes.
pub(crate) fn default_path(table: &str, unix_seconds: u64, format: ExportFormat) -> String {
    let safe: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "./{safe}-{}.{}",
        utc_stamp(unix_seconds),
        format.extension()
    )
}

pub(crate) fn clock(state: &mut State, unix_seconds: u64) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let name = view.name.clone();
    if let Some(d) = view
        .modal
        .as_mut()
        .and_then(Modal::export_mut)
        .filter(|d| !d.path_edited)
    {
        d.path = match d.design {
            true => super::design::design_path(&name, unix_seconds),
            false => default_path(&name, unix_seconds, d.format),
        };
    }
}

fn cycle<T: Copy + PartialEq>(all: &[T], now: T, forward: bool) -> T {
    let at = all.iter().position(|x| *x == now).unwrap_or(0);
    let step = if forward { 1 } else { all.len() - 1 };
    all[(at + step) % all.len()]
}

/// Replaces the path's extension with the format's, unless the user typed the path.
fn follow_format(d: &mut ExportDialog) {
    if d.path_edited {
        return;
    }
    if let Some(dot) = d.path.rfind('.').filter(|&i| !d.path[i..].contains('/')) {
        d.path.truncate(dot + 1);
        d.path.push_str(d.format.extension());
    }
}

pub(crate) fn export_key(state: &mut State, key: Key) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(d) = view.modal.as_mut().and_then(Modal::export_mut) else {
        return Vec::new();
    };
    // The design document has one scope and one format: only its path is asked for.
    if d.design {
        d.field = ExportField::Path;
        if matches!(key.code, KeyCode::Up | KeyCode::Down) {
            return Vec::new();
        }
    }
    match d.stage {
        ExportStage::Checking => return Vec::new(),
        ExportStage::ConfirmOverwrite => {
            return match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => launch(state, true),
                _ => {
                    d.stage = ExportStage::Editing;
                    d.error = Some("the file exists; choose another path".into());
                    Vec::new()
                }
            };
        }
        ExportStage::Editing => {}
    }
    let fields: Vec<ExportField> = if d.format == ExportFormat::Csv {
        vec![
            ExportField::Scope,
            ExportField::Format,
            ExportField::Columns,
            ExportField::Path,
        ]
    } else {
        vec![ExportField::Scope, ExportField::Format, ExportField::Path]
    };
    match key.code {
        KeyCode::Esc => {
            view.modal = None;
            return Vec::new();
        }
        KeyCode::Enter => return submit(state),
        KeyCode::Up | KeyCode::BackTab => d.field = cycle(&fields, d.field, false),
        KeyCode::Down => d.field = cycle(&fields, d.field, true),
        KeyCode::Tab if d.field != ExportField::Path => d.field = cycle(&fields, d.field, true),
        KeyCode::Tab => return vec![Effect::Files(FileEffect::CompletePath(d.path.clone()))],
        // Ctrl-U clears the path, as in a shell.
        KeyCode::Char('u')
            if d.field == ExportField::Path
                && key
                    .modifiers
                    .contains(crate::app::input::Modifiers::CONTROL) =>
        {
            d.path.clear();
            d.path_edited = true;
        }
        KeyCode::Left | KeyCode::Right if d.field != ExportField::Path => {
            let forward = key.code == KeyCode::Right;
            match d.field {
                ExportField::Scope => {
                    let available: Vec<ExportScope> = ExportScope::ALL
                        .into_iter()
                        .zip(d.counts)
                        .filter(|(_, n)| n.is_some())
                        .map(|(s, _)| s)
                        .collect();
                    if !available.is_empty() {
                        d.scope = cycle(&available, d.scope, forward);
                    }
                }
                ExportField::Format => {
                    d.format = cycle(&ExportFormat::ALL, d.format, forward);
                    follow_format(d);
                }
                ExportField::Columns => {
                    d.columns = cycle(&[CsvChoice::Shown, CsvChoice::All], d.columns, forward)
                }
                ExportField::Path => {}
            }
            d.error = None;
        }
        _ if d.field == ExportField::Path && edit_line(&mut d.path, &key) == LineEdit::Edited => {
            d.path_edited = true;
            d.completions.clear();
            d.error = None;
        }
        _ => {}
    }
    Vec::new()
}

pub(crate) fn paste(view: &mut OpenTable, text: &str) -> bool {
    match view.modal.as_mut().and_then(Modal::export_mut) {
        Some(d) if d.field == ExportField::Path => {
            paste_line(&mut d.path, text);
            d.path_edited = true;
            true
        }
        Some(_) => true,
        None => false,
    }
}

/// Enter: the scope must have items and the path must be named; then the path is checked.
fn submit(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(d) = view.modal.as_mut().and_then(Modal::export_mut) else {
        return Vec::new();
    };
    let index = ExportScope::ALL
        .iter()
        .position(|s| *s == d.scope)
        .unwrap_or(0);
    if d.counts[index].is_none() {
        d.error = Some(format!("nothing to export as {}", d.scope.label()));
        return Vec::new();
    }
    if d.path.trim().is_empty() || d.path.ends_with('/') {
        d.error = Some("name the file to write".into());
        return Vec::new();
    }
    if d.scope == ExportScope::Stream && view.view.dropped_items > 0 {
        d.error = Some(format!(
            "{} read earlier were not kept (--max-items); rescan (r) and stream from the start",
            crate::model::text::wording::count(view.view.dropped_items, "item")
        ));
        return Vec::new();
    }
    d.stage = ExportStage::Checking;
    d.error = None;
    vec![Effect::Files(FileEffect::CheckExportPath {
        job: d.job,
        path: d.path.clone(),
    })]
}

pub(crate) fn path_checked(
    state: &mut State,
    job: u64,
    result: Result<bool, String>,
) -> Vec<Effect> {
    let Some(d) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::export_mut))
        .filter(|d| d.job == job && d.stage == ExportStage::Checking)
    else {
        return Vec::new();
    };
    match result {
        Err(why) => {
            d.stage = ExportStage::Editing;
            d.error = Some(why);
            Vec::new()
        }
        Ok(true) => {
            d.stage = ExportStage::ConfirmOverwrite;
            Vec::new()
        }
        Ok(false) => launch(state, false),
    }
}

pub(crate) fn completions(state: &mut State, path: String, dirs: Vec<String>) {
    let Some(d) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::export_mut))
    else {
        return;
    };
    if d.path != path {
        return;
    }
    d.completions.clear();
    match dirs.as_slice() {
        [] => d.error = Some(format!("no directory matches '{path}'")),
        [one] => {
            d.path = one.clone();
            d.path_edited = true;
        }
        many => {
            let mut common = many[0].clone();
            for dir in &many[1..] {
                while !dir.starts_with(&common) {
                    common.pop();
                }
            }
            if common.len() > d.path.len() {
                d.path = common;
                d.path_edited = true;
            }
            d.completions = dirs;
        }
    }
}

pub(crate) fn cancel_prompt_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    let view = state.table.as_mut()?;
    let job = view.export_job.as_mut().filter(|j| j.confirm_cancel)?;
    job.confirm_cancel = false;
    if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
        return Some(super::run::cancel(state));
    }
    Some(Vec::new())
}
