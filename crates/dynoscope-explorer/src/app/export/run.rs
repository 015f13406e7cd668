//! An export once it starts: the request the terminal loop performs, its progress and end,
//! and what a streaming export does when the read it holds ends (the read owner, `reads`,
//! tees every page of the reads that continue it into the file, until the read's end).

use crate::app::msg::{Effect, ExportEffect, ExportSummary, ReadEffect};
use crate::app::reads::continue_read;
use crate::app::state::{
    CsvChoice, CsvColumns, ExportItems, ExportJob, ExportRequest, ExportScope, Modal, Notice,
    OpenTable, State,
};
use crate::model::design::collection::ItemId;
use crate::model::exports::export::csv_columns;
use crate::model::text::wording::{count, thousands};

/// Selections up to this many items are decoded at once; larger ones send a copy of the
/// store, decoded by the export task off the terminal thread.
const DECODE_NOW: usize = 10_000;

/// Starts the export the dialog describes (`overwrite`: the user agreed to replace the file).
pub(crate) fn launch(state: &mut State, overwrite: bool) -> Vec<Effect> {
    let info = state.table_info();
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(Modal::Export(d)) = view.modal.take_if(|m| matches!(m, Modal::Export(_))) else {
        return Vec::new();
    };
    let mut job = ExportJob {
        id: d.job,
        path: d.path.clone(),
        stream: d.scope == ExportScope::Stream,
        waiting_for_read: false,
        items: 0,
        bytes: 0,
        confirm_cancel: false,
        pending: None,
    };
    let keys = key_names(view);
    let columns = match d.columns {
        CsvChoice::Shown => CsvColumns::Fixed(csv_columns(&keys, &view.view.columns.attrs)),
        CsvChoice::All => CsvColumns::AllOf { keys },
    };
    let mut request = ExportRequest {
        job: d.job,
        path: d.path,
        format: d.format,
        columns,
        overwrite,
        items: ExportItems::List(Vec::new()),
        stream: job.stream,
        design: info.filter(|_| d.design).map(Box::new),
    };
    if job.stream {
        let running = view.view.read.as_ref().filter(|r| r.running).map(|r| r.id);
        if let Some(id) = running {
            // The read is stopped first, so that what is loaded when the export takes over
            // is exactly what the continuation does not read again.
            job.waiting_for_read = true;
            job.pending = Some(Box::new(request));
            view.export_job = Some(job);
            return vec![Effect::Read(ReadEffect::Cancel(id))];
        }
    }
    request.items = selection(view, d.scope);
    view.export_job = Some(job);
    let stream = request.stream;
    let mut effects = vec![Effect::Export(ExportEffect::Start(Box::new(request)))];
    if stream {
        effects.extend(take_over_read(state));
    }
    effects
}

/// The table's key attributes, then the index's: a CSV's first columns.
fn key_names(view: &OpenTable) -> Vec<String> {
    let Some(store) = view.view.store.as_ref() else {
        return Vec::new();
    };
    let mut keys = store.table_keys().names();
    for name in store.group_keys().names() {
        if !keys.contains(&name) {
            keys.push(name);
        }
    }
    keys
}

fn selection(view: &OpenTable, scope: ExportScope) -> ExportItems {
    let Some(store) = view.view.store.as_ref() else {
        return ExportItems::List(Vec::new());
    };
    let ids: Vec<ItemId> = match scope {
        ExportScope::Item => view.view.selected_item().into_iter().collect(),
        ExportScope::Marked => view.view.marks.in_view_order(store),
        ExportScope::Collection => view
            .view
            .selected_collection()
            .map(|c| store.collections()[c].items.clone())
            .unwrap_or_default(),
        ExportScope::Loaded | ExportScope::Stream => store
            .collections()
            .iter()
            .flat_map(|c| c.items.iter().copied())
            .collect(),
    };
    if ids.len() <= DECODE_NOW {
        ExportItems::List(ids.into_iter().map(|id| store.item(id)).collect())
    } else {
        ExportItems::Store {
            store: Box::new(store.clone()),
            ids,
        }
    }
}

/// The read continues to its end with every page tee'd into the export, or the export is
/// finished at once when nothing is left to read.
fn take_over_read(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(job) = view.export_job.as_ref() else {
        return Vec::new();
    };
    let (id, path) = (job.id, job.path.clone());
    let more = view.view.read.as_ref().is_some_and(|r| r.has_more());
    if !more {
        return vec![Effect::Export(ExportEffect::Finish(id))];
    }
    let effects = continue_read(state, true, None);
    if state
        .table
        .as_ref()
        .is_some_and(|v| v.budget_prompt().is_some())
    {
        // A budgeted read reads on only with a new budget, asked for first.
        state.notice = Some(Notice {
            text: format!(
                "export to {path}: the read has a capacity budget; give a new one to stream the rest (Esc pauses the export: n resumes it, x cancels it)"
            ),
            error: false,
        });
    }
    effects
}

/// `x`, `y`: the export is cancelled, and so is the read a streaming export started (or is
/// waiting for). An export still waiting for the read to stop has no file yet: it just ends.
pub(crate) fn cancel(state: &mut State) -> Vec<Effect> {
    let reading = crate::app::explorer::running_read(state);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(job) = view.export_job.as_mut() else {
        return Vec::new();
    };
    let mut effects = Vec::new();
    if job.stream {
        effects.extend(reading.map(|x| Effect::Read(ReadEffect::Cancel(x))));
        if let Some(read) = view.view.read.as_mut() {
            read.continuous = false;
        }
    }
    if job.waiting_for_read {
        view.export_job = None;
        state.notice = Some(Notice {
            text: "export cancelled before it started".into(),
            error: false,
        });
        return effects;
    }
    // It no longer holds the read: the read's end does not pause or finish it.
    job.stream = false;
    effects.push(Effect::Export(ExportEffect::Cancel(job.id)));
    state.notice = Some(Notice {
        text: "cancelling the export…".into(),
        error: false,
    });
    effects
}

/// The current read ended (done or failed). A streaming export waiting for it takes over;
/// one that holds it is finished once the read has nothing left.
pub(crate) fn read_ended(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(job), Some(read)) = (view.export_job.as_mut(), view.view.read.as_ref()) else {
        return Vec::new();
    };
    if !job.stream || read.running {
        return Vec::new();
    }
    if job.waiting_for_read {
        job.waiting_for_read = false;
        let Some(mut request) = job.pending.take() else {
            return Vec::new();
        };
        request.items = selection(view, ExportScope::Stream);
        let mut effects = vec![Effect::Export(ExportEffect::Start(request))];
        effects.extend(take_over_read(state));
        return effects;
    }
    if !read.has_more() {
        return vec![Effect::Export(ExportEffect::Finish(job.id))];
    }
    // Cancelled, failed or out of budget: the file waits, `n` resumes the read into it.
    state.notice = Some(Notice {
        text: format!(
            "export to {} paused with the read: n resumes it, x cancels the export",
            job.path
        ),
        error: false,
    });
    Vec::new()
}

pub(crate) fn progress(state: &mut State, job: u64, items: u64, bytes: u64) {
    if let Some(j) = state
        .table
        .as_mut()
        .and_then(|v| v.export_job.as_mut())
        .filter(|j| j.id == job)
    {
        j.items = items;
        j.bytes = bytes;
    }
}

pub(crate) fn done(state: &mut State, job: u64, result: Result<ExportSummary, String>) {
    if let Some(view) = state.table.as_mut() {
        if view.export_job.as_ref().is_some_and(|j| j.id == job) {
            view.export_job = None;
        }
    }
    state.notice = Some(match result {
        Ok(s) => {
            let mut text = format!(
                "exported {}, {} bytes, to {}",
                count(s.items, "item"),
                thousands(s.bytes),
                s.path
            );
            if !s.left_out.is_empty() {
                text.push_str(&format!("; not in the CSV: {}", s.left_out.join(", ")));
            }
            Notice { text, error: false }
        }
        Err(why) => Notice {
            text: why,
            error: true,
        },
    });
}
