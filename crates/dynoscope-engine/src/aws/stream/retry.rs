//! Waiting before a call is retried: exponential, capped, and cut short by a cancel.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

pub(super) const BACKOFF_FIRST: Duration = Duration::from_millis(100);
pub(super) const BACKOFF_MAX: Duration = Duration::from_secs(5);
/// Consecutive transient failures of one call before the read fails. Each already had the
/// SDK's own retries, so this is minutes of an unreachable or failing service.
pub(super) const MAX_TRANSIENT_FAILURES: u32 = 8;

#[derive(Debug)]
pub(super) struct Backoff {
    next: Duration,
    failures: u32,
}

impl Backoff {
    pub fn new() -> Self {
        Backoff {
            next: BACKOFF_FIRST,
            failures: 0,
        }
    }

    pub fn reset(&mut self) {
        *self = Backoff::new();
    }

    /// Failures since the last success.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// Counts a failure retried at once (the first of a row that gets a new iterator).
    pub fn count(&mut self) {
        self.failures += 1;
    }

    /// Counts a failure and waits before the retry; `false` when cancelled meanwhile.
    pub async fn wait(&mut self, cancel: &CancellationToken) -> bool {
        self.failures += 1;
        let delay = self.next;
        self.next = (self.next * 2).min(BACKOFF_MAX);
        tokio::select! {
            _ = cancel.cancelled() => false,
            _ = tokio::time::sleep(delay) => true,
        }
    }
}

/// Sleeps for `delay`; `false` when cancelled meanwhile.
pub(super) async fn pause(delay: Duration, cancel: &CancellationToken) -> bool {
    tokio::select! {
        _ = cancel.cancelled() => false,
        _ = tokio::time::sleep(delay) => true,
    }
}
