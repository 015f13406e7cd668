//! The reads of `patterns check`, every one under the check's one guard (reserved before each
//! request is sent): a priced one-page sample of the keys of each table or index a pattern
//! reads, and each pattern's calls with parameters drawn from that sample.

use std::collections::BTreeMap;

use super::drain::{drain, Next};
use super::CliError;
use crate::aws::read::reservation::SessionGuard;
use crate::aws::{DoneOutcome, Engine, Operation, ReadCause, ReadSpec};
use crate::model::capacity::format_units;
use crate::model::pattern_check::CallCost;
use crate::model::schema::TableInfo;
use crate::model::value::Item;

/// Items a key sample reads (one page): enough to draw parameters from and to see whether a
/// GSI's partition key takes few values, few enough to be cheap.
pub const SAMPLE_ITEMS: i32 = 100;

/// What a read under the check's guard came to.
pub enum Outcome<T> {
    Done(T),
    /// The budget ran out before the read ended; what it consumed is spent all the same.
    BudgetSpent,
}

pub struct Reader<'a> {
    pub engine: &'a Engine,
    /// The check's one budget: the engine's session guard admits every request under it.
    pub guard: SessionGuard,
    pub info: &'a TableInfo,
    /// Consumed by samples so far.
    pub sample_rcu: f64,
}

impl Reader<'_> {
    /// The engine's session guard admits every request of the check; the spec needs nothing.
    fn guarded(&self, spec: ReadSpec) -> ReadSpec {
        spec
    }

    /// One page of the table (`None`) or an index, said with its price before it is sent.
    pub async fn sample(&mut self, index: Option<&str>) -> Result<Outcome<Vec<Item>>, CliError> {
        say!(
            "note: sampling up to {SAMPLE_ITEMS} items of '{}' to draw the patterns' parameters from its keys: ≈ {} RCU at DescribeTable's average item size",
            index.unwrap_or(&self.info.name),
            format_units(self.info.sample_units(index, SAMPLE_ITEMS as u64))
        );
        let mut spec = ReadSpec::new(Operation::Scan, &self.info.name, ReadCause::Pattern);
        spec.index = index.map(str::to_string);
        spec.page_size = Some(SAMPLE_ITEMS);
        spec.limit = Some(SAMPLE_ITEMS as usize);
        spec.max_pages = Some(1);
        let mut items = Vec::new();
        let mut units = 0.0;
        let drained = drain(self.engine, self.guarded(spec), |page| {
            units += page.consumed.total;
            items.extend(page.items);
            Next::Continue
        })
        .await;
        self.sample_rcu += units;
        // A page the budget cut short still holds keys to draw from.
        let spent = drained.outcome == Some(DoneOutcome::BudgetReached) && items.is_empty();
        finish(drained, ()).map(|_| match spent {
            true => Outcome::BudgetSpent,
            false => Outcome::Done(items),
        })
    }

    /// One call of a pattern: every request of `spec`, all pages and shards.
    pub async fn call(&self, spec: ReadSpec) -> Result<Outcome<CallCost>, CliError> {
        let mut cost = CallCost::default();
        let drained = drain(self.engine, self.guarded(spec), |page| {
            cost.returned += page.count;
            cost.read += page.scanned_count;
            cost.pages += 1;
            cost.rcu += page.consumed.total;
            Next::Continue
        })
        .await;
        finish(drained, cost)
    }
}

fn finish<T>(drained: super::drain::Drained, value: T) -> Result<Outcome<T>, CliError> {
    if let Some(failure) = drained.failure {
        return Err(failure.error.into());
    }
    if drained.interrupted {
        return Err(CliError::new(130, "patterns check interrupted"));
    }
    Ok(match drained.outcome {
        Some(DoneOutcome::BudgetReached) => Outcome::BudgetSpent,
        _ => Outcome::Done(value),
    })
}

/// Up to `calls` parameter sets for a pattern from `items`, distinct ones first, in the
/// order the sample read them; repeated when fewer fit.
pub fn draw_params(
    candidates: impl Iterator<Item = BTreeMap<String, String>>,
    calls: usize,
) -> Vec<BTreeMap<String, String>> {
    let mut distinct: Vec<BTreeMap<String, String>> = Vec::new();
    for params in candidates {
        if !distinct.contains(&params) {
            distinct.push(params);
        }
        if distinct.len() == calls {
            break;
        }
    }
    if distinct.is_empty() {
        return distinct;
    }
    (0..calls)
        .map(|i| distinct[i % distinct.len()].clone())
        .collect()
}
