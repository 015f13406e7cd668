//! The real coordinator, segment tasks and capacity guard against a table in memory, under
//! paused time: the resume contract (cancel, fail and resume deliver what one uninterrupted
//! read would, each item once) and the capacity guards as a user action sees them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use tokio::sync::mpsc;

use super::memory::{MemorySource, Step};
use super::{start_read, DoneOutcome, EngineEvent, Operation, ReadCause, ReadProgress, ReadSpec};
use crate::model::item::value::{AttrValue, Item};

fn table(n: usize, size_seed: u64) -> Vec<Item> {
    (0..n)
        .map(|i| {
            // Sizes from a few bytes to ~6 KB, so pages cross 4 KB blocks unevenly.
            let pad = ((i as u64 * 2654435761 + size_seed) % 6000) as usize;
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(format!("P#{:03}", i / 7))),
                ("SK".into(), AttrValue::S(format!("S#{:04}", i))),
                ("n".into(), AttrValue::N(i.to_string())),
                ("pad".into(), AttrValue::S("x".repeat(pad))),
            ])
        })
        .collect()
}

fn key(item: &Item) -> String {
    item.get("SK")
        .and_then(|v| v.as_s())
        .unwrap_or("")
        .to_string()
}

fn keep(item: &Item) -> bool {
    item.get("n")
        .and_then(|v| match v {
            AttrValue::N(n) => n.parse::<u64>().ok(),
            _ => None,
        })
        .is_some_and(|n| n % 3 != 1)
}

/// How one read of a run ends: the user cancels after `cancel_after` pages (if set).
#[derive(Debug, Clone)]
struct Interruption {
    cancel_after: Option<usize>,
}

#[derive(Debug, Clone)]
struct Case {
    items: usize,
    size_seed: u64,
    segments: u32,
    shards: u32,
    page_size: Option<i32>,
    limit: Option<usize>,
    filter: bool,
    max_rcu: Option<f64>,
    /// Global request numbers that fail.
    failures: BTreeSet<u64>,
    interruptions: Vec<Interruption>,
    latency_seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (0usize..400, any::<u64>(), 1u32..=6, 0u32..=4),
        (
            prop::option::of(1i32..=60),
            prop::option::of(1usize..=300),
            any::<bool>(),
            prop::option::of(1.0f64..40.0),
        ),
        prop::collection::btree_set(0u64..60, 0..4),
        prop::collection::vec(prop::option::of(0usize..6), 0..5),
        any::<u64>(),
    )
        .prop_map(
            |(
                (items, size_seed, segments, shards),
                (page_size, limit, filter, max_rcu),
                failures,
                cancels,
                latency_seed,
            )| Case {
                items,
                size_seed,
                segments,
                shards,
                page_size,
                limit,
                filter,
                max_rcu,
                failures,
                interruptions: cancels
                    .into_iter()
                    .map(|cancel_after| Interruption { cancel_after })
                    .collect(),
                latency_seed,
            },
        )
}

impl Case {
    fn spec(&self) -> ReadSpec {
        let mut spec = if self.shards > 1 {
            let mut s = ReadSpec::new(Operation::Query, "t", ReadCause::Test);
            s.shards = (0..self.shards).map(|_| Vec::new()).collect();
            s.limit_per_segment = true;
            s
        } else {
            let mut s = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
            s.segments = self.segments;
            s
        };
        spec.page_size = self.page_size;
        spec.limit = self.limit;
        spec.filter = self.filter.then(|| "n filter".to_string());
        spec.budget.max_rcu = self.max_rcu;
        spec.key_attributes = vec!["PK".into(), "SK".into()];
        spec
    }

    fn source(&self, failing: bool) -> Arc<MemorySource> {
        let failures = if failing {
            self.failures.clone()
        } else {
            BTreeSet::new()
        };
        let seed = self.latency_seed;
        Arc::new(
            MemorySource::new(table(self.items, self.size_seed), &["PK", "SK"])
                .with_filter(keep)
                .with_script(move |n| Step {
                    latency: Duration::from_millis((n.wrapping_mul(seed | 1) >> 7) % 50 + 1),
                    fail: failures.contains(&n),
                }),
        )
    }
}

/// Items delivered per segment, in order, over a run of reads.
type Delivered = BTreeMap<u32, Vec<String>>;

/// One read to its end; cancels after `cancel_after` pages. Returns how it ended.
async fn one_read(
    source: &Arc<MemorySource>,
    spec: ReadSpec,
    cancel_after: Option<usize>,
    delivered: &mut Delivered,
    progress: &mut ReadProgress,
) -> Option<DoneOutcome> {
    let (tx, mut rx) = mpsc::channel(4);
    let handle = start_read(source.clone(), 1, spec, None, tx);
    let mut pages = 0;
    let mut outcome = None;
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(page) => {
                pages += 1;
                progress.record(&page);
                delivered
                    .entry(page.segment)
                    .or_default()
                    .extend(page.items.iter().map(key));
                if Some(pages) == cancel_after {
                    handle.cancel();
                }
            }
            EngineEvent::Done { outcome: o, .. } => outcome = Some(o),
            EngineEvent::Failed { .. } => {}
            EngineEvent::Abandoned { .. } | EngineEvent::Integrity { .. } => {}
        }
    }
    handle.join().await;
    outcome
}

/// Runs the case: interrupted reads first, then resumes until nothing is left. With
/// `past_limit`, a read that reached its limit is continued with a fresh one, as the
/// explorer's `n` does, until the table is read to its end.
fn run(case: &Case, interrupted: bool, past_limit: bool) -> Delivered {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let source = case.source(interrupted);
        let mut spec = case.spec();
        let mut delivered = Delivered::new();
        let mut cancels = if interrupted {
            case.interruptions.clone()
        } else {
            Vec::new()
        };
        cancels.reverse();
        for _ in 0..5000 {
            let mut progress = ReadProgress::new(&spec);
            let cancel_after = cancels.pop().and_then(|i| i.cancel_after);
            one_read(
                &source,
                spec.clone(),
                cancel_after,
                &mut delivered,
                &mut progress,
            )
            .await;
            let mut next = progress.resume(&spec);
            if past_limit && next.is_none() {
                next = progress.past_limit(&spec);
            }
            match next {
                Some(next) => spec = next,
                None => return delivered,
            }
        }
        panic!("no end after 5000 reads");
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::model::fixtures::proptest_cases(100)))]

    #[test]
    fn cancel_fail_and_resume_deliver_what_one_read_would(case in case()) {
        let whole = run(&case, false, false);
        let pieces = run(&case, true, false);
        let all: Vec<&String> = pieces.values().flatten().collect();
        let unique: BTreeSet<&String> = all.iter().copied().collect();
        prop_assert_eq!(unique.len(), all.len(), "an item was delivered twice");
        match (case.limit, case.shards > 1 || case.segments == 1) {
            // No limit, one segment, or a limit per shard: the same items in the same order.
            (None, _) | (Some(_), true) => {
                for segment in whole.keys().chain(pieces.keys()) {
                    prop_assert_eq!(whole.get(segment), pieces.get(segment), "segment {}", segment);
                }
            }
            // A limit shared by parallel segments: which segment fills it first is a race, so
            // each segment's items are a prefix of its own, and the total is the limit's.
            (Some(limit), false) => {
                let total_whole: usize = whole.values().map(Vec::len).sum();
                prop_assert_eq!(all.len(), total_whole.min(limit));
                let full = run(&Case { limit: None, ..case.clone() }, false, false);
                for (segment, got) in &pieces {
                    let own = full.get(segment).cloned().unwrap_or_default();
                    prop_assert!(own.starts_with(got), "segment {} is not a prefix", segment);
                }
            }
        }
    }

    #[test]
    fn loading_past_the_limit_reads_every_item_once_in_order(case in case()) {
        // The explorer's `n` after a limit: the next `limit` items, from the last one shown.
        let full = run(&Case { limit: None, ..case.clone() }, false, false);
        let paged = run(&case, true, true);
        let all: Vec<&String> = paged.values().flatten().collect();
        let unique: BTreeSet<&String> = all.iter().copied().collect();
        prop_assert_eq!(unique.len(), all.len(), "an item was delivered twice");
        for segment in full.keys().chain(paged.keys()) {
            prop_assert_eq!(full.get(segment), paged.get(segment), "segment {}", segment);
        }
    }
}

async fn drain_all(source: Arc<MemorySource>, spec: ReadSpec) -> (Vec<super::Page>, DoneOutcome) {
    let (tx, mut rx) = mpsc::channel(8);
    let handle = start_read(source, 1, spec, None, tx);
    let mut pages = Vec::new();
    let mut outcome = None;
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => pages.push(p),
            EngineEvent::Done { outcome: o, .. } => outcome = Some(o),
            other => panic!("{other:?}"),
        }
    }
    handle.join().await;
    (pages, outcome.expect("a final event"))
}

#[tokio::test(start_paused = true)]
async fn first_pages_of_many_segments_are_budgeted_too() {
    // 64 segments, a 10-unit budget, DynamoDB's own 1 MB pages: before the guard reserved
    // worst cases, every segment's first page went out unchecked.
    let source = Arc::new(
        MemorySource::new(table(3000, 7), &["PK", "SK"]).with_script(|_| Step {
            latency: Duration::from_millis(20),
            fail: false,
        }),
    );
    let mut spec = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
    spec.segments = 64;
    spec.budget.max_rcu = Some(10.0);
    let (pages, outcome) = drain_all(source, spec).await;
    let spent: f64 = pages.iter().map(|p| p.consumed.total).sum();
    let largest = pages.iter().map(|p| p.consumed.total).fold(0.0, f64::max);
    assert_eq!(outcome, DoneOutcome::BudgetReached);
    assert!(
        spent <= 10.0 + largest,
        "spent {spent}, largest page {largest}"
    );
    assert!(spent >= 10.0, "stopped early at {spent}");
}

#[tokio::test(start_paused = true)]
async fn a_limit_with_a_filter_resumes_after_the_last_item_delivered() {
    // Every other item matches; pages of 50 evaluated items return 25 each, and a limit of 10
    // cuts the first page. The resume point is the 10th item, not the page's end.
    let source = Arc::new(MemorySource::new(table(200, 1), &["PK", "SK"]).with_filter(
        |i| matches!(i.get("n"), Some(AttrValue::N(n)) if n.parse::<u32>().unwrap() % 2 == 0),
    ));
    let mut spec = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
    spec.filter = Some("even".into());
    spec.page_size = Some(50);
    spec.limit = Some(10);
    spec.key_attributes = vec!["PK".into(), "SK".into()];
    let (pages, outcome) = drain_all(source.clone(), spec.clone()).await;
    assert_eq!(outcome, DoneOutcome::LimitReached);
    let mut progress = ReadProgress::new(&spec);
    pages.iter().for_each(|p| progress.record(p));
    let first: Vec<String> = pages.iter().flat_map(|p| p.items.iter().map(key)).collect();
    assert_eq!(first.len(), 10);
    let mut next = spec.clone();
    next.starts = progress.starts.clone();
    next.limit = None;
    let (pages, _) = drain_all(source, next).await;
    let rest: Vec<String> = pages.iter().flat_map(|p| p.items.iter().map(key)).collect();
    assert_eq!(rest.first().map(String::as_str), Some("S#0020"), "{rest:?}");
    assert_eq!(first.len() + rest.len(), 100);
}

#[tokio::test(start_paused = true)]
async fn a_cancel_before_any_page_leaves_every_segment_to_resume_from_its_start() {
    let source = Arc::new(
        MemorySource::new(table(50, 3), &["PK", "SK"]).with_script(|_| Step {
            latency: Duration::from_secs(5),
            fail: false,
        }),
    );
    let mut spec = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
    spec.segments = 3;
    let (tx, mut rx) = mpsc::channel(8);
    let handle = start_read(source, 1, spec.clone(), None, tx);
    tokio::time::sleep(Duration::from_secs(1)).await;
    handle.cancel();
    let mut progress = ReadProgress::new(&spec);
    let mut abandoned = 0;
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => progress.record(&p),
            EngineEvent::Abandoned { .. } => abandoned += 1,
            EngineEvent::Done { outcome, .. } => assert_eq!(outcome, DoneOutcome::Cancelled),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(abandoned, 3, "each segment's request was on the wire");
    assert!(progress.has_more());
    let resumed = progress.resume(&spec).unwrap();
    assert_eq!(resumed.starts, vec![super::SegmentStart::Beginning; 3]);
}

#[tokio::test(start_paused = true)]
async fn every_response_that_came_back_is_delivered_even_after_a_cancel() {
    // A slow consumer and fast responses: when the user cancels, pages that already arrived
    // (prefetched or waiting for the consumer) were paid for, so they are delivered and count.
    for cancel_at_ms in [0u64, 1, 2, 3, 5, 8, 13, 21] {
        for segments in [1u32, 3, 8] {
            let source = Arc::new(
                MemorySource::new(table(600, 11), &["PK", "SK"]).with_script(|n| Step {
                    latency: Duration::from_millis(n % 3 + 1),
                    fail: false,
                }),
            );
            let mut spec = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
            spec.segments = segments;
            spec.page_size = Some(10);
            let (tx, mut rx) = mpsc::channel(1);
            let handle = start_read(source.clone(), 1, spec, None, tx);
            tokio::time::sleep(Duration::from_millis(cancel_at_ms)).await;
            handle.cancel();
            let mut delivered = 0.0;
            while let Some(event) = rx.recv().await {
                if let EngineEvent::Page(p) = event {
                    delivered += p.consumed.total;
                }
            }
            handle.join().await;
            assert_eq!(
                delivered,
                source.charged(),
                "cancelled at {cancel_at_ms} ms with {segments} segments"
            );
        }
    }
}
