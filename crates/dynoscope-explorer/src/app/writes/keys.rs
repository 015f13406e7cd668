//! Starting a write (`e`/`E` edit, `N` new item, `D` delete, `U` undo; a bulk run's undo goes
//! to the bulk dialog) and reading the editor's result into the preview: the diff and the exact
//! request, sent only on Enter. Without writes enabled, each of these keys says how to enable
//! them and does nothing.

use super::request::request_lines;
use super::send::preview;
use crate::app::keymap::Action;
use crate::app::msg::{Effect, WriteEffect};
use crate::app::state::{Modal, Notice, OpenTable, Pane, State, WriteFlow, WriteStage};
use crate::model::formats::json::JsonSpelling;
use crate::model::item::value::{AttrValue, Item};
use crate::model::write::{
    diff, new_item_template, parse_edited, plan_delete, plan_undo, render_for_editor, validate,
    WriteKind,
};

pub(crate) const WRITES_OFF: &str = "writes are off: start dynoscope with --allow-writes, or set allow_writes = true for this profile or endpoint in the config";

fn notice(state: &mut State, text: impl Into<String>, error: bool) {
    state.notice = Some(Notice {
        text: text.into(),
        error,
    });
}

/// What a write key says on an export: the files are a copy, and writing there would not
/// change the table.
pub(crate) const EXPORT_READ_ONLY: &str =
    "an export is read-only (a copy of the table): to write, open the table with --allow-writes";

pub(crate) fn write_action(state: &mut State, action: Action) -> Vec<Effect> {
    if state.session.export.is_some() {
        notice(state, EXPORT_READ_ONLY, true);
        return Vec::new();
    }
    if !state.writes_enabled {
        notice(state, WRITES_OFF, true);
        return Vec::new();
    }
    let id = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.write().is_some() || view.view.store.is_none() || view.info.loaded().is_none() {
        return Vec::new();
    }
    state.next_request_id += 1;
    let result = match action {
        Action::Edit => start_edit(view, id, JsonSpelling::Plain),
        Action::EditDynamo => start_edit(view, id, JsonSpelling::Dynamo),
        Action::NewItem => start_create(view, id),
        Action::Delete => confirm_delete(view, id, state.config.version_attribute(&view.name)),
        // The last write was a bulk run: its undo goes through the bulk dialog.
        _ if view.undo.last().is_some_and(|e| e.bulk.is_some()) => {
            super::bulk_run::start_undo(view, state.session_budget.wcu_per_second)
                .map(|()| Vec::new())
        }
        _ => start_undo(view, id, state.config.version_attribute(&view.name)),
    };
    match result {
        Ok(effects) => effects,
        Err(why) => {
            notice(state, why, true);
            Vec::new()
        }
    }
}

fn start_edit(
    view: &mut OpenTable,
    id: u64,
    spelling: JsonSpelling,
) -> Result<Vec<Effect>, String> {
    let item_id = view
        .view
        .selected_item()
        .filter(|_| view.view.focus != Pane::Collections)
        .ok_or("select an item to edit (Tab to the items pane)")?;
    let store = view.view.store.as_ref().expect("checked");
    let loaded = store.item(item_id);
    let mut flow = WriteFlow::new(id, WriteKind::Edit, spelling);
    flow.text = render_for_editor(&loaded, spelling);
    flow.loaded = Some(loaded);
    let text = flow.text.clone();
    view.modal = Some(Modal::Write(flow));
    Ok(vec![Effect::Write(WriteEffect::Edit { edit: id, text })])
}

/// `N`: an item of the collection's most common kind, keys filled in, the rest blank.
fn start_create(view: &mut OpenTable, id: u64) -> Result<Vec<Effect>, String> {
    let store = view.view.store.as_ref().expect("checked");
    let info = view.info.loaded().expect("checked");
    let c = view
        .view
        .selected_collection()
        .ok_or("select a collection to add an item to")?;
    let items = &store.collections()[c].items;
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for &item in items {
        if let Some(kind) = store.kind_of(item) {
            match counts.iter_mut().find(|(k, _)| *k == kind) {
                Some(entry) => entry.1 += 1,
                None => counts.push((kind, 1)),
            }
        }
    }
    let kind = counts.iter().max_by_key(|(_, n)| *n).map(|(k, _)| *k);
    let example = items
        .iter()
        .rev()
        .find(|&&item| kind.is_none() || store.kind_of(item) == kind)
        .map(|&item| store.item(item))
        .ok_or("the collection has no item to take a template from")?;
    let mut keep = vec![info.keys.partition_key().name.clone()];
    for index in &info.indexes {
        keep.extend(index.keys.names());
    }
    let sort_key = info.keys.sort_key().map(|k| k.name.as_str());
    let template = new_item_template(&example, &keep, sort_key, store.separator());
    // The template's types, then those of attributes the kind's other items hold.
    let mut types: Vec<(String, AttrValue)> = template.clone().into_attrs();
    for &item in items {
        if kind.is_some() && store.kind_of(item) != kind {
            continue;
        }
        for (name, value) in store.item(item).into_attrs() {
            if !types.iter().any(|(n, _)| *n == name) {
                types.push((name, value));
            }
        }
    }
    let mut flow = WriteFlow::new(id, WriteKind::Create, JsonSpelling::Plain);
    flow.types_from = Some(Item::from_attrs(types));
    flow.text = render_for_editor(&template, JsonSpelling::Plain);
    let text = flow.text.clone();
    view.modal = Some(Modal::Write(flow));
    Ok(vec![Effect::Write(WriteEffect::Edit { edit: id, text })])
}

/// `D`: the marked items, or the item under the cursor, after a confirmation.
fn confirm_delete(
    view: &mut OpenTable,
    id: u64,
    version: Option<&str>,
) -> Result<Vec<Effect>, String> {
    let store = view.view.store.as_ref().expect("checked");
    let info = view.info.loaded().expect("checked");
    let targets: Vec<Item> = if view.view.marks.is_empty() {
        let item = view
            .view
            .selected_item()
            .filter(|_| view.view.focus != Pane::Collections)
            .ok_or("select an item, or mark items, to delete")?;
        vec![store.item(item)]
    } else {
        view.view
            .marks
            .in_view_order(store)
            .into_iter()
            .map(|i| store.item(i))
            .collect()
    };
    let mut flow = WriteFlow::new(id, WriteKind::Delete, JsonSpelling::Plain);
    match plan_delete(&view.name, &info.keys, &targets, version) {
        Ok(plans) => flow.plans = plans,
        Err(e) => flow.problems.push(e.to_string()),
    }
    flow.targets = targets;
    flow.stage = WriteStage::ConfirmDelete;
    view.modal = Some(Modal::Write(flow));
    Ok(Vec::new())
}

/// `U`: the last write undone, shown first like any write.
fn start_undo(view: &mut OpenTable, id: u64, version: Option<&str>) -> Result<Vec<Effect>, String> {
    let entry = view
        .undo
        .last()
        .ok_or("nothing to undo: dynoscope has written nothing yet")?;
    let info = view.info.loaded().expect("checked");
    let mut flow = WriteFlow::new(id, WriteKind::Undo, JsonSpelling::Plain);
    match plan_undo(&entry.table, &info.keys, &entry.images, version) {
        Ok(plans) => {
            flow.request = request_lines(&plans);
            flow.plans = plans;
        }
        Err(e) => flow.problems.push(e.to_string()),
    }
    if let [image] = entry.images.as_slice() {
        let empty = Item::new();
        flow.changes = diff(
            image.after.as_ref().unwrap_or(&empty),
            image.before.as_ref().unwrap_or(&empty),
        );
    }
    flow.stage = WriteStage::Preview;
    view.modal = Some(Modal::Write(flow));
    Ok(Vec::new())
}

/// The editor closed: read the item back, check it, and show what would be sent.
pub(crate) fn edited(state: &mut State, edit: u64, result: Result<String, String>) -> Vec<Effect> {
    let version = state
        .table
        .as_ref()
        .and_then(|v| state.config.version_attribute(&v.name))
        .map(str::to_string);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(flow) = WriteFlow::at(&mut view.modal, edit, WriteStage::Editing) else {
        return Vec::new();
    };
    let text = match result {
        Err(why) => {
            view.modal = None;
            notice(state, why, true);
            return Vec::new();
        }
        Ok(text) if text == flow.text && flow.kind != WriteKind::Create => {
            view.modal = None;
            notice(state, "no changes: nothing was written", false);
            return Vec::new();
        }
        Ok(text) => text,
    };
    flow.text = text;
    flow.problems.clear();
    flow.scroll = 0;
    flow.stage = WriteStage::Preview;
    let info = view
        .info
        .loaded()
        .expect("a write needs the table's description");
    let types = flow.loaded.as_ref().or(flow.types_from.as_ref());
    let yours = match parse_edited(&flow.text, flow.spelling, types) {
        Ok(item) => item,
        Err(why) => {
            flow.problems.push(why);
            return Vec::new();
        }
    };
    flow.problems = validate(&yours, info);
    flow.yours = Some(yours);
    if flow.problems.is_empty() {
        if let Err(e) = preview(view, version.as_deref()) {
            view.modal = None;
            notice(state, e, false);
        }
    }
    Vec::new()
}
