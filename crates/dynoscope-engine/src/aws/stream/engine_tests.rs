//! The stream engine against an in-memory stream under paused time: lineage, discovery,
//! expired and trimmed iterators, throttling and failures, LATEST/TRIM_HORIZON/since, and a
//! property test that random split trees under random faults deliver every record once, in
//! order per key.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use tokio::sync::mpsc;

use super::memory::{Call, MemoryStream, Operation};
use super::source::StreamErrorKind;
use super::{start_stream, StreamCounters, StreamEvent, StreamOutcome, StreamSpec, StreamStart};
use crate::model::item::value::{AttrValue, Item};
use crate::model::stream::{Change, ChangeEvent, ViewType};

const STARTED_AT: i64 = 1_800_000_000_000;

/// An INSERT of `PK=key` carrying `n`, created at `created_at_ms`.
fn change(key: &str, n: u64, created_at_ms: i64) -> Change {
    let keys = Item::from_attrs(vec![("PK".into(), AttrValue::S(key.into()))]);
    let mut image = keys.clone();
    image.insert("n", AttrValue::N(n.to_string()));
    Change {
        event: ChangeEvent::Insert,
        keys,
        old_image: None,
        new_image: Some(image),
        sequence_number: String::new(),
        created_at_ms: Some(created_at_ms),
        size_bytes: 20,
        view: Some(ViewType::NewAndOldImages),
        ttl_delete: false,
    }
}

fn key_and_n(c: &Change) -> (String, u64) {
    let key = c
        .keys
        .get("PK")
        .and_then(AttrValue::as_s)
        .unwrap()
        .to_string();
    let Some(AttrValue::N(n)) = c.new_image.as_ref().and_then(|i| i.get("n")) else {
        panic!("no n in {c:?}")
    };
    (key, n.parse().unwrap())
}

fn spec(start: StreamStart) -> StreamSpec {
    let mut spec = StreamSpec::new("arn:memory", start, STARTED_AT);
    spec.records_per_call = 2;
    spec
}

/// A running read whose events are collected by a task of their own.
struct Run {
    events: Arc<Mutex<Vec<StreamEvent>>>,
    consumer: tokio::task::JoinHandle<()>,
    handle: super::StreamHandle,
}

impl Run {
    fn start(stream: &Arc<MemoryStream>, spec: StreamSpec, capacity: usize) -> Run {
        Self::start_slow(stream, spec, capacity, None)
    }

    /// With `stall`, the consumer stops reading after its first `Changes` for that long.
    fn start_slow(
        stream: &Arc<MemoryStream>,
        spec: StreamSpec,
        capacity: usize,
        stall: Option<Duration>,
    ) -> Run {
        let (tx, mut rx) = mpsc::channel(capacity);
        let handle = start_stream(
            stream.clone(),
            spec,
            Arc::new(StreamCounters::default()),
            tx,
        );
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = events.clone();
        let consumer = tokio::spawn(async move {
            let mut stall = stall;
            while let Some(event) = rx.recv().await {
                let last = matches!(event, StreamEvent::Done { .. } | StreamEvent::Failed { .. });
                let changes = matches!(event, StreamEvent::Changes { .. });
                sink.lock().unwrap().push(event);
                if last {
                    break;
                }
                if changes {
                    if let Some(d) = stall.take() {
                        tokio::time::sleep(d).await;
                    }
                }
            }
        });
        Run {
            events,
            consumer,
            handle,
        }
    }

    async fn ready(&self) {
        while !self
            .events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, StreamEvent::Ready { .. }))
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    async fn finish(self) -> (Vec<StreamEvent>, super::StreamStats) {
        let counters = self.handle.counters().clone();
        self.consumer.await.unwrap();
        self.handle.join().await;
        let events = Arc::try_unwrap(self.events).unwrap().into_inner().unwrap();
        (events, counters.snapshot())
    }
}

/// Every delivered change as (key, n), in delivery order.
fn delivered(events: &[StreamEvent]) -> Vec<(String, u64)> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Changes { changes, .. } => Some(changes.iter().map(key_and_n)),
            _ => None,
        })
        .flatten()
        .collect()
}

fn per_key(pairs: &[(String, u64)]) -> BTreeMap<String, Vec<u64>> {
    let mut m: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for (k, n) in pairs {
        m.entry(k.clone()).or_default().push(*n);
    }
    m
}

fn outcome(events: &[StreamEvent]) -> Option<StreamOutcome> {
    match events.last() {
        Some(StreamEvent::Done { outcome }) => Some(*outcome),
        _ => None,
    }
}

fn position(events: &[StreamEvent], want: impl Fn(&StreamEvent) -> bool) -> usize {
    events.iter().position(want).expect("event present")
}

#[tokio::test(start_paused = true)]
async fn a_child_is_read_only_after_its_parent_is_drained() {
    let stream = Arc::new(MemoryStream::new());
    stream.open_shard("a", None);
    for n in 0..7 {
        stream.append(
            "a",
            change(if n % 2 == 0 { "K1" } else { "K2" }, n, STARTED_AT),
        );
    }
    stream.split("a", &["b", "c"]);
    for n in 7..12 {
        stream.append("b", change("K1", n, STARTED_AT));
        stream.append("c", change("K2", n, STARTED_AT));
    }
    stream.disable();
    let (events, stats) = Run::start(&stream, spec(StreamStart::TrimHorizon), 4)
        .finish()
        .await;
    assert_eq!(outcome(&events), Some(StreamOutcome::StreamDisabled));
    let keys = per_key(&delivered(&events));
    assert_eq!(keys["K1"], [0, 2, 4, 6, 7, 8, 9, 10, 11]);
    assert_eq!(keys["K2"], [1, 3, 5, 7, 8, 9, 10, 11]);
    let closed_a = position(
        &events,
        |e| matches!(e, StreamEvent::ShardClosed { shard_id } if shard_id == "a"),
    );
    let first_child = position(
        &events,
        |e| matches!(e, StreamEvent::Changes { shard_id, .. } if &**shard_id != "a"),
    );
    assert!(
        closed_a < first_child,
        "a child was read before its parent was drained"
    );
    assert_eq!((stats.shards_opened, stats.shards_closed), (3, 3));
    assert_eq!(stats.records, 17);
}

#[tokio::test(start_paused = true)]
async fn latest_sees_only_new_changes_and_follows_new_shards() {
    let stream = Arc::new(MemoryStream::new());
    stream.open_shard("a", None);
    stream.append("a", change("OLD", 0, STARTED_AT - 1000));
    let run = Run::start(&stream, spec(StreamStart::Latest), 16);
    run.ready().await;
    for n in 1..4 {
        stream.append("a", change("K", n, STARTED_AT));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    stream.split("a", &["b"]);
    stream.append("b", change("K", 4, STARTED_AT));
    // A shard with no parent, found only by the periodic DescribeStream.
    stream.open_shard("z", None);
    stream.append("z", change("Z", 1, STARTED_AT));
    tokio::time::sleep(Duration::from_secs(30)).await;
    stream.disable();
    let (events, stats) = run.finish().await;
    assert!(
        matches!(events[0], StreamEvent::Ready { shards: 1 }),
        "{:?}",
        events[0]
    );
    let keys = per_key(&delivered(&events));
    assert_eq!(keys.get("OLD"), None, "from LATEST nothing older is shown");
    assert_eq!(keys["K"], [1, 2, 3, 4]);
    assert_eq!(keys["Z"], [1]);
    assert!(stats.describe_stream >= 3, "{stats:?}");
    assert_eq!(outcome(&events), Some(StreamOutcome::StreamDisabled));
}

#[tokio::test(start_paused = true)]
async fn an_iterator_that_expires_under_a_slow_consumer_is_renewed_after_the_last_record() {
    let stream = Arc::new(MemoryStream::new());
    stream.open_shard("a", None);
    for n in 0..10 {
        stream.append("a", change("K", n, STARTED_AT));
    }
    stream.close("a");
    // One event of room: the reader parks on a full channel for 20 minutes.
    let run = Run::start_slow(
        &stream,
        spec(StreamStart::TrimHorizon),
        1,
        Some(Duration::from_secs(20 * 60)),
    );
    tokio::time::sleep(Duration::from_secs(25 * 60)).await;
    stream.disable();
    let (events, stats) = run.finish().await;
    assert_eq!(
        per_key(&delivered(&events))["K"],
        (0..10).collect::<Vec<_>>()
    );
    assert!(stats.expired_iterators >= 1, "{stats:?}");
}

#[tokio::test(start_paused = true)]
async fn throttled_calls_back_off_and_lose_nothing() {
    let stream = Arc::new(MemoryStream::new().with_script(|call: &Call| {
        (call.operation == Operation::GetRecords && call.n < 4)
            .then_some(StreamErrorKind::Throttled)
    }));
    stream.open_shard("a", None);
    for n in 0..5 {
        stream.append("a", change("K", n, STARTED_AT));
    }
    stream.disable();
    let started = tokio::time::Instant::now();
    let (events, stats) = Run::start(&stream, spec(StreamStart::TrimHorizon), 8)
        .finish()
        .await;
    assert_eq!(per_key(&delivered(&events))["K"], [0, 1, 2, 3, 4]);
    assert_eq!(stats.throttles, 4);
    // 100 + 200 + 400 + 800 ms of backoff before the fifth attempt.
    assert!(
        started.elapsed() >= Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(outcome(&events), Some(StreamOutcome::StreamDisabled));
}

#[tokio::test(start_paused = true)]
async fn transient_failures_are_retried_and_a_persistent_one_fails_the_read() {
    let stream = Arc::new(MemoryStream::new().with_script(|call: &Call| {
        let flaky = match call.operation {
            Operation::DescribeStream => call.n == 0,
            Operation::GetShardIterator => call.n == 0,
            Operation::GetRecords => call.n == 1 || call.n == 2,
        };
        flaky.then_some(StreamErrorKind::Transient)
    }));
    stream.open_shard("a", None);
    for n in 0..6 {
        stream.append("a", change("K", n, STARTED_AT));
    }
    stream.disable();
    let (events, stats) = Run::start(&stream, spec(StreamStart::TrimHorizon), 8)
        .finish()
        .await;
    assert_eq!(per_key(&delivered(&events))["K"], [0, 1, 2, 3, 4, 5]);
    assert_eq!(stats.retries, 4);

    let broken = Arc::new(MemoryStream::new().with_script(|call: &Call| {
        (call.operation == Operation::GetRecords).then_some(StreamErrorKind::Transient)
    }));
    broken.open_shard("a", None);
    let (events, stats) = Run::start(&broken, spec(StreamStart::TrimHorizon), 8)
        .finish()
        .await;
    match events.last() {
        Some(StreamEvent::Failed { error }) => {
            assert!(
                error.message.contains("scripted Transient of GetRecords"),
                "{error:?}"
            )
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(
        stats.get_records,
        u64::from(super::retry::MAX_TRANSIENT_FAILURES)
    );
}

#[tokio::test(start_paused = true)]
async fn a_latest_shard_that_loses_its_first_iterator_rereads_from_when_reading_started() {
    // DynamoDB Local's quirk (TrimmedDataAccessException on an iterator taken on an empty
    // shard) and an expiry before the first record take the same way back.
    for failure in [
        StreamErrorKind::TrimmedData,
        StreamErrorKind::ExpiredIterator,
    ] {
        let stream = Arc::new(MemoryStream::new().with_script(move |call: &Call| {
            (call.operation == Operation::GetRecords && call.n == 0).then_some(failure)
        }));
        stream.open_shard("a", None);
        // Written ten minutes before reading started: not shown, even from TRIM_HORIZON.
        stream.append("a", change("OLD", 0, STARTED_AT - 600_000));
        let run = Run::start(&stream, spec(StreamStart::Latest), 8);
        run.ready().await;
        for n in 1..4 {
            stream.append("a", change("K", n, STARTED_AT + 5));
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
        stream.disable();
        let (events, stats) = run.finish().await;
        let keys = per_key(&delivered(&events));
        assert_eq!(keys["K"], [1, 2, 3], "{failure:?}");
        assert!(!keys.contains_key("OLD"), "{failure:?}");
        assert_eq!(stats.skipped, 1, "{failure:?}");
        assert_eq!(stats.expired_iterators + stats.trimmed_iterators, 1);
    }
}

#[tokio::test(start_paused = true)]
async fn since_skips_records_older_than_the_cutoff_allowing_for_rounding() {
    let stream = Arc::new(MemoryStream::new());
    stream.generated_shard("a", None, 10, |n| {
        // One record a minute, the last at STARTED_AT.
        change("K", n, STARTED_AT - (9 - n as i64) * 60_000)
    });
    stream.disable();
    // Five minutes back: the record from exactly five minutes ago, and the one a minute
    // before it (its time may have been rounded down by up to a minute), are kept.
    let cutoff_ms = STARTED_AT - 5 * 60_000;
    let (events, stats) = Run::start(&stream, spec(StreamStart::Since { cutoff_ms }), 8)
        .finish()
        .await;
    assert_eq!(per_key(&delivered(&events))["K"], [4, 5, 6, 7, 8, 9]);
    assert_eq!(stats.skipped, 4);
}

#[tokio::test(start_paused = true)]
async fn shard_lists_are_read_page_by_page_and_cancel_ends_the_read() {
    let stream = Arc::new(MemoryStream::new());
    for i in 0..5 {
        stream.open_shard(&format!("s{i}"), None);
    }
    let run = Run::start(&stream, spec(StreamStart::Latest), 8);
    run.ready().await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    run.handle.cancel();
    let (events, stats) = run.finish().await;
    assert!(
        matches!(events[0], StreamEvent::Ready { shards: 5 }),
        "{:?}",
        events[0]
    );
    assert_eq!(outcome(&events), Some(StreamOutcome::Cancelled));
    assert_eq!(stats.describe_stream, 3, "5 shards, 2 a page");
    assert_eq!(stream.calls(Operation::GetShardIterator), 5);
}

/// A stream of `roots` shards, each split `generations` times into two children; key `Kj`
/// lives in one line of descent. Returns the stream and each key's values in order.
fn split_tree(
    roots: usize,
    generations: usize,
    per_shard: &[u8],
    script: impl Fn(&Call) -> Option<StreamErrorKind> + Send + Sync + 'static,
) -> (Arc<MemoryStream>, BTreeMap<String, Vec<u64>>) {
    let stream = Arc::new(MemoryStream::new().with_script(script));
    let mut expected: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut counts = per_shard.iter().cycle();
    let mut n = 0;
    let mut level: Vec<(String, Vec<String>)> = Vec::new();
    for r in 0..roots {
        let id = format!("r{r}");
        stream.open_shard(&id, None);
        level.push((
            id,
            (0..1usize << generations)
                .map(|k| format!("K{r}.{k}"))
                .collect(),
        ));
    }
    for g in 0..=generations {
        let mut next = Vec::new();
        for (id, keys) in &level {
            let records = *counts.next().unwrap() as usize;
            for i in 0..records {
                let key = &keys[i % keys.len()];
                stream.append(id, change(key, n, STARTED_AT));
                expected.entry(key.clone()).or_default().push(n);
                n += 1;
            }
            if g < generations {
                let (left, right) = keys.split_at(keys.len() / 2);
                let children = [format!("{id}L"), format!("{id}R")];
                stream.split(id, &[&children[0], &children[1]]);
                next.push((children[0].clone(), left.to_vec()));
                next.push((children[1].clone(), right.to_vec()));
            }
        }
        level = next;
    }
    stream.disable();
    (stream, expected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::model::fixtures::proptest_cases(48)))]

    #[test]
    fn split_trees_under_faults_deliver_every_record_once_in_key_order(
        roots in 1usize..3,
        generations in 0usize..3,
        per_shard in proptest::collection::vec(0u8..7, 1..8),
        seed in any::<u64>(),
        fault_rate in 0.0f64..0.4,
        page in 1i32..4,
    ) {
        // Faults from a hash of the call: throttles, expired and trimmed iterators on
        // GetRecords, rare transient failures anywhere.
        let script = move |call: &Call| {
            let mut h = seed ^ (call.n.wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ (call.operation as u64) << 60;
            h ^= h >> 29;
            h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 32;
            let roll = (h % 10_000) as f64 / 10_000.0;
            if roll >= fault_rate {
                return None;
            }
            let pick = (h >> 20) % 10;
            match (call.operation, pick) {
                (Operation::GetRecords, 0..=3) => Some(StreamErrorKind::Throttled),
                (Operation::GetRecords, 4..=5) => Some(StreamErrorKind::ExpiredIterator),
                (Operation::GetRecords, 6) => Some(StreamErrorKind::TrimmedData),
                (_, 7) if roll < fault_rate / 4.0 => Some(StreamErrorKind::Transient),
                (Operation::GetShardIterator | Operation::DescribeStream, 0..=3) => {
                    Some(StreamErrorKind::Throttled)
                }
                _ => None,
            }
        };
        let (stream, expected) = split_tree(roots, generations, &per_shard, script);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let (events, _) = runtime.block_on(async {
            let mut s = spec(StreamStart::TrimHorizon);
            s.records_per_call = page;
            Run::start(&stream, s, 4).finish().await
        });
        prop_assert_eq!(outcome(&events), Some(StreamOutcome::StreamDisabled), "{:?}", events.last());
        prop_assert_eq!(per_key(&delivered(&events)), expected);
    }
}
