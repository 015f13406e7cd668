//! A long run: 200,000 changes through the stream engine (from an in-memory stream of split
//! shards) into `LiveStats`, the way the live view and `tail` consume them, with 20,000
//! distinct keys so the rankings' counters are evicted all the time and ten-second buckets
//! roll over for 1,000 seconds of stream time. Live heap (a counting allocator) and RSS must
//! stay within the bounds stated in docs/tail.md, and must not grow with the number of changes.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use dynoscope::aws::stream::memory::MemoryStream;
use dynoscope::aws::stream::{start_stream, StreamCounters, StreamEvent, StreamSpec, StreamStart};
use dynoscope::model::design::schema::TableInfo;
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::stream::{
    Change, ChangeEvent, LiveConfig, LiveStats, RankBy, RankTarget, ViewType, Window,
};

mod counting_alloc;
use counting_alloc::{Counting, LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const CHANGES: u64 = 200_000;
const KEYS: u64 = 20_000;
/// The bounds docs/tail.md states: live heap above what was allocated before the run (the
/// engine's channel of 16 pages of 1,000 changes, the tail's 1,000 changes, the rankings),
/// and the whole process's resident set.
/// Measured: +18 MB of live heap at the peak, 46-49 MB RSS (debug build, 2 cores).
const HEAP_BOUND_MB: usize = 32;
const RSS_BOUND_MB: usize = 96;
/// What `LiveStats` may grow by from 100,000 to 200,000 changes (its rings are full by
/// 100,000: 500 s of stream time): nothing is kept per change or per key beyond its bounds.
const GROWTH_BOUND_KB: usize = 256;
const START_MS: i64 = 1_800_000_000_000;

fn table() -> TableInfo {
    dynoscope::model::demo::demo_data::stream_table_info()
}

/// Change number `n`: a MODIFY of one of 20,000 users (every fifth to the hot tenant), with
/// both images of about 400 bytes, five milliseconds of stream time after the one before.
fn change(n: u64) -> Change {
    let pk = if n.is_multiple_of(5) {
        "USER#celebrity".to_string()
    } else {
        format!("USER#u{:05}", (n * 7919) % KEYS)
    };
    let image = |v: u64| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.clone())),
            ("SK".into(), AttrValue::S("PROFILE".into())),
            (
                "GSI1PK".into(),
                AttrValue::S(format!("STATUS#PENDING#{}", n % 10)),
            ),
            ("GSI1SK".into(), AttrValue::S(format!("{n:012}"))),
            ("v".into(), AttrValue::N(v.to_string())),
            ("name".into(), AttrValue::S(format!("User {n}"))),
            ("payload".into(), AttrValue::S("x".repeat(250))),
        ])
    };
    Change {
        event: ChangeEvent::Modify,
        keys: Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.clone())),
            ("SK".into(), AttrValue::S("PROFILE".into())),
        ]),
        old_image: Some(image(n)),
        new_image: Some(image(n + 1)),
        sequence_number: String::new(),
        created_at_ms: Some(START_MS + n as i64 * 5),
        size_bytes: 800,
        view: Some(ViewType::NewAndOldImages),
        ttl_delete: false,
    }
}

fn rss_mb() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096 / (1024 * 1024)
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

#[test]
fn two_hundred_thousand_changes_stay_within_the_stated_memory_bound() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // One shard split into two, each child split again: 200,000 changes over 7 shards.
    let stream = Arc::new(MemoryStream::new());
    let per_shard = CHANGES / 7;
    let layout: [(&str, Option<&str>); 7] = [
        ("r", None),
        ("a", Some("r")),
        ("b", Some("r")),
        ("aa", Some("a")),
        ("ab", Some("a")),
        ("ba", Some("b")),
        ("bb", Some("b")),
    ];
    for (i, (id, parent)) in layout.iter().enumerate() {
        let first = i as u64 * per_shard;
        let len = if i == 6 { CHANGES - first } else { per_shard };
        stream.generated_shard(id, *parent, len, move |p| change(first + p));
    }
    stream.disable();

    let mut live = LiveStats::new(&table(), LiveConfig::default());
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let (seen, end_live) = runtime.block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::channel(4);
        let spec = StreamSpec::new("arn:memory", StreamStart::TrimHorizon, START_MS);
        let handle = start_stream(stream, spec, Arc::new(StreamCounters::default()), tx);
        let mut seen = 0u64;
        while let Some(event) = rx.recv().await {
            match event {
                StreamEvent::Changes { changes, .. } => {
                    for c in changes {
                        let at = c.created_at_ms.unwrap() as u64;
                        live.observe(c, at);
                        seen += 1;
                    }
                }
                StreamEvent::Done { .. } | StreamEvent::Failed { .. } => break,
                _ => {}
            }
        }
        handle.join().await;
        (seen, LIVE.load(Ordering::Relaxed))
    });
    let peak = PEAK.load(Ordering::Relaxed);
    let rss = rss_mb();
    eprintln!(
        "{seen} changes: live heap before {:.1} MB, peak +{:.1} MB, at the end +{:.1} MB; RSS {rss} MB",
        mb(before),
        mb(peak - before),
        mb(end_live.saturating_sub(before)),
    );
    assert_eq!(seen, CHANGES);
    assert!(
        peak - before < HEAP_BOUND_MB << 20,
        "peak live heap {:.1} MB over the start, bound {HEAP_BOUND_MB} MB",
        mb(peak - before)
    );
    assert!(rss < RSS_BOUND_MB, "RSS {rss} MB, bound {RSS_BOUND_MB} MB");

    // The statistics are still right at the end: the hot tenant leads the last minute.
    let now = (START_MS + CHANGES as i64 * 5) as u64;
    let top = live.top(RankTarget::Table, RankBy::Events, Window::OneMinute, now, 3);
    assert_eq!(top[0].key, "USER#celebrity");
    // 60 s of stream time is 12,000 changes, a fifth of them the tenant's (the ranking's
    // window is 50-60 s: its newest ten-second bucket is still filling).
    assert!((2_000..=2_400).contains(&top[0].events), "{top:?}");
    assert_eq!(live.tail().len(), 1000);
    assert_eq!(live.totals().events, CHANGES);
    drop(live);

    // LiveStats alone, fed directly: its memory stops growing once its rings are full.
    let base = LIVE.load(Ordering::Relaxed);
    let mut fresh = LiveStats::new(&table(), LiveConfig::default());
    let mut at = |n: u64| {
        let c = change(n);
        let t = c.created_at_ms.unwrap() as u64;
        fresh.observe(c, t);
    };
    (0..CHANGES / 2).for_each(&mut at);
    let half = LIVE.load(Ordering::Relaxed) - base;
    (CHANGES / 2..CHANGES).for_each(&mut at);
    let full = LIVE.load(Ordering::Relaxed) - base;
    eprintln!(
        "LiveStats alone: {:.2} MB after 100,000 changes, {:.2} MB after 200,000",
        mb(half),
        mb(full)
    );
    assert!(
        full.saturating_sub(half) < GROWTH_BOUND_KB << 10,
        "LiveStats grew {} KB from 100,000 to 200,000 changes",
        full.saturating_sub(half) >> 10
    );
}
