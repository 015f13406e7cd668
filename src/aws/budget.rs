//! Capacity guards for triage scans: a hard budget (`--max-rcu`) and a rate limit
//! (`--rcu-per-second`), both shared by every segment of a read.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Stops a read before it would spend more than `max` read capacity units.
///
/// A page's cost is only known after it is read, so each request reserves an estimate (the
/// costliest page seen so far) before it is sent, and settles with the real cost after.
/// Requests are refused once spent + reserved + estimate would pass the budget, which keeps the
/// total within the budget except for the very first request (whose cost nobody knows).
#[derive(Debug)]
pub struct Budget {
    max: f64,
    state: Mutex<BudgetState>,
}

#[derive(Debug, Default)]
struct BudgetState {
    spent: f64,
    reserved: f64,
    largest_page: f64,
}

impl Budget {
    pub fn new(max: f64) -> Self {
        Budget {
            max,
            state: Mutex::new(BudgetState::default()),
        }
    }

    /// Reserves an estimate for one more request; `None` when it would not fit.
    pub fn try_reserve(&self) -> Option<f64> {
        let mut s = self.state.lock().expect("budget lock");
        let first = s.spent == 0.0 && s.reserved == 0.0;
        let estimate = s.largest_page;
        if !first && s.spent + s.reserved + estimate > self.max {
            return None;
        }
        s.reserved += estimate;
        Some(estimate)
    }

    pub fn settle(&self, reserved: f64, actual: f64) {
        let mut s = self.state.lock().expect("budget lock");
        s.reserved = (s.reserved - reserved).max(0.0);
        s.spent += actual;
        s.largest_page = s.largest_page.max(actual);
    }

    pub fn spent(&self) -> f64 {
        self.state.lock().expect("budget lock").spent
    }
}

/// A token bucket of read capacity units refilled at `rate` per second, shared by all
/// segments. Requests wait while the bucket is in debt; each page's real cost is taken after
/// it arrives, so the long-run rate matches `rate` whatever the page sizes.
#[derive(Debug)]
pub struct RateLimit {
    rate: f64,
    state: Mutex<(f64, Instant)>,
}

impl RateLimit {
    pub fn new(rate: f64) -> Self {
        RateLimit {
            rate,
            // Start with one second's worth, so a scan begins at once.
            state: Mutex::new((rate, Instant::now())),
        }
    }

    fn refill(&self, s: &mut (f64, Instant)) {
        let now = Instant::now();
        let elapsed = now.duration_since(s.1).as_secs_f64();
        s.0 = (s.0 + elapsed * self.rate).min(self.rate);
        s.1 = now;
    }

    /// Waits until the bucket is out of debt.
    pub async fn acquire(&self) {
        loop {
            let wait = {
                let mut s = self.state.lock().expect("rate lock");
                self.refill(&mut s);
                if s.0 > 0.0 {
                    return;
                }
                Duration::from_secs_f64((-s.0 / self.rate).max(0.001))
            };
            tokio::time::sleep(wait).await;
        }
    }

    pub fn consume(&self, units: f64) {
        let mut s = self.state.lock().expect("rate lock");
        self.refill(&mut s);
        s.0 -= units;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_refuses_what_would_not_fit() {
        let b = Budget::new(10.0);
        let first = b.try_reserve().expect("the first request always goes");
        b.settle(first, 4.0);
        let e = b.try_reserve().unwrap();
        assert_eq!(e, 4.0);
        b.settle(e, 4.0);
        // 8 spent, a 4-unit page would make 12.
        assert_eq!(b.try_reserve(), None);
        assert_eq!(b.spent(), 8.0);
    }

    #[test]
    fn budget_counts_reservations_in_flight() {
        let b = Budget::new(10.0);
        let e = b.try_reserve().unwrap();
        b.settle(e, 3.0);
        // Two requests in flight at 3 each: 3 + 3 + 3 = 9 fits, a third would make 12.
        assert!(b.try_reserve().is_some());
        assert!(b.try_reserve().is_some());
        assert_eq!(b.try_reserve(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn rate_limit_holds_the_long_run_rate() {
        let r = RateLimit::new(10.0);
        let started = Instant::now();
        // 100 units in pages of 5 at 10 units/s: the first second's tokens are free, so about
        // 9 seconds of waiting.
        for _ in 0..20 {
            r.acquire().await;
            r.consume(5.0);
        }
        let waited = started.elapsed().as_secs_f64();
        assert!((8.4..=9.6).contains(&waited), "waited {waited} s");
    }

    #[tokio::test(start_paused = true)]
    async fn rate_limit_does_not_wait_with_tokens_left() {
        let r = RateLimit::new(100.0);
        let started = Instant::now();
        r.acquire().await;
        r.consume(50.0);
        r.acquire().await;
        assert_eq!(started.elapsed(), Duration::ZERO);
    }
}
