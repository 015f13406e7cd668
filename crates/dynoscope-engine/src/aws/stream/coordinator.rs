//! Lists the stream's shards, starts a reader per shard as its lineage allows, finds new shards
//! as they appear, and sends the read's one final event when every reader has stopped.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::lineage::{Lineage, ReadyShard};
use super::retry::{Backoff, MAX_TRANSIENT_FAILURES};
use super::shard::{ShardEnd, ShardReader};
use super::source::{ShardListing, StreamErrorKind, StreamSource, StreamStatus};
use super::{StreamCounters, StreamEvent, StreamHandle, StreamOutcome, StreamSpec, StreamStart};
use crate::aws::error::EngineError;

/// What the coordinator and every shard reader share.
pub(super) struct Shared<S> {
    pub source: Arc<S>,
    pub spec: StreamSpec,
    pub tx: mpsc::Sender<StreamEvent>,
    /// Cancelled by the caller, or by the coordinator when the read fails.
    pub stop: CancellationToken,
    pub counters: Arc<StreamCounters>,
}

type ShardTasks = JoinSet<(String, Result<ShardEnd, EngineError>)>;

/// Starts reading `spec` from `source`; events arrive on `tx`, ending with exactly one `Done`
/// or `Failed`. `counters` may be shared with the source (the SDK's counts HTTP attempts).
pub fn start_stream<S: StreamSource>(
    source: Arc<S>,
    spec: StreamSpec,
    counters: Arc<StreamCounters>,
    tx: mpsc::Sender<StreamEvent>,
) -> StreamHandle {
    let cancel = CancellationToken::new();
    let shared = Arc::new(Shared {
        source,
        spec,
        tx,
        stop: cancel.child_token(),
        counters: counters.clone(),
    });
    let task = tokio::spawn(async move {
        let mut tasks = ShardTasks::new();
        let result = run(&shared, &mut tasks).await;
        shared.stop.cancel();
        while tasks.join_next().await.is_some() {}
        let event = match result {
            Ok(outcome) => StreamEvent::Done { outcome },
            Err(error) => StreamEvent::Failed { error },
        };
        let _ = shared.tx.send(event).await;
    });
    StreamHandle {
        cancel,
        task,
        counters,
    }
}

/// Every DescribeStream page; `None` when cancelled.
async fn describe_all<S: StreamSource>(
    shared: &Shared<S>,
) -> Result<Option<ShardListing>, EngineError> {
    let mut all: Option<ShardListing> = None;
    let mut start: Option<String> = None;
    let mut backoff = Backoff::new();
    loop {
        StreamCounters::bump(&shared.counters.describe_stream);
        let call = shared
            .source
            .describe(shared.spec.stream_arn.clone(), start.clone());
        let result = tokio::select! {
            biased;
            _ = shared.stop.cancelled() => return Ok(None),
            r = call => r,
        };
        match result {
            Ok(page) => {
                backoff.reset();
                let next = page.last_evaluated_shard_id.clone();
                // A page that names the shard it started after again would loop forever.
                if next.is_some() && next == start {
                    return Err(EngineError::service(format!(
                        "DescribeStream returned the same page twice (after shard '{}')",
                        next.unwrap_or_default()
                    )));
                }
                all = Some(match all.take() {
                    None => page,
                    Some(mut so_far) => {
                        so_far.shards.extend(page.shards);
                        so_far.status = page.status;
                        so_far
                    }
                });
                match next {
                    Some(id) => start = Some(id),
                    None => return Ok(all),
                }
            }
            Err(e) => {
                match e.kind {
                    StreamErrorKind::Throttled => StreamCounters::bump(&shared.counters.throttles),
                    StreamErrorKind::Transient
                        if backoff.failures() + 1 < MAX_TRANSIENT_FAILURES =>
                    {
                        StreamCounters::bump(&shared.counters.retries)
                    }
                    _ => return Err(e.error),
                }
                if !backoff.wait(&shared.stop).await {
                    return Ok(None);
                }
            }
        }
    }
}

fn spawn_reader<S: StreamSource>(
    shared: &Arc<Shared<S>>,
    tasks: &mut ShardTasks,
    ready: ReadyShard,
    reader: Option<ShardReader<S>>,
) {
    let shared = shared.clone();
    let cutoff = cutoff_of(&shared.spec);
    tasks.spawn(async move {
        let id = ready.shard_id.clone();
        let reader = match reader {
            Some(r) => Some(r),
            None => match ShardReader::open(shared.clone(), &id, ready.start, cutoff).await {
                Ok(r) => r,
                Err(e) => return (id, Err(e)),
            },
        };
        let Some(reader) = reader else {
            let end = if shared.stop.is_cancelled() {
                ShardEnd::Cancelled
            } else {
                ShardEnd::Closed
            };
            return (id, Ok(end));
        };
        StreamCounters::bump(&shared.counters.shards_opened);
        let opened = StreamEvent::ShardOpened {
            shard_id: id.clone(),
            parent_shard_id: ready.parent_shard_id.clone(),
        };
        if shared.tx.send(opened).await.is_err() {
            return (id, Ok(ShardEnd::Cancelled));
        }
        (id, reader.run().await)
    });
}

fn cutoff_of(spec: &StreamSpec) -> Option<i64> {
    match spec.start {
        StreamStart::Since { cutoff_ms } => Some(cutoff_ms),
        StreamStart::Latest | StreamStart::TrimHorizon => None,
    }
}

async fn run<S: StreamSource>(
    shared: &Arc<Shared<S>>,
    tasks: &mut ShardTasks,
) -> Result<StreamOutcome, EngineError> {
    let Some(listing) = describe_all(shared).await? else {
        return Ok(StreamOutcome::Cancelled);
    };
    let mut lineage = Lineage::default();
    lineage.plan_initial(&listing.shards, shared.spec.start);
    let mut disabled = listing.status == StreamStatus::Disabled;

    // The first shards get their iterators before `Ready`: from LATEST, a change made after
    // `Ready` is after every iterator, so it will be seen.
    let first = lineage.take_ready();
    let cutoff = cutoff_of(&shared.spec);
    let opened = futures::future::join_all(
        first
            .iter()
            .map(|ready| ShardReader::open(shared.clone(), &ready.shard_id, ready.start, cutoff)),
    )
    .await;
    if shared.stop.is_cancelled() {
        return Ok(StreamOutcome::Cancelled);
    }
    let mut reading = 0;
    for (ready, reader) in first.into_iter().zip(opened) {
        match reader? {
            Some(reader) => {
                reading += 1;
                spawn_reader(shared, tasks, ready, Some(reader));
            }
            // Gone before it could be read: its children may start.
            None => lineage.finish(&ready.shard_id),
        }
    }
    if shared
        .tx
        .send(StreamEvent::Ready { shards: reading })
        .await
        .is_err()
    {
        return Ok(StreamOutcome::Cancelled);
    }

    let mut next_describe = Instant::now() + shared.spec.describe_every;
    let mut describe_failures = 0u32;
    loop {
        for ready in lineage.take_ready() {
            spawn_reader(shared, tasks, ready, None);
        }
        if disabled && tasks.is_empty() && lineage.all_finished() {
            return Ok(StreamOutcome::StreamDisabled);
        }
        tokio::select! {
            biased;
            _ = shared.stop.cancelled() => return Ok(StreamOutcome::Cancelled),
            Some(joined) = tasks.join_next(), if !tasks.is_empty() => {
                let (id, end) = joined.map_err(|e| {
                    EngineError::service(format!("a shard reader stopped unexpectedly: {e}"))
                })?;
                match end? {
                    ShardEnd::Cancelled => return Ok(StreamOutcome::Cancelled),
                    ShardEnd::Closed => {
                        lineage.finish(&id);
                        StreamCounters::bump(&shared.counters.shards_closed);
                        if shared.tx.send(StreamEvent::ShardClosed { shard_id: id }).await.is_err() {
                            return Ok(StreamOutcome::Cancelled);
                        }
                        // Its children are usually listed by now: look at once.
                        next_describe = Instant::now();
                    }
                }
            }
            _ = tokio::time::sleep_until(next_describe) => {
                match describe_all(shared).await {
                    Ok(None) => return Ok(StreamOutcome::Cancelled),
                    Ok(Some(listing)) => {
                        describe_failures = 0;
                        lineage.update(&listing.shards);
                        disabled = listing.status == StreamStatus::Disabled;
                    }
                    // Already retried; the shards being read carry on, and the next look
                    // may work. Only a failure that persists ends the read.
                    Err(e) => {
                        describe_failures += 1;
                        if describe_failures >= MAX_TRANSIENT_FAILURES {
                            return Err(e);
                        }
                    }
                }
                next_describe = Instant::now() + shared.spec.describe_every;
            }
        }
    }
}
