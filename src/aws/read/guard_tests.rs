//! The guard alone, under paused time: many segments with random page costs and latencies
//! never take the budget past one page beyond it, nor any one-second window of sends past the
//! rate plus one page.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::model::capacity::worst_case_read_units;

#[derive(Debug, Clone)]
struct Plan {
    segments: usize,
    /// Per request of each segment: (items evaluated, bytes per item, latency ms).
    pages: Vec<Vec<(u32, u32, u64)>>,
    consistent: bool,
    page_limit: Option<i32>,
}

fn plan() -> impl Strategy<Value = Plan> {
    (1usize..=64, any::<bool>(), prop::option::of(1i32..=3000)).prop_flat_map(
        |(segments, consistent, page_limit)| {
            let page = (1u32..=3000, 1u32..=8000, 1u64..=400);
            prop::collection::vec(prop::collection::vec(page, 1..12), segments).prop_map(
                move |pages| Plan {
                    segments,
                    pages,
                    consistent,
                    page_limit,
                },
            )
        },
    )
}

/// What DynamoDB would charge for a page of `items` of `bytes` each, within what the request
/// allows: its Limit (capped by the guard) and 1 MB.
fn page_cost(items: u32, bytes: u32, limit: Option<i32>, consistent: bool) -> (u64, f64) {
    let items = limit.map_or(items, |l| items.min(l as u32)) as u64;
    let mut read = 0u64;
    let mut evaluated = 0u64;
    while evaluated < items && read < 1024 * 1024 {
        read += bytes as u64;
        evaluated += 1;
    }
    (
        evaluated,
        crate::model::capacity::scan_estimate_units(read, consistent),
    )
}

/// Runs the plan against one guard and returns every admitted request as (sent, units).
fn run(plan: &Plan, max: Option<f64>, rate: Option<f64>) -> Vec<(Instant, f64)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let guard = Arc::new(CapacityGuard::new(max, rate).unwrap());
        let sent = Arc::new(Mutex::new(Vec::new()));
        let stop = CancellationToken::new();
        let mut tasks = Vec::new();
        for segment in 0..plan.segments {
            let (guard, sent, stop) = (guard.clone(), sent.clone(), stop.clone());
            let pages = plan.pages[segment].clone();
            let (limit, consistent) = (plan.page_limit, plan.consistent);
            tasks.push(tokio::spawn(async move {
                for (items, bytes, latency) in pages {
                    let worst = worst_case_read_units(limit, consistent);
                    let Some(Admission::Go { ticket, limit_cap }) = guard.admit(worst, &stop).await
                    else {
                        return;
                    };
                    let at = Instant::now();
                    let limit = match (limit, limit_cap) {
                        (Some(l), Some(c)) => Some(l.min(c)),
                        (l, c) => l.or(c),
                    };
                    let (evaluated, units) = page_cost(items, bytes, limit, consistent);
                    tokio::time::sleep(Duration::from_millis(latency)).await;
                    sent.lock().unwrap().push((at, units));
                    guard.settle(ticket, units, evaluated);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let mut all = sent.lock().unwrap().clone();
        all.sort_by_key(|(at, _)| *at);
        all
    })
}

fn largest(sent: &[(Instant, f64)]) -> f64 {
    sent.iter().map(|(_, u)| *u).fold(0.0, f64::max)
}

/// The first one-second window whose requests cost more than `rate` plus the largest page,
/// described; `None` when the rate held in every window.
fn busiest_window_over(sent: &[(Instant, f64)], rate: f64) -> Option<String> {
    let page = largest(sent);
    sent.iter().enumerate().find_map(|(i, (start, _))| {
        let in_window: f64 = sent[i..]
            .iter()
            .take_while(|(at, _)| *at < *start + Duration::from_secs(1))
            .map(|(_, u)| u)
            .sum();
        (in_window > rate + page + 1e-9)
            .then(|| format!("{in_window} in the second from {i} at {rate}/s"))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn budget_never_passes_one_page_beyond(plan in plan(), max in 0.5f64..2000.0) {
        let sent = run(&plan, Some(max), None);
        let spent: f64 = sent.iter().map(|(_, u)| u).sum();
        prop_assert!(spent <= max + largest(&sent) + 1e-9, "spent {spent} of {max}");
    }

    #[test]
    fn rate_holds_in_every_window(plan in plan(), rate in 1.0f64..500.0) {
        let sent = run(&plan, None, Some(rate));
        if let Some(at) = busiest_window_over(&sent, rate) {
            prop_assert!(false, "{at}");
        }
    }

    #[test]
    fn both_at_once(plan in plan(), max in 0.5f64..2000.0, rate in 1.0f64..500.0) {
        let sent = run(&plan, Some(max), Some(rate));
        let spent: f64 = sent.iter().map(|(_, u)| u).sum();
        prop_assert!(spent <= max + largest(&sent) + 1e-9);
        if let Some(at) = busiest_window_over(&sent, rate) {
            prop_assert!(false, "{at}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_big_budget_lets_segments_run_in_parallel() {
    let guard = CapacityGuard::new(Some(10_000.0), None).unwrap();
    let stop = CancellationToken::new();
    let worst = worst_case_read_units(None, false);
    let mut tickets = Vec::new();
    for _ in 0..8 {
        match guard.admit(worst, &stop).await.unwrap() {
            Admission::Go { ticket, limit_cap } => {
                assert_eq!(limit_cap, None, "a worst case that fits needs no cap");
                tickets.push(ticket);
            }
            Admission::Exhausted => panic!("exhausted"),
        }
    }
    assert_eq!(tickets.len(), 8, "8 full pages fit in 10,000 units at once");
}

#[tokio::test(start_paused = true)]
async fn a_small_budget_sends_one_probe_then_sizes_pages_to_what_is_left() {
    let guard = CapacityGuard::new(Some(10.0), None).unwrap();
    let stop = CancellationToken::new();
    let worst = worst_case_read_units(Some(2000), false);
    let Some(Admission::Go { ticket, limit_cap }) = guard.admit(worst, &stop).await else {
        panic!("the first request goes");
    };
    assert_eq!(limit_cap, Some(PROBE_ITEMS));
    // A second request waits while the first is in flight: nothing fits beside it.
    let waiting = tokio::time::timeout(Duration::from_secs(5), guard.admit(worst, &stop)).await;
    assert!(waiting.is_err(), "admitted beside an unsettled probe");
    // 128 items for 2 units: 1/64 unit each, 8 units left -> 512 items.
    guard.settle(ticket, 2.0, 128);
    let Some(Admission::Go { ticket, limit_cap }) = guard.admit(worst, &stop).await else {
        panic!("room is left");
    };
    assert_eq!(limit_cap, Some(512));
    guard.settle(ticket, 8.5, 512);
    assert!(matches!(
        guard.admit(worst, &stop).await,
        Some(Admission::Exhausted)
    ));
    assert_eq!(guard.spent(), 10.5);
}

#[tokio::test(start_paused = true)]
async fn the_rate_waits_for_the_window_and_stop_ends_the_wait() {
    let guard = CapacityGuard::new(None, Some(5.0)).unwrap();
    let stop = CancellationToken::new();
    let started = Instant::now();
    let Some(Admission::Go { ticket, .. }) = guard.admit(1.0, &stop).await else {
        panic!()
    };
    guard.settle(ticket, 5.0, 10);
    // The window holds 5 units until one second after the first send.
    let Some(Admission::Go { ticket, .. }) = guard.admit(1.0, &stop).await else {
        panic!()
    };
    assert_eq!(started.elapsed(), Duration::from_secs(1));
    guard.settle(ticket, 5.0, 10);
    stop.cancel();
    assert!(guard.admit(1.0, &stop).await.is_none());
}
