//! The write guard of one bulk run, the read guard's twin (`aws::read::guard`): a budget
//! (`--max-wcu`) and a rate (`--wcu-per-second`), both reserving before they spend.
//!
//! - Budget `B`: a write goes only when its worst case (its item's cost by DynamoDB's rules,
//!   table and every index it touches: `model::write::bulk::cost`) fits in what is left after what was
//!   spent; otherwise the run stops there. What DynamoDB reports then replaces the
//!   reservation. Consumed capacity never exceeds `B` as long as no write costs more than its
//!   worst case.
//! - Rate `R`: a write goes once the one before it is paid for at the rate (its worst case
//!   while in flight, what it cost once settled). Every write but the last in any window of
//!   `T` seconds then costs at most `R × T`: any one second holds at most `R` plus one item's
//!   write, and a long run averages `R`. Nothing is saved up while the run waits.
//!
//! Writes go one at a time, so the guard keeps no count of requests in flight.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

#[derive(Debug)]
pub struct WriteGuard {
    max_units: Option<f64>,
    units_per_second: Option<f64>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    spent: f64,
    reserved: f64,
    /// When the last write went and what it costs (its worst case until it settles).
    last: Option<(Instant, f64)>,
}

/// An admitted write; settle it exactly once.
#[derive(Debug)]
pub struct WriteTicket {
    reserved: f64,
}

#[derive(Debug)]
pub enum WriteAdmission {
    Go(WriteTicket),
    /// The write does not fit in what is left of `--max-wcu`: the run stops here.
    Exhausted {
        spent: f64,
        needed: f64,
    },
}

impl WriteGuard {
    pub fn new(max_units: Option<f64>, units_per_second: Option<f64>) -> WriteGuard {
        WriteGuard {
            max_units,
            units_per_second,
            state: Mutex::new(State::default()),
        }
    }

    /// Waits until a write of at most `worst` units may go; `None` when `stop` fires first.
    pub async fn admit(&self, worst: f64, stop: &CancellationToken) -> Option<WriteAdmission> {
        let wait_until = {
            let s = self.state.lock().expect("write guard lock");
            if let Some(max) = self.max_units {
                if s.spent + s.reserved + worst > max {
                    return Some(WriteAdmission::Exhausted {
                        spent: s.spent,
                        needed: worst,
                    });
                }
            }
            match (self.units_per_second, s.last) {
                (Some(rate), Some((at, units))) => {
                    Some(at + Duration::from_secs_f64((units / rate).min(1e9)))
                }
                _ => None,
            }
        };
        if let Some(at) = wait_until {
            tokio::select! {
                _ = tokio::time::sleep_until(at) => {}
                _ = stop.cancelled() => return None,
            }
        }
        let mut s = self.state.lock().expect("write guard lock");
        s.reserved += worst;
        if self.units_per_second.is_some() {
            s.last = Some((Instant::now(), worst));
        }
        Some(WriteAdmission::Go(WriteTicket { reserved: worst }))
    }

    /// Replaces the ticket's reservation with what the write consumed.
    pub fn settle(&self, ticket: WriteTicket, units: f64) {
        let mut s = self.state.lock().expect("write guard lock");
        s.reserved = (s.reserved - ticket.reserved).max(0.0);
        s.spent += units;
        if let Some((_, last)) = s.last.as_mut() {
            *last = units;
        }
    }

    pub fn spent(&self) -> f64 {
        self.state.lock().expect("write guard lock").spent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_budget_refuses_a_write_that_does_not_fit() {
        let guard = WriteGuard::new(Some(5.0), None);
        let stop = CancellationToken::new();
        for _ in 0..2 {
            let Some(WriteAdmission::Go(t)) = guard.admit(2.0, &stop).await else {
                panic!("fits");
            };
            guard.settle(t, 2.0);
        }
        assert!(matches!(
            guard.admit(2.0, &stop).await,
            Some(WriteAdmission::Exhausted { spent, .. }) if spent == 4.0
        ));
        assert!(matches!(
            guard.admit(1.0, &stop).await,
            Some(WriteAdmission::Go(_))
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn the_rate_spaces_writes_by_what_they_cost() {
        let guard = WriteGuard::new(None, Some(4.0));
        let stop = CancellationToken::new();
        let start = Instant::now();
        let mut sent = Vec::new();
        for _ in 0..9 {
            let Some(WriteAdmission::Go(t)) = guard.admit(2.0, &stop).await else {
                panic!("no budget");
            };
            sent.push(start.elapsed());
            guard.settle(t, 2.0);
        }
        // 2 units at 4 per second: one write every half second, so 9 writes span 4 s.
        assert_eq!(sent[8], Duration::from_secs(4));
        for second in 0..4 {
            let in_it = sent
                .iter()
                .filter(|at| {
                    at.as_secs_f64() >= second as f64 && at.as_secs_f64() < second as f64 + 1.0
                })
                .count();
            assert!(in_it as f64 * 2.0 <= 4.0, "second {second}: {in_it} writes");
        }
    }
}
