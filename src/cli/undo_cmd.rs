//! `undo JOURNAL [--yes]`: puts every item a bulk run wrote back to its before-image, each
//! conditional on the item being still what the run wrote (a deleted item still absent); an
//! item changed since is reported with its current value and left alone. Without `--yes`
//! (and `--allow-writes`) it says what it would restore and sends nothing.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::args::GlobalArgs;
use super::bulk_cmd::bad;
use super::bulk_journal::{check_journal, read_journal};
use super::bulk_print::{print, Printer, Progress};
use super::bulk_run::{
    check_endpoint, end_run, refused_clause, run_error, stop_on_ctrl_c, stop_reason, RunEnding,
};
use super::output::OutputFormat;
use super::CliError;
use crate::aws::bulk::{self, Items};
use crate::aws::write::{AuditLog, WriteGuard, Writer};
use crate::aws::Engine;
use crate::model::formats::json::append_dynamo_json;
use crate::model::traffic::capacity::format_units;
use crate::model::write::bulk::journal::Outcome;

#[derive(Debug, Clone, Args)]
pub struct UndoArgs {
    /// The journal of the run to undo (its path is printed when the run starts).
    pub journal: PathBuf,
    /// Restore the items (needs --allow-writes); without it, say what would be restored.
    #[arg(long, help_heading = "Writing")]
    pub yes: bool,
    /// Write at most N write units in all.
    #[arg(long, value_name = "N", value_parser = super::bulk_cmd::write_units, help_heading = "Capacity")]
    pub max_wcu: Option<f64>,
    /// Write at most N write units per second.
    #[arg(long, value_name = "N", value_parser = super::bulk_cmd::write_units, help_heading = "Capacity")]
    pub wcu_per_second: Option<f64>,
    /// `json`: conflicts as JSON lines.
    #[arg(long, value_enum, default_value = "jsonl", help_heading = "Output")]
    pub output: OutputFormat,
}

pub async fn run(global: &GlobalArgs, args: UndoArgs) -> Result<(), CliError> {
    let read = read_journal(&args.journal)?;
    let journal = &read.journal;
    let written: Vec<usize> = (0..journal.items.len())
        .filter(|&i| journal.outcomes[i] == Some(Outcome::Written))
        .collect();
    let conn = super::connect(global).await?;
    check_endpoint(journal, &conn, &args.journal)?;
    let version = super::bulk_cmd::version_attribute(global, &journal.header.table)?;
    let version = version.as_deref();
    let info = check_journal(&Engine::new(&conn), &read, &args.journal, version).await?;
    if let Some(torn) = read.torn {
        // Its outcome never reached the disk: undo cannot know the item was written.
        say!(
            "note: journal line {} was cut short (by a crash) and is ignored; an item whose outcome it held is not restored (--resume records that outcome first)",
            torn.line
        );
    }
    // Every restore planned and checked before the first: one DynamoDB would refuse is found
    // here, with nothing written.
    bulk::preflight(&info, &journal.items, &written, true, version).map_err(bad)?;
    if !(args.yes && global.allow_writes) {
        // The price undo pays: each item's restore as the run sends it, indexes included.
        let mut units = 0.0;
        for &i in &written {
            units += bulk::undo_step(&info, &journal.items[i], version)
                .map_err(bad)?
                .worst;
        }
        let mut text = format!(
            "dry run: undo of {} on '{}' ({}) restores {} of its {} items, each only if it is still what the run wrote; about {} WCU\n",
            journal.header.verb,
            journal.header.table,
            journal.header.statement,
            written.len(),
            journal.items.len(),
            format_units(units)
        );
        for &i in written
            .iter()
            .take(crate::model::write::bulk::preview::SAMPLE)
        {
            let mut key = String::new();
            append_dynamo_json(&mut key, &journal.keys[i]);
            text.push_str(&format!("  {key}\n"));
        }
        text.push_str("nothing was written; --allow-writes --yes restores them\n");
        print(&text)?;
        if args.yes {
            // A script asked for the restore: it must be able to tell nothing was written.
            return Err(CliError::bad_input(
                "--yes writes only with --allow-writes: this was a dry run and nothing was written; add --allow-writes",
            ));
        }
        return Ok(());
    }
    let dir = crate::platform::dirs::state_dir().ok_or_else(|| {
        CliError::bad_input("writes need an audit file, and there is no home directory for it")
    })?;
    let guard = Arc::new(WriteGuard::new(args.max_wcu, args.wcu_per_second));
    let writer = Writer::new(&conn, AuditLog::in_dir(&dir)).with_write_guard(guard.clone());
    let stop = stop_on_ctrl_c();
    let mut printer = Printer {
        info: &info,
        items: &journal.items,
        output: args.output,
        progress: Progress::new(written.len()),
        conflicts: String::new(),
    };
    let items = Items {
        todo: &written,
        step: |i| bulk::undo_step(&info, &journal.items[i], version).map(Some),
    };
    let end = bulk::run(&writer, &guard, &stop, items, None, |e| printer.on(e))
        .await
        .map_err(run_error)?;
    let tally = end.tally;
    printer.progress.show(&tally, true);
    print(&printer.conflicts)?;
    let summary = format!(
        "{} restored, {} changed since the run and left as they are, {} failed{}; {} WCU{}",
        tally.done,
        tally.conflicts,
        tally.failed,
        refused_clause(&tally),
        format_units(tally.units),
        tally.throttle_clause()
    );
    let ending = RunEnding {
        stopped: "run undo again to continue (restored items are recognised)".into(),
        failed: "run undo again to retry".into(),
        // The summary already says the changed items were left as they are.
        conflicts: None,
    };
    let stopped = end.stopped.map(|s| stop_reason(&s, args.max_wcu, false));
    end_run(&tally, stopped, summary, ending)
}
