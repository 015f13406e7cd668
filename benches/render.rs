//! Render and ingest benchmark for the explorer, without a terminal.
//!
//! Loads N demo-shaped items through the real `update` (grouping, entity decoding, request log),
//! then times `ui::draw` on a 200x50 `TestBackend` at the top, middle and end of the collection
//! list and of the biggest collection's item list. Each case is reported with its ratio to the
//! same frame drawn with a 1,000-item baseline in the same process, so the ratio shows how frame
//! time scales with the number of items loaded (1.0 = independent of it).
//!
//! run: cargo bench --bench render [-- ITEMS]    (default 1,000,000)
//! With `TRACE_RSS=1`, ingest prints RSS and live heap every 100 pages (where memory goes).

use std::hint::black_box;
use std::time::{Duration, Instant};

use dynoscope::app::config::Config;
use dynoscope::app::input::{Key, KeyCode, Modifiers};
use dynoscope::app::keymap::Keymap;
use dynoscope::app::msg::{InputMsg, Msg, TableMsg};
use dynoscope::app::state::State;
use dynoscope::app::update::{start, update};
use dynoscope::aws::attempts::AttemptStats;
use dynoscope::aws::{EngineEvent, Operation, Page, SegmentStart};
use dynoscope::model::demo::demo_data::DemoItems;
use dynoscope::model::design::schema::{KeyAttr, KeySchema, KeyType, TableInfo};
use dynoscope::model::formats::json::append_dynamo_json;
use dynoscope::model::item::value::Item;
use dynoscope::model::traffic::capacity::Consumed;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

#[path = "render/order.rs"]
mod order;

const WIDTH: u16 = 200;
const HEIGHT: u16 = 50;
const PAGE: usize = 1000;
const FRAMES: usize = 200;

fn info() -> TableInfo {
    let s = |n: &str| KeyAttr {
        name: n.into(),
        key_type: KeyType::S,
    };
    TableInfo {
        name: "app".into(),
        status: "ACTIVE".into(),
        keys: KeySchema::simple(s("PK"), Some(s("SK"))),
        indexes: vec![],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: 0,
        size_bytes: 0,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

/// Demo-shaped items, generated lazily (about 19 per user), exactly `n` of them.
fn items(n: usize) -> impl Iterator<Item = Item> {
    DemoItems::new((n / 19 + 10) as u32).take(n)
}

/// One Scan page of `items`, as the engine would send it; `more` sets a LastEvaluatedKey.
fn page_msg(id: u64, number: u32, items: Vec<Item>, more: bool) -> Msg {
    let count = items.len() as u64;
    Msg::Engine(EngineEvent::Page(Page {
        request_id: id,
        operation: Operation::Scan,
        index: None,
        segment: 0,
        page: number,
        items,
        json_lines: None,
        sized_keys: None,
        count,
        scanned_count: count,
        consumed: Consumed {
            total: 8.0,
            table: 8.0,
            indexes: Default::default(),
            unreported_pages: 0,
        },
        sent_at: Duration::ZERO,
        latency: Duration::from_millis(5),
        attempts: AttemptStats {
            attempts: 1,
            throttles: 0,
            throttle_reason: None,
            reasons: Vec::new(),
        },
        last_evaluated_key: more.then(Item::new),
        resume: Some(if more {
            SegmentStart::After(Item::new())
        } else {
            SegmentStart::Finished
        }),
        sent: None,
    }))
}

/// An explorer at the bench's size with table `app` described; returns its first read's id.
fn described() -> (State, u64) {
    let mut state = State::new(
        Config::default(),
        Keymap::default(),
        "bench".into(),
        WIDTH,
        HEIGHT,
    );
    start(&mut state, Some("app".into()));
    update(
        &mut state,
        Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info()),
        }),
    );
    let id = state.view().unwrap().read.as_ref().unwrap().id;
    (state, id)
}

fn key(code: KeyCode) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(code, Modifiers::NONE)))
}

/// Loads `items` page by page through `update`, as pages arrive from DynamoDB: only one page
/// exists outside the store at a time. Returns the state, the time spent in `update`, and the
/// items' size in DynamoDB JSON (the yardstick for memory).
fn loaded(items: impl Iterator<Item = Item>) -> (State, Duration, usize) {
    let (mut state, id) = described();
    let mut items = items;
    let (mut ingest, mut ddb_bytes, mut number) = (Duration::ZERO, 0, 0u32);
    let mut line = String::new();
    loop {
        let page: Vec<Item> = items.by_ref().take(PAGE).collect();
        if page.is_empty() {
            break;
        }
        for item in &page {
            line.clear();
            append_dynamo_json(&mut line, item);
            ddb_bytes += line.len();
        }
        number += 1;
        let msg = page_msg(id, number, page, false);
        let started = Instant::now();
        update(&mut state, msg);
        ingest += started.elapsed();
        if std::env::var_os("TRACE_RSS").is_some() && number % 100 == 0 {
            eprintln!(
                "page {number}: rss {} MB live {} MB",
                rss_kb("VmRSS") / 1024,
                live_bytes() >> 20
            );
        }
    }
    (state, ingest, ddb_bytes)
}

fn median_frame(state: &State, terminal: &mut Terminal<TestBackend>) -> Duration {
    let mut times: Vec<Duration> = (0..FRAMES)
        .map(|_| {
            let started = Instant::now();
            terminal
                .draw(|f| dynoscope::ui::draw(f, black_box(state)))
                .unwrap();
            started.elapsed()
        })
        .collect();
    times.sort();
    times[FRAMES / 2]
}

/// Frame times for each position: collections top/middle/end, then items top/middle/end of
/// the biggest collection, then the last item's detail.
fn cases(state: &mut State) -> Vec<(&'static str, Duration)> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    let mut out = Vec::new();
    let collections = state.view().unwrap().collection_count();
    let biggest = {
        let store = state.view().unwrap().store.as_ref().unwrap();
        (0..store.collections().len())
            .max_by_key(|&c| store.collections()[c].items.len())
            .unwrap()
    };
    let goto = |state: &mut State, target: usize| {
        let view = state.table.as_mut().unwrap();
        let rows = 30;
        view.view.collections.jump(target, collections, rows);
    };
    for (name, target) in [
        ("collections, top", 0),
        ("collections, middle", collections / 2),
        ("collections, end", collections.saturating_sub(1)),
    ] {
        goto(state, target);
        out.push((name, median_frame(state, &mut terminal)));
    }
    goto(state, biggest);
    update(state, key(KeyCode::Tab));
    let len = state.view().unwrap().item_count();
    for (name, target) in [
        ("items, top", 0),
        ("items, middle", len / 2),
        ("items, end", len.saturating_sub(1)),
    ] {
        state.view_mut().unwrap().items.jump(target, len, 30);
        out.push((name, median_frame(state, &mut terminal)));
    }
    // The last item's detail (its JSON) open beside the list.
    update(state, key(KeyCode::Enter));
    assert!(state.view().unwrap().detail_open, "Enter opens the item");
    out.push(("item detail, end", median_frame(state, &mut terminal)));
    out
}

/// Counts live heap bytes, so the memory the explorer holds can be measured exactly, apart
/// from what the allocator keeps from freed pages (RSS includes that).
struct Counting;

static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        std::alloc::System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        LIVE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        std::alloc::System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new, std::sync::atomic::Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        std::alloc::System.realloc(ptr, layout, new)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_bytes() -> usize {
    LIVE.load(std::sync::atomic::Ordering::Relaxed)
}

/// A field of /proc/self/status in kB (VmRSS: now, VmHWM: peak).
fn rss_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Keypress-to-frame latency while a scan streams at full speed, through the terminal loop's
/// policy (`src/tui/event_loop.rs`): keys are taken before queued pages, queued pages are applied
/// for at most `BATCH_BUDGET` at a time, triage pages hold `TRIAGE_PAGE_ITEMS` items. A key that
/// arrives while a batch is being applied waits for the rest of the batch and a frame, then its
/// own update and frame. (The loop draws streamed pages at most every `FRAME_INTERVAL`, so the
/// frame after a batch is often skipped: this is an upper bound.) Batches and frames are timed
/// for real; each key's arrival is spread evenly over the batch it lands in. Returns (p50, p99)
/// in ms. `benches/pty_latency.rs` measures the real binary in a terminal.
fn input_latency(items_total: usize) -> (f64, f64) {
    const BUDGET: Duration = dynoscope::tui::BATCH_BUDGET;
    const TRIAGE_PAGE: usize = dynoscope::app::state::TRIAGE_PAGE_ITEMS as usize;
    let (mut state, id) = described();
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    let mut source = items(items_total);
    let mut samples = Vec::new();
    let mut number = 0;
    let mut done = false;
    while !done {
        // One batch: pages until the budget is spent, then a frame.
        let started = Instant::now();
        while started.elapsed() < BUDGET {
            let page: Vec<Item> = source.by_ref().take(TRIAGE_PAGE).collect();
            if page.is_empty() {
                done = true;
                break;
            }
            number += 1;
            update(&mut state, page_msg(id, number, page, true));
        }
        terminal.draw(|f| dynoscope::ui::draw(f, &state)).unwrap();
        let batch = started.elapsed();
        // The key itself: its update and the frame that shows it.
        let key_started = Instant::now();
        update(&mut state, key(KeyCode::Down));
        terminal.draw(|f| dynoscope::ui::draw(f, &state)).unwrap();
        let own = key_started.elapsed();
        for k in 0..10 {
            let waited = batch.mul_f64(1.0 - (k as f64 + 0.5) / 10.0);
            samples.push((waited + own).as_secs_f64() * 1e3);
        }
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Page arrival to its first visible frame, for each triage-size page of a scan of
/// `items_total` items: the page's `update` and the frame drawn after it. At network speed the
/// terminal loop is idle when a page arrives, so this is the whole delay; a page queued behind
/// others waits at most one batch more (`BATCH_BUDGET`), as `input_latency` measures for keys.
/// Returns (p50, p99, max) in ms.
fn page_to_frame(items_total: usize) -> (f64, f64, f64) {
    const TRIAGE_PAGE: usize = dynoscope::app::state::TRIAGE_PAGE_ITEMS as usize;
    let (mut state, id) = described();
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    let mut source = items(items_total);
    let mut samples = Vec::new();
    for number in 1.. {
        let page: Vec<Item> = source.by_ref().take(TRIAGE_PAGE).collect();
        if page.is_empty() {
            break;
        }
        let msg = page_msg(id, number, page, true);
        let started = Instant::now();
        update(&mut state, msg);
        terminal.draw(|f| dynoscope::ui::draw(f, &state)).unwrap();
        samples.push(started.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), samples[samples.len() - 1])
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find(|a| a.parse::<usize>().is_ok())
        .map_or(1_000_000, |a| a.parse().unwrap());
    let rss_start = rss_kb("VmRSS");
    let (mut baseline, _, _) = loaded(items(1_000));
    let base = cases(&mut baseline);
    drop(baseline);
    let live_before = live_bytes();
    let (mut big, ingest, ddb_bytes) = loaded(items(n));
    let held_bytes = live_bytes().saturating_sub(live_before);
    let rss_after = rss_kb("VmRSS");
    let peak = rss_kb("VmHWM");
    let measured = cases(&mut big);
    let held = big.view().unwrap().store.as_ref().unwrap().len();
    println!("explorer with {n} items, {WIDTH}x{HEIGHT} TestBackend, median of {FRAMES} frames");
    println!(
        "ingest through update(): {:.0} items/s ({:.2} s of update for {n} items)",
        n as f64 / ingest.as_secs_f64(),
        ingest.as_secs_f64()
    );
    let mb = |b: f64| b / 1048576.0;
    println!(
        "memory with {held} items held: peak RSS {:.0} MB (process at start {:.0} MB; RSS now {:.0} MB); live heap held {:.0} MB; DynamoDB JSON of the items {:.0} MB",
        peak as f64 / 1024.0,
        rss_start as f64 / 1024.0,
        rss_after as f64 / 1024.0,
        mb(held_bytes as f64),
        mb(ddb_bytes as f64)
    );
    println!(
        "ratios to DynamoDB-JSON bytes: peak RSS {:.2}, live heap {:.2}",
        peak as f64 * 1024.0 / ddb_bytes as f64,
        held_bytes as f64 / ddb_bytes as f64
    );
    let (idle_p50, idle_p99) = {
        // Baseline: the same key with nothing streaming.
        let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
        let mut times: Vec<f64> = (0..200)
            .map(|_| {
                let started = Instant::now();
                update(&mut big, key(KeyCode::Down));
                terminal.draw(|f| dynoscope::ui::draw(f, &big)).unwrap();
                started.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(|a, b| a.total_cmp(b));
        (times[100], times[198])
    };
    let (p50, p99) = input_latency(n.min(400_000));
    println!(
        "keypress to frame while streaming 2,000-item pages: p50 {p50:.2} ms, p99 {p99:.2} ms; idle: p50 {idle_p50:.2} ms, p99 {idle_p99:.2} ms; p99 ratio {:.1}",
        p99 / idle_p99
    );
    let (f50, f99, fmax) = page_to_frame(n);
    println!(
        "page arrival to its first visible frame ({} pages of {} items): p50 {f50:.2} ms, p99 {f99:.2} ms, max {fmax:.2} ms",
        n.div_ceil(dynoscope::app::state::TRIAGE_PAGE_ITEMS as usize),
        dynoscope::app::state::TRIAGE_PAGE_ITEMS
    );
    order::report(n, &mut big, &base, &measured);
}
