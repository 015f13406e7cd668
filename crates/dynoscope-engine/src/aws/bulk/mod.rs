//! Running a bulk write (or its undo) item by item, for the command line and the explorer
//! alike: each item is admitted by the [`WriteGuard`] at its worst case before it is sent,
//! written conditionally (the item must be what was read), retried with backoff when the SDK
//! gave up on it (throttled, 5xx, timed out), and its outcome journaled (synced) before the
//! next one goes. The caller hears of progress, conflicts and failures through a callback and
//! stops the run with a cancellation token: the write in flight finishes and is journaled.

pub mod journal_file;
pub mod steps;
pub mod tally;

use std::time::Duration;

use tokio_util::sync::CancellationToken;

pub use journal_file::{JournalError, JournalFile};
pub use steps::{preflight, run_step, undo_step, Step};
pub use tally::Tally;

use crate::aws::write::{WriteAdmission, WriteBackend, WriteFailure, WriteGuard};
use crate::aws::ErrorClass;
use crate::model::item::value::Item;
use crate::model::write::bulk::journal::{self, Outcome};
use crate::model::write::{diff, WritePlan};

/// Rounds of retries of a write the SDK gave up on (throttled, 5xx, timed out), beyond its own.
const RETRY_ROUNDS: u32 = 6;
const FIRST_BACKOFF: Duration = Duration::from_millis(200);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// What the caller hears while the run goes.
#[derive(Debug)]
pub enum RunEvent<'a> {
    /// An item was sent and ended (written, conflict or failed).
    Progress(&'a Tally),
    /// Item `index` changed since it was read and was left alone; `current` is it now.
    Conflict { index: usize, current: Option<Item> },
    /// Item `index` was not written.
    Failed { index: usize, why: String },
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, PartialEq)]
pub enum Stopped {
    /// The cancellation token fired (Ctrl-C, Esc).
    Cancelled,
    /// The next item did not fit in `--max-wcu`.
    Budget { spent: f64, needed: f64 },
}

/// How a run ended: what it did, and whether it stopped before its end.
#[derive(Debug, Clone)]
pub struct RunEnd {
    pub tally: Tally,
    pub stopped: Option<Stopped>,
}

/// A run that could not go on: an item could not be planned, or the journal not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    Plan(String),
    Journal(String),
}

/// The run's items and how each is written.
pub struct Items<'a, F> {
    /// The indexes to write, in order.
    pub todo: &'a [usize],
    /// Item `n`'s write; `Ok(None)`: nothing to send (journaled as unchanged).
    pub step: F,
}

/// Writes `items.todo` one by one under `guard`, journaling each outcome in `journal` when
/// there is one, until the end, a stop, or the budget.
pub async fn run<W, F>(
    writer: &W,
    guard: &WriteGuard,
    stop: &CancellationToken,
    mut items: Items<'_, F>,
    mut journal: Option<&mut JournalFile>,
    mut on: impl FnMut(RunEvent<'_>),
) -> Result<RunEnd, RunError>
where
    W: WriteBackend,
    F: FnMut(usize) -> Result<Option<Step>, String>,
{
    let mut tally = Tally::default();
    let note = |journal: &mut Option<&mut JournalFile>, n: usize, outcome: &Outcome| match journal {
        Some(file) => file
            .write(&journal::outcome_line(n, outcome))
            .map_err(|e| RunError::Journal(e.to_string())),
        None => Ok(()),
    };
    let mut stopped = None;
    for &n in items.todo {
        if stop.is_cancelled() {
            stopped = Some(Stopped::Cancelled);
            break;
        }
        let Some(step) = (items.step)(n).map_err(RunError::Plan)? else {
            note(&mut journal, n, &Outcome::Unchanged)?;
            tally.unchanged += 1;
            continue;
        };
        let worst = step.worst;
        let ticket = match guard.admit(worst, stop).await {
            None => {
                stopped = Some(Stopped::Cancelled);
                break;
            }
            Some(WriteAdmission::Exhausted { spent, needed }) => {
                stopped = Some(Stopped::Budget { spent, needed });
                break;
            }
            Some(WriteAdmission::Go(ticket)) => ticket,
        };
        let Some(sent) = send(
            writer,
            guard,
            &step.plan,
            step.written.as_ref(),
            &mut tally,
            stop,
        )
        .await
        else {
            guard.settle(ticket, worst);
            stopped = Some(Stopped::Cancelled);
            break;
        };
        // An attempt past --max-wcu (a retry of a write whose answer was lost) was not sent:
        // the run stops, and the item, whose earlier attempt may have gone through, has no
        // outcome, so a resumed run sends it again and recognises it if it was written.
        if let (Sent::Failed(_) | Sent::Refused(_), Some((spent, needed))) =
            (&sent, guard.refused())
        {
            guard.settle(ticket, worst);
            tally.units += worst;
            stopped = Some(Stopped::Budget { spent, needed });
            break;
        }
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
                on(RunEvent::Conflict {
                    index: n,
                    current: current.clone(),
                });
                Outcome::Conflict(current)
            }
            Sent::Failed(why) => {
                guard.settle(ticket, worst);
                tally.units += worst;
                tally.failed += 1;
                on(RunEvent::Failed {
                    index: n,
                    why: why.clone(),
                });
                Outcome::Failed(why)
            }
            Sent::Refused(why) => {
                guard.settle(ticket, worst);
                tally.units += worst;
                tally.refused += 1;
                on(RunEvent::Failed {
                    index: n,
                    why: why.clone(),
                });
                Outcome::Refused(why)
            }
        };
        note(&mut journal, n, &outcome)?;
        on(RunEvent::Progress(&tally));
    }
    Ok(RunEnd { tally, stopped })
}

/// Whether `current` (`None`: no item) is exactly `expected`: a write that went through
/// although its answer was lost (a retried attempt, or a run killed before its outcome line).
pub fn is_image(current: Option<&Item>, expected: Option<&Item>) -> bool {
    match (current, expected) {
        (None, None) => true,
        (Some(c), Some(e)) => diff(c, e).is_empty(),
        _ => false,
    }
}

/// How one write ended, before it is journaled.
enum Sent {
    Done(f64),
    Conflict(Option<Item>),
    Failed(String),
    /// DynamoDB refused the request itself (bad input): sending it again cannot help.
    Refused(String),
}

/// Sends `plan`, retrying what the SDK gave up on with backoff; `None` when `stop` fired.
async fn send<W: WriteBackend>(
    writer: &W,
    guard: &WriteGuard,
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
                if guard.refused().is_some() {
                    // The budget refused an attempt: no round can go either.
                    return Some(Sent::Failed(error.message));
                }
                if error.class == ErrorClass::BadInput {
                    return Some(Sent::Refused(error.message));
                }
                if round == RETRY_ROUNDS {
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

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
