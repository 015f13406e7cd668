//! The reads of a pattern check, every one through the engine's session guard (reserved before
//! each request is sent): a priced key sample of each table or index a pattern reads, spread
//! over its key space (a few items from each segment of a parallel Scan), and each pattern's
//! calls with parameters drawn from that sample. `patterns check` and the explorer's palette
//! (Ctrl-K) both read through here. The check has a bound of its own (`max_rcu`: each read is
//! given what is left of it as its own `--max-rcu`, reserved before every request), stops
//! within a request's abort on its cancel token, and copies every page to `tap` so that the
//! explorer's request log and session cost show what it spent.

use std::collections::BTreeMap;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::aws::{
    Backend, DoneOutcome, EngineError, EngineEvent, Operation, Page, ReadCause, ReadSpec,
};
use crate::model::design::pattern_check::sample::sample_shape;
use crate::model::design::pattern_check::{CallCost, KeySample};
use crate::model::design::schema::TableInfo;
use crate::model::traffic::capacity::format_units;

/// Pages the engine may queue ahead of the check.
const CHANNEL_PAGES: usize = 16;

/// What a read under the guard came to.
pub enum Outcome<T> {
    Done(T),
    /// The budget ran out before the read ended; what it consumed is spent all the same.
    BudgetSpent,
}

/// Where a check's pages are copied (their items left out): the explorer's engine channel,
/// under the request id the explorer gave the check, so that its request log and session cost
/// count every request the check sent.
#[derive(Clone)]
pub struct Tap {
    pub id: u64,
    pub tx: mpsc::Sender<EngineEvent>,
}

pub struct Reader<'a, B: Backend> {
    pub engine: &'a B,
    pub info: &'a TableInfo,
    /// Consumed by samples so far.
    pub sample_rcu: f64,
    /// Consumed by every request of the check so far: samples and calls, whole or cut short.
    pub spent_rcu: f64,
    /// The check's own bound on what all its reads consume together; `None`: only the
    /// session's guard bounds it (`patterns check`'s `--max-rcu` is its session guard).
    pub max_rcu: Option<f64>,
    /// Said before each sample is sent, with its price (the CLI's stderr).
    pub note: &'a (dyn Fn(&str) + Sync),
    /// Stops the read in flight and every read after it.
    pub cancel: CancellationToken,
    pub tap: Option<Tap>,
}

/// The error of a check whose cancel token fired: its reads were stopped.
pub fn stopped() -> EngineError {
    EngineError::bad_input("the check was stopped; its reads were cancelled")
}

impl<'a, B: Backend> Reader<'a, B> {
    pub fn new(engine: &'a B, info: &'a TableInfo, note: &'a (dyn Fn(&str) + Sync)) -> Self {
        Reader {
            engine,
            info,
            sample_rcu: 0.0,
            spent_rcu: 0.0,
            max_rcu: None,
            note,
            cancel: CancellationToken::new(),
            tap: None,
        }
    }

    /// Runs `spec` to its end under what is left of the check's bound, handing each page to
    /// `on_page`; the first failure is the error, the cancel token [`stopped`]. `None`: the
    /// bound was spent, nothing was sent.
    async fn read_all(
        &mut self,
        mut spec: ReadSpec,
        mut on_page: impl FnMut(&Page),
    ) -> Result<Option<DoneOutcome>, EngineError> {
        if self.cancel.is_cancelled() {
            return Err(stopped());
        }
        if let Some(max) = self.max_rcu {
            let left = max - self.spent_rcu;
            if left <= 0.0 {
                return Ok(Some(DoneOutcome::BudgetReached));
            }
            spec.budget.max_rcu = Some(spec.budget.max_rcu.map_or(left, |own| own.min(left)));
        }
        let (tx, mut rx) = mpsc::channel(CHANNEL_PAGES);
        let handle = match &self.tap {
            Some(tap) => self.engine.start_read_with_id(tap.id, spec, tx),
            None => self.engine.start_read(spec, tx),
        };
        let mut result = Ok(None);
        loop {
            let event = tokio::select! {
                event = rx.recv() => event,
                _ = self.cancel.cancelled() => {
                    handle.cancel();
                    result = Err(stopped());
                    break;
                }
            };
            let Some(event) = event else { break };
            match event {
                EngineEvent::Page(page) => self.paid(page, &mut on_page).await,
                EngineEvent::Done { outcome, .. } => {
                    result = Ok(Some(outcome));
                    break;
                }
                EngineEvent::Failed { .. } | EngineEvent::Abandoned { .. } => {
                    // Its attempts are the request log's too.
                    if let Some(tap) = &self.tap {
                        let _ = tap.tx.send(event.clone()).await;
                    }
                    if let EngineEvent::Failed { error, .. } = event {
                        result = Err(error);
                        break;
                    }
                }
                EngineEvent::Integrity { .. } => {}
            }
        }
        handle.join().await;
        // Pages still queued when the read was stopped were paid for: counted and logged.
        while let Ok(event) = rx.try_recv() {
            if let EngineEvent::Page(page) = event {
                self.paid(page, &mut on_page).await;
            }
        }
        result
    }

    /// One page received: counted in what the check spent, copied to the tap without its
    /// items, then handed to `on_page`.
    async fn paid(&mut self, mut page: Page, on_page: &mut impl FnMut(&Page)) {
        self.spent_rcu += page.consumed.total;
        if let Some(tap) = &self.tap {
            let items = std::mem::take(&mut page.items);
            let _ = tap.tx.send(EngineEvent::Page(page.clone())).await;
            page.items = items;
        }
        on_page(&page);
    }

    /// A key sample of the table (`None`) or an index, spread over its key space: a parallel
    /// Scan of one page a segment, shaped by its size (`sample_shape`), said with its price
    /// before it is sent.
    pub async fn sample(&mut self, index: Option<&str>) -> Result<Outcome<KeySample>, EngineError> {
        let count = index
            .and_then(|name| self.info.index(name))
            .and_then(|i| i.item_count)
            .unwrap_or(self.info.item_count);
        let (segments, per_segment) = sample_shape(count);
        // Each request costs half a unit at least.
        let price = (self.info.sample_units(index, per_segment as u64)).max(0.5) * segments as f64;
        (self.note)(&format!(
            "note: sampling up to {} items of '{}' ({per_segment} from each of {segments} scan segments, spread over its key space) to draw the patterns' parameters from its keys and judge their cardinality: ≈ {} RCU at DescribeTable's average item size",
            per_segment as u32 * segments,
            index.unwrap_or(&self.info.name),
            format_units(price)
        ));
        let mut spec = ReadSpec::new(Operation::Scan, &self.info.name, ReadCause::Pattern);
        spec.index = index.map(str::to_string);
        spec.segments = segments;
        spec.page_size = Some(per_segment);
        spec.limit = Some(per_segment as usize);
        spec.limit_per_segment = true;
        spec.budget.max_pages = Some(1);
        let mut sample = KeySample::new(segments);
        let before = self.spent_rcu;
        let outcome = self
            .read_all(spec, |page| {
                // A segment that ended in its page was read whole.
                let whole = page.last_evaluated_key.is_none();
                sample.push_page(page.segment, &page.items, whole);
            })
            .await;
        self.sample_rcu += self.spent_rcu - before;
        // A sample the budget cut short still holds keys to draw from.
        Ok(match outcome? {
            Some(DoneOutcome::BudgetReached) if sample.items.is_empty() => Outcome::BudgetSpent,
            _ => Outcome::Done(sample.in_segment_order()),
        })
    }

    /// One call of a pattern: every request of `spec`, all pages and shards.
    pub async fn call(&mut self, spec: ReadSpec) -> Result<Outcome<CallCost>, EngineError> {
        let mut cost = CallCost::default();
        let outcome = self
            .read_all(spec, |page| {
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
