//! From the preview to DynamoDB and back: sending a plan (batch after batch for a bulk
//! delete), what a result does to the loaded items and the undo stack, and the conflict view's
//! choices (re-apply yours over the item as it is now, edit again, or drop the edit).

use crate::app::input::{Key, KeyCode};

use super::request::request_lines;
use crate::app::msg::{Effect, WriteEffect};
use crate::app::request_log::RequestRow;
use crate::app::state::{Modal, Notice, OpenTable, State, UndoEntry, WriteFlow, WriteStage};
use crate::app::table::derived::{keep_cursors_visible, refilter};
use crate::model::engine::write::{WriteFailure, WriteResult};
use crate::model::formats::json::append_plain_json;
use crate::model::item::value::Item;
use crate::model::text::wording::count;
use crate::model::traffic::capacity::{format_units, Consumed};
use crate::model::write::{
    diff, plan_create, plan_edit, plan_undo, rebase, render_for_editor, three_way, PlanError,
    UndoImage, WriteKind,
};

/// Plans the user's item against the loaded one (or as a new item) and fills the preview.
/// `Err`: nothing to send (no change), to say in the status bar.
pub(crate) fn preview(view: &mut OpenTable, version: Option<&str>) -> Result<(), String> {
    let info = view
        .info
        .loaded()
        .expect("a write needs the table's description");
    let flow = view
        .modal
        .as_mut()
        .and_then(Modal::write_mut)
        .expect("a write flow");
    let yours = flow.yours.clone().expect("parsed");
    let plan = match &flow.loaded {
        Some(loaded) => plan_edit(&view.name, &info.keys, loaded, &yours, version),
        None => plan_create(&view.name, &info.keys, &yours, version),
    };
    match plan {
        Ok(plan) => {
            let empty = Item::new();
            let after = plan
                .ops
                .iter()
                .find_map(|op| op.after.clone())
                .unwrap_or_default();
            flow.changes = diff(flow.loaded.as_ref().unwrap_or(&empty), &after);
            if flow.kind != WriteKind::Create {
                flow.kind = plan.kind;
            }
            flow.request = request_lines(std::slice::from_ref(&plan));
            flow.plans = vec![plan];
            flow.sent = 0;
            flow.stage = WriteStage::Preview;
            Ok(())
        }
        Err(PlanError::NoChange) => Err("no changes: nothing was written".into()),
        Err(e) => {
            flow.problems.push(e.to_string());
            Ok(())
        }
    }
}

fn send_next(view: &mut OpenTable) -> Vec<Effect> {
    let flow = view
        .modal
        .as_mut()
        .and_then(Modal::write_mut)
        .expect("a write flow");
    flow.stage = WriteStage::Sending;
    flow.retry = false;
    vec![Effect::Write(WriteEffect::Send {
        write: flow.id,
        plan: Box::new(flow.plans[flow.sent].clone()),
    })]
}

/// Keys while a write is shown: preview, delete confirmation, conflict.
pub(crate) fn write_key(state: &mut State, key: Key) -> Vec<Effect> {
    let version = state
        .table
        .as_ref()
        .and_then(|v| state.config.version_attribute(&v.name))
        .map(str::to_string);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(flow) = view.modal.as_mut().and_then(Modal::write_mut) else {
        return Vec::new();
    };
    let ready = (flow.problems.is_empty() || flow.retry) && flow.sent < flow.plans.len();
    match (flow.stage, key.code) {
        (WriteStage::Editing | WriteStage::Sending, _) => {}
        (_, KeyCode::Up) => flow.scroll = flow.scroll.saturating_sub(1),
        (_, KeyCode::Down) => flow.scroll += 1,
        (WriteStage::Preview, KeyCode::Enter | KeyCode::Char('y')) if ready => {
            return send_next(view)
        }
        (WriteStage::ConfirmDelete, KeyCode::Char('y')) if ready => return send_next(view),
        (WriteStage::Preview | WriteStage::Conflict, KeyCode::Char('e'))
            if matches!(
                flow.kind,
                WriteKind::Edit | WriteKind::KeyChange | WriteKind::Create
            ) =>
        {
            // Edit again: from the user's text, against the item as it is now after a conflict.
            if flow.stage == WriteStage::Conflict {
                let current = flow.current.clone().flatten();
                flow.kind = if current.is_some() {
                    WriteKind::Edit
                } else {
                    WriteKind::Create
                };
                flow.loaded = current;
                if let Some(yours) = &flow.yours {
                    flow.text = render_for_editor(yours, flow.spelling);
                }
            }
            flow.stage = WriteStage::Editing;
            flow.problems.clear();
            return vec![Effect::Write(WriteEffect::Edit {
                edit: flow.id,
                text: flow.text.clone(),
            })];
        }
        (WriteStage::Conflict, KeyCode::Char('r')) => {
            reapply(view, version.as_deref());
        }
        (_, KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q')) => {
            let text = match flow.stage {
                WriteStage::ConfirmDelete => "nothing was deleted",
                WriteStage::Conflict => {
                    "your version was dropped; the stored item was left as it is"
                }
                _ => "dropped: nothing was written",
            };
            view.modal = None;
            state.notice = Some(Notice {
                text: text.into(),
                error: false,
            });
        }
        _ => {}
    }
    Vec::new()
}

/// Re-applies the remaining ops over the items as they are now: the conflicting op expects
/// the current item instead of the one loaded.
fn reapply(view: &mut OpenTable, version: Option<&str>) {
    let info = view
        .info
        .loaded()
        .expect("a write needs the table's description");
    let flow = view
        .modal
        .as_mut()
        .and_then(Modal::write_mut)
        .expect("a write flow");
    let Some(current) = flow.current.take() else {
        return;
    };
    let conflicting = flow.conflict_index;
    let mut images: Vec<UndoImage> = Vec::new();
    for (p, plan) in flow.plans.iter().enumerate().skip(flow.sent) {
        for (i, op) in plan.ops.iter().enumerate() {
            // plan_undo goes from `after` to `before`: here from what is stored to the target.
            let image = if p == flow.sent && i == conflicting {
                let target = rebase(op.before.as_ref(), op.after.as_ref(), current.as_ref());
                if let (Some(t), true) = (&target, flow.yours.is_some()) {
                    flow.yours = Some(t.clone());
                }
                UndoImage {
                    before: target,
                    after: current.clone(),
                }
            } else {
                UndoImage {
                    before: op.after.clone(),
                    after: op.before.clone(),
                }
            };
            images.push(image);
        }
    }
    let kind = flow.kind;
    match plan_undo(&view.name, &info.keys, &images, version) {
        Ok(mut plans) => {
            for plan in &mut plans {
                plan.kind = kind;
            }
            plans.retain(|p| !p.ops.is_empty());
            if let ([image], Some(yours)) = (images.as_slice(), flow.yours.as_ref()) {
                let empty = Item::new();
                flow.changes = diff(image.after.as_ref().unwrap_or(&empty), yours);
                flow.loaded = image.after.clone();
            }
            flow.request = request_lines(&plans);
            flow.plans = plans;
            flow.sent = 0;
            flow.problems.clear();
            if flow.plans.is_empty() {
                flow.problems
                    .push("the stored item already is what you wanted: nothing to send".into());
            }
        }
        Err(e) => flow.problems = vec![e.to_string()],
    }
    flow.conflict.clear();
    flow.stage = WriteStage::Preview;
}

/// A written item replaces its loaded image in the collections; a deleted one leaves them.
pub(crate) fn apply_to_store(view: &mut OpenTable, before: Option<&Item>, after: Option<&Item>) {
    let Some(store) = view.view.store.as_mut() else {
        return;
    };
    let old = before.and_then(|b| store.find(b));
    if let Some(id) = old {
        store.remove(id);
    }
    match (after, old) {
        (Some(a), old) => {
            let new = store.insert_written(a.clone());
            if let Some(old) = old {
                view.view.marks.replace(old, new);
            }
        }
        (None, Some(old)) => view.view.marks.remove(old),
        (None, None) => {}
    }
}

fn key_text(item: Option<&Item>) -> String {
    let mut s = String::new();
    if let Some(item) = item {
        append_plain_json(&mut s, item);
    }
    s
}

pub(crate) fn written(state: &mut State, write: u64, result: WriteResult) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(flow) = WriteFlow::at(&mut view.modal, write, WriteStage::Sending) else {
        return Vec::new();
    };
    let plan = flow.plans[flow.sent].clone();
    match result {
        Ok(done) => {
            state.log.push(RequestRow::from_write(
                write,
                done.operation,
                done.items,
                done.consumed.clone(),
                done.latency,
                &done.attempts,
                done.sent.clone(),
            ));
            for op in &plan.ops {
                flow.done.push(UndoImage {
                    before: op.before.clone(),
                    after: op.after.clone(),
                });
            }
            flow.sent += 1;
            let more = flow.sent < flow.plans.len();
            let (kind, total, units) = (flow.kind, flow.plans.len(), done.consumed.total);
            let images = std::mem::take(&mut flow.done);
            if more {
                flow.done = images.clone();
            }
            for op in &plan.ops {
                apply_to_store(view, op.before.as_ref(), op.after.as_ref());
            }
            refilter(state);
            keep_cursors_visible(state);
            let view = state.table.as_mut().expect("checked");
            if more {
                let flow = view
                    .modal
                    .as_mut()
                    .and_then(Modal::write_mut)
                    .expect("checked");
                state.notice = Some(Notice {
                    text: format!("sent {} of {} requests…", flow.sent, total),
                    error: false,
                });
                return send_next(view);
            }
            view.modal = None;
            let label = match (kind, images.len()) {
                (WriteKind::Delete, n) => format!("deleted {}", count(n as u64, "item")),
                (WriteKind::Undo, n) => format!("undone: {} restored", count(n as u64, "item")),
                (WriteKind::Create, _) => {
                    format!("created {}", key_text(plan.ops[0].after.as_ref()))
                }
                (WriteKind::KeyChange, _) => "moved the item to its new key".to_string(),
                (WriteKind::Edit, _) => format!("saved {}", key_text(Some(&plan.ops[0].key))),
            };
            if kind != WriteKind::Undo {
                view.undo.push(UndoEntry {
                    table: plan.table.clone(),
                    images,
                    label: label.clone(),
                    bulk: None,
                });
            } else {
                view.undo.pop();
            }
            state.notice = Some(Notice {
                text: format!("{label} ({} WCU); U undoes it", format_units(units)),
                error: false,
            });
        }
        Err(WriteFailure::Conflict {
            index,
            current,
            operation,
            latency,
            attempts,
            sent,
        }) => {
            state.log.push(RequestRow::from_write(
                write,
                operation,
                0,
                Consumed::default(),
                latency,
                &attempts,
                sent,
            ));
            let op = &plan.ops[index];
            let empty = Item::new();
            flow.conflict = three_way(
                op.before.as_ref().unwrap_or(&empty),
                current.as_ref(),
                op.after.as_ref().unwrap_or(&empty),
            );
            flow.conflict_index = index;
            flow.current = Some(current);
            flow.stage = WriteStage::Conflict;
            flow.problems.clear();
            // Batches already written stay undoable.
            if !flow.done.is_empty() {
                let images = std::mem::take(&mut flow.done);
                view.undo.push(UndoEntry {
                    table: plan.table.clone(),
                    images,
                    label: "the items written before a conflict".into(),
                    bulk: None,
                });
            }
        }
        Err(WriteFailure::Failed { error: e, attempts }) => {
            state
                .log
                .record_failure(attempts.attempts, attempts.throttles);
            flow.stage = WriteStage::Preview;
            flow.problems = vec![format!("{} — Enter tries again, Esc drops it", e.message)];
            // A failed request (not a failed condition) may be sent again as it is.
            flow.retry = true;
        }
    }
    Vec::new()
}
