//! CloudWatch metrics of a table and its GSIs: which series to ask for ([`MetricsPlan`]), and
//! what they say ([`report::MetricsReport`]). Pure: the call itself is `aws::metrics`'.

pub mod report;

use serde::Serialize;

pub const NAMESPACE: &str = "AWS/DynamoDB";
/// GetMetricData takes at most this many queries in one call.
pub const MAX_QUERIES_PER_CALL: usize = 500;
/// CloudWatch bills GetMetricData per metric requested: $0.01 per 1,000 (us-east-1).
pub const USD_PER_METRIC: f64 = 0.01 / 1000.0;
/// DynamoDB publishes one-minute metrics: a period is a whole number of minutes.
pub const MIN_PERIOD_SECS: u32 = 60;
/// CloudWatch keeps one-minute data 15 days; longer windows are refused, not silently empty.
pub const MAX_WINDOW_SECS: u64 = 15 * 24 * 3600;
/// The most datapoints a window may ask for per series (period × points = window).
pub const MAX_POINTS: u64 = 1440;

/// What a series is about: the table, or one of its GSIs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Table,
    Index(String),
}

impl Target {
    pub fn wording(&self) -> String {
        match self {
            Target::Table => "table".into(),
            Target::Index(name) => format!("index {name}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Stat {
    Sum,
    Average,
    Maximum,
}

impl Stat {
    pub fn as_str(self) -> &'static str {
        match self {
            Stat::Sum => "Sum",
            Stat::Average => "Average",
            Stat::Maximum => "Maximum",
        }
    }
}

/// The operations DynamoDB publishes `ThrottledRequests` and `SuccessfulRequestLatency` for.
pub const OPERATIONS: [&str; 10] = [
    "GetItem",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
];

/// Read and write capacity, and the throttle events split by why (the reason metrics match
/// the `ThrottlingReasons` a throttled request carries).
pub const CAPACITY_METRICS: [(&str, Stat); 14] = [
    ("ConsumedReadCapacityUnits", Stat::Sum),
    ("ConsumedWriteCapacityUnits", Stat::Sum),
    ("ProvisionedReadCapacityUnits", Stat::Average),
    ("ProvisionedWriteCapacityUnits", Stat::Average),
    ("ReadThrottleEvents", Stat::Sum),
    ("WriteThrottleEvents", Stat::Sum),
    ("ReadKeyRangeThroughputThrottleEvents", Stat::Sum),
    ("WriteKeyRangeThroughputThrottleEvents", Stat::Sum),
    ("ReadProvisionedThroughputThrottleEvents", Stat::Sum),
    ("WriteProvisionedThroughputThrottleEvents", Stat::Sum),
    ("ReadAccountLimitThrottleEvents", Stat::Sum),
    ("WriteAccountLimitThrottleEvents", Stat::Sum),
    ("ReadMaxOnDemandThroughputThrottleEvents", Stat::Sum),
    ("WriteMaxOnDemandThroughputThrottleEvents", Stat::Sum),
];

/// The time range asked for, in epoch seconds, and the period of each datapoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Window {
    pub start: i64,
    pub end: i64,
    pub period: u32,
}

impl Window {
    /// The `since` seconds up to `now`, ends aligned to whole periods (CloudWatch's own
    /// datapoints start on them).
    pub fn ending(now: i64, since: u64, period: u32) -> Result<Window, String> {
        if period < MIN_PERIOD_SECS || !period.is_multiple_of(MIN_PERIOD_SECS) {
            return Err(format!(
                "--period '{period}' is not a whole number of minutes; DynamoDB publishes one-minute metrics: use 60, 300, 3600…"
            ));
        }
        if since > MAX_WINDOW_SECS {
            return Err(format!(
                "--since '{since}s' is longer than the 15 days CloudWatch keeps one-minute metrics; use at most 15d"
            ));
        }
        if since < u64::from(period) {
            return Err(format!(
                "--since '{since}s' is shorter than one --period ({period}s); make it longer"
            ));
        }
        if since / u64::from(period) > MAX_POINTS {
            return Err(format!(
                "--since '{since}s' at --period '{period}' is {} points a series; use a longer --period (at most {MAX_POINTS} points)",
                since / u64::from(period)
            ));
        }
        let p = i64::from(period);
        let end = now.div_euclid(p) * p + p;
        Ok(Window {
            start: end - (since as i64).div_euclid(p) * p - p,
            end,
            period,
        })
    }

    /// The points a series has at most.
    pub fn points(&self) -> usize {
        ((self.end - self.start) / i64::from(self.period)).max(0) as usize
    }
}

/// One series asked for: `id` is GetMetricData's (`m0`, `m1`…), unique in its plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricQuery {
    pub id: String,
    pub target: Target,
    pub metric: &'static str,
    pub operation: Option<&'static str>,
    pub stat: Stat,
}

impl MetricQuery {
    /// Its CloudWatch dimensions on `table`, in the order DynamoDB publishes them.
    pub fn dimensions(&self, table: &str) -> Vec<(&'static str, String)> {
        let mut dims = vec![("TableName", table.to_string())];
        if let Target::Index(name) = &self.target {
            dims.push(("GlobalSecondaryIndexName", name.clone()));
        }
        if let Some(op) = self.operation {
            dims.push(("Operation", op.to_string()));
        }
        dims
    }
}

/// Every series of a table and its GSIs over one window: what one refresh asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricsPlan {
    pub table: String,
    pub window: Window,
    pub queries: Vec<MetricQuery>,
}

impl MetricsPlan {
    pub fn new(table: &str, gsis: &[String], window: Window) -> MetricsPlan {
        let mut queries = Vec::new();
        let mut push = |target: &Target, metric, operation, stat| {
            queries.push(MetricQuery {
                id: format!("m{}", queries.len()),
                target: target.clone(),
                metric,
                operation,
                stat,
            });
        };
        let targets: Vec<Target> = std::iter::once(Target::Table)
            .chain(gsis.iter().cloned().map(Target::Index))
            .collect();
        for target in &targets {
            for (metric, stat) in CAPACITY_METRICS {
                push(target, metric, None, stat);
            }
            if matches!(target, Target::Index(_)) {
                push(target, "OnlineIndexPercentageProgress", None, Stat::Maximum);
            }
        }
        for op in OPERATIONS {
            push(&Target::Table, "ThrottledRequests", Some(op), Stat::Sum);
            push(
                &Target::Table,
                "SuccessfulRequestLatency",
                Some(op),
                Stat::Average,
            );
            push(
                &Target::Table,
                "SuccessfulRequestLatency",
                Some(op),
                Stat::Maximum,
            );
        }
        for op in ["Query", "Scan"] {
            push(&Target::Table, "ReturnedItemCount", Some(op), Stat::Sum);
        }
        MetricsPlan {
            table: table.to_string(),
            window,
            queries,
        }
    }

    /// The queries of each GetMetricData call: one call, or more past its 500-query limit.
    pub fn batches(&self) -> std::slice::Chunks<'_, MetricQuery> {
        self.queries.chunks(MAX_QUERIES_PER_CALL)
    }

    /// What one refresh costs: CloudWatch bills every metric requested.
    pub fn cost_usd(&self) -> f64 {
        self.queries.len() as f64 * USD_PER_METRIC
    }

    pub fn query(&self, id: &str) -> Option<&MetricQuery> {
        self.queries.iter().find(|q| q.id == id)
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
