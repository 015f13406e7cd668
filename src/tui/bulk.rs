//! The bulk dialog's runs and undos, each on a task of its own over the engine's bulk runner
//! (`aws::bulk`, the code `partiql` and `undo` run): every write conditional on the item being
//! its before-image (a run) or still what the run wrote (an undo), admitted by the session's
//! one write guard (`--max-wcu`, `--wcu-per-second`), a run journaled under the journal
//! directory before its first write. Its news goes back to `update` as `Msg::Bulk`; a stop
//! cancels the run's token, and the run ends before its next item.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::EffectRunner;
use crate::app::msg::{BulkEffect, BulkMsg, BulkOutcome, Msg};
use crate::app::state::{BulkEnded, BulkProgress};
use crate::aws::bulk::{self, Items, JournalFile, RunEvent, Stopped, Tally};
use crate::aws::write::{WriteBackend, WriteGuard};
use crate::aws::Backend;
use crate::model::design::schema::TableInfo;
use crate::model::traffic::capacity::format_units;
use crate::model::write::bulk::journal::Header;
use crate::model::write::bulk::BulkItem;

/// What the runner keeps for the bulk dialog: the session's write guard, where journals go,
/// and the stop token of each run under way.
pub struct BulkRuns {
    guard: Arc<WriteGuard>,
    max_wcu: Option<f64>,
    journal_dir: Option<PathBuf>,
    stops: HashMap<u64, CancellationToken>,
}

impl Default for BulkRuns {
    fn default() -> Self {
        BulkRuns::new(None, None, None)
    }
}

impl BulkRuns {
    /// `max_wcu` and `per_second` guard every run and undo of the session together.
    pub fn new(
        max_wcu: Option<f64>,
        per_second: Option<f64>,
        journal_dir: Option<PathBuf>,
    ) -> BulkRuns {
        BulkRuns {
            guard: Arc::new(WriteGuard::new(max_wcu, per_second)),
            max_wcu,
            journal_dir,
            stops: HashMap::new(),
        }
    }

    /// Stops every run under way (the explorer is closing): each ends before its next item,
    /// and its journal lets `partiql --resume` continue it.
    pub fn stop_all(&self) {
        for stop in self.stops.values() {
            stop.cancel();
        }
    }
}

/// The dialog's view of the engine's tally.
fn progress(t: &Tally, started: Instant) -> BulkProgress {
    BulkProgress {
        done: t.done,
        unchanged: t.unchanged,
        conflicts: t.conflicts,
        failed: t.failed + t.refused,
        units: t.units,
        throttles: t.throttles,
        elapsed_ms: started.elapsed().as_millis() as u64,
    }
}

fn send(tx: &UnboundedSender<Msg>, msg: BulkMsg) {
    let _ = tx.send(Msg::Bulk(msg));
}

/// Items' outcomes sent at most once a [`BATCH`]: each message re-filters the loaded view,
/// which at a million loaded items costs milliseconds, and writes can end hundreds a second.
struct Batch<'a> {
    run: u64,
    tx: &'a UnboundedSender<Msg>,
    pending: Vec<(usize, BulkOutcome)>,
    /// When the last batch went; none yet, so the first outcome goes at once. The runtime's
    /// clock, which the rate guard's waits also use.
    sent_at: Option<tokio::time::Instant>,
}

const BATCH: std::time::Duration = std::time::Duration::from_millis(100);

impl<'a> Batch<'a> {
    fn new(run: u64, tx: &'a UnboundedSender<Msg>) -> Self {
        Batch {
            run,
            tx,
            pending: Vec::new(),
            sent_at: None,
        }
    }

    fn push(&mut self, index: usize, outcome: BulkOutcome) {
        self.pending.push((index, outcome));
        if self.sent_at.is_none_or(|at| at.elapsed() >= BATCH) {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let outcomes = std::mem::take(&mut self.pending);
            send(
                self.tx,
                BulkMsg::Items {
                    run: self.run,
                    outcomes,
                },
            );
        }
        self.sent_at = Some(tokio::time::Instant::now());
    }
}

/// One run or undo: what it writes and how.
struct Job<W> {
    run: u64,
    writer: W,
    guard: Arc<WriteGuard>,
    stop: CancellationToken,
    tx: UnboundedSender<Msg>,
    max_wcu: Option<f64>,
    info: TableInfo,
    items: Vec<BulkItem>,
    /// The table's `version_attribute`, as `partiql` and `undo` plan with it.
    version: Option<String>,
}

impl<W: WriteBackend> Job<W> {
    /// Writes `todo` (journaling each outcome in `journal`), sending each item's end and the
    /// tally, then the end.
    async fn go(self, todo: Vec<usize>, undo: bool, journal: Option<&mut JournalFile>) {
        let Job {
            run,
            writer,
            guard,
            stop,
            tx,
            max_wcu,
            info,
            items,
            version,
        } = self;
        let started = Instant::now();
        // The item the runner asked for last: the one a `Progress` whose `done` grew wrote.
        let current = AtomicUsize::new(0);
        let mut last_done = 0;
        let step = |n: usize| {
            current.store(n, Ordering::Relaxed);
            if undo {
                bulk::undo_step(&info, &items[n], version.as_deref()).map(Some)
            } else {
                bulk::run_step(&info, &items[n], version.as_deref())
            }
        };
        let mut batch = Batch::new(run, &tx);
        let on = |event: RunEvent<'_>| match event {
            RunEvent::Progress(t) => {
                if t.done > last_done {
                    last_done = t.done;
                    batch.push(current.load(Ordering::Relaxed), BulkOutcome::Written);
                }
                send(
                    &tx,
                    BulkMsg::Progress {
                        run,
                        progress: progress(t, started),
                    },
                );
            }
            RunEvent::Conflict { index, current } => {
                batch.push(index, BulkOutcome::Conflict(current))
            }
            RunEvent::Failed { index, why } => batch.push(index, BulkOutcome::Failed(why)),
        };
        let items_ = Items { todo: &todo, step };
        let result = bulk::run(&writer, &guard, &stop, items_, journal, on).await;
        // Every outcome before the end: the end turns the written ones into `U`'s record.
        batch.flush();
        let (progress, ended) = match result {
            Ok(end) => {
                let ended = match end.stopped {
                    None => BulkEnded::Complete,
                    Some(Stopped::Cancelled) => {
                        BulkEnded::Stopped("Esc: the run stopped before its next item".into())
                    }
                    Some(Stopped::Budget { spent, needed }) => BulkEnded::Stopped(format!(
                        "--max-wcu {} reached: {} WCU spent, the next item needs {}",
                        format_units(max_wcu.unwrap_or_default()),
                        format_units(spent),
                        format_units(needed)
                    )),
                };
                (progress(&end.tally, started), ended)
            }
            Err(bulk::RunError::Plan(why) | bulk::RunError::Journal(why)) => (
                BulkProgress {
                    elapsed_ms: started.elapsed().as_millis() as u64,
                    ..BulkProgress::default()
                },
                BulkEnded::Failed(why),
            ),
        };
        send(
            &tx,
            BulkMsg::Done {
                run,
                progress,
                ended,
            },
        );
    }
}

impl<B: Backend, W: WriteBackend> EffectRunner<B, W> {
    pub(super) fn bulk(&mut self, effect: BulkEffect) {
        let (run, undo_todo, info, items, header, version) = match effect {
            BulkEffect::Stop(run) => {
                if let Some(stop) = self.bulk.stops.get(&run) {
                    stop.cancel();
                }
                return;
            }
            BulkEffect::Run {
                run,
                info,
                items,
                header,
                version,
            } => (run, None, info, items, Some(header), version),
            BulkEffect::Undo {
                run,
                info,
                items,
                todo,
                version,
            } => (run, Some(todo), info, items, None, version),
        };
        let tx = self.msg_tx.clone();
        let fail = |why: &str| {
            send(
                &tx,
                BulkMsg::Done {
                    run,
                    progress: BulkProgress::default(),
                    ended: BulkEnded::Failed(why.to_string()),
                },
            )
        };
        let Some(writer) = self.writer.clone() else {
            return fail(
                "writes are off: start dynoscope with --allow-writes; nothing was written",
            );
        };
        self.bulk.stops.retain(|_, s| !s.is_cancelled());
        let stop = CancellationToken::new();
        self.bulk.stops.insert(run, stop.clone());
        let job = Job {
            run,
            writer: writer.guarded(self.bulk.guard.clone()),
            guard: self.bulk.guard.clone(),
            stop,
            tx: tx.clone(),
            max_wcu: self.bulk.max_wcu,
            info: *info,
            items,
            version,
        };
        match (undo_todo, header) {
            (Some(todo), _) => {
                let version = job.version.as_deref();
                if let Err(why) = bulk::preflight(&job.info, &job.items, &todo, true, version) {
                    return fail(&why);
                }
                tokio::spawn(job.go(todo, true, None));
            }
            (None, Some(header)) => {
                let Some(dir) = self.bulk.journal_dir.clone() else {
                    return fail("a bulk run needs a journal and there is no home directory for it; nothing was written");
                };
                tokio::spawn(start(job, dir, *header));
            }
            (None, None) => unreachable!("a run has its header"),
        }
    }
}

/// A new run: its journal on disk (every item's images, synced) before the first write.
async fn start<W: WriteBackend>(job: Job<W>, dir: PathBuf, header: Header) {
    // Every item planned and checked before the journal: one DynamoDB would refuse stops
    // the run here, with nothing written.
    let todo: Vec<usize> = (0..job.items.len()).collect();
    if let Err(why) = bulk::preflight(&job.info, &job.items, &todo, false, job.version.as_deref()) {
        send(
            &job.tx,
            BulkMsg::Done {
                run: job.run,
                progress: BulkProgress::default(),
                ended: BulkEnded::Failed(why),
            },
        );
        return;
    }
    let path = journal_path(&dir, &job.info.name, job.run);
    let (info, items) = (job.info.clone(), job.items.clone());
    let opened =
        tokio::task::spawn_blocking(move || JournalFile::start(path, &header, &info, &items)).await;
    let mut file = match opened {
        Ok(Ok(file)) => file,
        Ok(Err(e)) => {
            send(
                &job.tx,
                BulkMsg::Done {
                    run: job.run,
                    progress: BulkProgress::default(),
                    ended: BulkEnded::Failed(format!("{e}; nothing was written")),
                },
            );
            return;
        }
        Err(e) => {
            send(
                &job.tx,
                BulkMsg::Done {
                    run: job.run,
                    progress: BulkProgress::default(),
                    ended: BulkEnded::Failed(format!("the journal could not be written: {e}")),
                },
            );
            return;
        }
    };
    send(
        &job.tx,
        BulkMsg::Started {
            run: job.run,
            journal: file.path.display().to_string(),
        },
    );
    let todo = (0..job.items.len()).collect();
    job.go(todo, false, Some(&mut file)).await;
}

/// The command line's default journal path, with the run's id: two runs of one session in the
/// same second each get a file of their own.
fn journal_path(dir: &std::path::Path, table: &str, run: u64) -> PathBuf {
    let path = bulk::journal_file::default_path(dir, table);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}-{run}.jsonl"))
}
