//! `tail --export PATH`: an incremental export's changes, in write-time order, in `tail`'s
//! own line format. Data files hold their changes in no time order, so every change is read
//! first and sorted (memory grows with the export's changes, not with the table).

use std::io::{self, Write};

use super::args::GlobalArgs;
use super::tail::{ChangeOutput, TailArgs};
use super::CliError;
use crate::aws::table_export::{read_data_file, OpenedExport};
use crate::aws::Backend;
use crate::model::item_size::item_size;
use crate::model::json::JsonSpelling;
use crate::model::stream::attribution::WriteTargets;
use crate::model::stream::change_json::write_change;
use crate::model::stream::{Change, ChangeEvent};
use crate::model::table_export::{self, ExportType, IntegrityReport, Record};

/// An export's change as `tail` shows a stream record: the write time (in microseconds, the
/// export's own order) stands in for the sequence number.
fn as_stream_change(change: table_export::Change) -> Change {
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

/// Every change of `export`, with its write time and its place in the files' order, and the
/// files' reports. Blocks (S3 reads): runs on a blocking thread.
#[allow(clippy::type_complexity)]
fn read_changes(export: &OpenedExport) -> (Vec<(u64, usize, Change)>, IntegrityReport) {
    let mut changes: Vec<(u64, usize, Change)> = Vec::new();
    let mut report = IntegrityReport::default();
    for file in &export.files {
        let file_report = read_data_file(export, file, |record| {
            if let Record::Change(c) = record {
                let at = changes.len();
                changes.push((c.write_micros, at, as_stream_change(c)));
            }
            crate::aws::table_export::Flow::Continue
        });
        report.files.push(file_report);
    }
    (changes, report)
}

pub(super) async fn run(global: &GlobalArgs, args: TailArgs) -> Result<(), CliError> {
    for (flag, given) in [
        ("--since", args.since.is_some()),
        ("--trim-horizon", args.trim_horizon),
        ("--until", args.until.is_some()),
        ("--page-size", args.page_size.is_some()),
    ] {
        if given {
            return Err(CliError::bad_input(format!(
                "{flag} has no meaning with --export: an incremental export is read whole, its window fixed when it was made; drop it"
            )));
        }
    }
    if args.output == ChangeOutput::Table {
        return Err(CliError::bad_input(
            "--output table is not offered with --export yet; use jsonl or ddb-jsonl",
        ));
    }
    if args.count == Some(0) {
        return Err(CliError::bad_input(
            "--count '0' writes nothing; give 1 or more",
        ));
    }
    let backend = super::export_source::open(global, &args.export, args.table.as_deref()).await?;
    let export = backend.export();
    if export.summary.export_type != ExportType::Incremental {
        return Err(CliError::bad_input(format!(
            "export '{}' is a full export: it holds items, not changes; read it with scan --export",
            export.summary.export_id
        )));
    }
    let info = backend.describe_table("").await?;
    let targets = WriteTargets::from_table(&info);
    let reading = export.clone();
    let (mut changes, report) = tokio::task::spawn_blocking(move || read_changes(&reading))
        .await
        .map_err(|e| CliError::service(format!("reading the export failed: {e}")))?;
    // Stable: changes of one microsecond keep the order the files list them in.
    changes.sort_by_key(|(micros, at, _)| (*micros, *at));
    let spelling = match args.output {
        ChangeOutput::DdbJsonl => JsonSpelling::Dynamo,
        _ => JsonSpelling::Plain,
    };
    let mut out = String::new();
    let mut written = 0u64;
    for (_, _, change) in &changes {
        if args.count.is_some_and(|n| written >= n) {
            break;
        }
        let followed = args
            .follow_key
            .as_deref()
            .is_none_or(|key| targets.table_key(change).as_deref() == Some(key));
        if followed {
            write_change(&mut out, change, spelling);
            out.push('\n');
            written += 1;
        }
    }
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => {}
    }
    for file in report.troubled() {
        if let Some(line) = file.message() {
            super::say::say(&line);
        }
    }
    match report.shortfall() {
        Some(line) => Err(CliError::service(line)),
        None => Ok(()),
    }
}
