//! The live pane's frame time with its window and tail full, against the items pane's frame in
//! the same run (the explorer's everyday frame), and what `update` spends to keep the pane
//! fed: per change, and per tick (the summary of rates, rankings and warnings is derived once
//! per tick, never per frame).
//!
//! Five minutes of stream time at RATE changes a second (default 2,000: 600,000 changes) go
//! through the real `update` (timed in the thread's CPU time), with a tick every 250 ms as the
//! terminal loop sends them: 20,000
//! users' profiles plus a hot tenant with a quarter of the writes, orders moving between GSI
//! keys, both images on every change, so the rankings' counters are full and evicted all the
//! time and the tail holds its 1,000 changes. Frames are drawn on a `TestBackend` (median of
//! 200) at 100x30 and 200x50.
//!
//! run: cargo bench --bench live_pane [-- RATE]

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dynoscope::app::config::Config;
use dynoscope::app::input::{Key, KeyCode, Modifiers};
use dynoscope::app::keymap::Keymap;
use dynoscope::app::msg::{
    Effect, InputMsg, LiveEffect, Msg, ReadEffect, StreamMsg, TableMsg, TimeMsg,
};
use dynoscope::app::state::State;
use dynoscope::app::update::{start, update};
use dynoscope::aws::attempts::AttemptStats;
use dynoscope::aws::stream::StreamEvent;
use dynoscope::aws::{EngineEvent, Operation, Page, SegmentStart};
use dynoscope::model::demo::demo_data::DemoItems;
use dynoscope::model::design::schema::TableInfo;
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::stream::{Change, ChangeEvent, ViewType};
use dynoscope::model::traffic::capacity::Consumed;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const FRAMES: usize = 200;
const TICK_MS: u64 = 250;
const WINDOW_SECS: u64 = 300;
const USERS: u64 = 20_000;
const START_MS: i64 = 1_796_066_280_000;

fn info() -> TableInfo {
    dynoscope::model::demo::demo_data::stream_table_info()
}

fn item(attrs: &[(&str, String)]) -> Item {
    Item::from_attrs(
        attrs
            .iter()
            .map(|(k, v)| {
                let value = if v.bytes().all(|b| b.is_ascii_digit()) {
                    AttrValue::N(v.clone())
                } else {
                    AttrValue::S(v.clone())
                };
                (k.to_string(), value)
            })
            .collect(),
    )
}

/// The `n`-th change: a quarter to the hot tenant (an order shipped: its GSI key moves from a
/// PENDING shard to SHIPPED), the rest profile updates spread over `USERS` users.
fn change(n: u64, at_ms: i64) -> Change {
    let hot = n.is_multiple_of(4);
    let (pk, sk) = if hot {
        (
            "USER#celebrity".to_string(),
            format!("ORDER#2026-12-{:02}#c{n:08}", n % 28 + 1),
        )
    } else {
        (
            format!("USER#u{:05}", (n * 7919) % USERS),
            "PROFILE".to_string(),
        )
    };
    let common = |extra: Vec<(&'static str, String)>| {
        let mut attrs = vec![
            ("PK", pk.clone()),
            ("SK", sk.clone()),
            ("name", format!("User {}", n % USERS)),
            ("email", format!("user{}@example.com", n % USERS)),
            ("plan", "pro".to_string()),
            ("createdAt", "2026-01-01T00:00:00Z".to_string()),
        ];
        attrs.extend(extra);
        item(&attrs)
    };
    let (old, new) = if hot {
        (
            common(vec![
                ("GSI1PK", format!("STATUS#PENDING#{}", n % 10)),
                ("GSI1SK", format!("2026-12-01#ORDER#c{n:08}")),
                ("status", "PENDING".into()),
            ]),
            common(vec![
                ("GSI1PK", "STATUS#SHIPPED".into()),
                ("GSI1SK", format!("2026-12-01#ORDER#c{n:08}")),
                ("status", "SHIPPED".into()),
            ]),
        )
    } else {
        (
            common(vec![
                ("lastSeen", (n + 1).to_string()),
                ("sessions", (n % 97).to_string()),
            ]),
            common(vec![
                ("lastSeen", (n + 2).to_string()),
                ("sessions", (n % 97 + 1).to_string()),
            ]),
        )
    };
    Change {
        event: ChangeEvent::Modify,
        keys: item(&[("PK", pk), ("SK", sk)]),
        old_image: Some(old),
        new_image: Some(new),
        sequence_number: format!("{:021}", n),
        created_at_ms: Some(at_ms),
        size_bytes: 420,
        view: Some(ViewType::NewAndOldImages),
        ttl_delete: false,
    }
}

fn key(code: KeyCode) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(code, Modifiers::NONE)))
}

fn char_key(c: char) -> Msg {
    let modifiers = if c.is_ascii_uppercase() {
        Modifiers::SHIFT
    } else {
        Modifiers::NONE
    };
    Msg::Input(InputMsg::Key(Key::new(KeyCode::Char(c), modifiers)))
}

/// The table described and 1,000 demo items loaded, the items pane focused.
fn explorer() -> State {
    let mut state = State::new(
        Config::default(),
        Keymap::default(),
        "bench".into(),
        100,
        30,
    );
    start(&mut state, Some("app".into()));
    let effects = update(
        &mut state,
        Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info()),
        }),
    );
    let id = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, .. })] => *id,
        other => panic!("expected a read, got {other:?}"),
    };
    let items: Vec<Item> = DemoItems::new(60).take(1000).collect();
    let count = items.len() as u64;
    update(
        &mut state,
        Msg::Engine(EngineEvent::Page(Page {
            request_id: id,
            operation: Operation::Scan,
            index: None,
            segment: 0,
            page: 1,
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
            attempts: AttemptStats::default(),
            last_evaluated_key: None,
            resume: Some(SegmentStart::Finished),
            sent: None,
        })),
    );
    update(&mut state, key(KeyCode::Tab));
    state
}

/// The median frame (wall clock), and every frame's CPU time (this thread's: a frame the
/// scheduler set aside on the shared machine is not a slow frame).
type Frames = (Duration, Vec<Duration>);

fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn median_frame(state: &State, width: u16, height: u16) -> Frames {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let (mut wall, mut cpu): (Vec<Duration>, Vec<Duration>) = (0..FRAMES)
        .map(|_| {
            let (started, started_cpu) = (Instant::now(), cpu_time());
            terminal
                .draw(|f| dynoscope::ui::draw(f, black_box(state)))
                .unwrap();
            (started.elapsed(), cpu_time() - started_cpu)
        })
        .unzip();
    wall.sort();
    cpu.sort();
    (wall[FRAMES / 2], cpu)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort();
    times[((times.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let rate: u64 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let mut state = explorer();
    let baseline = [(100, 30), (200, 50)].map(|(w, h)| median_frame(&state, w, h));

    // The pane opened, its stream found and read from one shard.
    state.clock_ms = 1_000;
    let effects = update(&mut state, char_key('W'));
    let id = match effects.as_slice() {
        [Effect::Live(LiveEffect::Start { id, .. })] => *id,
        other => panic!("expected a stream, got {other:?}"),
    };
    for event in [
        StreamMsg::Found {
            view_type: Some(ViewType::NewAndOldImages),
            timeline: Default::default(),
        },
        StreamMsg::Event(StreamEvent::Ready { shards: 1 }),
    ] {
        update(&mut state, Msg::Stream { id, event });
    }
    let per_tick = rate * TICK_MS / 1000;
    let ticks = WINDOW_SECS * 1000 / TICK_MS;
    let (mut feeding, mut tick_times) = (Duration::ZERO, Vec::new());
    let mut n = 0u64;
    for t in 1..=ticks {
        let now = 1_000 + t * TICK_MS;
        let batch: Vec<Change> = (n..n + per_tick)
            .map(|i| change(i, START_MS + now as i64))
            .collect();
        n += per_tick;
        let msg = Msg::Stream {
            id,
            event: StreamMsg::Event(StreamEvent::Changes {
                shard_id: Arc::from("shard-0001"),
                changes: batch,
            }),
        };
        let started = cpu_time();
        update(&mut state, msg);
        feeding += cpu_time() - started;
        let started = cpu_time();
        update(&mut state, Msg::Time(TimeMsg::Tick(now)));
        tick_times.push(cpu_time() - started);
    }
    let live = state.table.as_ref().unwrap().live().unwrap();
    assert_eq!(live.stats.totals().events, n);
    assert_eq!(live.shown_tail().len(), 1000, "the tail is full");
    println!(
        "{n} changes over {WINDOW_SECS} s of stream time ({rate}/s): update {:.2} µs a change ({:.0} changes per CPU second)",
        feeding.as_secs_f64() * 1e6 / n as f64,
        n as f64 / feeding.as_secs_f64()
    );
    let one = &mut tick_times[ticks as usize - 40..].to_vec();
    println!(
        "tick (summary refresh, CPU time), 1 min window: p50 {:.3} ms, p99 {:.3} ms",
        ms(percentile(one, 0.5)),
        ms(percentile(one, 0.99))
    );

    let mut rows: Vec<(String, [Frames; 2])> = Vec::new();
    let mut case = |name: &str, state: &State| {
        rows.push((
            name.to_string(),
            [(100, 30), (200, 50)].map(|(w, h)| median_frame(state, w, h)),
        ));
    };
    case("live pane, 1 min window, table ranking", &state);
    update(&mut state, char_key('5'));
    let mut five = Vec::new();
    let mut now = state.clock_ms;
    for _ in 0..40 {
        now += TICK_MS;
        let started = cpu_time();
        update(&mut state, Msg::Time(TimeMsg::Tick(now)));
        five.push(cpu_time() - started);
    }
    println!(
        "tick (summary refresh, CPU time), 5 min window: p50 {:.3} ms, p99 {:.3} ms",
        ms(percentile(&mut five, 0.5)),
        ms(percentile(&mut five, 0.99))
    );
    case("live pane, 5 min window", &state);
    update(&mut state, key(KeyCode::Tab));
    case("live pane, 5 min window, GSI1 ranking", &state);
    update(&mut state, char_key('f'));
    update(&mut state, char_key('p'));
    case("live pane, following, paused", &state);
    update(&mut state, key(KeyCode::Enter));
    case("live pane, a change open", &state);

    println!();
    println!("| frame (median of {FRAMES}) | 100x30 | ratio to items | 200x50 | ratio to items |");
    println!("|---|---|---|---|---|");
    println!(
        "| items pane, 1,000 items (baseline) | {:.3} ms | 1 | {:.3} ms | 1 |",
        ms(baseline[0].0),
        ms(baseline[1].0)
    );
    let mut all = Vec::new();
    for (name, [(small, small_all), (large, large_all)]) in rows {
        all.extend(small_all);
        all.extend(large_all);
        println!(
            "| {name} | {:.3} ms | {:.2} | {:.3} ms | {:.2} |",
            ms(small),
            small.as_secs_f64() / baseline[0].0.as_secs_f64(),
            ms(large),
            large.as_secs_f64() / baseline[1].0.as_secs_f64()
        );
    }
    let drawn = all.len();
    let p99 = percentile(&mut all, 0.99);
    let slowest: Vec<String> = all
        .iter()
        .rev()
        .take(5)
        .map(|d| format!("{:.3}", ms(*d)))
        .collect();
    println!(
        "\nall {drawn} live pane frames in CPU time: p99 {:.3} ms; the five slowest {} ms",
        ms(p99),
        slowest.join(", ")
    );
}
