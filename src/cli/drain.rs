//! One read, consumed to its end by a headless subcommand: pages go to the caller as they
//! arrive, Ctrl-C cancels the read cleanly, and every request's attempts reach the statistics.
//! `scan`/`query` (writing items) and `hotkeys` (counting them) share it, and word their own
//! messages from what it returns.

use std::time::Instant;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::aws::attempts::AttemptStats;
use crate::aws::{Backend, DoneOutcome, EngineError, EngineEvent, Page, ReadSpec, ReadStats};

/// Pages the engine may have queued ahead of the consumer (stdout, the counting of `hotkeys`).
const CHANNEL_PAGES: usize = 16;

/// A read that failed after its retries: the first failure reported.
pub struct Failure {
    pub error: EngineError,
    pub attempts: AttemptStats,
    pub segment: u32,
}

pub struct Drained {
    /// Every page and failed request; `elapsed_ms` is the whole read.
    pub stats: ReadStats,
    /// How the read ended when it ended without failing (`None` after a failure).
    pub outcome: Option<DoneOutcome>,
    pub failure: Option<Failure>,
    /// The user pressed Ctrl-C.
    pub interrupted: bool,
}

/// What the caller wants after a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Continue,
    /// Cancel the read; the pages already on their way are still delivered.
    Cancel,
}

/// Runs `spec` and hands each page to `on_page` (after counting it), until the read ends or
/// fails; then waits until its tasks have stopped.
pub async fn drain<B: Backend>(
    engine: &B,
    spec: ReadSpec,
    on_page: impl FnMut(Page) -> Next,
) -> Drained {
    drain_until(engine, spec, &CancellationToken::new(), on_page).await
}

/// [`drain`], cancelling the read when `stop` fires (an MCP client's `notifications/cancelled`):
/// the request on the wire is abandoned and no other is sent.
pub async fn drain_until<B: Backend>(
    engine: &B,
    spec: ReadSpec,
    stop: &CancellationToken,
    mut on_page: impl FnMut(Page) -> Next,
) -> Drained {
    let (tx, mut rx) = mpsc::channel(CHANNEL_PAGES);
    let started = Instant::now();
    let handle = engine.start_read(spec, tx);
    let mut stats = ReadStats::default();
    let (mut outcome, mut failure, mut interrupted) = (None, None, false);
    let mut stopped = false;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        let event = tokio::select! {
            event = rx.recv() => event,
            _ = &mut ctrl_c, if !interrupted => {
                interrupted = true;
                handle.cancel();
                continue;
            }
            _ = stop.cancelled(), if !stopped => {
                stopped = true;
                handle.cancel();
                continue;
            }
        };
        match event {
            Some(EngineEvent::Page(page)) => {
                stats.add_page(&page);
                if on_page(page) == Next::Cancel {
                    handle.cancel();
                }
            }
            Some(EngineEvent::Done { outcome: done, .. }) => {
                outcome = Some(done);
                break;
            }
            None => break,
            Some(EngineEvent::Abandoned { attempts, .. }) => stats.add_failure(&attempts),
            // The command words the export's report itself, once every read has ended.
            Some(EngineEvent::Integrity { .. }) => {}
            Some(EngineEvent::Failed {
                error,
                attempts,
                segment,
                ..
            }) => {
                stats.add_failure(&attempts);
                failure = Some(Failure {
                    error,
                    attempts,
                    segment,
                });
                break;
            }
        }
    }
    handle.join().await;
    stats.elapsed_ms = started.elapsed().as_millis() as u64;
    Drained {
        stats,
        outcome,
        failure,
        interrupted,
    }
}

#[cfg(test)]
#[path = "drain_tests.rs"]
mod tests;
