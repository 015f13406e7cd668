//! The live pane's time axis. A stream is followed as it happens: the clock moves and each
//! ring slot of [`super::window`] is one second. A recorded window (an incremental export's
//! `exportFromTime`..`exportToTime`) is shown whole: its changes carry their own write times,
//! the clock stands at the window's end, and each slot is stretched to a whole number of
//! seconds so that the longest window covers the recording. The rings, counters and rules are
//! the ones a live stream gets; only the unit of time changes, so memory stays fixed however
//! long the recording is.

use super::window::{BUCKET_SECS, LONGEST_WINDOW_SECS};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Timeline {
    #[default]
    Live,
    /// Writes between `from_ms` (included) and `to_ms` (excluded), epoch milliseconds.
    Recorded { from_ms: u64, to_ms: u64 },
}

impl Timeline {
    /// Milliseconds one ring slot stands for.
    pub fn unit_ms(self) -> u64 {
        match self {
            Timeline::Live => 1000,
            Timeline::Recorded { from_ms, to_ms } => {
                let span = to_ms.saturating_sub(from_ms).max(1);
                span.div_ceil(LONGEST_WINDOW_SECS * 1000) * 1000
            }
        }
    }

    pub fn unit_secs(self) -> u64 {
        self.unit_ms() / 1000
    }

    /// Seconds a ranking bucket covers: the span the write-limit rule's peak rate is over.
    pub fn bucket_secs(self) -> u64 {
        BUCKET_SECS * self.unit_secs()
    }

    pub fn is_recorded(self) -> bool {
        matches!(self, Timeline::Recorded { .. })
    }

    /// `at_ms` on the rings' clock (where a slot is one "second"). A recorded write outside
    /// its window (none should be) counts at the window's nearest edge.
    pub fn scale(self, at_ms: u64) -> u64 {
        match self {
            Timeline::Live => at_ms,
            Timeline::Recorded { from_ms, to_ms } => {
                let last = to_ms.saturating_sub(1).max(from_ms);
                (at_ms.clamp(from_ms, last) - from_ms) * 1000 / self.unit_ms()
            }
        }
    }

    /// A recorded window's length in seconds.
    pub fn span_secs(self) -> Option<u64> {
        match self {
            Timeline::Live => None,
            Timeline::Recorded { from_ms, to_ms } => Some(to_ms.saturating_sub(from_ms) / 1000),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_window_fits_the_longest_window_in_whole_seconds() {
        let hour = Timeline::Recorded {
            from_ms: 10_000_000,
            to_ms: 10_000_000 + 3_600_000,
        };
        assert_eq!(hour.unit_secs(), 12);
        assert_eq!(hour.bucket_secs(), 120);
        assert_eq!(hour.scale(10_000_000), 0);
        // The last write lands in the last slot of the five-minute ring, never past it.
        assert_eq!(hour.scale(10_000_000 + 3_599_999) / 1000, 299);
        assert_eq!(hour.scale(u64::MAX) / 1000, 299);
        assert_eq!(hour.scale(0), 0);
        let short = Timeline::Recorded {
            from_ms: 0,
            to_ms: 60_000,
        };
        assert_eq!(
            short.unit_secs(),
            1,
            "a short window keeps one-second slots"
        );
        assert_eq!(Timeline::Live.scale(1234), 1234);
        assert_eq!(Timeline::Live.bucket_secs(), BUCKET_SECS);
    }
}
