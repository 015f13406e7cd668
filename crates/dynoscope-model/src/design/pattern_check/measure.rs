//! What a pattern's calls cost, each call being every request one run of the pattern sends
//! (all pages, all shards).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct CallCost {
    pub returned: u64,
    pub read: u64,
    pub pages: u64,
    pub rcu: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    pub calls: Vec<CallCost>,
    pub items_returned: u64,
    pub items_read: u64,
    pub pages: u64,
    pub rcu_total: f64,
    pub rcu_median: f64,
    pub rcu_max: f64,
    /// Items returned of items read, when a filter ran and something was read.
    pub filter_efficiency: Option<f64>,
}

impl Measured {
    /// `None` for no calls. `filtered`: the pattern has a filter (otherwise returned and read
    /// differ only by the limit).
    pub fn of(calls: Vec<CallCost>, filtered: bool) -> Option<Measured> {
        if calls.is_empty() {
            return None;
        }
        let mut rcu: Vec<f64> = calls.iter().map(|c| c.rcu).collect();
        rcu.sort_by(f64::total_cmp);
        let n = rcu.len();
        let median = if n % 2 == 1 {
            rcu[n / 2]
        } else {
            (rcu[n / 2 - 1] + rcu[n / 2]) / 2.0
        };
        let items_returned = calls.iter().map(|c| c.returned).sum();
        let items_read: u64 = calls.iter().map(|c| c.read).sum();
        Some(Measured {
            items_returned,
            items_read,
            pages: calls.iter().map(|c| c.pages).sum(),
            rcu_total: calls.iter().map(|c| c.rcu).sum(),
            rcu_median: median,
            rcu_max: rcu[n - 1],
            filter_efficiency: (filtered && items_read > 0)
                .then(|| items_returned as f64 / items_read as f64),
            calls,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(returned: u64, read: u64, rcu: f64) -> CallCost {
        CallCost {
            returned,
            read,
            pages: 1,
            rcu,
        }
    }

    #[test]
    fn median_max_and_efficiency() {
        let m = Measured::of(
            vec![call(1, 40, 2.0), call(0, 40, 0.5), call(2, 40, 1.0)],
            true,
        )
        .unwrap();
        assert_eq!((m.rcu_median, m.rcu_max, m.rcu_total), (1.0, 2.0, 3.5));
        assert_eq!((m.items_returned, m.items_read, m.pages), (3, 120, 3));
        assert_eq!(m.filter_efficiency, Some(3.0 / 120.0));
        let even = Measured::of(vec![call(1, 1, 1.0), call(1, 1, 2.0)], false).unwrap();
        assert_eq!((even.rcu_median, even.filter_efficiency), (1.5, None));
        assert_eq!(Measured::of(Vec::new(), true), None);
    }
}
