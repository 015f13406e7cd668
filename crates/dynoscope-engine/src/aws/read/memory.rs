//! A table in memory that answers page requests the way DynamoDB does (Limit counts evaluated
//! items, 1 MB pages, `LastEvaluatedKey`, parallel-scan segments, 4 KB capacity rounding), with
//! scripted latency and failures. Tests run the real coordinator, segment tasks and capacity
//! guard against it under paused time; the integration tests against DynamoDB Local stay.
//!
//! Compiled for tests only: `cfg(test)` in the crate, and the `test-engines` feature that
//! the test suite turns on for `tests/` (a release build has none of it).

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::reservation::Reservation;
use super::source::{PageRequest, PageSource, RawPage};
use super::Operation;
use crate::aws::attempts::AttemptRecorder;
use crate::aws::error::EngineError;
use crate::model::item::item_size::item_size;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::{scan_estimate_units, Consumed};

const PAGE_BYTES: usize = 1024 * 1024;

/// What the script says about request number `n` (0-based, in the order they are sent).
#[derive(Debug, Clone, Copy, Default)]
pub struct Step {
    pub latency: Duration,
    pub fail: bool,
}

type Script = dyn Fn(u64) -> Step + Send + Sync;
type Predicate = dyn Fn(&Item) -> bool + Send + Sync;

pub struct MemorySource {
    /// In the table's key order.
    items: Arc<Vec<Item>>,
    key_names: Vec<String>,
    /// Stands in for the FilterExpression of a spec that has one.
    filter: Option<Arc<Predicate>>,
    script: Arc<Script>,
    sent: AtomicU64,
    /// Capacity of every response that came back, delivered or not.
    charged: Arc<std::sync::Mutex<f64>>,
}

impl MemorySource {
    pub fn new(items: Vec<Item>, key_names: &[&str]) -> Self {
        MemorySource {
            items: Arc::new(items),
            key_names: key_names.iter().map(|s| s.to_string()).collect(),
            filter: None,
            script: Arc::new(|_| Step::default()),
            sent: AtomicU64::new(0),
            charged: Arc::default(),
        }
    }

    pub fn with_filter(mut self, f: impl Fn(&Item) -> bool + Send + Sync + 'static) -> Self {
        self.filter = Some(Arc::new(f));
        self
    }

    pub fn with_script(mut self, f: impl Fn(u64) -> Step + Send + Sync + 'static) -> Self {
        self.script = Arc::new(f);
        self
    }

    /// Requests sent so far.
    pub fn requests(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Read units of every response that came back, whether or not it was delivered.
    pub fn charged(&self) -> f64 {
        *self.charged.lock().expect("charged lock")
    }

    /// Positions of the items segment `segment` of `total` holds, in the order it reads them.
    pub fn segment_items(&self, segment: u32, total: u32) -> Vec<usize> {
        (0..self.items.len())
            .filter(|i| *i as u32 % total == segment)
            .collect()
    }

    fn key_of(&self, item: &Item) -> Item {
        let mut key = Item::new();
        for name in &self.key_names {
            if let Some(v) = item.get(name) {
                key.insert(name.clone(), v.clone());
            }
        }
        key
    }

    fn page(&self, request: &PageRequest, limit: Option<i32>) -> RawPage<Vec<Item>> {
        let spec = &request.spec;
        let total = match spec.operation {
            Operation::Scan if request.total_segments > 1 => request.total_segments,
            Operation::Query if !spec.shards.is_empty() => request.total_segments,
            _ => 1,
        };
        let mut positions = self.segment_items(request.segment, total);
        // A Query's partition-key equality (`#pk = :pk`, as the explorer and the builder spell
        // it) selects one collection, of the table or of the queried index; other conditions
        // are not evaluated.
        if let Some((name, value)) = partition_condition(spec, request.segment) {
            positions.retain(|&i| self.items[i].get(&name) == Some(&value));
        }
        let from = match &request.start {
            None => 0,
            Some(start) => positions
                .iter()
                .position(|&i| self.key_of(&self.items[i]) == *start)
                .map_or(positions.len(), |p| p + 1),
        };
        let mut returned = Vec::new();
        let (mut evaluated, mut bytes) = (0u64, 0usize);
        let mut last = None;
        let mut stopped_early = false;
        for &i in &positions[from..] {
            if limit.is_some_and(|l| evaluated >= l as u64) || bytes >= PAGE_BYTES {
                stopped_early = true;
                break;
            }
            let item = &self.items[i];
            evaluated += 1;
            bytes += item_size(item);
            last = Some(i);
            let keep = spec.filter.is_none() || self.filter.as_ref().is_none_or(|f| f(item));
            if keep && !spec.delivery.is_count() {
                returned.push(item.clone());
            }
        }
        // Like DynamoDB, a page that stopped at its Limit names its last key even when nothing
        // is left after it; the next request then returns an empty last page.
        let at_limit = limit.is_some_and(|l| evaluated >= l as u64);
        let last_evaluated_key = (stopped_early || at_limit || bytes >= PAGE_BYTES)
            .then(|| last.map(|i| self.key_of(&self.items[i])))
            .flatten();
        let units = scan_estimate_units(bytes as u64, spec.consistent).max(0.5);
        RawPage {
            count: if spec.delivery.is_count() {
                evaluated
            } else {
                returned.len() as u64
            },
            items: returned,
            scanned_count: evaluated,
            consumed: Consumed {
                total: units,
                table: units,
                indexes: Default::default(),
                unreported_pages: 0,
            },
            last_evaluated_key,
        }
    }
}

/// The request in DynamoDB's JSON protocol, as the SDK would send it for this page (the body
/// `explain` shows), so the request log shows the same thing against memory as against DynamoDB.
fn request_body(request: &PageRequest, limit: Option<i32>) -> String {
    super::request_json(
        &request.spec,
        request.segment,
        limit,
        request.start.as_ref(),
    )
    .to_string()
}

fn partition_condition(
    spec: &super::ReadSpec,
    segment: u32,
) -> Option<(String, crate::model::item::value::AttrValue)> {
    let condition = spec.key_condition.as_deref()?;
    if spec.operation != Operation::Query || !condition.starts_with("#pk = :pk") {
        return None;
    }
    let name = spec.names.iter().find(|(n, _)| n == "#pk")?.1.clone();
    let value = spec
        .values_for(segment)
        .into_iter()
        .find(|(n, _)| n == ":pk")?
        .1;
    Some((name, value))
}

impl PageSource for MemorySource {
    type Items = Vec<Item>;

    fn fetch(
        &self,
        request: PageRequest,
        reservation: &Reservation,
        recorder: AttemptRecorder,
    ) -> impl Future<Output = Result<RawPage<Vec<Item>>, EngineError>> + Send + 'static {
        let limit = reservation.limit();
        let n = self.sent.fetch_add(1, Ordering::Relaxed);
        let step = (self.script)(n);
        recorder.record_attempt(false);
        recorder.record_body(request_body(&request, limit));
        // Computed now, so the page reflects the table when the request was sent.
        let page = (!step.fail).then(|| self.page(&request, limit));
        let charged = self.charged.clone();
        async move {
            tokio::time::sleep(step.latency).await;
            let page = page
                .ok_or_else(|| EngineError::service(format!("scripted failure of request {n}")))?;
            *charged.lock().expect("charged lock") += page.consumed.total;
            Ok(page)
        }
    }
}
