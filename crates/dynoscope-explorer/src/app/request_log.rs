//! The request log: one row per page received, and the session's running totals.

use std::collections::VecDeque;
use std::time::Duration;

use crate::model::engine::{Operation, Page};
use crate::model::traffic::capacity::Consumed;

#[derive(Debug, Clone, PartialEq)]
pub struct RequestRow {
    /// The row's place in the session's requests, from 1, given by [`RequestLog::push`]: it
    /// never repeats, while `request_id` is shared by every page of one read and every
    /// attempt of one write.
    pub number: u64,
    pub request_id: u64,
    pub operation: Operation,
    pub index: Option<String>,
    pub segment: u32,
    pub total_segments: u32,
    pub page: u32,
    pub count: u64,
    pub scanned_count: u64,
    pub consumed: Consumed,
    pub latency: Duration,
    pub attempts: u32,
    pub throttles: u32,
    pub throttle_reason: Option<String>,
    /// The `ThrottlingReasons` of every throttled attempt.
    pub reasons: Vec<crate::model::traffic::throttle::ThrottleReason>,
    /// The request body exactly as it was sent (its last attempt's), when recorded.
    pub sent: Option<std::sync::Arc<str>>,
    /// A write (`PutItem`…): `consumed` is then write units, and `count` the items written.
    pub write: Option<&'static str>,
    /// Not a request: an export's data file that was missing, cut short or damaged, as the
    /// line `scan --export` prints for it (`count` is what was read of it).
    pub problem: Option<String>,
}

impl RequestRow {
    /// One write request, with its write units and its body as sent.
    pub fn from_write(
        request_id: u64,
        operation: &'static str,
        items: usize,
        consumed: Consumed,
        latency: Duration,
        attempts: &crate::model::engine::attempts::AttemptStats,
        sent: Option<std::sync::Arc<str>>,
    ) -> Self {
        RequestRow {
            number: 0,
            request_id,
            operation: Operation::Query,
            index: None,
            segment: 0,
            total_segments: 1,
            page: 1,
            count: items as u64,
            scanned_count: 0,
            consumed,
            latency,
            attempts: attempts.attempts,
            throttles: attempts.throttles,
            throttle_reason: attempts.throttle_reason.clone(),
            reasons: attempts.reasons.clone(),
            sent,
            write: Some(operation),
            problem: None,
        }
    }

    /// A data file's problem, after the pages of the read `request_id` that found it.
    pub fn file_problem(request_id: u64, line: String, read: u64) -> Self {
        RequestRow {
            problem: Some(line),
            write: None,
            ..Self::from_write(
                request_id,
                "",
                read as usize,
                Consumed::default(),
                Duration::ZERO,
                &Default::default(),
                None,
            )
        }
    }

    pub fn from_page(page: &Page, total_segments: u32) -> Self {
        RequestRow {
            number: 0,
            request_id: page.request_id,
            operation: page.operation,
            index: page.index.clone(),
            segment: page.segment,
            total_segments,
            page: page.page,
            count: page.count,
            scanned_count: page.scanned_count,
            consumed: page.consumed.clone(),
            latency: page.latency,
            attempts: page.attempts.attempts,
            throttles: page.attempts.throttles,
            throttle_reason: page.attempts.throttle_reason.clone(),
            reasons: page.attempts.reasons.clone(),
            sent: page.sent.clone(),
            write: None,
            problem: None,
        }
    }

    /// Its most frequent throttling reason, short (`hot key range · GSI1`), and `+N` more kinds.
    pub fn reasons_short(&self) -> Option<String> {
        let rows = crate::model::traffic::throttle::ReasonCounts::of(&self.reasons).rows();
        let first = rows.first()?;
        let reason = crate::model::traffic::throttle::ThrottleReason::new(
            first.reason.clone(),
            first.resource.clone(),
        );
        Some(match rows.len() {
            1 => reason.short(),
            n => format!("{} +{}", reason.short(), n - 1),
        })
    }

    /// The SDK retried this request (throttling or a transient failure).
    pub fn retried(&self) -> bool {
        self.attempts > 1
    }

    /// Items returned per item read: a FilterExpression (or a limit) makes this fall below 1.
    pub fn returned_share(&self) -> Option<f64> {
        (self.scanned_count > 0).then(|| self.count as f64 / self.scanned_count as f64)
    }

    /// Read units paid per item returned.
    pub fn rcu_per_item(&self) -> Option<f64> {
        (self.count > 0).then(|| self.consumed.total / self.count as f64)
    }

    /// The filter threw away most of what was read: capacity spent on items nobody sees.
    pub fn filter_heavy(&self) -> bool {
        self.scanned_count >= FILTER_HEAVY_MIN_SCANNED
            && self
                .returned_share()
                .is_some_and(|s| s < FILTER_HEAVY_SHARE)
    }
}

/// A page is flagged when it returned less than this share of what it read…
pub const FILTER_HEAVY_SHARE: f64 = 0.2;
/// …and read at least this many items (a handful of items proves nothing).
pub const FILTER_HEAVY_MIN_SCANNED: u64 = 20;

/// Rows beyond this are dropped oldest-first; the totals keep counting.
pub const MAX_ROWS: usize = 10_000;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestLog {
    rows: VecDeque<RequestRow>,
    pub total: Consumed,
    pub requests: u64,
    pub attempts: u64,
    pub throttles: u64,
    pub last_throttle_reason: Option<String>,
    /// Write units of every write, kept apart from the read units above.
    pub write_total: f64,
}

impl RequestLog {
    pub fn push(&mut self, mut row: RequestRow) {
        if row.problem.is_some() {
            // A note about a file, not a request: it takes no number and counts nothing.
            row.number = self.requests;
            if self.rows.len() == MAX_ROWS {
                self.rows.pop_front();
            }
            self.rows.push_back(row);
            return;
        }
        if row.write.is_some() {
            self.write_total += row.consumed.total;
        } else {
            self.total.add(&row.consumed);
        }
        self.requests += 1;
        row.number = self.requests;
        self.attempts += u64::from(row.attempts);
        self.throttles += u64::from(row.throttles);
        if row.throttle_reason.is_some() {
            self.last_throttle_reason = row.throttle_reason.clone();
        }
        if self.rows.len() == MAX_ROWS {
            self.rows.pop_front();
        }
        self.rows.push_back(row);
    }

    /// A request that failed after its retries still cost attempts.
    pub fn record_failure(&mut self, attempts: u32, throttles: u32) {
        self.requests += 1;
        self.attempts += u64::from(attempts);
        self.throttles += u64::from(throttles);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The newest `n` rows, oldest first: what fits in the pane.
    pub fn tail(&self, n: usize) -> impl Iterator<Item = &RequestRow> {
        self.rows.iter().skip(self.rows.len().saturating_sub(n))
    }

    /// Row `i`, oldest first.
    pub fn get(&self, i: usize) -> Option<&RequestRow> {
        self.rows.get(i)
    }

    /// `n` rows from row `from`, oldest first.
    pub fn window(&self, from: usize, n: usize) -> impl Iterator<Item = &RequestRow> {
        self.rows.iter().skip(from).take(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(units: f64, attempts: u32, throttles: u32) -> RequestRow {
        RequestRow {
            number: 0,
            request_id: 1,
            operation: Operation::Scan,
            index: None,
            segment: 0,
            total_segments: 1,
            page: 1,
            count: 1,
            scanned_count: 1,
            consumed: Consumed {
                total: units,
                table: units,
                indexes: Default::default(),
                unreported_pages: 0,
            },
            latency: Duration::from_millis(3),
            attempts,
            throttles,
            throttle_reason: (throttles > 0).then(|| "ThrottlingException: slow down".to_string()),
            reasons: Vec::new(),
            sent: None,
            write: None,
            problem: None,
        }
    }

    /// Every page of one read shares its request id, and a write's conflict and retry share
    /// the write's: the numbers shown are the log's own and never repeat.
    #[test]
    fn row_numbers_never_repeat() {
        let mut log = RequestLog::default();
        for _ in 0..3 {
            log.push(row(0.5, 1, 0));
        }
        log.record_failure(6, 0);
        let attempts = crate::model::engine::attempts::AttemptStats::default();
        for _ in 0..2 {
            log.push(RequestRow::from_write(
                2,
                "UpdateItem",
                0,
                Consumed::default(),
                Duration::ZERO,
                &attempts,
                None,
            ));
        }
        let numbers: Vec<u64> = log.window(0, 10).map(|r| r.number).collect();
        assert_eq!(numbers, [1, 2, 3, 5, 6]);
    }

    #[test]
    fn efficiency_and_filter_heavy_flag() {
        let cases = [
            (100, 100, 1.0, Some(1.0), false),
            (5, 100, 2.5, Some(0.05), true),
            (3, 10, 0.5, Some(0.3), false),
            (1, 19, 0.5, Some(1.0 / 19.0), false),
            (0, 0, 0.0, None, false),
        ];
        for (count, scanned, units, share, heavy) in cases {
            let mut r = row(units, 1, 0);
            r.count = count;
            r.scanned_count = scanned;
            assert_eq!(r.returned_share(), share, "{count}/{scanned}");
            assert_eq!(r.filter_heavy(), heavy, "{count}/{scanned}");
        }
        let mut r = row(2.5, 1, 0);
        r.count = 5;
        assert_eq!(r.rcu_per_item(), Some(0.5));
    }

    #[test]
    fn totals_keep_counting_past_the_row_cap() {
        let mut log = RequestLog::default();
        for _ in 0..MAX_ROWS + 5 {
            log.push(row(0.5, 1, 0));
        }
        log.push(row(1.0, 3, 2));
        assert_eq!(log.len(), MAX_ROWS);
        assert_eq!(log.requests, MAX_ROWS as u64 + 6);
        assert_eq!(log.total.total, 0.5 * (MAX_ROWS + 5) as f64 + 1.0);
        assert_eq!(log.attempts, MAX_ROWS as u64 + 5 + 3);
        assert_eq!(log.throttles, 2);
        assert!(log.tail(1).next().unwrap().retried());
        assert_eq!(
            log.last_throttle_reason.as_deref(),
            Some("ThrottlingException: slow down")
        );
    }
}
