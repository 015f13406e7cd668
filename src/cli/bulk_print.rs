//! How a write run (a bulk statement, an undo) shows itself on the command line: the
//! progress line on stderr at most once a second, each failure's reason, the conflicting
//! items on stdout with the item as it is now.

use std::io::{self, Write};
use std::time::Duration;

use tokio::time::Instant;

use super::output::OutputFormat;
use super::CliError;
use crate::aws::bulk::{RunEvent, Tally};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;
use crate::model::write::bulk::BulkItem;

/// Prints what the engine's runner reports: a failed item's reason and the progress line on
/// stderr, conflicts (collected for stdout, printed at the end).
pub(super) struct Printer<'a> {
    pub info: &'a TableInfo,
    pub items: &'a [BulkItem],
    pub output: OutputFormat,
    pub progress: Progress,
    pub conflicts: String,
}

impl Printer<'_> {
    pub fn on(&mut self, event: RunEvent<'_>) {
        match event {
            RunEvent::Progress(t) => self.progress.show(t, false),
            RunEvent::Conflict { index, current } => self.conflicts.push_str(&conflict_line(
                &self.items[index],
                self.info,
                current.as_ref(),
                self.output,
            )),
            RunEvent::Failed { why, .. } => say!("failed: {}", sanitize(&why)),
        }
    }
}

/// Prints a progress line on stderr at most once a second.
pub(super) struct Progress {
    started: Instant,
    last: Option<Instant>,
    total: usize,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            started: Instant::now(),
            last: None,
            total,
        }
    }

    pub fn show(&mut self, t: &Tally, force: bool) {
        let now = Instant::now();
        if !force && self.last.is_some_and(|l| now - l < Duration::from_secs(1)) {
            return;
        }
        self.last = Some(now);
        let finished = t.finished();
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = match finished {
            0 => "?".to_string(),
            f => format!(
                "{:.0} s",
                elapsed / f as f64 * (self.total - f.min(self.total)) as f64
            ),
        };
        say!(
            "progress: {finished}/{} items: {} written, {} unchanged, {} skipped (conflicts), {} failed; {} WCU; ETA {eta}",
            self.total,
            t.done,
            t.unchanged,
            t.conflicts,
            t.failed,
            format_units(t.units)
        );
    }
}

/// One conflicting item on stdout: its key and the item as stored now.
pub(super) fn conflict_line(
    item: &BulkItem,
    info: &TableInfo,
    current: Option<&Item>,
    output: OutputFormat,
) -> String {
    let mut key = String::new();
    append_dynamo_json(&mut key, &item.key(info));
    let mut now = String::new();
    match current {
        Some(c) => append_dynamo_json(&mut now, c),
        None => now.push_str("null"),
    }
    match output {
        OutputFormat::Json => format!("{{\"conflict\":{key},\"current\":{now}}}\n"),
        _ => format!("conflict: {key} changed since it was read; it is now {now}\n"),
    }
}

pub(super) fn print(text: &str) -> Result<(), CliError> {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(&sanitize(line));
        out.push('\n');
    }
    match io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
