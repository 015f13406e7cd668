//! What a bulk run (or its undo) sends back while the terminal loop runs it: the journal's
//! path, the tally, each item's outcome (a written item replaces its loaded image, so the view
//! shows what the table holds now), and the end, after which `U` offers the run's undo.

use super::send::apply_to_store;
use crate::app::msg::{BulkMsg, BulkOutcome, Effect};
use crate::app::state::{
    BulkDialog, BulkEnded, BulkRecord, BulkRun, Modal, Notice, OpenTable, State, UndoEntry,
};
use crate::app::table::derived::{keep_cursors_visible, refilter};
use crate::model::text::wording::count;
use crate::model::traffic::capacity::format_units;

/// The dialog's run `id`, if the dialog is still at it.
fn run_of(view: &mut OpenTable, id: u64) -> Option<&mut BulkRun> {
    view.modal
        .as_mut()
        .and_then(Modal::bulk_mut)
        .and_then(BulkDialog::run_mut)
        .filter(|r| r.id == id)
}

pub(crate) fn bulk_msg(state: &mut State, msg: BulkMsg) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    match msg {
        BulkMsg::Started { run, journal } => {
            if let Some(r) = run_of(view, run) {
                r.journal = Some(journal);
            }
        }
        BulkMsg::Progress { run, progress } => {
            if let Some(r) = run_of(view, run) {
                r.progress = progress;
            }
        }
        BulkMsg::Items { run, outcomes } => {
            let Some(r) = run_of(view, run) else {
                return Vec::new();
            };
            let undo = r.undo;
            let mut written = Vec::new();
            for (index, outcome) in outcomes {
                match outcome {
                    BulkOutcome::Written => {
                        r.written.push(index);
                        written.push(r.items[index].clone());
                    }
                    BulkOutcome::Conflict(current) => r.conflicts.push((index, current)),
                    BulkOutcome::Failed(why) => r.failures.push((index, why)),
                }
            }
            if !written.is_empty() {
                for item in &written {
                    // An undo writes the other way: from the after-image to the before-image.
                    let (from, to) = if undo {
                        (item.after.as_ref(), Some(&item.before))
                    } else {
                        (Some(&item.before), item.after.as_ref())
                    };
                    // A deleted item an undo puts back was not in the store: nothing to find.
                    apply_to_store(view, from, to);
                }
                // Once a batch: the store changed, so every derived list is stale.
                refilter(state);
                keep_cursors_visible(state);
            }
        }
        BulkMsg::Done {
            run,
            progress,
            ended,
        } => done(state, run, progress, ended),
    }
    Vec::new()
}

fn done(state: &mut State, id: u64, progress: crate::app::state::BulkProgress, ended: BulkEnded) {
    let view = state.table.as_mut().expect("checked");
    let table = view.name.clone();
    let Some(r) = run_of(view, id) else {
        return;
    };
    r.progress = progress;
    r.ended = Some(ended.clone());
    let p = r.progress.clone();
    let (undo, written) = (r.undo, r.written.len());
    let verb = r.verb();
    let record = (!undo && written > 0)
        .then(|| r.journal.clone())
        .flatten()
        .map(|journal| BulkRecord {
            journal,
            verb: verb.to_string(),
            items: r.items.clone(),
            written: r.written.clone(),
        });
    let text = if undo {
        format!(
            "undo: {} restored, {} changed since and left as they are, {} failed; {} WCU",
            p.done,
            p.conflicts,
            p.failed,
            format_units(p.units)
        )
    } else {
        format!(
            "bulk {verb}: {} written, {} unchanged, {} conflicts skipped, {} failed; {} WCU{}",
            p.done,
            p.unchanged,
            p.conflicts,
            p.failed,
            format_units(p.units),
            if record.is_some() {
                "; U undoes it"
            } else {
                ""
            }
        )
    };
    if let Some(record) = record {
        view.undo.push(UndoEntry {
            table,
            images: Vec::new(),
            label: format!("bulk {verb} of {}", count(written as u64, "item")),
            bulk: Some(record),
        });
    } else if undo && ended == BulkEnded::Complete {
        // Every before-image restored or reported: the run is undone.
        if view.undo.last().is_some_and(|e| e.bulk.is_some()) {
            view.undo.pop();
        }
    }
    state.notice = Some(Notice {
        text,
        error: ended != BulkEnded::Complete,
    });
}

/// `U` when the last write was a bulk run: its undo's preview in the bulk dialog.
pub(crate) fn start_undo(view: &mut OpenTable, rate: Option<f64>) -> Result<(), String> {
    let record = view
        .undo
        .last()
        .and_then(|e| e.bulk.clone())
        .ok_or("nothing to undo")?;
    let info = view.info.loaded().ok_or("the table is not described yet")?;
    let text = record.undo_text(info, rate);
    view.modal = Some(Modal::Bulk(BulkDialog::undo(record, text)));
    Ok(())
}
