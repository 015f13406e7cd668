//! Running a bulk write: the journal on disk (every line synced before the next write, so a
//! kill loses nothing), each item written under the write guard with the explorer's
//! conditional write, throttles retried with backoff and counted by reason, a progress line
//! on stderr, conflicts listed with the item as it is now, and the exit code that says how the
//! run ended (docs/commands.md): 0 every item written or unchanged, 4 conflicts were skipped,
//! 5 the run stopped before its end (budget, failures or Ctrl-C) and `--resume` continues it.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::bulk_cmd::{bad, Matched};
use super::output::OutputFormat;
use super::partiql_cmd::PartiqlArgs;
use super::CliError;
use crate::aws::write::{AuditLog, WriteAdmission, WriteBackend, WriteFailure, WriteGuard, Writer};
use crate::aws::{Connection, Engine, ErrorClass};
use crate::model::bulk::cost::item_cost;
use crate::model::bulk::journal::{self, Header, Journal, Outcome};
use crate::model::bulk::BulkItem;
use crate::model::capacity::format_units;
use crate::model::json::append_dynamo_json;
use crate::model::sanitize::sanitize;
use crate::model::schema::TableInfo;
use crate::model::value::Item;
use crate::model::write::{diff, plan_delete, plan_edit, plan_undo, UndoImage, WritePlan};

/// Rounds of retries of a write the SDK gave up on (throttled, 5xx, timed out), beyond its own.
const RETRY_ROUNDS: u32 = 6;
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// Exit code of a run that skipped conflicting items.
pub const EXIT_CONFLICTS: u8 = 4;
/// Exit code of a run that stopped before its end: `--resume` continues it.
pub const EXIT_UNFINISHED: u8 = 5;

/// The journal file, appended to and synced line by line.
pub(super) struct JournalFile {
    pub path: PathBuf,
    file: File,
}

impl JournalFile {
    fn create(path: PathBuf) -> Result<JournalFile, CliError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                bad(format!(
                    "cannot create the journal's directory '{}': {e}",
                    dir.display()
                ))
            })?;
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(&path).map_err(|e| {
            bad(format!(
                "cannot create the journal '{}': {e}; nothing was written (name a new file with --journal)",
                path.display()
            ))
        })?;
        Ok(JournalFile { path, file })
    }

    fn append_to(path: &Path) -> Result<JournalFile, CliError> {
        let file = crate::logging::open_private_append(path).map_err(|e| {
            bad(format!(
                "cannot append to the journal '{}': {e}",
                path.display()
            ))
        })?;
        Ok(JournalFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends `text` and syncs it: once this returns, a kill cannot lose it.
    fn write(&mut self, text: &str) -> Result<(), CliError> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| {
                CliError::new(
                    EXIT_UNFINISHED,
                    format!(
                        "cannot write the journal '{}': {e}; the run stops here (--resume continues it)",
                        self.path.display()
                    ),
                )
            })
    }
}

fn default_journal(table: &str) -> Result<PathBuf, CliError> {
    let dir = crate::platform::dirs::state_dir().ok_or_else(|| {
        CliError::bad_input("a bulk write needs a journal and there is no home directory for it; name one with --journal FILE")
    })?;
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let safe: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(dir
        .join("journals")
        .join(format!("{secs}-{safe}-{}.jsonl", std::process::id())))
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
) -> Result<(), CliError> {
    let path = match &args.bulk.journal {
        Some(p) => p.clone(),
        None => default_journal(&matched.info.name)?,
    };
    let mut file = JournalFile::create(path)?;
    file.write(&journal::header_line(&header))?;
    let mut text = String::new();
    for (n, item) in matched.items.iter().enumerate() {
        text.push_str(&journal::item_line(n, &item.key(&matched.info), item));
        if text.len() > 1 << 20 {
            file.write(&std::mem::take(&mut text))?;
        }
    }
    text.push_str(&journal::planned_line(matched.items.len()));
    file.write(&text)?;
    say!("journal: {}", sanitize(&file.path.display().to_string()));
    let todo: Vec<usize> = (0..matched.items.len()).collect();
    let run = Run {
        info: &matched.info,
        items: &matched.items,
        output: args.output,
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

pub(super) async fn resume(
    conn: &Connection,
    args: &PartiqlArgs,
    path: &Path,
) -> Result<(), CliError> {
    let journal = read_journal(path)?;
    let h = &journal.header;
    if h.statement != args.statement || h.parameters != args.parameters {
        return Err(bad(format!(
            "the journal '{}' is of another statement: {}{}; give the same statement and --parameters to resume it",
            path.display(),
            h.statement,
            h.parameters.as_deref().map(|p| format!(" with --parameters {p}")).unwrap_or_default()
        )));
    }
    check_endpoint(&journal, conn, path)?;
    if journal.planned.is_none() {
        return Err(bad(format!(
            "the journal '{}' stopped before it listed every item, so nothing was written; run the statement again without --resume",
            path.display()
        )));
    }
    let info = Engine::new(conn).describe_table(&h.table).await?;
    let todo = journal.unfinished();
    say!(
        "resuming '{}': {} of {} items unfinished",
        sanitize(&path.display().to_string()),
        todo.len(),
        journal.items.len()
    );
    let mut file = JournalFile::append_to(path)?;
    let run = Run {
        info: &info,
        items: &journal.items,
        output: args.output,
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

pub(super) fn read_journal(path: &Path) -> Result<Journal, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| bad(format!("cannot read the journal '{}': {e}", path.display())))?;
    journal::parse(&text).map_err(|e| bad(format!("'{}': {e}", path.display())))
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

/// Whether `current` (`None`: no item) is exactly `expected`: a write that went through
/// although its answer was lost (a retried attempt, or a run killed before its outcome line).
pub(super) fn is_image(current: Option<&Item>, expected: Option<&Item>) -> bool {
    match (current, expected) {
        (None, None) => true,
        (Some(c), Some(e)) => diff(c, e).is_empty(),
        _ => false,
    }
}

#[derive(Debug, Default)]
pub(super) struct Tally {
    pub done: usize,
    pub unchanged: usize,
    pub conflicts: usize,
    pub failed: usize,
    pub units: f64,
    pub throttles: u64,
    pub reasons: BTreeMap<String, u64>,
}

impl Tally {
    fn count_throttles(&mut self, attempts: &crate::aws::attempts::AttemptStats) {
        self.throttles += u64::from(attempts.throttles);
        if attempts.throttles > 0 && attempts.reasons.is_empty() {
            *self.reasons.entry("no reason given".into()).or_default() +=
                u64::from(attempts.throttles);
        }
        for r in &attempts.reasons {
            let name = if r.reason.is_empty() {
                "no reason given"
            } else {
                &r.reason
            };
            *self.reasons.entry(name.to_string()).or_default() += 1;
        }
    }

    pub fn throttle_clause(&self) -> String {
        if self.throttles == 0 {
            return String::new();
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        format!(
            "; {} throttled attempts retried ({})",
            self.throttles,
            reasons.join(", ")
        )
    }
}

/// How one write ended, before it is journaled.
pub(super) enum Sent {
    Done(f64),
    Conflict(Option<Item>),
    Failed(String),
}

/// Sends `plan`, retrying what the SDK gave up on with backoff; `None` when `stop` fired.
pub(super) async fn send(
    writer: &Writer,
    plan: &WritePlan,
    written: Option<&Item>,
    tally: &mut Tally,
    stop: &CancellationToken,
) -> Option<Sent> {
    let mut backoff = FIRST_BACKOFF;
    for round in 0..=RETRY_ROUNDS {
        match writer.write(plan.clone()).await {
            Ok(done) => {
                tally.count_throttles(&done.attempts);
                return Some(Sent::Done(done.consumed.total));
            }
            Err(WriteFailure::Conflict {
                current, attempts, ..
            }) => {
                tally.count_throttles(&attempts);
                // An earlier attempt of this write went through and its answer was lost:
                // the item is what the write makes it, so it is written, once.
                if is_image(current.as_ref(), written) {
                    return Some(Sent::Done(0.0));
                }
                return Some(Sent::Conflict(current));
            }
            Err(WriteFailure::Failed { error, attempts }) => {
                tally.count_throttles(&attempts);
                if error.class == ErrorClass::BadInput || round == RETRY_ROUNDS {
                    return Some(Sent::Failed(error.message));
                }
                tokio::select! {
                    _ = tokio::time::sleep(backoff) => {}
                    _ = stop.cancelled() => return None,
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
    unreachable!("the last round returns")
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
        let finished = t.done + t.unchanged + t.conflicts + t.failed;
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

struct Run<'a> {
    info: &'a TableInfo,
    items: &'a [BulkItem],
    output: OutputFormat,
}

impl Run<'_> {
    fn plan(&self, item: &BulkItem) -> Result<WritePlan, CliError> {
        let (table, keys) = (&self.info.name, &self.info.keys);
        match &item.after {
            Some(after) => plan_edit(table, keys, &item.before, after, None).map_err(bad),
            None => plan_delete(table, keys, std::slice::from_ref(&item.before), None)
                .map_err(bad)?
                .pop()
                .ok_or_else(|| bad("nothing to delete")),
        }
    }

    async fn execute(
        &self,
        conn: &Connection,
        file: &mut JournalFile,
        todo: &[usize],
        max_wcu: Option<f64>,
        rate: Option<f64>,
    ) -> Result<(), CliError> {
        let writer = writer(conn)?;
        let guard = WriteGuard::new(max_wcu, rate);
        let stop = stop_on_ctrl_c();
        let mut tally = Tally::default();
        let mut progress = Progress::new(todo.len());
        let mut conflicts = String::new();
        let mut stopped: Option<String> = None;
        for &n in todo {
            let item = &self.items[n];
            if item.unchanged() {
                file.write(&journal::outcome_line(n, &Outcome::Unchanged))?;
                tally.unchanged += 1;
                continue;
            }
            let plan = self.plan(item)?;
            let worst = item_cost(self.info, &item.before, item.after.as_ref()).total();
            let ticket = match guard.admit(worst, &stop).await {
                None => {
                    stopped = Some("interrupted (Ctrl-C)".into());
                    break;
                }
                Some(WriteAdmission::Exhausted { spent, needed }) => {
                    stopped = Some(format!(
                        "--max-wcu {} reached: {} WCU spent, the next item needs {}",
                        format_units(max_wcu.unwrap_or_default()),
                        format_units(spent),
                        format_units(needed)
                    ));
                    break;
                }
                Some(WriteAdmission::Go(ticket)) => ticket,
            };
            let Some(sent) = send(&writer, &plan, item.after.as_ref(), &mut tally, &stop).await
            else {
                guard.settle(ticket, worst);
                stopped = Some("interrupted (Ctrl-C)".into());
                break;
            };
            let outcome = match sent {
                Sent::Done(units) => {
                    // A response without ConsumedCapacity is charged its worst case.
                    let units = if units > 0.0 { units } else { worst };
                    guard.settle(ticket, units);
                    tally.units += units;
                    tally.done += 1;
                    Outcome::Written
                }
                Sent::Conflict(current) => {
                    guard.settle(ticket, worst);
                    tally.units += worst;
                    tally.conflicts += 1;
                    conflicts.push_str(&conflict_line(
                        &self.items[n],
                        self.info,
                        current.as_ref(),
                        self.output,
                    ));
                    Outcome::Conflict(current)
                }
                Sent::Failed(why) => {
                    guard.settle(ticket, worst);
                    tally.units += worst;
                    tally.failed += 1;
                    say!("failed: {}", sanitize(&why));
                    Outcome::Failed(why)
                }
            };
            file.write(&journal::outcome_line(n, &outcome))?;
            progress.show(&tally, false);
            if stop.is_cancelled() {
                stopped = Some("interrupted (Ctrl-C)".into());
                break;
            }
        }
        progress.show(&tally, true);
        print(&conflicts)?;
        let path = sanitize(&file.path.display().to_string()).into_owned();
        let summary = format!(
            "{} written, {} unchanged, {} conflicts skipped, {} failed; {} WCU{}; journal: {path}",
            tally.done,
            tally.unchanged,
            tally.conflicts,
            tally.failed,
            format_units(tally.units),
            tally.throttle_clause()
        );
        let ending = RunEnding {
            stopped: format!("continue with --resume {path}"),
            failed: format!("the failed items were not written: --resume {path} tries them again"),
            conflicts: Some("the conflicting items changed since they were read and were left as they are (listed above)"),
        };
        end_run(&tally, stopped, summary, ending)
    }
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

/// The end of a write run (a bulk statement, an undo): a stop or failed items exit
/// [`EXIT_UNFINISHED`], skipped conflicts [`EXIT_CONFLICTS`], each with one line; otherwise the
/// summary on stderr and exit 0.
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

/// Undo's plan for one written item: back to its before-image, conditional on it being still
/// what the run wrote.
pub(super) fn undo_plan(info: &TableInfo, item: &BulkItem) -> Result<WritePlan, CliError> {
    let image = UndoImage {
        before: Some(item.before.clone()),
        after: item.after.clone(),
    };
    plan_undo(&info.name, &info.keys, std::slice::from_ref(&image), None)
        .map_err(bad)?
        .pop()
        .ok_or_else(|| bad("nothing to undo"))
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
