//! The drain loop against the in-memory engine under paused time: every page and failed
//! request reaches the statistics, a cancel from the consumer ends the read cleanly, and a
//! failure is reported once with its segment.

use std::time::Duration;

use super::*;
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::{MemoryEngine, Operation, ReadCause};
use crate::model::fixtures::demo_info;
use crate::model::item::value::{AttrValue, Item};

fn table(n: usize, fail: Option<u64>) -> MemoryEngine {
    let items = (0..n)
        .map(|i| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(format!("P#{i:04}"))),
                ("SK".into(), AttrValue::S("S".into())),
            ])
        })
        .collect();
    let source = MemorySource::new(items, &["PK", "SK"]).with_script(move |n| Step {
        latency: Duration::from_millis(3),
        fail: Some(n) == fail,
    });
    MemoryEngine::new().with_table(demo_info(), source)
}

fn scan(segments: u32) -> ReadSpec {
    let mut spec = ReadSpec::new(Operation::Scan, "app", ReadCause::Test);
    spec.segments = segments;
    spec.page_size = Some(10);
    spec
}

#[tokio::test(start_paused = true)]
async fn every_page_is_counted_and_the_read_completes() {
    let engine = table(95, None);
    let mut items = 0;
    let drained = drain(&engine, scan(3), |page| {
        items += page.items.len();
        Next::Continue
    })
    .await;
    assert_eq!(items, 95);
    assert_eq!(drained.outcome, Some(DoneOutcome::Complete));
    assert!(drained.failure.is_none() && !drained.interrupted);
    assert_eq!(drained.stats.count, 95);
    assert_eq!(drained.stats.pages, drained.stats.requests);
    assert_eq!(drained.stats.attempts, drained.stats.requests);
}

#[tokio::test(start_paused = true)]
async fn a_consumer_cancel_ends_the_read_and_pages_on_their_way_still_count() {
    let engine = table(500, None);
    let mut pages = 0;
    let drained = drain(&engine, scan(4), |_| {
        pages += 1;
        if pages == 3 {
            Next::Cancel
        } else {
            Next::Continue
        }
    })
    .await;
    assert_eq!(drained.outcome, Some(DoneOutcome::Cancelled));
    assert!(drained.stats.pages >= 3 && drained.stats.count < 500);
    assert_eq!(drained.stats.pages as usize, pages);
}

#[tokio::test(start_paused = true)]
async fn a_failure_is_reported_once_with_its_attempts() {
    let engine = table(200, Some(4));
    let drained = drain(&engine, scan(2), |_| Next::Continue).await;
    let failure = drained.failure.expect("request 4 fails");
    assert!(
        failure.error.message.contains("request 4"),
        "{}",
        failure.error
    );
    assert_eq!(failure.attempts.attempts, 1);
    assert_eq!(drained.outcome, None);
    // The failed request counts as a request, not a page.
    assert_eq!(drained.stats.requests, drained.stats.pages + 1);
}
