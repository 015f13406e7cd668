//! Which keys take the writes: per partition key of the table and of each GSI, by number of
//! changes and by write units, over a sliding window, in bounded memory (top-k counters per
//! ten-second bucket, see [`super::window`]).

use serde::Serialize;

use super::window::{Window, WindowedTopK, BUCKET_SECS};
use crate::text::wording::share;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RankBy {
    Events,
    Wcu,
}

/// The table itself, or its n-th GSI (in [`super::attribution::WriteTargets::gsis`] order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RankTarget {
    Table,
    Gsi(usize),
}

/// One key's writes in a window. Counts are upper estimates; the truth is at least
/// `events - events_error` (and likewise for write units), and both errors are 0 unless more
/// distinct keys were written than the ranking keeps counters for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedKey {
    pub key: String,
    pub events: u64,
    pub wcu: u64,
    /// `events / all events in the window`, likewise `wcu_share`.
    pub event_share: f64,
    pub wcu_share: f64,
    pub events_error: u64,
    pub wcu_error: u64,
}

/// The ranking of one partition key space (the table's, or one GSI's).
#[derive(Debug, Clone)]
pub struct TargetRanking {
    /// The table's or the index's name.
    pub name: String,
    pub partition_key: String,
    events: WindowedTopK,
    wcu: WindowedTopK,
}

impl TargetRanking {
    /// `counters`: keys tracked per ten-second bucket and measure.
    pub fn new(name: &str, partition_key: &str, counters: usize) -> Self {
        TargetRanking {
            name: name.to_string(),
            partition_key: partition_key.to_string(),
            events: WindowedTopK::new(counters),
            wcu: WindowedTopK::new(counters),
        }
    }

    pub fn add(&mut self, key: &str, wcu: u64, at_ms: u64) {
        self.events.add(key, 1, at_ms);
        self.wcu.add(key, wcu, at_ms);
    }

    pub fn advance(&mut self, now_ms: u64) {
        self.events.advance(now_ms);
        self.wcu.advance(now_ms);
    }

    /// Events and write units of the whole window.
    pub fn totals(&self, window: Window, now_ms: u64) -> (u64, u64) {
        (
            self.events.total(window, now_ms),
            self.wcu.total(window, now_ms),
        )
    }

    /// The `k` keys with the most events (or write units) in `window`, with their shares.
    pub fn top(&self, by: RankBy, window: Window, now_ms: u64, k: usize) -> Vec<RankedKey> {
        let (events_total, wcu_total) = self.totals(window, now_ms);
        let (ranked, other) = match by {
            RankBy::Events => (&self.events, &self.wcu),
            RankBy::Wcu => (&self.wcu, &self.events),
        };
        ranked
            .top(window, now_ms, k)
            .into_iter()
            .map(|c| {
                let (other_count, other_error) = other.estimate(&c.key, window, now_ms);
                let ((events, events_error), (wcu, wcu_error)) = match by {
                    RankBy::Events => ((c.count, c.error), (other_count, other_error)),
                    RankBy::Wcu => ((other_count, other_error), (c.count, c.error)),
                };
                RankedKey {
                    event_share: share(events, events_total),
                    wcu_share: share(wcu, wcu_total),
                    key: c.key,
                    events,
                    wcu,
                    events_error,
                    wcu_error,
                }
            })
            .collect()
    }

    /// The highest write rate (units a second) `key` reached over any ten-second bucket of
    /// `window`: an upper estimate.
    pub fn peak_wcu_per_second(&self, key: &str, window: Window, now_ms: u64) -> f64 {
        self.wcu.peak_bucket(key, window, now_ms) as f64 / BUCKET_SECS as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_events_or_units_with_shares_from_the_window() {
        let mut r = TargetRanking::new("app", "PK", 16);
        let t = 1_000_000;
        for i in 0..6 {
            r.add("MANY#SMALL", 1, t + i);
        }
        r.add("FEW#BIG", 40, t);
        r.add("FEW#BIG", 40, t + 1);
        let by_events = r.top(RankBy::Events, Window::OneMinute, t + 2, 2);
        assert_eq!(by_events[0].key, "MANY#SMALL");
        assert_eq!((by_events[0].events, by_events[0].wcu), (6, 6));
        assert!((by_events[0].event_share - 0.75).abs() < 1e-9);
        let by_wcu = r.top(RankBy::Wcu, Window::OneMinute, t + 2, 1);
        assert_eq!(by_wcu[0].key, "FEW#BIG");
        assert_eq!((by_wcu[0].events, by_wcu[0].wcu), (2, 80));
        assert!((by_wcu[0].wcu_share - 80.0 / 86.0).abs() < 1e-9);
        assert_eq!(r.totals(Window::FiveMinutes, t + 2), (8, 86));
        assert_eq!(
            r.peak_wcu_per_second("FEW#BIG", Window::OneMinute, t + 2),
            8.0
        );
        // Two minutes later the one-minute window is empty, the five-minute one is not.
        let later = t + 120_000;
        r.advance(later);
        assert!(r
            .top(RankBy::Events, Window::OneMinute, later, 5)
            .is_empty());
        assert_eq!(
            r.top(RankBy::Events, Window::FiveMinutes, later, 5).len(),
            2
        );
    }
}
