//! One read streamed to stdout as it arrives, and its end worded for the user: a failure with
//! what was written before it, a spent budget, Ctrl-C, a closed pipe.

use super::args::ReadArgs;
use super::drain::{drain, Failure, Next};
use super::output::{ItemWriter, OutputFormat};
use super::CliError;
use crate::aws::{Backend, Delivery, DoneOutcome, ErrorClass, ReadSpec};
use crate::model::formats::json::{to_safe_json, JsonSpelling};
use crate::model::text::wording::noun;
use std::io::{self, IsTerminal};

/// `--columns a,b,c` as attribute names.
pub(super) fn csv_columns(read: &ReadArgs) -> Option<Vec<String>> {
    let text = read.columns.as_deref()?;
    Some(
        text.split(',')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect(),
    )
}

/// Runs the read, writing each page as it arrives. Ctrl-C cancels the read cleanly; a closed
/// stdout (`| head`) stops it quietly. `key_names`: the columns a `table` output shows first.
/// `check` judges the source once the read has ended (an export's integrity), before the
/// `--stats` line.
pub(super) async fn stream<B: Backend>(
    engine: &B,
    spec: ReadSpec,
    key_names: Vec<String>,
    read: &ReadArgs,
    check: impl FnOnce(Option<DoneOutcome>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let operation = spec.operation;
    // JSON lines are written by the engine's segment tasks straight from the SDK's items.
    // The output decides the form: every read streamed here is built to deliver items.
    let spec = ReadSpec {
        delivery: match read.output {
            OutputFormat::Jsonl => Delivery::JsonLines(JsonSpelling::Plain),
            OutputFormat::DdbJsonl => Delivery::JsonLines(JsonSpelling::Dynamo),
            OutputFormat::Table | OutputFormat::Csv | OutputFormat::Json => Delivery::Items,
        },
        ..spec
    };
    let stdout = io::stdout().lock();
    let terminal = stdout.is_terminal();
    let mut writer = ItemWriter::new(stdout, read.output, key_names)
        .with_csv_columns(csv_columns(read))
        .to_terminal(terminal);
    let mut items_written = 0u64;
    let mut write_failure: Option<CliError> = None;
    let mut stdout_closed = false;
    let drained = drain(engine, spec, |page| {
        if stdout_closed {
            return Next::Continue;
        }
        let written = match &page.json_lines {
            Some(lines) => writer.write_rendered(&lines.text),
            None => writer.write_page(&page.items),
        };
        match written {
            Ok(()) => {
                items_written += page.item_count() as u64;
                Next::Continue
            }
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                stdout_closed = true;
                Next::Cancel
            }
            Err(e) => {
                write_failure.get_or_insert(CliError::service(format!("cannot write output: {e}")));
                Next::Cancel
            }
        }
    })
    .await;
    // The JSON array is closed (and a CSV header written) however the read ended.
    if !stdout_closed {
        match writer.finish() {
            Ok(left_out) if !left_out.is_empty() => {
                say!(
"note: not in the CSV, first seen after its columns were chosen: {}; name the columns with --columns",
                    left_out.join(", ")
                );
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            Err(e) => {
                write_failure.get_or_insert(CliError::service(format!("cannot write output: {e}")));
            }
        }
    }
    let stats = drained.stats;
    if let Some(note) = stats.throttle_note().filter(|_| drained.failure.is_none()) {
        super::say::say(&note);
    }
    let failure = match drained.failure {
        Some(Failure {
            error,
            attempts,
            segment,
        }) => {
            // A first request refused outright (no such table, a rejected expression) needs
            // no account of what was written: nothing was.
            let refused = error.class == ErrorClass::BadInput && stats.pages == 0;
            let mut e = CliError::from(error);
            if !refused {
                e.message = format!(
                    "{} (segment {segment}, {} {}; {items_written} {} in {} {} were written before the failure){}",
                    e.message,
                    attempts.attempts,
                    noun(attempts.attempts as u64, "attempt"),
                    noun(items_written, "item"),
                    stats.pages,
                    noun(stats.pages as u64, "page"),
                    stats.throttle_clause()
                );
            }
            Some(e)
        }
        None => write_failure,
    };
    if drained.outcome == Some(DoneOutcome::BudgetReached) {
        say!(
            "note: {}; {items_written} {} in {} {} were written",
            crate::model::traffic::capacity::budget_stop(
                read.max_rcu.unwrap_or_default(),
                stats.consumed_capacity.total
            ),
            noun(items_written, "item"),
            stats.pages,
            noun(stats.pages as u64, "page")
        );
    }
    let unreported = stats.consumed_capacity.unreported_pages;
    if unreported > 0 {
        say!(
            "note: {unreported} {} came back without ConsumedCapacity; each is counted at the worst case of its request ({} RCU in all)",
            noun(unreported, "page"),
            crate::model::traffic::capacity::format_units(stats.consumed_capacity.total)
        );
    }
    let stats_line = read.stats.then(|| to_safe_json(&stats, false));
    let checked = if failure.is_none() && !drained.interrupted && !stdout_closed {
        check(drained.outcome)
    } else {
        Ok(())
    };
    let outcome = match failure {
        Some(f) => Err(f),
        None if checked.is_err() => checked,
        None if drained.interrupted => Err(CliError::new(
            130,
            format!(
                "{} interrupted; {items_written} {} in {} {} were written",
                operation.as_str(),
                noun(items_written, "item"),
                stats.pages,
                noun(stats.pages as u64, "page")
            ),
        )),
        None => Ok(()),
    };
    super::finish_with_stats(outcome, stats_line)
}
