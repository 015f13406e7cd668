//! The reads of a pattern check, every one through the engine's session guard (reserved before
//! each request is sent): a priced one-page sample of the keys of each table or index a pattern
//! reads, and each pattern's calls with parameters drawn from that sample. `patterns check`
//! and the explorer's palette (Ctrl-K) both read through here.

use std::collections::BTreeMap;

use tokio::sync::mpsc;

use crate::aws::{
    Backend, DoneOutcome, EngineError, EngineEvent, Operation, Page, ReadCause, ReadSpec,
};
use crate::model::design::pattern_check::CallCost;
use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::format_units;

/// Items a key sample reads (one page): enough to draw parameters from and to see whether a
/// GSI's partition key takes few values, few enough to be cheap.
pub const SAMPLE_ITEMS: i32 = 100;
/// Pages the engine may queue ahead of the check.
const CHANNEL_PAGES: usize = 16;

/// What a read under the guard came to.
pub enum Outcome<T> {
    Done(T),
    /// The budget ran out before the read ended; what it consumed is spent all the same.
    BudgetSpent,
}

pub struct Reader<'a, B: Backend> {
    pub engine: &'a B,
    pub info: &'a TableInfo,
    /// Consumed by samples so far.
    pub sample_rcu: f64,
    /// Said before each sample is sent, with its price (the CLI's stderr).
    pub note: &'a (dyn Fn(&str) + Sync),
}

/// Runs `spec` to its end, handing each page to `on_page`; the first failure is the error.
async fn read_all<B: Backend>(
    engine: &B,
    spec: ReadSpec,
    mut on_page: impl FnMut(Page),
) -> Result<Option<DoneOutcome>, EngineError> {
    let (tx, mut rx) = mpsc::channel(CHANNEL_PAGES);
    let handle = engine.start_read(spec, tx);
    let mut result = Ok(None);
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(page) => on_page(page),
            EngineEvent::Done { outcome, .. } => {
                result = Ok(Some(outcome));
                break;
            }
            EngineEvent::Failed { error, .. } => {
                result = Err(error);
                break;
            }
            EngineEvent::Abandoned { .. } | EngineEvent::Integrity { .. } => {}
        }
    }
    handle.join().await;
    result
}

impl<B: Backend> Reader<'_, B> {
    /// One page of the table (`None`) or an index, said with its price before it is sent.
    pub async fn sample(&mut self, index: Option<&str>) -> Result<Outcome<Vec<Item>>, EngineError> {
        (self.note)(&format!(
            "note: sampling up to {SAMPLE_ITEMS} items of '{}' to draw the patterns' parameters from its keys: ≈ {} RCU at DescribeTable's average item size",
            index.unwrap_or(&self.info.name),
            format_units(self.info.sample_units(index, SAMPLE_ITEMS as u64))
        ));
        let mut spec = ReadSpec::new(Operation::Scan, &self.info.name, ReadCause::Pattern);
        spec.index = index.map(str::to_string);
        spec.page_size = Some(SAMPLE_ITEMS);
        spec.limit = Some(SAMPLE_ITEMS as usize);
        spec.budget.max_pages = Some(1);
        let mut items = Vec::new();
        let mut units = 0.0;
        let outcome = read_all(self.engine, spec, |page| {
            units += page.consumed.total;
            items.extend(page.items);
        })
        .await;
        self.sample_rcu += units;
        // A page the budget cut short still holds keys to draw from.
        Ok(match outcome? {
            Some(DoneOutcome::BudgetReached) if items.is_empty() => Outcome::BudgetSpent,
            _ => Outcome::Done(items),
        })
    }

    /// One call of a pattern: every request of `spec`, all pages and shards.
    pub async fn call(&self, spec: ReadSpec) -> Result<Outcome<CallCost>, EngineError> {
        let mut cost = CallCost::default();
        let outcome = read_all(self.engine, spec, |page| {
            cost.returned += page.count;
            cost.read += page.scanned_count;
            cost.pages += 1;
            cost.rcu += page.consumed.total;
        })
        .await?;
        Ok(match outcome {
            Some(DoneOutcome::BudgetReached) => Outcome::BudgetSpent,
            _ => Outcome::Done(cost),
        })
    }
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
