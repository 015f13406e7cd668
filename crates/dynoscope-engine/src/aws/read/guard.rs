//! The capacity guard of one user action: a budget (`--max-rcu`) and a rate limit
//! (`--rcu-per-second`), shared by every segment and shard of the read.
//!
//! Both reserve before they spend. A request is admitted only when the worst case of what it
//! can consume (its `Limit` times the largest item, one page at most: see
//! [`worst_case_read_units`]) fits; after the response the reservation is replaced by what
//! DynamoDB reported.
//!
//! - Budget `B`: a request goes beside others only when its worst case fits in what is left;
//!   when not even one fits, requests go one at a time while there is room, each sized from
//!   the cost per item seen so far to that room. Consumed capacity never exceeds `B` plus the
//!   cost of that last page.
//! - Rate `R`: a request goes once the one sent before it is paid for at the rate (its worst
//!   case while it is in flight, what it cost once it settled), and it is sized to cost about
//!   one second of the rate. Every request but the last in any window then costs at most `R`
//!   per second of the window, so any window of `T` seconds (one second, or a long run) holds
//!   at most `R × T` plus the cost of one page. Nothing is saved up while the read waits.
//!
//! Sizing needs the cost per item. Before any page settled, a request sized to a small room
//! assumes items of DescribeTable's average size when the read knows it
//! ([`ReadSpec::average_item_bytes`](crate::model::engine::ReadSpec::average_item_bytes),
//! rounded up to 4 KB blocks), else of at most 4 KB (one read unit's block each): a budget of
//! half a unit sends `Limit 1`, never a 100-item probe, and 25 units on items of 100 KB send
//! `Limit 1`, not 49.
//!
//! Every attempt of an admitted request is charged (`attempt_charge.rs`): one whose answer
//! was lost stays at its worst case, and a retry is sent only when [`CapacityGuard::extend`]
//! finds room for one more.

use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::model::traffic::capacity::{scan_estimate_units, worst_case_read_units};

/// Items asked for by a request sized to a small room before any cost per item is known, at
/// most: big enough to learn the item size.
pub const PROBE_ITEMS: i32 = 100;

/// The rate's requests are sized to cost about this much time at the rate.
const RATE_PAGE: Duration = Duration::from_secs(1);

#[derive(Debug)]
pub struct CapacityGuard {
    max_units: Option<f64>,
    units_per_second: Option<f64>,
    consistent: bool,
    state: Mutex<GuardState>,
    /// Woken whenever a request settles: its reservation may make room for others.
    settled: Notify,
}

#[derive(Debug, Default)]
struct GuardState {
    spent: f64,
    /// Worst cases of the admitted requests not settled yet.
    reserved: f64,
    in_flight: usize,
    /// The request admitted last under the rate: worst case while in flight, actual cost
    /// after. The next one waits until it is paid for.
    last_sent: Option<Sent>,
    next_ticket: u64,
    /// Units, items evaluated and pages of every page that evaluated items so far: what the
    /// cost per item is estimated from.
    settled_units: f64,
    settled_items: u64,
    settled_pages: u64,
}

#[derive(Debug)]
struct Sent {
    ticket: u64,
    at: Instant,
    units: f64,
}

/// An admitted request; settle it exactly once. A ticket cannot send anything: requests go
/// with a [`super::reservation::Reservation`], which holds the tickets of every guard that
/// admitted them.
#[derive(Debug)]
pub struct Ticket {
    id: u64,
    reserved: f64,
}

impl Ticket {
    /// The worst case reserved for it.
    pub fn reserved(&self) -> f64 {
        self.reserved
    }
}

#[derive(Debug)]
pub enum Admission {
    /// Send the request now, asking for at most `limit` items (`None`: no `Limit`). `at` is
    /// when the guard's rate clock counts it sent: the read reports that as its send time.
    Go {
        ticket: Ticket,
        limit: Option<i32>,
        at: Instant,
    },
    /// The budget is spent: the read stops here.
    Exhausted,
}

enum Decision {
    Go(Option<i32>),
    Exhausted,
    /// Wait for a request to settle, or until this instant when the rate allows the next.
    Wait(Option<Instant>),
}

impl CapacityGuard {
    /// `None` when neither limit is set: an unguarded read takes no lock per request.
    /// `consistent`: the read's requests are strongly consistent (a 4 KB block costs 1 unit).
    pub fn new(
        max_units: Option<f64>,
        units_per_second: Option<f64>,
        consistent: bool,
    ) -> Option<CapacityGuard> {
        (max_units.is_some() || units_per_second.is_some()).then(|| CapacityGuard {
            max_units,
            units_per_second,
            consistent,
            state: Mutex::new(GuardState::default()),
            settled: Notify::new(),
        })
    }

    /// Waits until a request asking for `limit` items may be sent, and says with what `Limit`;
    /// `None` when `stop` fires first.
    pub async fn admit(&self, limit: Option<i32>, stop: &CancellationToken) -> Option<Admission> {
        self.admit_sized(limit, None, stop).await
    }

    /// [`Self::admit`] for a read whose items average `item_bytes` (DescribeTable's figure):
    /// before any page settled, a request sized to a small room assumes items of that size.
    pub async fn admit_sized(
        &self,
        limit: Option<i32>,
        item_bytes: Option<u64>,
        stop: &CancellationToken,
    ) -> Option<Admission> {
        loop {
            let settled = self.settled.notified();
            tokio::pin!(settled);
            // Registered before the state is read, so a settle in between is not missed.
            settled.as_mut().enable();
            let now = Instant::now();
            let wait_until = {
                let mut s = self.state.lock().expect("guard lock");
                match self.decide(&s, limit, item_bytes, now) {
                    Decision::Go(limit) => {
                        let worst = worst_case_read_units(limit, self.consistent);
                        let id = s.next_ticket;
                        s.next_ticket += 1;
                        s.reserved += worst;
                        s.in_flight += 1;
                        if self.units_per_second.is_some() {
                            s.last_sent = Some(Sent {
                                ticket: id,
                                at: now,
                                units: worst,
                            });
                        }
                        let ticket = Ticket {
                            id,
                            reserved: worst,
                        };
                        return Some(Admission::Go {
                            ticket,
                            limit,
                            at: now,
                        });
                    }
                    Decision::Exhausted => return Some(Admission::Exhausted),
                    Decision::Wait(until) => until,
                }
            };
            let paid_for = async {
                match wait_until {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = &mut settled => {}
                _ = paid_for => {}
                _ = stop.cancelled() => return None,
            }
        }
    }

    fn decide(
        &self,
        s: &GuardState,
        limit: Option<i32>,
        item_bytes: Option<u64>,
        now: Instant,
    ) -> Decision {
        if self.max_units.is_some_and(|max| s.spent >= max) {
            return Decision::Exhausted;
        }
        let mut cap: Option<i32> = None;
        if let Some(rate) = self.units_per_second {
            if let Some(last) = &s.last_sent {
                let paid_at = last.at + Duration::from_secs_f64((last.units / rate).min(1e9));
                if now < paid_at {
                    return Decision::Wait(Some(paid_at));
                }
            }
            cap = Some(self.items_costing(s, rate * RATE_PAGE.as_secs_f64(), item_bytes));
        }
        if let Some(max) = self.max_units {
            let left = max - s.spent - s.reserved;
            let worst = worst_case_read_units(capped(limit, cap), self.consistent);
            if worst > left {
                if s.in_flight > 0 || left <= 0.0 {
                    return Decision::Wait(None);
                }
                // One request alone, sized to the room left: the contract's one page beyond
                // stays small.
                let for_budget = self.items_costing(s, left, item_bytes);
                cap = Some(cap.map_or(for_budget, |c| c.min(for_budget)));
            }
        }
        Decision::Go(capped(limit, cap))
    }

    /// Items a request may ask for to cost about `units`: from the cost per item seen so far,
    /// or before any page settled from `item_bytes` (DescribeTable's average item size, in
    /// whole 4 KB blocks; one block without it). Never less than one item, nor less than a
    /// 4 KB block's worth (each page is rounded up to whole blocks anyway).
    fn items_costing(&self, s: &GuardState, units: f64, item_bytes: Option<u64>) -> i32 {
        let block = scan_estimate_units(1, self.consistent);
        let units = units.max(block);
        let items = if s.settled_items > 0 && s.settled_units > 0.0 {
            // Each page is rounded up to whole blocks, half a block on average: without that
            // taken off, pages of one block would teach that an item costs a block and never
            // grow. Never below half the units, so a page of one block counts half of it.
            let rounding = s.settled_pages as f64 * block / 2.0;
            let items_cost = (s.settled_units - rounding).max(s.settled_units / 2.0);
            let per_item = items_cost / s.settled_items as f64;
            (units / per_item).floor()
        } else {
            let blocks = item_bytes.map_or(1, |b| b.div_ceil(4096).max(1)) as f64;
            (units / (block * blocks)).floor().min(PROBE_ITEMS as f64)
        };
        items.clamp(1.0, i32::MAX as f64) as i32
    }

    /// Replaces the ticket's reservation with what the request consumed; `evaluated` is the
    /// page's ScannedCount (0 for a request that failed or was abandoned).
    pub fn settle(&self, ticket: Ticket, units: f64, evaluated: u64) {
        {
            let mut s = self.state.lock().expect("guard lock");
            s.reserved = (s.reserved - ticket.reserved).max(0.0);
            s.in_flight = s.in_flight.saturating_sub(1);
            s.spent += units;
            if let Some(sent) = s.last_sent.as_mut().filter(|e| e.ticket == ticket.id) {
                sent.units = units;
            }
            if evaluated > 0 {
                s.settled_units += units;
                s.settled_items += evaluated;
                s.settled_pages += 1;
            }
        }
        self.settled.notify_waiters();
    }

    pub fn spent(&self) -> f64 {
        self.state.lock().expect("guard lock").spent
    }

    pub fn max_units(&self) -> Option<f64> {
        self.max_units
    }

    /// Reserves `units` more for an admitted request (a retry after an attempt whose answer
    /// was lost); `false`, reserving nothing, when the budget cannot cover them.
    pub fn extend(&self, ticket: &mut Ticket, units: f64) -> bool {
        let mut s = self.state.lock().expect("guard lock");
        if self
            .max_units
            .is_some_and(|max| s.spent + s.reserved + units > max + 1e-9)
        {
            return false;
        }
        s.reserved += units;
        ticket.reserved += units;
        true
    }
}

/// The request's own `Limit`, lowered to `cap` when that is smaller.
fn capped(limit: Option<i32>, cap: Option<i32>) -> Option<i32> {
    match (limit, cap) {
        (Some(l), Some(c)) => Some(l.min(c)),
        (l, c) => l.or(c),
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
