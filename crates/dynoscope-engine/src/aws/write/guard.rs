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
//!
//! Every attempt of an admitted write is admitted too ([`WriteGuard::attempt`], called by the
//! writer's interceptor before each attempt is signed): an attempt whose answer was lost (a
//! 5xx, a reset, a timeout) may well have been applied, and a refused conditional write is
//! billed as well, so each attempt after the first charges the one before it at its worst
//! case, and is not sent when another worst case no longer fits in `B`.

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
    /// The admitted write in flight: its worst case and the attempts sent of it so far.
    current: Option<(f64, u32)>,
    /// Set when an attempt did not fit: the spent units and the worst case it needed.
    refused: Option<(f64, f64)>,
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
        s.current = Some((worst, 0));
        s.refused = None;
        if self.units_per_second.is_some() {
            s.last = Some((Instant::now(), worst));
        }
        Some(WriteAdmission::Go(WriteTicket { reserved: worst }))
    }

    /// Admits one attempt of the write in flight, before it is signed: the first is what
    /// [`admit`](Self::admit) reserved; each later one (an SDK retry, a runner's round)
    /// charges the attempt before it at the write's worst case, since that one may have been
    /// applied or billed, and goes only when another worst case still fits in the budget.
    /// `Err` names the budget: the attempt must not be sent. No write in flight (a write
    /// no run admitted, e.g. the explorer's single-item edits): nothing to charge.
    pub fn attempt(&self) -> Result<(), String> {
        let mut s = self.state.lock().expect("write guard lock");
        let Some((worst, attempts)) = s.current else {
            return Ok(());
        };
        if attempts > 0 {
            if let Some(max) = self.max_units {
                if s.spent + worst + s.reserved > max {
                    s.refused = Some((s.spent + worst, worst));
                    return Err(format!(
                        "--max-wcu {max} reached: a retry of this write needs {worst} more write units"
                    ));
                }
            }
            s.spent += worst;
            if self.units_per_second.is_some() {
                s.last = Some((Instant::now(), worst));
            }
        }
        s.current = Some((worst, attempts + 1));
        Ok(())
    }

    /// Whether an attempt of the write in flight was refused by the budget: the spent units
    /// (the refused attempt's predecessor charged) and the worst case the next one needed.
    pub fn refused(&self) -> Option<(f64, f64)> {
        self.state.lock().expect("write guard lock").refused
    }

    /// Replaces the ticket's reservation with what the write's last attempt consumed (the
    /// earlier attempts were charged as the later ones went).
    pub fn settle(&self, ticket: WriteTicket, units: f64) {
        let mut s = self.state.lock().expect("write guard lock");
        s.reserved = (s.reserved - ticket.reserved).max(0.0);
        s.spent += units;
        s.current = None;
        if let Some((_, last)) = s.last.as_mut() {
            *last = units;
        }
    }

    /// Charges a write the guard may not refuse (putting back an item a delete removed that
    /// another writer had changed): it is spent whatever the budget says.
    pub fn charge(&self, units: f64) {
        self.state.lock().expect("write guard lock").spent += units;
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

    /// A write answered after three attempts is charged for each: the two whose answers were
    /// lost at their worst case, and the last at what it reported; a fourth attempt that does
    /// not fit is refused and the refusal is kept for the runner.
    #[tokio::test(start_paused = true)]
    async fn every_attempt_of_a_write_is_charged() {
        let guard = WriteGuard::new(Some(7.0), None);
        let stop = CancellationToken::new();
        let Some(WriteAdmission::Go(t)) = guard.admit(2.0, &stop).await else {
            panic!("fits");
        };
        for _ in 0..3 {
            guard.attempt().expect("fits");
        }
        assert_eq!(guard.spent(), 4.0, "two lost attempts at their worst case");
        assert!(guard.attempt().is_err(), "4 + 2 charged + 2 reserved > 7");
        assert_eq!(guard.refused(), Some((6.0, 2.0)));
        guard.settle(t, 1.0);
        assert_eq!(guard.spent(), 5.0);
        // Outside an admitted write an attempt is free (single-item writes).
        guard.attempt().expect("no write in flight");
        assert_eq!(guard.spent(), 5.0);
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
