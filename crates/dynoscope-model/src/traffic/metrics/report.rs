//! What the series of a [`MetricsPlan`] say: per target, consumed against provisioned
//! capacity per second, throttle events by reason, and per operation the throttled requests,
//! latency and returned items.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{MetricsPlan, Stat, Target, Window};

/// One series as CloudWatch answered it: `(epoch seconds, value)` in time order.
pub type Points = Vec<(i64, f64)>;

/// The values' sum, 0 (not -0) for none.
fn add(points: &Points) -> f64 {
    points.iter().fold(0.0, |sum, p| sum + p.1)
}

/// A series in the units people read (per second for capacity), with its peak and mean.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Series {
    pub points: Points,
    pub peak: f64,
    pub average: f64,
    pub total: f64,
}

impl Series {
    pub fn new(mut points: Points) -> Series {
        points.sort_by_key(|p| p.0);
        let total = add(&points);
        let peak = points.iter().map(|p| p.1).fold(0.0, f64::max);
        let average = if points.is_empty() {
            0.0
        } else {
            total / points.len() as f64
        };
        Series {
            points,
            peak,
            average,
            total,
        }
    }

    fn scaled(points: &Points, by: f64) -> Series {
        Series::new(points.iter().map(|&(t, v)| (t, v / by)).collect())
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// Throttle events over the window, by the reason metric that counted them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ThrottleEvents {
    pub key_range: f64,
    pub provisioned: f64,
    pub account_limit: f64,
    pub max_on_demand: f64,
    /// `ReadThrottleEvents`/`WriteThrottleEvents`: all of them, whatever the reason.
    pub all: f64,
    /// Events of any kind in the window's last [`RECENT_PERIODS`] periods: throttling now.
    pub recent: f64,
    /// Events per period (all of them, or the reasons' sum where that is more), for the
    /// metrics pane's sparkline; the JSON output keeps its totals only.
    #[serde(skip)]
    pub over_time: Series,
}

/// The periods at the end of the window that count as "now".
pub const RECENT_PERIODS: i64 = 5;

impl ThrottleEvents {
    pub fn any(&self) -> bool {
        self.all > 0.0
            || self.key_range + self.provisioned + self.account_limit + self.max_on_demand > 0.0
    }

    /// The most events, with the reason's name: what a verdict cites.
    pub fn top_reason(&self) -> Option<(&'static str, f64)> {
        [
            ("KeyRange", self.key_range),
            ("Provisioned", self.provisioned),
            ("AccountLimit", self.account_limit),
            ("MaxOnDemand", self.max_on_demand),
        ]
        .into_iter()
        .filter(|(_, n)| *n > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetReport {
    pub target: Target,
    /// Capacity units per second (the Sum of each period divided by its seconds).
    pub consumed_read: Series,
    pub consumed_write: Series,
    /// Absent for on-demand tables.
    pub provisioned_read: Option<Series>,
    pub provisioned_write: Option<Series>,
    /// An on-demand table's maximum request units per second, where one is set (from
    /// DescribeTable: CloudWatch has no metric for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_on_demand_read: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_on_demand_write: Option<f64>,
    pub read_throttles: ThrottleEvents,
    pub write_throttles: ThrottleEvents,
    /// A GSI being backfilled: its latest percentage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online_index_progress: Option<f64>,
}

impl TargetReport {
    pub fn throttled(&self) -> bool {
        self.read_throttles.any() || self.write_throttles.any()
    }
}

/// Per operation (table-wide): throttled requests, latency and, for Query and Scan, items.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OperationReport {
    pub throttled_requests: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_avg_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_max_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned_items: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricsReport {
    pub table: String,
    pub window: Window,
    /// Metrics requested in this refresh, and what CloudWatch bills for them.
    pub metrics_requested: usize,
    pub cost_usd: f64,
    pub targets: Vec<TargetReport>,
    pub operations: BTreeMap<String, OperationReport>,
}

impl MetricsReport {
    /// Reads the answered series (by query id) against the plan that asked for them.
    pub fn build(plan: &MetricsPlan, answered: &BTreeMap<String, Points>) -> MetricsReport {
        // A NaN or an infinity from CloudWatch is no measurement: dropped here, the one place
        // every reader (`metrics` text and JSON, the explorer's pane) takes its numbers from,
        // it is a missing point like any gap, never `inf/s`, `NaN` or a JSON that is not JSON.
        let answered: BTreeMap<&String, Points> = answered
            .iter()
            .map(|(id, points)| {
                (
                    id,
                    points.iter().copied().filter(|p| p.1.is_finite()).collect(),
                )
            })
            .collect();
        let period = f64::from(plan.window.period);
        let empty = Points::new();
        let get = |target: &Target, metric: &str, op: Option<&str>, stat: Stat| -> &Points {
            plan.queries
                .iter()
                .find(|q| {
                    &q.target == target && q.metric == metric && q.operation == op && q.stat == stat
                })
                .and_then(|q| answered.get(&q.id))
                .unwrap_or(&empty)
        };
        let total =
            |target: &Target, metric: &str| -> f64 { add(get(target, metric, None, Stat::Sum)) };
        let recent_from = plan.window.end - RECENT_PERIODS * i64::from(plan.window.period);
        let throttles = |target: &Target, side: &str| {
            let names = [
                format!("{side}ThrottleEvents"),
                format!("{side}KeyRangeThroughputThrottleEvents"),
                format!("{side}ProvisionedThroughputThrottleEvents"),
                format!("{side}AccountLimitThrottleEvents"),
                format!("{side}MaxOnDemandThroughputThrottleEvents"),
            ];
            let recent = names
                .iter()
                .map(|n| {
                    get(target, n, None, Stat::Sum)
                        .iter()
                        .filter(|p| p.0 >= recent_from)
                        .fold(0.0, |sum, p| sum + p.1)
                })
                .fold(0.0, f64::max);
            let mut per_period: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
            for (i, n) in names.iter().enumerate() {
                for &(t, v) in get(target, n, None, Stat::Sum) {
                    let slot = per_period.entry(t).or_default();
                    if i == 0 {
                        slot.0 += v;
                    } else {
                        slot.1 += v;
                    }
                }
            }
            ThrottleEvents {
                over_time: Series::new(
                    per_period
                        .into_iter()
                        .map(|(t, (all, reasons))| (t, all.max(reasons)))
                        .collect(),
                ),
                all: total(target, &names[0]),
                key_range: total(target, &names[1]),
                provisioned: total(target, &names[2]),
                account_limit: total(target, &names[3]),
                max_on_demand: total(target, &names[4]),
                recent,
            }
        };
        let mut targets: Vec<Target> = Vec::new();
        for q in &plan.queries {
            if !targets.contains(&q.target) {
                targets.push(q.target.clone());
            }
        }
        let provisioned = |target: &Target, metric: &str| {
            let points = get(target, metric, None, Stat::Average);
            (!points.is_empty()).then(|| Series::new(points.clone()))
        };
        let targets = targets
            .into_iter()
            .map(|t| TargetReport {
                consumed_read: Series::scaled(
                    get(&t, "ConsumedReadCapacityUnits", None, Stat::Sum),
                    period,
                ),
                consumed_write: Series::scaled(
                    get(&t, "ConsumedWriteCapacityUnits", None, Stat::Sum),
                    period,
                ),
                provisioned_read: provisioned(&t, "ProvisionedReadCapacityUnits"),
                provisioned_write: provisioned(&t, "ProvisionedWriteCapacityUnits"),
                max_on_demand_read: None,
                max_on_demand_write: None,
                read_throttles: throttles(&t, "Read"),
                write_throttles: throttles(&t, "Write"),
                online_index_progress: get(
                    &t,
                    "OnlineIndexPercentageProgress",
                    None,
                    Stat::Maximum,
                )
                .iter()
                .max_by_key(|p| p.0)
                // A percentage: a wild value is not shown as `backfill 1000…%`.
                .map(|p| p.1.clamp(0.0, 100.0)),
                target: t,
            })
            .collect();
        let mut operations = BTreeMap::new();
        for op in super::OPERATIONS {
            let t = &Target::Table;
            let sum = |metric| get(t, metric, Some(op), Stat::Sum);
            let avg = get(t, "SuccessfulRequestLatency", Some(op), Stat::Average);
            let max = get(t, "SuccessfulRequestLatency", Some(op), Stat::Maximum);
            let returned = sum("ReturnedItemCount");
            let report = OperationReport {
                throttled_requests: add(sum("ThrottledRequests")),
                latency_avg_ms: (!avg.is_empty()).then(|| add(avg) / avg.len() as f64),
                latency_max_ms: max.iter().map(|p| p.1).reduce(f64::max),
                returned_items: (!returned.is_empty()).then(|| add(returned)),
            };
            if report != OperationReport::default() {
                operations.insert(op.to_string(), report);
            }
        }
        MetricsReport {
            table: plan.table.clone(),
            window: plan.window,
            metrics_requested: plan.queries.len(),
            cost_usd: plan.cost_usd(),
            targets,
            operations,
        }
    }

    /// The table's maximum on-demand throughput, from its description, beside its series.
    pub fn with_on_demand_max(
        mut self,
        max: Option<crate::design::schema::OnDemandMax>,
    ) -> MetricsReport {
        if let (Some(max), Some(t)) = (
            max,
            self.targets.iter_mut().find(|t| t.target == Target::Table),
        ) {
            t.max_on_demand_read = max.read_request_units.map(|n| n as f64);
            t.max_on_demand_write = max.write_request_units.map(|n| n as f64);
        }
        self
    }

    pub fn target(&self, target: &Target) -> Option<&TargetReport> {
        self.targets.iter().find(|t| &t.target == target)
    }
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
