//! Window arithmetic against a plain list of timestamped events.

use proptest::prelude::*;

use super::*;

/// Events at increasing times with gaps from 0 to `max_gap` ms, each arriving up to 5 s late.
fn timeline(max_gap: u64) -> impl Strategy<Value = Vec<(u64, u64)>> {
    proptest::collection::vec((0..max_gap, 0u64..5_000, 1u64..5), 0..400).prop_map(|steps| {
        let mut t = 1_700_000_000_000u64;
        steps
            .into_iter()
            .map(|(gap, late, wcu)| {
                t += gap;
                (t.saturating_sub(late), wcu)
            })
            .collect()
    })
}

/// Sum over events whose second is in the `window` seconds ending with the second of `now`.
fn expected(events: &[(u64, u64)], window: Window, now: u64) -> RatePoint {
    let last = now / 1000;
    let first = (last + 1).saturating_sub(window.seconds());
    events
        .iter()
        .filter(|(t, _)| (first..=last).contains(&(t / 1000)))
        .fold(RatePoint::default(), |a, (_, w)| RatePoint {
            events: a.events + 1,
            wcu: a.wcu + w,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(300)))]

    #[test]
    fn window_totals_equal_the_events_inside_the_window(
        events in timeline(4_000),
        extra_ms in 0u64..400_000,
    ) {
        let mut series = RateSeries::default();
        let mut now = 0;
        for &(t, wcu) in &events {
            series.add(t, 1, wcu);
            now = now.max(t);
        }
        prop_assert_eq!(series.dropped, 0, "nothing arrives more than 5 s late");
        // Time passes after the last event: the window slides past it.
        let now = now + extra_ms;
        series.advance(now);
        for window in [Window::OneMinute, Window::FiveMinutes] {
            let points = series.series(window, now);
            prop_assert_eq!(points.len() as u64, window.seconds());
            prop_assert_eq!(series.totals(window, now), expected(&events, window, now));
        }
    }

    #[test]
    fn bucketed_rankings_count_exactly_what_their_window_holds(
        events in timeline(3_000),
        extra_ms in 0u64..120_000,
    ) {
        let mut top = WindowedTopK::new(1024);
        let mut now = 0;
        for (i, &(t, wcu)) in events.iter().enumerate() {
            top.add(&format!("K{}", i % 7), wcu, t);
            now = now.max(t);
        }
        let now = now + extra_ms;
        top.advance(now);
        for window in [Window::OneMinute, Window::FiveMinutes] {
            let last = now / 1000 / BUCKET_SECS;
            let first = (last + 1).saturating_sub(window.seconds() / BUCKET_SECS);
            let inside = |t: u64| (first..=last).contains(&(t / 1000 / BUCKET_SECS));
            let total: u64 = events.iter().filter(|(t, _)| inside(*t)).map(|(_, w)| w).sum();
            prop_assert_eq!(top.total(window, now), total);
            for c in top.top(window, now, 10) {
                let truth: u64 = events
                    .iter()
                    .enumerate()
                    .filter(|(i, (t, _))| format!("K{}", i % 7) == c.key && inside(*t))
                    .map(|(_, (_, w))| w)
                    .sum();
                prop_assert_eq!((c.count, c.error), (truth, 0), "{}", c.key);
            }
        }
    }
}

#[test]
fn seconds_older_than_five_minutes_are_dropped_and_counted() {
    let mut s = RateSeries::default();
    s.add(1_000_000, 1, 2);
    s.add(1_000_000 - 300_000, 4, 4);
    assert_eq!(s.dropped, 4, "300 s back is the slot of the current second");
    s.add(1_000_000 - 299_000, 8, 8);
    assert_eq!(
        s.totals(Window::FiveMinutes, 1_000_000),
        RatePoint { events: 9, wcu: 10 }
    );
    assert_eq!(
        s.series(Window::FiveMinutes, 1_000_000)[0],
        RatePoint { events: 8, wcu: 8 }
    );
}

#[test]
fn a_long_silence_empties_every_window() {
    let mut s = RateSeries::default();
    let mut top = WindowedTopK::new(4);
    for t in (0..10_000).step_by(100) {
        s.add(5_000_000 + t, 1, 1);
        top.add("K", 1, 5_000_000 + t);
    }
    let later = 5_000_000 + 10_000 + 3_600_000;
    s.advance(later);
    top.advance(later);
    assert_eq!(s.totals(Window::FiveMinutes, later), RatePoint::default());
    assert!(s
        .series(Window::OneMinute, later)
        .iter()
        .all(|p| p.events == 0));
    assert_eq!(top.total(Window::FiveMinutes, later), 0);
    assert!(top.top(Window::FiveMinutes, later, 5).is_empty());
}

#[test]
fn the_newest_point_is_the_current_second() {
    let mut s = RateSeries::default();
    s.add(10_500, 3, 7);
    s.add(9_999, 1, 1);
    let points = s.series(Window::OneMinute, 10_900);
    assert_eq!(points.last(), Some(&RatePoint { events: 3, wcu: 7 }));
    assert_eq!(points[points.len() - 2], RatePoint { events: 1, wcu: 1 });
    // A query for a second not reached yet shows it empty rather than failing.
    assert_eq!(
        s.series(Window::OneMinute, 12_000).last(),
        Some(&RatePoint::default())
    );
}

#[test]
fn peak_bucket_finds_a_burst() {
    let mut top = WindowedTopK::new(8);
    for i in 0..50 {
        top.add("HOT", 20, 100_000 + i * 10);
    }
    top.add("HOT", 5, 150_000);
    assert_eq!(top.peak_bucket("HOT", Window::OneMinute, 150_000), 1000);
    assert_eq!(top.estimate("HOT", Window::OneMinute, 150_000), (1005, 0));
    assert_eq!(Window::OneMinute.toggled(), Window::FiveMinutes);
}
