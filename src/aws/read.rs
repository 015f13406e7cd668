//! Streaming Query and (parallel) Scan.
//!
//! A read runs as one task per segment (a Query is one segment), each paginating with
//! `LastEvaluatedKey` and sending every page into one bounded channel that the caller owns. The
//! channel's bound is the backpressure: a slow consumer parks the producers, and a semaphore caps
//! how many segments have a page in flight, so memory stays bounded even at 1000 segments.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, Select};
use tokio::sync::{mpsc, Semaphore};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

use super::attempts::{AttemptRecorder, AttemptStats};
use super::budget::{Budget, RateLimit};
use super::convert::{item_from_sdk, item_to_sdk, value_to_sdk};
use super::error::EngineError;
use super::json_lines::{render_page, JsonLines};
use super::Engine;
use crate::model::capacity::Consumed;
use crate::model::json::JsonSpelling;
use crate::model::value::{AttrValue, Item};

pub type RequestId = u64;

/// Segments with a request or an undelivered page at once; more segments than this still each
/// get their own task, they just take turns.
pub const MAX_IN_FLIGHT_SEGMENTS: usize = 64;
pub const MAX_SEGMENTS: u32 = 1000;
/// Requests in flight across all segments of a read. Each segment fetches its next page while
/// the current one is converted, which keeps a few segments' network busy; with many segments
/// the extra requests only crowd the server, so prefetching stops at this many in flight.
pub const PREFETCH_REQUESTS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Query,
    Scan,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Query => "Query",
            Operation::Scan => "Scan",
        }
    }
}

/// Where a segment starts: used to resume a cancelled or failed scan without re-reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentStart {
    Beginning,
    After(Item),
    Finished,
}

#[derive(Debug, Clone)]
pub struct ReadSpec {
    pub operation: Operation,
    pub table: String,
    pub index: Option<String>,
    /// Query only: the KeyConditionExpression, already validated.
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
    /// Query only: newest (highest sort key) first.
    pub descending: bool,
    pub consistent: bool,
    /// Total items to return across all pages and segments.
    pub limit: Option<usize>,
    /// DynamoDB's per-request `Limit` (items evaluated per page).
    pub page_size: Option<i32>,
    /// Scan only; 1 sends a plain Scan without Segment/TotalSegments.
    pub segments: u32,
    /// Per segment; empty means every segment from the beginning.
    pub starts: Vec<SegmentStart>,
    /// `Select=COUNT`: DynamoDB returns counts and capacity but no items.
    pub count_only: bool,
    /// Stop each segment after this many pages (the explorer loads page by page on demand).
    pub max_pages: Option<u32>,
    /// Stop before consumed capacity would pass this many read units (`--max-rcu`).
    pub max_rcu: Option<f64>,
    /// Spread requests so all segments together consume at most this many units a second.
    pub rcu_per_second: Option<f64>,
    /// Deliver each page's items as JSON lines in this spelling instead of as `Item`s: a
    /// headless scan to a pipe then skips the conversion (see [`super::json_lines`]).
    pub json_lines: Option<JsonSpelling>,
}

impl ReadSpec {
    pub fn new(operation: Operation, table: impl Into<String>) -> Self {
        ReadSpec {
            operation,
            table: table.into(),
            index: None,
            key_condition: None,
            filter: None,
            projection: None,
            names: Vec::new(),
            values: Vec::new(),
            descending: false,
            consistent: false,
            limit: None,
            page_size: None,
            segments: 1,
            starts: Vec::new(),
            count_only: false,
            max_pages: None,
            max_rcu: None,
            rcu_per_second: None,
            json_lines: None,
        }
    }
}

/// One response page, with everything the request log shows about it.
#[derive(Debug, Clone)]
pub struct Page {
    pub request_id: RequestId,
    pub operation: Operation,
    pub index: Option<String>,
    pub segment: u32,
    /// 1-based within the segment.
    pub page: u32,
    /// Empty when the read asked for [`ReadSpec::json_lines`]; the items are then in `json_lines`.
    pub items: Vec<Item>,
    pub json_lines: Option<JsonLines>,
    /// DynamoDB's `Count` and `ScannedCount` for this page.
    pub count: u64,
    pub scanned_count: u64,
    pub consumed: Consumed,
    /// Wall time of the request, including the SDK's retries.
    pub latency: Duration,
    pub attempts: AttemptStats,
    pub last_evaluated_key: Option<Item>,
}

impl Page {
    /// Items this page delivers, in either form.
    pub fn item_count(&self) -> usize {
        self.items.len() + self.json_lines.as_ref().map_or(0, |lines| lines.items)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoneOutcome {
    /// Every segment stopped normally: at its end, or after `max_pages` (each page's
    /// `last_evaluated_key` says whether more remain).
    Complete,
    /// `limit` items were returned.
    LimitReached,
    /// The next request would have passed `max_rcu`.
    BudgetReached,
    Cancelled,
}

#[derive(Debug, Clone)]
pub enum EngineEvent {
    Page(Page),
    /// Sent once per read, after every segment task has stopped.
    Done {
        request_id: RequestId,
        outcome: DoneOutcome,
    },
    /// A request given up on: cancelled by the user while in flight, or failed after another
    /// segment's failure had already ended the read. Its attempts still count.
    Abandoned {
        request_id: RequestId,
        segment: u32,
        attempts: AttemptStats,
    },
    /// Sent once per read instead of `Done`, after every segment task has stopped.
    Failed {
        request_id: RequestId,
        segment: u32,
        error: EngineError,
        attempts: AttemptStats,
    },
}

impl EngineEvent {
    pub fn request_id(&self) -> RequestId {
        match self {
            EngineEvent::Page(p) => p.request_id,
            EngineEvent::Done { request_id, .. }
            | EngineEvent::Failed { request_id, .. }
            | EngineEvent::Abandoned { request_id, .. } => *request_id,
        }
    }
}

/// A running read. Dropping the handle does not stop it; `cancel` does.
pub struct ReadHandle {
    pub id: RequestId,
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl ReadHandle {
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    pub fn cancel_token(&self) -> CancellationToken {
        self.cancel.clone()
    }

    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// Waits until every segment task has stopped and the final event was sent.
    pub async fn join(self) {
        let _ = self.task.await;
    }
}

struct SegmentFailure {
    segment: u32,
    error: EngineError,
    attempts: AttemptStats,
}

/// What all segment tasks of one read share.
struct Shared {
    engine: Engine,
    spec: ReadSpec,
    request_id: RequestId,
    tx: mpsc::Sender<EngineEvent>,
    /// Cancelled by the user, by a failure, or when the limit is reached.
    stop: CancellationToken,
    /// Cancelled only by the user (`ReadHandle::cancel`): in-flight requests are abandoned.
    user_cancel: CancellationToken,
    remaining: Option<AtomicUsize>,
    limit_reached: AtomicBool,
    budget: Option<Budget>,
    budget_reached: AtomicBool,
    rate: Option<RateLimit>,
    in_flight: Semaphore,
    /// Requests on the wire at once: at least one per active segment, prefetches beyond that
    /// only while fewer than `PREFETCH_REQUESTS` are in flight.
    requests: Semaphore,
}

impl Engine {
    /// Starts a read; its events arrive on `tx`, ending with exactly one `Done` or `Failed`.
    pub fn start_read(&self, spec: ReadSpec, tx: mpsc::Sender<EngineEvent>) -> ReadHandle {
        self.start_read_with_id(self.next_id(), spec, tx)
    }

    /// Like `start_read`, with an id the caller chose (the explorer numbers its own requests
    /// so its pure `update` can tag them before they start).
    pub fn start_read_with_id(
        &self,
        request_id: RequestId,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        let cancel = CancellationToken::new();
        let segments = match spec.operation {
            Operation::Query => 1,
            Operation::Scan => spec.segments.clamp(1, MAX_SEGMENTS),
        };
        let shared = Arc::new(Shared {
            engine: self.clone(),
            request_id,
            tx,
            stop: cancel.child_token(),
            user_cancel: cancel.clone(),
            remaining: spec.limit.map(AtomicUsize::new),
            limit_reached: AtomicBool::new(false),
            budget: spec.max_rcu.map(Budget::new),
            budget_reached: AtomicBool::new(false),
            rate: spec.rcu_per_second.map(RateLimit::new),
            in_flight: Semaphore::new((segments as usize).min(MAX_IN_FLIGHT_SEGMENTS)),
            requests: Semaphore::new(
                (segments as usize).clamp(PREFETCH_REQUESTS, MAX_IN_FLIGHT_SEGMENTS),
            ),
            spec,
        });
        let user_cancel = cancel.clone();
        let task = tokio::spawn(async move {
            let mut set = JoinSet::new();
            for segment in 0..segments {
                set.spawn(run_segment(shared.clone(), segment, segments));
            }
            let mut failure: Option<SegmentFailure> = None;
            while let Some(joined) = set.join_next().await {
                let result = joined.unwrap_or_else(|e| {
                    Err(SegmentFailure {
                        segment: 0,
                        error: EngineError::service(format!(
                            "a segment task stopped unexpectedly: {e}"
                        )),
                        attempts: AttemptStats::default(),
                    })
                });
                if let Err(f) = result {
                    // One segment failing fails the read; stop the others promptly. Later
                    // failures are reported as abandoned requests so their attempts count.
                    shared.stop.cancel();
                    match failure {
                        None => failure = Some(f),
                        Some(_) => {
                            let _ = shared
                                .tx
                                .send(EngineEvent::Abandoned {
                                    request_id,
                                    segment: f.segment,
                                    attempts: f.attempts,
                                })
                                .await;
                        }
                    }
                }
            }
            let event = match failure {
                Some(f) => EngineEvent::Failed {
                    request_id,
                    segment: f.segment,
                    error: f.error,
                    attempts: f.attempts,
                },
                None => EngineEvent::Done {
                    request_id,
                    outcome: if shared.limit_reached.load(Ordering::Acquire) {
                        DoneOutcome::LimitReached
                    } else if shared.budget_reached.load(Ordering::Acquire) {
                        DoneOutcome::BudgetReached
                    } else if user_cancel.is_cancelled() {
                        DoneOutcome::Cancelled
                    } else {
                        DoneOutcome::Complete
                    },
                },
            };
            let _ = shared.tx.send(event).await;
        });
        ReadHandle {
            id: request_id,
            cancel,
            task,
        }
    }
}

struct RawPage {
    items: Vec<HashMap<String, AttributeValue>>,
    count: i32,
    scanned_count: i32,
    consumed: Option<ConsumedCapacity>,
    last_evaluated_key: Option<HashMap<String, AttributeValue>>,
}

/// One page request running in its own task, so the next page is already on the wire while
/// this one is converted and delivered. Dropping it aborts the request.
struct Fetch {
    task: JoinHandle<(Result<RawPage, EngineError>, Duration)>,
    /// Capacity reserved against the budget for this request.
    reserved: f64,
    /// Shared with the request, so attempts are known even when the request is abandoned.
    recorder: AttemptRecorder,
}

impl Drop for Fetch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts the next request, or returns `None` when the capacity budget has no room for it (the
/// read then stops with `BudgetReached`).
fn spawn_fetch(
    shared: &Arc<Shared>,
    segment: u32,
    total_segments: u32,
    start: Option<HashMap<String, AttributeValue>>,
) -> Option<Fetch> {
    let reserved = match &shared.budget {
        None => 0.0,
        Some(budget) => match budget.try_reserve() {
            Some(r) => r,
            None => {
                shared.budget_reached.store(true, Ordering::Release);
                shared.stop.cancel();
                return None;
            }
        },
    };
    let shared = shared.clone();
    let spec = &shared.spec;
    let remaining = shared.remaining.as_ref().map(|r| r.load(Ordering::Acquire));
    // Without a filter every evaluated item is returned, so asking for no more than the
    // remaining limit saves the capacity of reading items nobody will see.
    let page_limit = match (remaining, &spec.filter) {
        (Some(r), None) => Some(
            spec.page_size
                .map_or(r, |p| (p as usize).min(r))
                .clamp(1, i32::MAX as usize) as i32,
        ),
        _ => spec.page_size,
    };
    let recorder = AttemptRecorder::default();
    let task_recorder = recorder.clone();
    let task = tokio::spawn(async move {
        if let Some(rate) = &shared.rate {
            rate.acquire().await;
        }
        let _slot = shared
            .requests
            .acquire()
            .await
            .expect("semaphore is never closed");
        let started = Instant::now();
        let result = send_page(
            &shared,
            segment,
            total_segments,
            start,
            page_limit,
            task_recorder,
        )
        .await;
        (result, started.elapsed())
    });
    Some(Fetch {
        task,
        reserved,
        recorder,
    })
}

async fn run_segment(
    shared: Arc<Shared>,
    segment: u32,
    total_segments: u32,
) -> Result<(), SegmentFailure> {
    let spec = &shared.spec;
    let start = match spec.starts.get(segment as usize) {
        Some(SegmentStart::Finished) => return Ok(()),
        Some(SegmentStart::After(key)) => Some(item_to_sdk(key)),
        Some(SegmentStart::Beginning) | None => None,
    };
    if shared.remaining.as_ref().map(|r| r.load(Ordering::Acquire)) == Some(0) {
        return Ok(());
    }
    // A segment holds its permit to the end: at most MAX_IN_FLIGHT_SEGMENTS segments have a
    // request and a page in memory at once.
    let _permit = tokio::select! {
        permit = shared.in_flight.acquire() => permit.expect("semaphore is never closed"),
        _ = shared.stop.cancelled() => return Ok(()),
    };
    let mut next = spawn_fetch(&shared, segment, total_segments, start);
    let mut page_number = 0u32;
    while let Some(mut fetch) = next.take() {
        // A request already sent is waited for when the read stops for a limit or another
        // segment's failure: DynamoDB serves it either way, so its page and capacity are
        // reported. Only the user's cancel abandons it, reporting the attempts made so far.
        let (result, latency) = tokio::select! {
            joined = &mut fetch.task => joined.unwrap_or_else(|e| {
                (Err(EngineError::service(format!("a page request stopped unexpectedly: {e}"))), Duration::ZERO)
            }),
            _ = shared.user_cancel.cancelled() => {
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
        };
        let attempts = fetch.recorder.snapshot();
        let cost = match &result {
            Ok(raw) => raw
                .consumed
                .as_ref()
                .and_then(|c| c.capacity_units)
                .unwrap_or(0.0),
            Err(_) => 0.0,
        };
        if let Some(budget) = &shared.budget {
            budget.settle(fetch.reserved, cost);
        }
        if let Some(rate) = &shared.rate {
            rate.consume(cost);
        }
        let mut raw = result.map_err(|error| SegmentFailure {
            segment,
            error,
            attempts: attempts.clone(),
        })?;
        page_number += 1;
        if let Some(remaining) = &shared.remaining {
            let take = reserve(remaining, raw.items.len());
            raw.items.truncate(take);
            if remaining.load(Ordering::Acquire) == 0 {
                shared.limit_reached.store(true, Ordering::Release);
                shared.stop.cancel();
            }
        }
        let more = raw.last_evaluated_key.is_some()
            && !shared.stop.is_cancelled()
            && spec.max_pages.is_none_or(|max| page_number < max);
        if more {
            next = spawn_fetch(
                &shared,
                segment,
                total_segments,
                raw.last_evaluated_key.clone(),
            );
            // The new task sits in this worker's next-task slot, which other workers cannot
            // steal: without yielding, its request would wait for this page's conversion.
            tokio::task::yield_now().await;
        }
        let (items, json_lines) = match spec.json_lines {
            None => (raw.items.into_iter().map(item_from_sdk).collect(), None),
            Some(spelling) => (Vec::new(), Some(render_page(&raw.items, spelling))),
        };
        let page = Page {
            request_id: shared.request_id,
            operation: spec.operation,
            index: spec.index.clone(),
            segment,
            page: page_number,
            items,
            json_lines,
            count: raw.count.max(0) as u64,
            scanned_count: raw.scanned_count.max(0) as u64,
            consumed: consumed_from_sdk(raw.consumed.as_ref()),
            latency,
            attempts,
            last_evaluated_key: raw.last_evaluated_key.map(item_from_sdk),
        };
        crate::logging::log_page(&page, &spec.table, total_segments);
        // Not raced against `stop`: a page that was paid for is always delivered, so capacity
        // sums stay exact. Consumers drain until the final event, so this cannot hang.
        if shared.tx.send(EngineEvent::Page(page)).await.is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// Takes up to `wanted` from the shared remaining count; returns how many were granted.
fn reserve(remaining: &AtomicUsize, wanted: usize) -> usize {
    let mut current = remaining.load(Ordering::Acquire);
    loop {
        let take = current.min(wanted);
        match remaining.compare_exchange(
            current,
            current - take,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return take,
            Err(actual) => current = actual,
        }
    }
}

async fn send_page(
    shared: &Shared,
    segment: u32,
    total_segments: u32,
    start: Option<HashMap<String, AttributeValue>>,
    page_limit: Option<i32>,
    recorder: AttemptRecorder,
) -> Result<RawPage, EngineError> {
    let spec = &shared.spec;
    let engine = &shared.engine;
    let names: Option<HashMap<String, String>> =
        (!spec.names.is_empty()).then(|| spec.names.iter().cloned().collect());
    let values: Option<HashMap<String, AttributeValue>> = (!spec.values.is_empty()).then(|| {
        spec.values
            .iter()
            .map(|(k, v)| (k.clone(), value_to_sdk(v)))
            .collect()
    });
    let select = spec.count_only.then_some(Select::Count);
    match spec.operation {
        Operation::Query => {
            let out = engine
                .client
                .query()
                .table_name(&spec.table)
                .set_index_name(spec.index.clone())
                .set_key_condition_expression(spec.key_condition.clone())
                .set_filter_expression(spec.filter.clone())
                .set_projection_expression(spec.projection.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .scan_index_forward(!spec.descending)
                .consistent_read(spec.consistent)
                .set_limit(page_limit)
                .set_select(select)
                .set_exclusive_start_key(start)
                .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                .customize()
                .interceptor(recorder)
                .send()
                .await
                .map_err(|e| {
                    EngineError::from_sdk(e, "Query", Some(&spec.table), &engine.endpoint)
                })?;
            Ok(RawPage {
                items: out.items.unwrap_or_default(),
                count: out.count,
                scanned_count: out.scanned_count,
                consumed: out.consumed_capacity,
                last_evaluated_key: out.last_evaluated_key,
            })
        }
        Operation::Scan => {
            let parallel = total_segments > 1;
            let out = engine
                .client
                .scan()
                .table_name(&spec.table)
                .set_index_name(spec.index.clone())
                .set_filter_expression(spec.filter.clone())
                .set_projection_expression(spec.projection.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .consistent_read(spec.consistent)
                .set_limit(page_limit)
                .set_select(select)
                .set_segment(parallel.then_some(segment as i32))
                .set_total_segments(parallel.then_some(total_segments as i32))
                .set_exclusive_start_key(start)
                .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                .customize()
                .interceptor(recorder)
                .send()
                .await
                .map_err(|e| {
                    EngineError::from_sdk(e, "Scan", Some(&spec.table), &engine.endpoint)
                })?;
            Ok(RawPage {
                items: out.items.unwrap_or_default(),
                count: out.count,
                scanned_count: out.scanned_count,
                consumed: out.consumed_capacity,
                last_evaluated_key: out.last_evaluated_key,
            })
        }
    }
}

fn consumed_from_sdk(c: Option<&ConsumedCapacity>) -> Consumed {
    let Some(c) = c else {
        return Consumed::default();
    };
    let mut indexes = std::collections::BTreeMap::new();
    for map in [&c.global_secondary_indexes, &c.local_secondary_indexes]
        .into_iter()
        .flatten()
    {
        for (name, cap) in map {
            *indexes.entry(name.clone()).or_insert(0.0) += cap.capacity_units.unwrap_or(0.0);
        }
    }
    Consumed {
        total: c.capacity_units.unwrap_or(0.0),
        table: c
            .table
            .as_ref()
            .and_then(|t| t.capacity_units)
            .unwrap_or(0.0),
        indexes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_never_grants_more_than_remaining() {
        let remaining = AtomicUsize::new(5);
        assert_eq!(reserve(&remaining, 3), 3);
        assert_eq!(reserve(&remaining, 3), 2);
        assert_eq!(reserve(&remaining, 3), 0);
        assert_eq!(remaining.load(Ordering::Relaxed), 0);
    }
}
