//! Running a bulk write: the journal on disk (every line synced before the next write, so a
//! kill loses nothing), each item written under the write guard with the explorer's
//! conditional write, throttles retried with backoff and counted by reason, a progress line
//! on stderr, conflicts listed with the item as it is now, and the exit code that says how the
//! run ended (docs/commands.md): 0 every item written or unchanged, 4 conflicts were skipped,
//! 5 the run stopped before its end (budget, failures or Ctrl-C) and `--resume` continues it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::args::GlobalArgs;
use super::bulk_cmd::{bad, version_attribute, Matched};
use super::bulk_journal::{check_journal, read_journal};
use super::bulk_print::{print, Printer, Progress};
use super::output::OutputFormat;
use super::partiql_cmd::PartiqlArgs;
use super::CliError;
use crate::aws::bulk::{self, Items, JournalError, JournalFile, RunError, Stopped, Tally};
use crate::aws::write::{AuditLog, WriteGuard, Writer};
use crate::aws::{Connection, Engine};
use crate::model::design::schema::TableInfo;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;
use crate::model::write::bulk::journal::{Header, Journal};
use crate::model::write::bulk::BulkItem;

/// Exit code of a run that skipped conflicting items.
pub const EXIT_CONFLICTS: u8 = 4;
/// Exit code of a run that stopped before its end: `--resume` continues it.
pub const EXIT_UNFINISHED: u8 = 5;

fn default_journal(table: &str) -> Result<PathBuf, CliError> {
    let dir = crate::platform::dirs::state_dir().ok_or_else(|| {
        CliError::bad_input("a bulk write needs a journal and there is no home directory for it; name one with --journal FILE")
    })?;
    Ok(bulk::journal_file::default_path(&dir, table))
}

fn writer(conn: &Connection) -> Result<Writer, CliError> {
    let dir = crate::platform::dirs::state_dir().ok_or_else(|| {
        CliError::bad_input("writes need an audit file, and there is no home directory for it")
    })?;
    Ok(Writer::new(conn, AuditLog::in_dir(&dir)))
}

pub(super) async fn execute_new(
    conn: &Connection,
    args: &PartiqlArgs,
    header: Header,
    matched: Matched,
    version: Option<&str>,
) -> Result<(), CliError> {
    let path = match &args.bulk.journal {
        Some(p) => p.clone(),
        None => default_journal(&matched.info.name)?,
    };
    let mut file =
        JournalFile::start(path, &header, &matched.info, &matched.items).map_err(journal_error)?;
    say!("journal: {}", sanitize(&file.path.display().to_string()));
    let todo: Vec<usize> = (0..matched.items.len()).collect();
    let run = Run {
        info: &matched.info,
        items: &matched.items,
        output: args.output,
        version,
    };
    run.execute(
        conn,
        &mut file,
        &todo,
        args.bulk.max_wcu,
        args.bulk.wcu_per_second,
    )
    .await
}

/// The CLI's error for a journal that cannot be used: nothing written yet (bad input), or the
/// run stopped where it is (`--resume` continues it).
pub(super) fn journal_error(e: JournalError) -> CliError {
    match e {
        JournalError::Open(m) => bad(m),
        JournalError::Write(m) => CliError::new(EXIT_UNFINISHED, m),
    }
}

pub(super) fn run_error(e: RunError) -> CliError {
    match e {
        RunError::Plan(m) => bad(m),
        RunError::Journal(m) => CliError::new(EXIT_UNFINISHED, m),
    }
}

/// The first line of a run that stopped: why.
pub(super) fn stop_reason(stopped: &Stopped, max_wcu: Option<f64>, detailed: bool) -> String {
    match stopped {
        Stopped::Cancelled => "interrupted (Ctrl-C)".into(),
        Stopped::Budget { spent, needed } if detailed => format!(
            "--max-wcu {} reached: {} WCU spent, the next item needs {}",
            format_units(max_wcu.unwrap_or_default()),
            format_units(*spent),
            format_units(*needed)
        ),
        Stopped::Budget { .. } => format!(
            "--max-wcu {} reached",
            format_units(max_wcu.unwrap_or_default())
        ),
    }
}

pub(super) async fn resume(
    conn: &Connection,
    args: &PartiqlArgs,
    path: &Path,
    global: &GlobalArgs,
) -> Result<(), CliError> {
    let read = read_journal(path)?;
    let journal = &read.journal;
    let h = &journal.header;
    if h.statement != args.statement || h.parameters != args.parameters {
        return Err(bad(format!(
            "the journal '{}' is of another statement: {}{}; give the same statement and --parameters to resume it",
            path.display(),
            h.statement,
            h.parameters.as_deref().map(|p| format!(" with --parameters {p}")).unwrap_or_default()
        )));
    }
    check_endpoint(journal, conn, path)?;
    if journal.planned.is_none() {
        return Err(bad(format!(
            "the journal '{}' stopped before it listed every item, so nothing was written; run the statement again without --resume",
            path.display()
        )));
    }
    let version = version_attribute(global, &h.table)?;
    let info = check_journal(&Engine::new(conn), &read, path, version.as_deref()).await?;
    let todo = journal.unfinished();
    bulk::preflight(&info, &journal.items, &todo, false, version.as_deref()).map_err(bad)?;
    say!(
        "resuming '{}': {} of {} items unfinished",
        sanitize(&path.display().to_string()),
        todo.len(),
        journal.items.len()
    );
    let mut file = JournalFile::append_to(path).map_err(journal_error)?;
    if let Some(torn) = read.torn {
        let len = read.whole_len + torn.bytes as u64;
        file.cut_to(read.whole_len, len).map_err(journal_error)?;
        say!(
            "journal line {} was cut short (by a crash): cut off before resuming",
            torn.line
        );
    }
    let run = Run {
        info: &info,
        items: &journal.items,
        output: args.output,
        version: version.as_deref(),
    };
    run.execute(
        conn,
        &mut file,
        &todo,
        args.bulk.max_wcu,
        args.bulk.wcu_per_second,
    )
    .await
}

pub(super) fn check_endpoint(
    journal: &Journal,
    conn: &Connection,
    path: &Path,
) -> Result<(), CliError> {
    if journal.header.endpoint != conn.endpoint {
        return Err(bad(format!(
            "the journal '{}' was written against {}, not {}; pass --endpoint-url/--region for that endpoint",
            path.display(),
            journal.header.endpoint,
            conn.endpoint
        )));
    }
    Ok(())
}

/// Ctrl-C cancels the token; the write in flight finishes and is journaled first.
pub(super) fn stop_on_ctrl_c() -> CancellationToken {
    let stop = CancellationToken::new();
    let token = stop.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            token.cancel();
        }
    });
    stop
}

struct Run<'a> {
    info: &'a TableInfo,
    items: &'a [BulkItem],
    output: OutputFormat,
    version: Option<&'a str>,
}

impl Run<'_> {
    async fn execute(
        &self,
        conn: &Connection,
        file: &mut JournalFile,
        todo: &[usize],
        max_wcu: Option<f64>,
        rate: Option<f64>,
    ) -> Result<(), CliError> {
        let guard = Arc::new(WriteGuard::new(max_wcu, rate));
        let writer = writer(conn)?.with_write_guard(guard.clone());
        let stop = stop_on_ctrl_c();
        let mut printer = Printer {
            info: self.info,
            items: self.items,
            output: self.output,
            progress: Progress::new(todo.len()),
            conflicts: String::new(),
        };
        let items = Items {
            todo,
            step: |n| bulk::run_step(self.info, &self.items[n], self.version),
        };
        let end = bulk::run(&writer, &guard, &stop, items, Some(file), |e| printer.on(e))
            .await
            .map_err(run_error)?;
        let tally = end.tally;
        printer.progress.show(&tally, true);
        print(&printer.conflicts)?;
        let path = sanitize(&file.path.display().to_string()).into_owned();
        let summary = format!(
            "{} written, {} unchanged, {} conflicts skipped, {} failed{}; {} WCU{}; journal: {path}",
            tally.done,
            tally.unchanged,
            tally.conflicts,
            tally.failed,
            refused_clause(&tally),
            format_units(tally.units),
            tally.throttle_clause()
        );
        let ending = RunEnding {
            stopped: format!("continue with --resume {path}"),
            failed: format!("the failed items were not written: --resume {path} tries them again"),
            conflicts: Some("the conflicting items changed since they were read and were left as they are (listed above)"),
        };
        let stopped = end.stopped.map(|s| stop_reason(&s, max_wcu, true));
        end_run(&tally, stopped, summary, ending)
    }
}

/// ", N refused by DynamoDB" when DynamoDB refused items for good, else nothing.
pub(super) fn refused_clause(tally: &Tally) -> String {
    if tally.refused == 0 {
        return String::new();
    }
    format!(
        ", {} refused by DynamoDB (listed above; running it again cannot write them)",
        tally.refused
    )
}

/// What a write run's last line adds to its summary, by how the run ended.
pub(super) struct RunEnding {
    /// After a stop (Ctrl-C, the budget, a throttling storm): how to continue.
    pub stopped: String,
    /// When items failed: how to try them again.
    pub failed: String,
    /// When conflicts were skipped: what that means, if the summary does not say it.
    pub conflicts: Option<&'static str>,
}

/// The end of a write run (a bulk statement, an undo): a stop or failed items (what a resumed
/// run can finish) exit [`EXIT_UNFINISHED`]; skipped conflicts and items DynamoDB refused for
/// good (the run ended, and resuming cannot change them) [`EXIT_CONFLICTS`], each with one
/// line; otherwise the summary on stderr and exit 0.
pub(super) fn end_run(
    tally: &Tally,
    stopped: Option<impl std::fmt::Display>,
    summary: String,
    ending: RunEnding,
) -> Result<(), CliError> {
    if let Some(why) = stopped {
        return Err(CliError::new(
            EXIT_UNFINISHED,
            format!("{why}; {summary}; {}", ending.stopped),
        ));
    }
    if tally.failed > 0 {
        return Err(CliError::new(
            EXIT_UNFINISHED,
            format!("{summary}; {}", ending.failed),
        ));
    }
    if tally.refused > 0 && tally.conflicts == 0 {
        return Err(CliError::new(EXIT_CONFLICTS, summary));
    }
    if tally.conflicts > 0 {
        let line = match ending.conflicts {
            Some(meaning) => format!("{summary}; {meaning}"),
            None => summary,
        };
        return Err(CliError::new(EXIT_CONFLICTS, line));
    }
    say!("{summary}");
    Ok(())
}
