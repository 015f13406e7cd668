//! The guard alone, under paused time: many segments with random page costs and latencies
//! never take the budget past one page beyond it, nor any window of sends (one second, ten,
//! or the whole read) past the rate times its length plus one page.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::*;

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
        crate::model::traffic::capacity::scan_estimate_units(read, consistent),
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
        let guard = Arc::new(CapacityGuard::new(max, rate, plan.consistent).unwrap());
        let sent = Arc::new(Mutex::new(Vec::new()));
        let stop = CancellationToken::new();
        let mut tasks = Vec::new();
        for segment in 0..plan.segments {
            let (guard, sent, stop) = (guard.clone(), sent.clone(), stop.clone());
            let pages = plan.pages[segment].clone();
            let (limit, consistent) = (plan.page_limit, plan.consistent);
            tasks.push(tokio::spawn(async move {
                for (items, bytes, latency) in pages {
                    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(limit, &stop).await
                    else {
                        return;
                    };
                    let at = Instant::now();
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

/// The first window of at least `shortest` whose requests cost more than `rate` times its
/// length plus the largest page, described; `None` when the rate held in every such window.
/// Only windows from one send to another need checking: any other holds no more than the
/// tightest of those it contains. Every pair of sends is a window, so the times and running
/// sums are taken once, as plain numbers: the pairs are most of the engine's unit-test time.
fn window_over(sent: &[(Instant, f64)], rate: f64, shortest: Duration) -> Option<String> {
    let page = largest(sent);
    let &(first, _) = sent.first()?;
    let at: Vec<f64> = sent
        .iter()
        .map(|(t, _)| (*t - first).as_secs_f64())
        .collect();
    let mut before = Vec::with_capacity(sent.len() + 1);
    before.push(0.0);
    for (_, units) in sent {
        before.push(before.last().copied().unwrap_or(0.0) + units);
    }
    let shortest = shortest.as_secs_f64();
    (0..sent.len()).find_map(|i| {
        (i..sent.len()).find_map(|j| {
            let in_window = before[j + 1] - before[i];
            let length = (at[j] - at[i]).max(shortest);
            (in_window > rate * length + page + 1e-9).then(|| {
                format!(
                    "{in_window} units in the {length:.2} s from send {i} to send {j} at {rate}/s \
                     (largest page {page})"
                )
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::model::fixtures::proptest_cases(100)))]

    #[test]
    fn budget_never_passes_one_page_beyond(plan in plan(), max in 0.5f64..2000.0) {
        let sent = run(&plan, Some(max), None);
        let spent: f64 = sent.iter().map(|(_, u)| u).sum();
        prop_assert!(spent <= max + largest(&sent) + 1e-9, "spent {spent} of {max}");
    }

    #[test]
    fn rate_holds_in_every_second_and_on_average(plan in plan(), rate in rates()) {
        let sent = run(&plan, None, Some(rate));
        for shortest in [Duration::from_secs(1), Duration::from_secs(10)] {
            if let Some(at) = window_over(&sent, rate, shortest) {
                prop_assert!(false, "{at}");
            }
        }
    }

    #[test]
    fn both_at_once(plan in plan(), max in 0.5f64..2000.0, rate in rates()) {
        let sent = run(&plan, Some(max), Some(rate));
        let spent: f64 = sent.iter().map(|(_, u)| u).sum();
        prop_assert!(spent <= max + largest(&sent) + 1e-9);
        if let Some(at) = window_over(&sent, rate, Duration::from_secs(1)) {
            prop_assert!(false, "{at}");
        }
    }
}

/// Rates from a hundredth of a unit a second (where one page used to be sent every second
/// whatever it cost) to hundreds.
fn rates() -> impl Strategy<Value = f64> {
    prop_oneof![0.01f64..2.0, 1.0f64..500.0]
}

/// 16 segments of a table whose pages cost 2.5 units per 100 items, at 0.01 units a second:
/// the pages are sized to the rate (a block or two each, the smallest reads) and spaced so
/// that the rate holds over the read's whole time, not only within each second.
#[test]
fn a_tiny_rate_holds_on_average_across_segments() {
    let plan = Plan {
        segments: 16,
        pages: vec![vec![(3000, 200, 20); 10]; 16],
        consistent: false,
        page_limit: None,
    };
    let sent = run(&plan, None, Some(0.01));
    let first = sent.first().unwrap().0;
    let within_20s: f64 = sent
        .iter()
        .take_while(|(at, _)| *at - first <= Duration::from_secs(20))
        .map(|(_, u)| u)
        .sum();
    // 0.01 × 20 s, plus one page: one of the smallest DynamoDB bills (half a unit), where a
    // page a second of 100 items cost 50 units.
    assert!(
        within_20s <= 0.2 + 0.5,
        "{within_20s} units in 20 s at 0.01/s"
    );
    assert!(
        largest(&sent) <= 1.0,
        "pages of a block or two: {}",
        largest(&sent)
    );
    assert_eq!(window_over(&sent, 0.01, Duration::from_secs(10)), None);
}

#[tokio::test(start_paused = true)]
async fn a_big_budget_lets_segments_run_in_parallel() {
    let guard = CapacityGuard::new(Some(10_000.0), None, false).unwrap();
    let stop = CancellationToken::new();
    let mut tickets = Vec::new();
    for _ in 0..8 {
        match guard.admit(None, &stop).await.unwrap() {
            Admission::Go { ticket, limit, .. } => {
                assert_eq!(limit, None, "a worst case that fits needs no cap");
                tickets.push(ticket);
            }
            Admission::Exhausted => panic!("exhausted"),
        }
    }
    assert_eq!(tickets.len(), 8, "8 full pages fit in 10,000 units at once");
}

#[tokio::test(start_paused = true)]
async fn a_small_budget_sizes_its_first_page_then_pages_to_what_is_left() {
    let guard = CapacityGuard::new(Some(10.0), None, false).unwrap();
    let stop = CancellationToken::new();
    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(Some(2000), &stop).await else {
        panic!("the first request goes");
    };
    // Nothing is known of the items yet: 10 units hold 20 items of 4 KB.
    assert_eq!(limit, Some(20));
    // A second request waits while the first is in flight: nothing fits beside it.
    let waiting = tokio::time::timeout(Duration::from_secs(5), guard.admit(Some(2000), &stop));
    assert!(waiting.await.is_err(), "admitted beside an unsettled probe");
    // 20 items for 2 units, half a block of it rounding: 0.0875 units each, 8 units left
    // -> 91 items.
    guard.settle(ticket, 2.0, 20);
    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(Some(2000), &stop).await else {
        panic!("room is left");
    };
    assert_eq!(limit, Some(91));
    guard.settle(ticket, 8.5, 91);
    assert!(matches!(
        guard.admit(Some(2000), &stop).await,
        Some(Admission::Exhausted)
    ));
    assert_eq!(guard.spent(), 10.5);
}

/// `--max-rcu 0.5` used to send a 100-item probe (47 units on items of 3.8 KB).
#[tokio::test(start_paused = true)]
async fn half_a_unit_of_budget_reads_one_item() {
    for consistent in [false, true] {
        let guard = CapacityGuard::new(Some(0.5), None, consistent).unwrap();
        let stop = CancellationToken::new();
        let Some(Admission::Go { limit, .. }) = guard.admit(None, &stop).await else {
            panic!("the first request goes");
        };
        assert_eq!(limit, Some(1), "consistent: {consistent}");
    }
}

#[tokio::test(start_paused = true)]
async fn the_rate_waits_until_the_last_request_is_paid_for_and_stop_ends_the_wait() {
    let guard = CapacityGuard::new(None, Some(5.0), false).unwrap();
    let stop = CancellationToken::new();
    let started = Instant::now();
    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(None, &stop).await else {
        panic!()
    };
    // Five units a second: ten items of 4 KB at most before their size is known.
    assert_eq!(limit, Some(10));
    guard.settle(ticket, 5.0, 10);
    // 5 units at 5 a second: paid for one second after they were sent.
    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(None, &stop).await else {
        panic!()
    };
    assert_eq!(started.elapsed(), Duration::from_secs(1));
    // 0.475 units per item once rounding is taken off: a second of the rate is ten of them.
    assert_eq!(limit, Some(10));
    guard.settle(ticket, 2.5, 10);
    let Some(Admission::Go { ticket, limit, .. }) = guard.admit(None, &stop).await else {
        panic!()
    };
    assert_eq!(started.elapsed(), Duration::from_millis(1500));
    // 7.5 units for 20 items in two pages, 7 without rounding: 14 items cost a second's 5.
    assert_eq!(limit, Some(14));
    guard.settle(ticket, 5.0, 14);
    stop.cancel();
    assert!(guard.admit(None, &stop).await.is_none());
}

/// 25 units on items of 100 KB (DescribeTable's average) used to send `Limit 49`, assuming
/// 4 KB items: one 1 MB page, 128 units.
#[tokio::test(start_paused = true)]
async fn the_first_request_is_sized_from_the_average_item_size() {
    let guard = CapacityGuard::new(Some(24.5), None, false).unwrap();
    let stop = CancellationToken::new();
    let Some(Admission::Go { limit, .. }) =
        guard.admit_sized(Some(50), Some(100 * 1024), &stop).await
    else {
        panic!("the first request goes");
    };
    // 25 blocks of half a unit: 12.5 units an item, one fits in 24.5.
    assert_eq!(limit, Some(1));
    // Items of 9 KB are 3 blocks, 1.5 units: 16 of them.
    let guard = CapacityGuard::new(Some(24.5), None, false).unwrap();
    let Some(Admission::Go { limit, .. }) = guard.admit_sized(None, Some(9 * 1024), &stop).await
    else {
        panic!("the first request goes");
    };
    assert_eq!(limit, Some(16));
}

#[tokio::test(start_paused = true)]
async fn extend_reserves_only_what_the_budget_still_covers() {
    // One item: 50 units at worst (400 KB, eventually consistent); 120 hold two, not three.
    let guard = CapacityGuard::new(Some(120.0), None, false).unwrap();
    let stop = CancellationToken::new();
    let Some(Admission::Go {
        mut ticket, limit, ..
    }) = guard.admit(Some(1), &stop).await
    else {
        panic!("the first request goes");
    };
    assert_eq!((limit, ticket.reserved()), (Some(1), 50.0));
    assert!(guard.extend(&mut ticket, 50.0));
    assert_eq!(ticket.reserved(), 100.0);
    assert!(
        !guard.extend(&mut ticket, 50.0),
        "a third worst case passes 120"
    );
    assert_eq!(
        ticket.reserved(),
        100.0,
        "a refused extension reserves nothing"
    );
    // Settled at what the attempts cost: the reservation is given back whole.
    guard.settle(ticket, 30.0, 1);
    assert_eq!(guard.spent(), 30.0);
    let Some(Admission::Go { ticket, .. }) = guard.admit(Some(1), &stop).await else {
        panic!("90 units are left");
    };
    assert_eq!(ticket.reserved(), 50.0);
}
