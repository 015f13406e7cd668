//! The range of every number a user gives dynoscope: flags, config values and the explorer's
//! forms. A value outside its range is refused with one line naming the value and the range,
//! before anything runs.
//!
//! The bounds are generous; they exist so that no value can overflow what it feeds downstream:
//! `--timeout 1e20` overflowed `Duration::from_secs_f64` (a panic), `--rcu-per-second 1e-20`
//! asked the rate limiter for a wait of 10^22 seconds, and `--users` multiplies into a `u32`.

/// A range of real numbers; the lower bound may be exclusive (a budget of 0 reads nothing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RealRange {
    pub min: f64,
    pub min_exclusive: bool,
    pub max: f64,
    pub unit: &'static str,
}

impl RealRange {
    pub fn contains(&self, value: f64) -> bool {
        let above_min = if self.min_exclusive {
            value > self.min
        } else {
            value >= self.min
        };
        // NaN fails both comparisons.
        value.is_finite() && above_min && value <= self.max
    }

    /// "0.01 to 3600 seconds", "more than 0, up to 1000000000000 read units".
    pub fn describe(&self) -> String {
        if self.min_exclusive {
            format!("more than {}, up to {} {}", self.min, self.max, self.unit)
        } else {
            format!("{} to {} {}", self.min, self.max, self.unit)
        }
    }

    /// Parses `text` as a number in this range; the error says what was wrong and the range.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        match text.trim().parse::<f64>() {
            Ok(v) if self.contains(v) => Ok(v),
            Ok(_) => Err(format!("out of range; use {}", self.describe())),
            Err(_) => Err(format!("not a number; use {}", self.describe())),
        }
    }
}

/// A range of whole numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountRange {
    pub min: u64,
    pub max: u64,
    pub unit: &'static str,
}

impl CountRange {
    pub fn contains(&self, value: u64) -> bool {
        (self.min..=self.max).contains(&value)
    }

    pub fn describe(&self) -> String {
        format!("{} to {} {}", self.min, self.max, self.unit)
    }

    /// Parses `text` as a whole number in this range, as the integer type the caller keeps.
    pub fn parse<T: TryFrom<u64>>(&self, text: &str) -> Result<T, String> {
        let text = text.trim();
        // u64's parser takes a leading '+'; nobody writes a count that way on purpose.
        let value = if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
            // All digits but too long for u64 is out of range, not malformed.
            text.parse::<u64>().unwrap_or(u64::MAX)
        } else {
            return Err(format!("not a whole number; use {}", self.describe()));
        };
        if !self.contains(value) {
            return Err(format!("out of range; use {}", self.describe()));
        }
        T::try_from(value).map_err(|_| format!("out of range; use {}", self.describe()))
    }
}

/// `--timeout`: per-attempt, in seconds.
pub const TIMEOUT_SECS: RealRange = RealRange {
    min: 0.01,
    min_exclusive: false,
    max: 3600.0,
    unit: "seconds",
};
/// `--max-attempts`, including the first.
pub const MAX_ATTEMPTS: CountRange = CountRange {
    min: 1,
    max: 100,
    unit: "attempts",
};
/// `--max-rcu` and the triage scan's budget.
pub const MAX_RCU: RealRange = RealRange {
    min: 0.0,
    min_exclusive: true,
    max: 1e12,
    unit: "read units",
};
/// `--rcu-per-second` and the triage scan's rate. At the minimum a worst-case 1 MB strongly
/// consistent page (256 units) waits about seven hours, still a finite `Duration`.
pub const RCU_PER_SECOND: RealRange = RealRange {
    min: 0.01,
    min_exclusive: false,
    max: 1e9,
    unit: "read units per second",
};
/// `--limit`, the builder's limit and a pattern's `limit`.
pub const LIMIT: CountRange = CountRange {
    min: 1,
    max: 1_000_000_000,
    unit: "items",
};
/// `--page-size` (DynamoDB's `Limit`; a 1 MB page cannot hold more items than this anyway).
pub const PAGE_SIZE: CountRange = CountRange {
    min: 1,
    max: 1_000_000,
    unit: "items",
};
/// `--max-items` and the config's `max_items`: what the explorer keeps in memory.
pub const MAX_ITEMS: CountRange = CountRange {
    min: 1,
    max: 1_000_000_000,
    unit: "items",
};
/// The config's `live_tail_changes`: changes the live pane's tail keeps.
pub const LIVE_TAIL_CHANGES: CountRange = CountRange {
    min: 1,
    max: 100_000,
    unit: "changes",
};
/// `hotkeys --top`.
pub const TOP_KEYS: CountRange = CountRange {
    min: 1,
    max: 1_000_000,
    unit: "keys",
};
/// `seed --users` and `demo --users`: about 19 items a user, all held in memory while loading.
pub const DEMO_USERS: CountRange = CountRange {
    min: 1,
    max: 100_000,
    unit: "users",
};
/// The config's `price_per_million_reads`, in USD (on demand costs well under 1).
pub const PRICE_PER_MILLION_READS: RealRange = RealRange {
    min: 0.0,
    min_exclusive: true,
    max: 1000.0,
    unit: "USD",
};
/// The config's `price_per_gb_export`, in USD (us-east-1 lists 0.10).
pub const PRICE_PER_GB_EXPORT: RealRange = RealRange {
    min: 0.0,
    min_exclusive: true,
    max: 1000.0,
    unit: "USD",
};
/// The config's `confirm_scan_rcu` (0 asks every time).
pub const CONFIRM_SCAN_RCU: RealRange = RealRange {
    min: 0.0,
    min_exclusive: false,
    max: 1e12,
    unit: "read units",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_ranges_refuse_what_would_overflow() {
        let cases: &[(&RealRange, &str, Result<f64, &str>)] = &[
            (&TIMEOUT_SECS, "10", Ok(10.0)),
            (&TIMEOUT_SECS, "0.01", Ok(0.01)),
            (
                &TIMEOUT_SECS,
                "1e20",
                Err("out of range; use 0.01 to 3600 seconds"),
            ),
            (&TIMEOUT_SECS, "0", Err("out of range")),
            (&TIMEOUT_SECS, "-1", Err("out of range")),
            (&TIMEOUT_SECS, "NaN", Err("out of range")),
            (&TIMEOUT_SECS, "inf", Err("out of range")),
            (&TIMEOUT_SECS, "ten", Err("not a number; use 0.01 to 3600")),
            (&RCU_PER_SECOND, "1e-20", Err("out of range; use 0.01 to")),
            (&RCU_PER_SECOND, "0.5", Ok(0.5)),
            (
                &MAX_RCU,
                "0",
                Err("more than 0, up to 1000000000000 read units"),
            ),
            (&MAX_RCU, "0.1", Ok(0.1)),
            (&MAX_RCU, "1e13", Err("out of range")),
        ];
        for (range, text, want) in cases {
            match (range.parse(text), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, *want, "{text}"),
                (Err(got), Err(want)) => assert!(got.contains(want), "{text}: {got}"),
                (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn count_ranges_parse_into_the_callers_type() {
        assert_eq!(LIMIT.parse::<usize>("5"), Ok(5));
        assert_eq!(MAX_ATTEMPTS.parse::<u32>("100"), Ok(100));
        for (text, want) in [
            ("0", "out of range; use 1 to 1000000000 items"),
            ("99999999999999999999999", "out of range"),
            ("-1", "not a whole number"),
            ("+1", "not a whole number"),
            ("1.5", "not a whole number"),
            ("", "not a whole number"),
        ] {
            let got = LIMIT.parse::<usize>(text).unwrap_err();
            assert!(got.contains(want), "{text}: {got}");
        }
        assert!(PAGE_SIZE.parse::<i32>("1000001").is_err());
        assert_eq!(PAGE_SIZE.parse::<i32>("1000000"), Ok(1_000_000));
    }
}
