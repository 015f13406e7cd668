//! The report tools: `hotkeys` (a budgeted Scan counted by partition key, as `dynoscope
//! hotkeys` counts it) and `diagnose`, `metrics`, `insights` (CloudWatch and Contributor
//! Insights, which cost no read units; the verdicts and reports the headless commands print
//! as JSON). Their parameters and results; the tools themselves are in `server.rs`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::page::RequestCost;
use super::server::Cost;
use crate::aws::read::MAX_SEGMENTS;
use crate::aws::{Engine, Operation, ReadSpec};
use crate::cli::drain::{drain_until, Next};
use crate::model::design::schema::{IndexKind, TableInfo};
use crate::model::engine::read_cause::ReadCause;
use crate::model::formats::json::to_safe_json;
use crate::model::item::item_size::item_size;
use crate::model::traffic::distribution::{
    partition_text, KeyDistribution, Source, WarningContext,
};

/// Keys listed by default and at most.
pub const DEFAULT_TOP: usize = 10;
pub const MAX_TOP: usize = 100;
/// Distinct keys counted exactly before the count turns approximate (as `hotkeys`' default).
pub const MAX_EXACT_KEYS: usize = 1_000_000;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HotkeysParams {
    pub table: String,
    /// A GSI or LSI to count by its partition key instead of the table's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// Keys to list, hottest first (default 10, at most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<usize>,
    /// Parallel Scan segments (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segments: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct HotkeysResult {
    pub table: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    pub partition_key: String,
    /// Whether the Scan read the whole table or index; false when the call's share of the
    /// read budget stopped it, and then every number covers only the items read.
    pub complete: bool,
    pub distinct_keys: usize,
    pub total_items: u64,
    pub total_bytes: u64,
    /// The share of the items that the hottest 1% of keys hold.
    pub top_one_percent_share: f64,
    /// The hottest keys: key, items, share, bytes.
    pub top: Value,
    /// Write-shard families (KEY#0 … KEY#n) and how evenly their items spread.
    pub shard_families: Value,
    /// What the distribution warns of (a key holding most items, a low-cardinality key…).
    pub warnings: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What was read: "table", or "export" and the export's folder (read at 0 RCU).
    pub source: String,
    pub cost: Cost,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportParams {
    pub table: String,
    /// How far back to look, e.g. 30m, 3h or 2d (at most 15d; default 3h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Seconds per datapoint: a whole number of minutes (default 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<u32>,
}

impl ReportParams {
    pub fn since(&self) -> &str {
        self.since.as_deref().unwrap_or("3h")
    }

    pub fn period(&self) -> u32 {
        self.period.unwrap_or(60)
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DiagnoseResult {
    pub table: String,
    /// Whether a verdict says the table or an index is throttling now.
    pub throttling_now: bool,
    /// Each verdict: what it says, its evidence and whether it is happening now.
    pub verdicts: Value,
    /// Evidence the verdicts went without (a permission missing names its IAM action).
    pub notes: Vec<String>,
    pub cost: Cost,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct MetricsResult {
    /// The table's and each GSI's CloudWatch series over the window: consumed and
    /// provisioned capacity, throttle events by cause, latency per operation.
    pub report: Value,
    pub cost: Cost,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct InsightsResult {
    pub table: String,
    /// Per target (table, each GSI): Contributor Insights on or off, its mode, its rules' top
    /// keys with count and share; when off, the command that enables it (billed).
    pub targets: Value,
    /// Calls denied or failed (a permission missing names its IAM action).
    pub notes: Vec<String>,
    pub cost: Cost,
}

/// Plain JSON of a model value: escaped as every JSON dynoscope writes.
pub fn as_value<T: Serialize>(value: &T) -> Value {
    serde_json::from_str(&to_safe_json(value, false)).unwrap_or(Value::Null)
}

pub fn check_hotkeys(p: &HotkeysParams) -> Result<(usize, u32), String> {
    let top = p.top.unwrap_or(DEFAULT_TOP);
    if !(1..=MAX_TOP).contains(&top) {
        return Err(format!("top '{top}' is out of range; use 1 to {MAX_TOP}"));
    }
    let segments = p.segments.unwrap_or(1);
    if !(1..=MAX_SEGMENTS).contains(&segments) {
        return Err(format!(
            "segments '{segments}' is out of range; use 1 to {MAX_SEGMENTS}"
        ));
    }
    Ok((top, segments))
}

/// The Scan `hotkeys` counts: the whole table or index (the caller puts it under the
/// per-call cap).
pub fn hotkeys_spec(info: &TableInfo, p: &HotkeysParams, segments: u32) -> ReadSpec {
    // The agent asked for this read: the log says so.
    let mut spec = ReadSpec::new(Operation::Scan, &info.name, ReadCause::AgentCall);
    spec.index = p.index.clone();
    spec.segments = segments;
    spec
}

pub struct Counted {
    pub distribution: KeyDistribution,
    pub requests: Vec<RequestCost>,
    pub outcome: Option<crate::aws::DoneOutcome>,
    pub failure: Option<crate::aws::EngineError>,
}

/// Counts every item the Scan returns by its partition key value and size, as `hotkeys` does,
/// until the Scan ends or `cancel` fires (the client's cancellation of the call).
pub async fn count(
    engine: &Engine,
    spec: ReadSpec,
    partition: &[String],
    cancel: &tokio_util::sync::CancellationToken,
) -> Counted {
    let mut distribution = KeyDistribution::bounded(MAX_EXACT_KEYS);
    let mut requests = Vec::new();
    let drained = drain_until(engine, spec, cancel, |page| {
        requests.push(RequestCost {
            operation: page.operation.as_str().to_string(),
            index: page.index.clone(),
            consumed_rcu: page.consumed.total,
            count: page.count,
            scanned_count: page.scanned_count,
        });
        for item in &page.items {
            distribution.add(&partition_text(item, partition), item_size(item));
        }
        Next::Continue
    })
    .await;
    Counted {
        distribution,
        requests,
        outcome: drained.outcome,
        failure: drained.failure.map(|f| f.error),
    }
}

/// The warnings' context: which table or index the keys are of.
pub fn context<'a>(
    info: &'a TableInfo,
    index: Option<&str>,
    partition_key: &'a str,
) -> WarningContext<'a> {
    let source = match index.and_then(|name| info.index(name)) {
        Some(index) => Source::Index {
            name: &index.name,
            kind: index.kind,
        },
        None => Source::Table,
    };
    WarningContext {
        table: &info.name,
        source,
        partition_key,
        table_has_lsi: info.indexes.iter().any(|i| i.kind == IndexKind::Lsi),
    }
}
