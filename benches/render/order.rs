//! The collections' display order at scale (issue 14): what `o` costs at a million items (one
//! full sort into the new order), frame times with the list ordered by items, and page to frame
//! while a scan streams into an ordered list (the order updated per page, never per frame).

use std::time::{Duration, Instant};

use dynoscope::app::input::KeyCode;
use dynoscope::app::state::State;
use dynoscope::app::update::update;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::{described, items, key, loaded, median_frame, page_msg, HEIGHT, WIDTH};

fn char_key(c: char) -> dynoscope::app::msg::Msg {
    key(KeyCode::Char(c))
}

/// Presses `o` through every order and back, timing each press's `update` (the sort) and the
/// frame after it. Returns (order, update ms, frame ms).
pub fn order_presses(state: &mut State) -> Vec<(&'static str, f64, f64)> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    // The collections pane has the focus for `o` to act on what is shown.
    state.view_mut().unwrap().focus = dynoscope::app::state::Pane::Collections;
    let mut out = Vec::new();
    for _ in 0..4 {
        let started = Instant::now();
        update(state, char_key('o'));
        let sorted = started.elapsed();
        let started = Instant::now();
        terminal.draw(|f| dynoscope::ui::draw(f, state)).unwrap();
        let frame = started.elapsed();
        let order = state.view().unwrap().ordering.order().label();
        out.push((order, sorted.as_secs_f64() * 1e3, frame.as_secs_f64() * 1e3));
    }
    out
}

/// Frames with the list ordered by items: top, middle and end of the collections.
pub fn ordered_frames(state: &mut State) -> Vec<(&'static str, Duration)> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    // First seen → key → items.
    update(state, char_key('o'));
    update(state, char_key('o'));
    let collections = state.view().unwrap().collection_count();
    let mut out = Vec::new();
    for (name, target) in [
        ("collections by items, top", 0),
        ("collections by items, middle", collections / 2),
        ("collections by items, end", collections.saturating_sub(1)),
    ] {
        let view = state.table.as_mut().unwrap();
        view.view.collections.jump(target, collections, 30);
        out.push((name, median_frame(state, &mut terminal)));
    }
    out
}

/// Page arrival to its first visible frame while a scan of `items_total` streams into a list
/// ordered by items: (p50, p99, max) in ms, as `super::page_to_frame` measures first-seen.
pub fn page_to_frame_ordered(items_total: usize) -> (f64, f64, f64) {
    const TRIAGE_PAGE: usize = dynoscope::app::state::TRIAGE_PAGE_ITEMS as usize;
    let (mut state, id) = described();
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    let mut source = items(items_total);
    let mut samples = Vec::new();
    for number in 1.. {
        let page: Vec<_> = source.by_ref().take(TRIAGE_PAGE).collect();
        if page.is_empty() {
            break;
        }
        let msg = page_msg(id, number, page, true);
        let started = Instant::now();
        update(&mut state, msg);
        if number == 1 {
            // Ordered by items from the first page on: every later page updates the order.
            update(&mut state, char_key('o'));
            update(&mut state, char_key('o'));
        }
        terminal.draw(|f| dynoscope::ui::draw(f, &state)).unwrap();
        samples.push(started.elapsed().as_secs_f64() * 1e3);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), samples[samples.len() - 1])
}

/// The ordered measurements, then every frame time (first-seen cases `base`/`measured` and the
/// ordered ones) in one table with its ratio to 1,000 items.
pub fn report(
    n: usize,
    big: &mut State,
    base: &[(&'static str, Duration)],
    measured: &[(&'static str, Duration)],
) {
    let (o50, o99, omax) = page_to_frame_ordered(n);
    println!(
        "page arrival to its first visible frame, collections ordered by items: p50 {o50:.2} ms, p99 {o99:.2} ms, max {omax:.2} ms"
    );
    let collections = big.view().unwrap().collection_count();
    for (order, sorted, frame) in order_presses(big) {
        println!(
            "o to '{order}' with {collections} collections: update {sorted:.2} ms, then a frame {frame:.3} ms"
        );
    }
    let ordered_base = ordered_frames(&mut loaded(items(1_000)).0);
    let ordered = ordered_frames(big);
    println!("| position | frame (1,000 items) | frame ({n} items) | ratio |");
    println!("|---|---|---|---|");
    for ((name, b), (_, m)) in base
        .iter()
        .zip(measured)
        .chain(ordered_base.iter().zip(&ordered))
    {
        println!(
            "| {name} | {:.3} ms | {:.3} ms | {:.2} |",
            b.as_secs_f64() * 1e3,
            m.as_secs_f64() * 1e3,
            m.as_secs_f64() / b.as_secs_f64()
        );
    }
}
