//! The capacity guard of one user action: a budget (`--max-rcu`) and a rate limit
//! (`--rcu-per-second`), shared by every segment and shard of the read.
//!
//! Both reserve before they spend. A request is admitted only when the worst case of what it
//! can consume (its `Limit` times the largest item, one page at most: see
//! [`worst_case_read_units`](crate::model::capacity::worst_case_read_units)) fits; after the
//! response the reservation is replaced by what DynamoDB reported. When not even one worst case
//! fits, requests go one at a time while there is room left, each sized from the cost per item
//! seen so far. That is where the contract's "plus one page" comes from:
//!
//! - budget `B`: consumed capacity never exceeds `B` plus the cost of one page;
//! - rate `R`: the capacity of the requests sent in any one-second window never exceeds `R`
//!   plus the cost of one page.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

const WINDOW: Duration = Duration::from_secs(1);
/// Items asked for by a request sent one at a time before any cost per item is known: small
/// enough that the page beyond the budget stays small, big enough to learn the item size.
pub const PROBE_ITEMS: i32 = 100;

#[derive(Debug)]
pub struct CapacityGuard {
    max_units: Option<f64>,
    units_per_second: Option<f64>,
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
    /// Requests sent in the last second: worst case while in flight, actual cost after.
    window: VecDeque<Sent>,
    next_ticket: u64,
    /// Units and items evaluated of every page so far: their ratio is the cost per item,
    /// with each page's rounding up to 4 KB spread over all of them.
    settled_units: f64,
    settled_items: u64,
}

#[derive(Debug)]
struct Sent {
    ticket: u64,
    at: Instant,
    units: f64,
}

/// An admitted request; settle it exactly once.
#[derive(Debug)]
pub struct Ticket {
    id: u64,
    reserved: f64,
}

#[derive(Debug)]
pub enum Admission {
    /// Send the request now, asking for at most `limit_cap` items when it is set.
    Go {
        ticket: Ticket,
        limit_cap: Option<i32>,
    },
    /// The budget is spent: the read stops here.
    Exhausted,
}

enum Decision {
    Go(Option<i32>),
    Exhausted,
    /// Wait for a request to settle, or until this instant when the rate window moves.
    Wait(Option<Instant>),
}

impl CapacityGuard {
    /// `None` when neither limit is set: an unguarded read takes no lock per request.
    pub fn new(max_units: Option<f64>, units_per_second: Option<f64>) -> Option<CapacityGuard> {
        (max_units.is_some() || units_per_second.is_some()).then(|| CapacityGuard {
            max_units,
            units_per_second,
            state: Mutex::new(GuardState::default()),
            settled: Notify::new(),
        })
    }

    /// Waits until a request whose worst case is `worst` units may be sent; `None` when `stop`
    /// fires first.
    pub async fn admit(&self, worst: f64, stop: &CancellationToken) -> Option<Admission> {
        loop {
            let settled = self.settled.notified();
            tokio::pin!(settled);
            // Registered before the state is read, so a settle in between is not missed.
            settled.as_mut().enable();
            let now = Instant::now();
            let wait_until = {
                let mut s = self.state.lock().expect("guard lock");
                match self.decide(&mut s, worst, now) {
                    Decision::Go(limit_cap) => {
                        let id = s.next_ticket;
                        s.next_ticket += 1;
                        s.reserved += worst;
                        s.in_flight += 1;
                        if self.units_per_second.is_some() {
                            s.window.push_back(Sent {
                                ticket: id,
                                at: now,
                                units: worst,
                            });
                        }
                        let ticket = Ticket {
                            id,
                            reserved: worst,
                        };
                        return Some(Admission::Go { ticket, limit_cap });
                    }
                    Decision::Exhausted => return Some(Admission::Exhausted),
                    Decision::Wait(until) => until,
                }
            };
            let window_moves = async {
                match wait_until {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = &mut settled => {}
                _ = window_moves => {}
                _ = stop.cancelled() => return None,
            }
        }
    }

    fn decide(&self, s: &mut GuardState, worst: f64, now: Instant) -> Decision {
        while s.window.front().is_some_and(|e| e.at + WINDOW <= now) {
            s.window.pop_front();
        }
        let idle = s.in_flight == 0;
        let mut fits = true;
        // Room under each limit: what is left of the budget, and of the rate's last second.
        let mut room = f64::INFINITY;
        let mut window_moves = None;
        if let Some(max) = self.max_units {
            if s.spent >= max {
                return Decision::Exhausted;
            }
            let left = max - s.spent - s.reserved;
            room = room.min(left);
            fits &= worst <= left;
        }
        if let Some(rate) = self.units_per_second {
            let sent: f64 = s.window.iter().map(|e| e.units).sum();
            room = room.min(rate - sent);
            fits &= sent + worst <= rate;
            window_moves = s.window.front().map(|e| e.at + WINDOW);
        }
        if fits {
            return Decision::Go(None);
        }
        if idle && room > 0.0 {
            // One request alone, sized to the room left: the contract's one page beyond stays
            // small. Never smaller than a probe, or each page's rounding to 4 KB would be most
            // of what it costs.
            let cap = match s.settled_units / s.settled_items.max(1) as f64 {
                per_item if s.settled_items > 0 && per_item > 0.0 => (room / per_item)
                    .floor()
                    .clamp(PROBE_ITEMS as f64, i32::MAX as f64)
                    as i32,
                _ => PROBE_ITEMS,
            };
            return Decision::Go(Some(cap));
        }
        Decision::Wait(window_moves)
    }

    /// Replaces the ticket's reservation with what the request consumed; `evaluated` is the
    /// page's ScannedCount (0 for a request that failed or was abandoned).
    pub fn settle(&self, ticket: Ticket, units: f64, evaluated: u64) {
        {
            let mut s = self.state.lock().expect("guard lock");
            s.reserved = (s.reserved - ticket.reserved).max(0.0);
            s.in_flight = s.in_flight.saturating_sub(1);
            s.spent += units;
            if let Some(sent) = s.window.iter_mut().find(|e| e.ticket == ticket.id) {
                sent.units = units;
            }
            if evaluated > 0 {
                s.settled_units += units;
                s.settled_items += evaluated;
            }
        }
        self.settled.notify_waiters();
    }

    pub fn spent(&self) -> f64 {
        self.state.lock().expect("guard lock").spent
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
