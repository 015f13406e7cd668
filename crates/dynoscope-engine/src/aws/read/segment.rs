//! One segment of a read: its requests one after another, each sent once the capacity guard
//! admits it, each page delivered in order with where the segment continues.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::byte_fill::ByteFill;
use super::coordinator::Shared;
use super::reservation::{Admitted, Refused};
use super::source::{PageRequest, PageSource, RawItems, RawPage};
use super::{EngineEvent, Page, SegmentStart};
use crate::aws::attempts::{AttemptRecorder, AttemptStats};
use crate::aws::error::EngineError;
use crate::model::engine::keyed_projection::keyed_projection;
use crate::model::item::value::Item;

pub(super) struct SegmentFailure {
    pub segment: u32,
    pub error: EngineError,
    pub attempts: AttemptStats,
}

enum Fetched<I> {
    Page {
        result: Result<RawPage<I>, EngineError>,
        sent_at: Duration,
        latency: Duration,
    },
    /// A budget is spent; nothing was sent. `Some` when it was the session's.
    Exhausted(Option<Refused>),
    /// The read stopped before this request was sent.
    Stopped,
}

/// One request in its own task, so the next page is on the wire while this one is converted
/// and delivered. Dropping it aborts the request.
struct Fetch<I> {
    task: JoinHandle<Fetched<I>>,
    /// Shared with the request, so attempts are known even when the request is abandoned.
    recorder: AttemptRecorder,
    /// The request's `ExclusiveStartKey`: where the segment stands if none of its items count.
    start: Option<Item>,
}

impl<I> Drop for Fetch<I> {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn spawn_fetch<S: PageSource>(
    shared: &Arc<Shared<S>>,
    segment: u32,
    start: Option<Item>,
    fill: &ByteFill,
) -> Fetch<S::Items> {
    let spec = &shared.spec;
    // Without a filter every evaluated item is returned, so asking for no more than the
    // remaining limit saves the capacity of reading items nobody will see.
    // A statement's WHERE is a filter dynoscope does not see.
    let unfiltered = spec.filter.is_none() && spec.statement.is_none();
    let limit = match (shared.remaining.left(segment), unfiltered) {
        (Some(r), true) => Some(
            spec.page_size
                .map_or(r, |p| (p as usize).min(r))
                .clamp(1, i32::MAX as usize) as i32,
        ),
        _ => spec.page_size,
    };
    // Under a byte cap, no more items than fill what is left of it.
    let limit = match (fill.items_left(), unfiltered) {
        (Some(fits), true) => {
            let fits = fits.clamp(1, i32::MAX as usize) as i32;
            Some(limit.map_or(fits, |l| l.min(fits)))
        }
        _ => limit,
    };
    let recorder = AttemptRecorder::default();
    let (task_shared, task_recorder, task_start) =
        (shared.clone(), recorder.clone(), start.clone());
    let task = tokio::spawn(async move {
        let shared = task_shared;
        // The slot first, then the guards: once admitted, the request is sent at once, so the
        // rate limit's clock is the send time.
        let _slot = tokio::select! {
            slot = shared.requests.acquire() => slot.expect("semaphore is never closed"),
            _ = shared.stop.cancelled() => return Fetched::Stopped,
        };
        let reservation = match shared
            .guards
            .admit(limit, shared.spec.cause, &shared.stop)
            .await
        {
            None => return Fetched::Stopped,
            Some(Admitted::Exhausted { session }) => return Fetched::Exhausted(session),
            Some(Admitted::Go(reservation)) => reservation,
        };
        let sent_at = reservation
            .admitted_at()
            .saturating_duration_since(shared.started);
        let request = PageRequest {
            spec: shared.spec.clone(),
            segment,
            total_segments: shared.spec.segment_count(),
            start: task_start,
        };
        let began = Instant::now();
        // The send consumes the reservation and settles it with what the page consumed.
        let result = reservation
            .send(shared.source.as_ref(), request, task_recorder)
            .await;
        Fetched::Page {
            result,
            sent_at,
            latency: began.elapsed(),
        }
    });
    Fetch {
        task,
        recorder,
        start,
    }
}

pub(super) async fn run_segment<S: PageSource>(
    shared: Arc<Shared<S>>,
    segment: u32,
) -> Result<(), SegmentFailure> {
    let spec = shared.spec.clone();
    let start = match spec.starts.get(segment as usize) {
        Some(SegmentStart::Finished) => return Ok(()),
        Some(SegmentStart::After(key)) => Some(key.clone()),
        Some(SegmentStart::Beginning) | None => None,
    };
    if shared.remaining.left(segment) == Some(0) {
        return Ok(());
    }
    // A segment holds its permit to the end: at most MAX_IN_FLIGHT_SEGMENTS segments have a
    // request and a page in memory at once.
    let _permit = tokio::select! {
        permit = shared.in_flight.acquire() => permit.expect("semaphore is never closed"),
        _ = shared.stop.cancelled() => return Ok(()),
    };
    // Key attributes read only to page on: dropped once the page's resume key is taken.
    let dropped: Vec<String> = match keyed_projection(&spec) {
        Some(keyed) if !spec.key_attributes_kept => keyed.added,
        _ => Vec::new(),
    };
    let mut fill = ByteFill::new(&spec);
    let mut next = Some(spawn_fetch(&shared, segment, start, &fill));
    let mut page_number = 0u32;
    while let Some(mut fetch) = next.take() {
        // A request already sent is waited for when the read stops for a limit or another
        // segment's failure: DynamoDB serves it either way, so its page and capacity are
        // reported. The user's cancel abandons a request still on the wire, but a response
        // that has already arrived was paid for and is delivered like any other.
        let joined = tokio::select! {
            biased;
            joined = &mut fetch.task => joined,
            _ = shared.user_cancel.cancelled() => {
                if !fetch.task.is_finished() {
                    fetch.task.abort();
                    let attempts = fetch.recorder.snapshot();
                    if attempts.attempts > 0 {
                        let _ = shared.tx.send(EngineEvent::Abandoned {
                            request_id: shared.request_id,
                            segment,
                            attempts,
                        }).await;
                    }
                    return Ok(());
                }
                (&mut fetch.task).await
            }
        };
        let fetched = joined.unwrap_or_else(|e| Fetched::Page {
            result: Err(EngineError::service(format!(
                "a page request stopped unexpectedly: {e}"
            ))),
            sent_at: shared.started.elapsed(),
            latency: Duration::ZERO,
        });
        let (result, sent_at, latency) = match fetched {
            Fetched::Page {
                result,
                sent_at,
                latency,
            } => (result, sent_at, latency),
            Fetched::Exhausted(session) => {
                shared.budget_reached.store(true, Ordering::Release);
                if let Some(refused) = session {
                    tracing::info!(
                        target: "dynoscope::aws::read",
                        request = shared.request_id,
                        cause = shared.spec.cause.as_str(),
                        table = shared.spec.table.as_str(),
                        "not sent: {refused}"
                    );
                    let _ = shared.session_refused.set(refused);
                }
                return Ok(());
            }
            Fetched::Stopped => return Ok(()),
        };
        let attempts = fetch.recorder.snapshot();
        let mut raw = result.map_err(|error| SegmentFailure {
            segment,
            error,
            attempts: attempts.clone(),
        })?;
        page_number += 1;
        let returned = raw.items.len();
        let take = shared.remaining.take(segment, returned);
        // A page that fills the byte cap ends on the item that fills it.
        let take = fill.keep(&raw.items, take);
        let resume = if take < returned {
            raw.items.truncate(take);
            // Cut short by the limit: continue after the last item delivered, not after the
            // page, or the items between would never be seen.
            match take.checked_sub(1) {
                None => Some(
                    fetch
                        .start
                        .take()
                        .map_or(SegmentStart::Beginning, SegmentStart::After),
                ),
                Some(_) if spec.key_attributes.is_empty() => None,
                Some(last) => raw
                    .items
                    .key_of(last, &spec.key_attributes)
                    .map(SegmentStart::After),
            }
        } else {
            Some(match &raw.last_evaluated_key {
                Some(key) => SegmentStart::After(key.clone()),
                None => SegmentStart::Finished,
            })
        };
        let limit_hit = shared.remaining.left(segment) == Some(0) || fill.full();
        if limit_hit {
            shared.limit_reached.store(true, Ordering::Release);
            if !spec.limit_per_segment {
                shared.stop.cancel();
            }
        }
        let more = !limit_hit
            && raw.last_evaluated_key.is_some()
            && !shared.stop.is_cancelled()
            && spec.budget.max_pages.is_none_or(|max| page_number < max);
        if more {
            next = Some(spawn_fetch(
                &shared,
                segment,
                raw.last_evaluated_key.clone(),
                &fill,
            ));
            // The new task sits in this worker's next-task slot, which other workers cannot
            // steal: without yielding, its request would wait for this page's conversion.
            tokio::task::yield_now().await;
        }
        if !dropped.is_empty() {
            raw.items.strip(&dropped);
        }
        let (items, json_lines) = raw.items.deliver(spec.delivery.json_lines());
        let page = Page {
            request_id: shared.request_id,
            operation: spec.operation,
            index: spec.index.clone(),
            segment,
            page: page_number,
            items,
            json_lines,
            sized_keys: None,
            count: raw.count,
            scanned_count: raw.scanned_count,
            consumed: raw.consumed,
            sent_at,
            latency,
            attempts,
            last_evaluated_key: raw.last_evaluated_key,
            resume,
            sent: fetch.recorder.sent_body(),
        };
        crate::aws::trace::log_page(&page, &spec.table, spec.segment_count(), spec.cause);
        // Not raced against `stop`: a page that was paid for is always delivered, so capacity
        // sums stay exact. Consumers drain until the final event, so this cannot hang.
        if shared.tx.send(EngineEvent::Page(page)).await.is_err() {
            return Ok(());
        }
    }
    Ok(())
}
