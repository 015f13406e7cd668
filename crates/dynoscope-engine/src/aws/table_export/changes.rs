//! An incremental export as a change log: every change of its data files, as a stream record,
//! in write-time order. The files hold their changes in no time order, so every change is
//! read before the first is handed on (memory grows with the export's changes, not the table).
//! `tail --export` prints them; the explorer's live pane counts them as it counts a stream's
//! ([`super::ExportBackend`]'s `start_stream`).

use super::reader::{read_data_file, Flow};
use super::OpenedExport;
use crate::model::exports::table_export::{self, IntegrityReport, ManifestSummary, Record};
use crate::model::item::item_size::item_size;
use crate::model::stream::{Change, ChangeEvent, Timeline};

/// An export's change as a stream record: the write time (in microseconds, the export's own
/// order) stands in for the sequence number, and the event follows from the images it carries.
pub fn as_stream_change(change: table_export::Change) -> Change {
    let event = match (&change.old_image, &change.new_image) {
        (_, None) => ChangeEvent::Remove,
        (None, Some(_)) => ChangeEvent::Insert,
        (Some(_), Some(_)) => ChangeEvent::Modify,
    };
    let size = change.new_image.as_ref().map_or(0, item_size)
        + change.old_image.as_ref().map_or(0, item_size);
    Change {
        event,
        keys: change.keys,
        old_image: change.old_image,
        new_image: change.new_image,
        sequence_number: change.write_micros.to_string(),
        created_at_ms: i64::try_from(change.write_micros / 1000).ok(),
        size_bytes: size as u64,
        view: None,
        ttl_delete: false,
    }
}

/// Every change of `export` in write-time order (changes of one microsecond keep the order
/// the files list them in), and the files' reports. Blocks (S3 reads): run it on a blocking
/// thread. `keep_going` is asked between records; `false` stops the read.
pub fn read_changes_in_order(
    export: &OpenedExport,
    keep_going: impl Fn() -> bool,
) -> (Vec<Change>, IntegrityReport) {
    let mut changes: Vec<(u64, usize, Change)> = Vec::new();
    let mut report = IntegrityReport::default();
    for file in &export.files {
        if !keep_going() {
            break;
        }
        let file_report = read_data_file(export, file, &|| !keep_going(), |record| {
            if let Record::Change(c) = record {
                let at = changes.len();
                changes.push((c.write_micros, at, as_stream_change(c)));
            }
            if keep_going() {
                Flow::Continue
            } else {
                Flow::Stop
            }
        });
        report.files.push(file_report);
    }
    changes.sort_by_key(|(micros, at, _)| (*micros, *at));
    (changes.into_iter().map(|(_, _, c)| c).collect(), report)
}

/// The window an incremental export covers, from its manifest's `exportFromTime` and
/// `exportToTime` (RFC 3339 or epoch seconds); `None` when either is missing or unreadable.
pub fn recorded_window(summary: &ManifestSummary) -> Option<Timeline> {
    let at = |text: &Option<String>| {
        crate::model::exports::export_start::parse_instant(text.as_deref()?.trim_matches('"'))
            .ok()
            .and_then(|ms| u64::try_from(ms).ok())
    };
    let (from_ms, to_ms) = (at(&summary.export_from_time)?, at(&summary.export_to_time)?);
    (to_ms > from_ms).then_some(Timeline::Recorded { from_ms, to_ms })
}
