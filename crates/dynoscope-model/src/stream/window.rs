//! Sliding windows over the last minute or five: per-second counts for sparklines, and top-k
//! counters per ten-second bucket for rankings. Both are rings of fixed size, so memory does
//! not grow with time or traffic; time is passed in (milliseconds), never read from a clock.

use super::top_k::{merged_counts, merged_top, Counted, SpaceSaving};

/// The windows the live view switches between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Window {
    OneMinute,
    FiveMinutes,
}

impl Window {
    pub fn seconds(self) -> u64 {
        match self {
            Window::OneMinute => 60,
            Window::FiveMinutes => 300,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Window::OneMinute => "1 min",
            Window::FiveMinutes => "5 min",
        }
    }

    pub fn toggled(self) -> Window {
        match self {
            Window::OneMinute => Window::FiveMinutes,
            Window::FiveMinutes => Window::OneMinute,
        }
    }
}

/// Seconds the longest window covers.
pub const LONGEST_WINDOW_SECS: u64 = 300;
/// Ranking buckets: a window's ranking merges its buckets, so the one-minute ranking covers
/// between 50 and 60 seconds (the newest bucket is still filling).
pub const BUCKET_SECS: u64 = 10;

/// Fixed slots for consecutive time units (seconds or buckets); the newest unit seen decides
/// which units the ring still holds.
#[derive(Debug, Clone)]
pub struct Ring<T> {
    slots: Vec<T>,
    newest: Option<u64>,
}

impl<T> Ring<T> {
    pub fn new(len: usize, make: impl Fn() -> T) -> Self {
        Ring {
            slots: (0..len.max(1)).map(|_| make()).collect(),
            newest: None,
        }
    }

    pub fn newest(&self) -> Option<u64> {
        self.newest
    }

    /// Moves the ring forward to `unit`, resetting the slots of the units it skips or reuses.
    pub fn advance(&mut self, unit: u64, reset: impl Fn(&mut T)) {
        let len = self.slots.len() as u64;
        let from = match self.newest {
            Some(n) if unit <= n => return,
            Some(n) => (n + 1).max(unit.saturating_sub(len - 1)),
            None => unit.saturating_sub(len - 1),
        };
        for u in from..=unit {
            reset(&mut self.slots[(u % len) as usize]);
        }
        self.newest = Some(unit);
    }

    /// The slot of `unit`, advancing to it if it is new; `None` when it is older than the ring.
    pub fn slot_mut(&mut self, unit: u64, reset: impl Fn(&mut T)) -> Option<&mut T> {
        self.advance(unit, reset);
        let len = self.slots.len() as u64;
        let newest = self.newest.expect("advanced");
        (unit + len > newest).then(|| &mut self.slots[(unit % len) as usize])
    }

    /// The slots of the `n` units ending at `last` (oldest first); units the ring does not hold
    /// (too old, or newer than anything seen) are `None`.
    pub fn last(&self, n: u64, last: u64) -> impl Iterator<Item = Option<&T>> {
        let len = self.slots.len() as u64;
        let newest = self.newest;
        (0..n).map(move |i| match ((last + 1 + i).checked_sub(n), newest) {
            (Some(u), Some(newest)) if u <= newest && u + len > newest => {
                Some(&self.slots[(u % len) as usize])
            }
            _ => None,
        })
    }
}

/// Events and write units in one second.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RatePoint {
    pub events: u64,
    pub wcu: u64,
}

/// Per-second events and write units over the last five minutes.
#[derive(Debug, Clone)]
pub struct RateSeries {
    ring: Ring<RatePoint>,
    /// Counts that arrived older than the ring, so no window will ever show them.
    pub dropped: u64,
}

impl Default for RateSeries {
    fn default() -> Self {
        RateSeries {
            ring: Ring::new(LONGEST_WINDOW_SECS as usize, RatePoint::default),
            dropped: 0,
        }
    }
}

impl RateSeries {
    pub fn add(&mut self, at_ms: u64, events: u64, wcu: u64) {
        match self
            .ring
            .slot_mut(at_ms / 1000, |p| *p = RatePoint::default())
        {
            Some(p) => {
                p.events += events;
                p.wcu += wcu;
            }
            None => self.dropped += events,
        }
    }

    /// Lets seconds with nothing in them pass, so the series shows the quiet.
    pub fn advance(&mut self, now_ms: u64) {
        self.ring
            .advance(now_ms / 1000, |p| *p = RatePoint::default());
    }

    /// One point per second of `window`, oldest first, the last for the second of `now_ms`.
    pub fn series(&self, window: Window, now_ms: u64) -> Vec<RatePoint> {
        self.ring
            .last(window.seconds(), now_ms / 1000)
            .map(|p| p.copied().unwrap_or_default())
            .collect()
    }

    pub fn totals(&self, window: Window, now_ms: u64) -> RatePoint {
        self.series(window, now_ms)
            .into_iter()
            .fold(RatePoint::default(), |a, p| RatePoint {
                events: a.events + p.events,
                wcu: a.wcu + p.wcu,
            })
    }
}

/// Top-k counters per ten-second bucket over the last five minutes.
#[derive(Debug, Clone)]
pub struct WindowedTopK {
    ring: Ring<SpaceSaving>,
}

impl WindowedTopK {
    /// `capacity` counters per bucket.
    pub fn new(capacity: usize) -> Self {
        WindowedTopK {
            ring: Ring::new((LONGEST_WINDOW_SECS / BUCKET_SECS) as usize, || {
                SpaceSaving::new(capacity)
            }),
        }
    }

    pub fn add(&mut self, key: &str, weight: u64, at_ms: u64) {
        if let Some(bucket) = self
            .ring
            .slot_mut(at_ms / 1000 / BUCKET_SECS, SpaceSaving::clear)
        {
            bucket.add(key, weight);
        }
    }

    pub fn advance(&mut self, now_ms: u64) {
        self.ring
            .advance(now_ms / 1000 / BUCKET_SECS, SpaceSaving::clear);
    }

    fn buckets(&self, window: Window, now_ms: u64) -> impl Iterator<Item = &SpaceSaving> + Clone {
        let n = window.seconds() / BUCKET_SECS;
        let buckets: Vec<&SpaceSaving> = self
            .ring
            .last(n, now_ms / 1000 / BUCKET_SECS)
            .flatten()
            .collect();
        buckets.into_iter()
    }

    /// The `k` heaviest keys of `window`, each within the merged error bound.
    pub fn top(&self, window: Window, now_ms: u64, k: usize) -> Vec<Counted> {
        merged_top(self.buckets(window, now_ms), k)
    }

    /// `(count, error)` of one key over `window`.
    pub fn estimate(&self, key: &str, window: Window, now_ms: u64) -> (u64, u64) {
        merged_counts(self.buckets(window, now_ms), key)
    }

    /// Everything added during `window`.
    pub fn total(&self, window: Window, now_ms: u64) -> u64 {
        self.buckets(window, now_ms).map(SpaceSaving::total).sum()
    }

    /// The most `key` took in any one bucket of `window` (an upper estimate).
    pub fn peak_bucket(&self, key: &str, window: Window, now_ms: u64) -> u64 {
        self.buckets(window, now_ms)
            .filter_map(|b| b.estimate(key).map(|(count, _)| count))
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
#[path = "window_tests.rs"]
mod tests;
