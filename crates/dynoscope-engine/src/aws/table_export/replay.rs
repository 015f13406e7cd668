//! An incremental export played to the live pane as its stream: the same [`StreamEvent`]s on
//! the same channel, so the pane (and `update`) count an export's changes exactly as a
//! stream's. The changes are read whole and sorted first (the files are in no time order),
//! then sent in write-time order in batches, like GetRecords pages; the pane is told, through
//! [`StreamTable::timeline`], that they are a recorded window and carry their own times.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::changes::{read_changes_in_order, recorded_window};
use super::OpenedExport;
use crate::aws::error::EngineError;
use crate::aws::stream::describe::StreamTable;
use crate::aws::stream::{StreamEvent, StreamHandle, StreamOutcome};
use crate::model::design::schema::TableInfo;
use crate::model::exports::table_export::{ExportType, IntegrityReport};
use crate::model::stream::ViewType;

/// Changes per batch sent, as many as one GetRecords page holds.
const BATCH: usize = 1000;
/// What the batches name as their shard.
const SHARD: &str = "export";

/// The export as a stream to follow: only an incremental one, with its window.
pub(super) fn stream_table(
    export: &OpenedExport,
    info: &TableInfo,
) -> Result<StreamTable, EngineError> {
    let summary = &export.summary;
    if summary.export_type != ExportType::Incremental {
        return Err(EngineError::bad_input(format!(
            "export '{}' is a full export: it holds the table's items at one moment, not its writes; an incremental export's writes open in this pane",
            summary.export_id
        )));
    }
    let timeline = recorded_window(summary).ok_or_else(|| {
        EngineError::bad_input(format!(
            "export '{}' names no window (exportFromTime, exportToTime) in manifest-summary.json; its changes are read with tail --export",
            summary.export_id
        ))
    })?;
    Ok(StreamTable {
        info: info.clone(),
        stream_arn: summary.export_arn.clone(),
        view_type: summary.output_view.as_deref().and_then(ViewType::parse),
        timeline,
    })
}

/// Reads the export's changes on a blocking thread and sends them in order; `report` gets the
/// data files' integrity report once they are read.
pub(super) fn start(
    export: Arc<OpenedExport>,
    report: Arc<Mutex<IntegrityReport>>,
    tx: mpsc::Sender<StreamEvent>,
) -> StreamHandle {
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let task = tokio::spawn(async move {
        let send = |event: StreamEvent| {
            let (tx, stop) = (tx.clone(), stop.clone());
            async move {
                tokio::select! {
                    biased;
                    _ = stop.cancelled() => false,
                    sent = tx.send(event) => sent.is_ok(),
                }
            }
        };
        let reading = stop.clone();
        let read = tokio::task::spawn_blocking(move || {
            read_changes_in_order(&export, || !reading.is_cancelled())
        })
        .await;
        let changes = match read {
            Ok((changes, files)) => {
                *report.lock().expect("report lock") = files;
                changes
            }
            Err(e) => {
                let error = EngineError::service(format!("reading the export failed: {e}"));
                send(StreamEvent::Failed { error }).await;
                return;
            }
        };
        if !send(StreamEvent::Ready { shards: 1 }).await {
            return;
        }
        let mut changes = changes.into_iter();
        loop {
            let batch: Vec<_> = changes.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                break;
            }
            let event = StreamEvent::Changes {
                shard_id: Arc::from(SHARD),
                changes: batch,
            };
            if !send(event).await {
                return;
            }
        }
        let outcome = StreamOutcome::Recorded;
        let _ = tx.send(StreamEvent::Done { outcome }).await;
    });
    StreamHandle::from_task(cancel, task)
}
